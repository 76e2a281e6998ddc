"""Plays whole games through fakediscord as the players would, checking everything on the way.

`TableDriver` acts for every person at one game (the computer's seats answer by themselves),
from the controls of their hand message by DM (or the private `/cribbage hand` reply when their
DMs are closed, or sometimes the slash commands), and after each step checks:

- the database moved by exactly one version: the person's action, then one action per move
  the computer made in answer, and nobody else's; the driver replays those actions on its own
  copy of the game (`Replay`) and the bot's stored deal log must hold the same events;
- a click on a hand message was answered by updating that message (type 7) to exactly what the
  player may do now;
- every version of every message the game keeps (the deal's table, the result, each person's
  hand message) is what the replayed game looked like at some version, never an older one
  than the message showed before: the bot may trail the game (its edits are coalesced and
  paced) but never shows what was not so. At the end of the game, and at random deal ends and
  steps (`deal_settle_rate`, `settle_rate`), the driver waits until the bot has caught up
  completely: every table message then reads line by line what the engine's events say
  (`check_calls`, independent of the renderer) and exactly what the renderer draws from them,
  with the board picture once the deal is shown; every person's hand message shows exactly
  their cards and controls, those of the deals before are closed, and no other DM of theirs
  has a live control;
- no version of any message a player or a spectator can see (attachments' descriptions too)
  shows a card hidden from them.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.core.base.text import escape
from engine.events import Event
from engine.game import Game
from engine.phase import Phase
from fakediscord import Channel, FakeDiscord, Guild, Interaction, Message, User
from fakediscord.interactions import STALL
from fakediscord.shards import IDENTIFY_PERIOD
from fakediscord.testing import BotProcess
from tests.helpers import bot_db
from tests.helpers.bot_db import (
    Database,
    OwnedMessage,
    Snapshot,
    latest_game_id,
    logged_actions,
    rows,
)
from tests.helpers.card_leaks import LeakWatch, revealed_by
from tests.helpers.expected_views import (
    Rendering,
    closed_hand,
    current_hand,
    ending_of,
    last_coach,
)
from tests.helpers.replay import Replay
from tests.helpers.table_checks import (
    CATCH_UP,
    ShownVersions,
    TableChecks,
    until,
)

__all__ = [
    "AWAY_NOTICE",
    "CATCH_UP",
    "DM_NOTICE",
    "NAMES",
    "STALL",
    "OpenedForTwo",
    "TableDriver",
    "World",
    "refused_dms",
    "seat_to_move",
    "start_again",
    "until",
]

NAMES = ("Al", "Bea", "Cy", "Di")
#: What the channel says when a player's DMs are closed (followed by the /cribbage hand hint).
DM_NOTICE = "I can't send you direct messages"
#: What the channel says to a player with closed DMs who keeps the table waiting.
AWAY_NOTICE = "the table is waiting for you"


def refused_dms(fd: FakeDiscord) -> int:
    """The bot's DMs Discord refused because the user does not take them (403 / 50007)."""
    return sum(1 for r in fd.requests if r.status == 403 and r.code == 50007)


async def start_again(fd: FakeDiscord, bot: BotProcess) -> None:
    """Start a stopped or killed bot process again, as a host would a few seconds later: the
    emulator's clock first moves past Discord's one IDENTIFY per 5 s, so the new session is not
    held back (the players' interactions are all answered or lost by then)."""
    fd.clock.advance(IDENTIFY_PERIOD)
    await bot.start()


async def resign(fd: FakeDiscord, user: User, channel: Channel) -> Interaction:
    """``/cribbage resign`` as ``user``, then Yes on the question it asks (privately): the
    click, whose answer is the question's message saying "You resigned."."""
    asked = await fd.slash(user, channel, "/cribbage resign")
    assert asked.ephemeral and asked.original is not None, asked.content
    assert "Resign this game" in asked.content and "can't be taken back" in asked.content
    return await fd.click(user, asked.original, label="Yes, resign")


async def confirmed(fd: FakeDiscord, user: User, channel: Channel, line: str) -> Interaction:
    """``line`` (``/cribbage cancel`` of a dealt game, ``/cribbage tournament withdraw`` or
    ``cancel``) as ``user``, then Yes on the question it asks privately (issue 37): the click,
    whose answer is the question's message saying what was done."""
    asked = await fd.slash(user, channel, line)
    assert asked.ephemeral and asked.original is not None, asked.content
    assert "can't be taken back" in asked.content, asked.content
    yes = next(b["label"] for b in asked.original.buttons() if b["label"].startswith("Yes"))
    return await fd.click(user, asked.original, label=yes)


def hand_of(fd: FakeDiscord, user: User) -> Message | None:
    """The user's newest hand message with its crib select, if it has come."""
    found = [m for m in fd.dms(user) if list(m.selects())]
    return found[-1] if found else None


async def dealt(fd: FakeDiscord, channel: Channel, al: User, bea: User) -> None:
    """A game between ``al`` and ``bea`` in ``channel``, dealt: each holds a hand with its crib
    select (:func:`hand_of`)."""
    opened = await fd.slash(al, channel, "/cribbage new")
    assert opened.original is not None
    await fd.click(bea, opened.original, label="Join")
    await fd.slash(al, channel, "/cribbage start")
    await until(fd, lambda: all(hand_of(fd, user) is not None for user in (al, bea)))


def seat_to_move(game: Game, rng: random.Random) -> int | None:
    """Who acts next: in the discard one of those still to discard (drawn by ``rng``), in the
    play whoever's turn it is; None in any other phase."""
    if game.state.phase is Phase.DISCARD:
        return rng.choice(game.pending_discards())
    if game.state.phase is Phase.PLAY and game.state.turn is not None:
        return game.state.turn
    return None


def _game_in(database: Database, channel_id: int) -> int | None:
    """The newest game opened in a channel, once there is one."""
    [(newest,)] = rows(database, "SELECT MAX(id) FROM games WHERE channel_id = ?", (channel_id,))
    return None if newest is None else int(newest)


def after_action(game: Game, action: dict[str, Any]) -> Game:
    """A copy of ``game`` with the logged ``action`` applied (``game`` itself unchanged)."""
    copied = Game.from_dict(game.to_dict(), rng=random.Random(0))
    copied.apply(action)
    return copied


@dataclass
class World:
    """The server the end-to-end tests play in (built by the `world` fixture)."""

    fd: FakeDiscord
    guild: Guild
    general: Channel
    players: list[User]
    spectator: User
    moderator: User
    database: Database

    def driver(
        self,
        players: list[User],
        rng: random.Random | int,
        *,
        channel: Channel | None = None,
        **options: Any,
    ) -> TableDriver:
        """A driver of one game for ``players`` in ``channel`` (the general channel unless
        told), its choices from ``rng`` (or a seed); ``options`` as :class:`TableDriver`'s."""
        chooser = rng if isinstance(rng, random.Random) else random.Random(rng)
        place = self.general if channel is None else channel
        return TableDriver(self.fd, place, players, self.database, chooser, **options)

    async def open_for_two(
        self, rng: random.Random | int, *, target: int, thread: str | None = None, **options: Any
    ) -> OpenedForTwo:
        """The common opening of an end-to-end game: Al and Bea (the first two players) at a
        game opened and started by a :meth:`driver` (:meth:`TableDriver.open`), in #general or
        in a new thread of it named ``thread``; ``options`` as :class:`TableDriver`'s."""
        channel = None if thread is None else self.general.add_thread(thread)
        al, bea = self.players[:2]
        driver = self.driver([al, bea], rng, channel=channel, **options)
        await driver.open(target=target)
        return OpenedForTwo(self.fd, (al, bea), driver)


class OpenedForTwo(NamedTuple):
    """What :meth:`World.open_for_two` opened: the emulator, the two players in seat order,
    and the driver of their game (whose ``channel`` is where it is played)."""

    fd: FakeDiscord
    players: tuple[User, User]
    driver: TableDriver


@dataclass
class TableDriver(TableChecks):
    """Plays one game in `channel` for `players` (the people, in seat order; against the
    computer the people take the first seats), checking each step."""

    fd: FakeDiscord
    channel: Channel
    players: list[User]
    database: Database
    rng: random.Random
    spectators: list[User] = field(default_factory=list)
    #: How often a seat types the slash command instead of using the controls.
    command_rate: float = 0.25
    #: Users whose DMs are closed: they get their controls from `/cribbage hand`.
    dm_closed: set[int] = field(default_factory=set)
    #: Players who move through the `/cribbage hand` reply although their DMs are open (the
    #: bot still keeps their hand messages by DM up to date).
    by_hand_command: set[int] = field(default_factory=set)
    #: Users who turned the coach off (no coach's line on their hand messages).
    coach_off: set[int] = field(default_factory=set)
    #: The Activity is on: the live deal's table offers *Play at the table*.
    launch: bool = False
    #: How often the end of a deal, and any other step, waits for the bot to catch up
    #: completely (the end of the game always does). Tables often trail: after five quick edits
    #: discord.py holds the channel's next message until its rate limit window ends.
    deal_settle_rate: float = 0.25
    settle_rate: float = 0.05
    #: The most seconds one wait for the bot to catch up lasts while it keeps working (it
    #: ends sooner when the bot stops: see STALL).
    catch_up: float = CATCH_UP
    game_id: int = 0
    steps: int = 0
    #: The person at each seat; a seat missing here is the computer's.
    seats: dict[int, User] = field(default_factory=dict)
    #: Every click and select made on a hand message, as answered.
    clicks: list[Interaction] = field(default_factory=list)
    #: How many actions were made by slash command instead.
    commands: int = 0
    #: Per deal: the messages the bot created while it was the deal being played, as (where,
    #: message id): where is "channel" for the channel's, a user id for that person's DMs.
    created: dict[int, list[tuple[int | str, int]]] = field(default_factory=dict)
    replay: Replay | None = None
    _watch: LeakWatch | None = None
    #: Per message key: what it must show, state after state of the game.
    _states: dict[str, list[Rendering]] = field(default_factory=dict)
    _shown: dict[int, ShownVersions] = field(default_factory=dict)
    _counted: set[int] = field(default_factory=set)
    #: Whether the bot's messages are drawn in this release's words. False while a process
    #: of another release sends (an upgrade, one process at a time): the driver still
    #: checks every message's controls, cards and board, and plays through them, but not
    #: their words, which are that release's; the versions it draws are taken as seen; nor,
    #: then or later, that a private copy of a hand made meanwhile loses a used control at
    #: once (a release before this one kept its copies in its memory alone).
    release_words: bool = True
    #: The private answers in the channel made while another release sent (see
    #: `release_words`): copies of a hand that release may not have written down.
    _copies_of_another_release: set[int] = field(default_factory=set)
    #: Deals whose final table was read line by line.
    _called: set[int] = field(default_factory=set)
    #: The game before what `sync` replayed, and the events it replayed, until checked.
    _unseen: tuple[Game, list[Event]] | None = None
    #: Answers the game keeps no record of (a command's) that speak of one deal, by message id.
    _about: dict[int, int] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The game as saved now."""
        return bot_db.read_game(self.database, self.game_id)

    def owned(self) -> dict[str, OwnedMessage]:
        """The messages the game keeps, by key."""
        return bot_db.owned_messages(self.database, self.game_id)

    def message(self, key: str, owned: dict[str, OwnedMessage] | None = None) -> Message | None:
        """The Discord message the game keeps under `key`, if it is there."""
        row = (owned if owned is not None else self.owned()).get(key)
        if row is None:
            return None
        found = self.fd.world.messages.get(row.message_id)
        return None if found is None or found.deleted else found

    def table_messages(self) -> list[Message]:
        """The public messages of the channel (no ephemerals, no notices to players), in order."""
        return [
            m
            for m in self.fd.messages(self.channel)
            if not m.ephemeral
            and not m.deleted
            and DM_NOTICE not in m.words()
            and AWAY_NOTICE not in m.words()
        ]

    def dm_notices(self) -> list[Message]:
        """The channel lines telling a player their DMs are closed."""
        return [m for m in self.fd.messages(self.channel) if DM_NOTICE in m.words()]

    def table_text(self, deal: int) -> str:
        """What the table message of `deal` says now (its show too: one message a deal)."""
        message = self.message(f"table:{deal}")
        return "" if message is None else message.words()

    @property
    def cards_seen(self) -> int:
        """Card mentions the hidden-card check looked at (so a test can see it was not vacuous)."""
        return self._watch.cards_seen if self._watch is not None else 0

    @property
    def actions_done(self) -> int:
        """Logged actions whose events the driver replayed and checked."""
        return self.replay.actions if self.replay is not None else 0

    def coach(self, deal: int, seat: int) -> str | None:
        """The coach's line the person at `seat` gets about `deal`'s discard, if any."""
        if self.replay is None:
            return None
        return self.coach_lines().get((deal, seat))

    # -- opening ------------------------------------------------------------------------------

    async def open(self, *, target: int = 121) -> Message:
        """`/cribbage new`, everyone joins by the lobby button, the creator starts."""
        creator = self.players[0]
        line = f"/cribbage new players:{len(self.players)} target:{target}"
        reply = await self.fd.slash(creator, self.channel, line)
        lobby = reply.original
        assert lobby is not None and not reply.ephemeral, "the lobby is the public answer"
        self.game_id = latest_game_id(self.database, self.channel.id)
        for user in self.players[1:]:
            click = await self.fd.click(user, lobby, f"crib:{self.game_id}:lobby:join")
            assert click.response is not None and click.response.type == 7, click
            assert escape(user.name) in lobby.content
        start = await self.fd.click(creator, lobby, f"crib:{self.game_id}:lobby:start")
        assert start.response is not None and start.response.type == 7
        assert not lobby.components, "a started game's lobby has no controls left"
        snap = await until(self.fd, self._started)
        await self._begin(snap)
        return lobby

    async def open_against_computer(
        self,
        difficulty: str = "hard",
        *,
        target: int | None = 121,
        variant: str | None = None,
        players: int | None = None,
        title: str = "",
    ) -> Snapshot:
        """`/cribbage new vs_computer:True`: the computer takes the other seats and, since it
        throws its cards with the deal, only the people are owed a discard. ``variant`` (a
        ``/cribbage new variant:`` value, its lobby naming it by ``title``) seats ``players``
        (None: one more than the people; left out of the command for a variant) to
        ``target`` (None: left out, the variant's own)."""
        creator = self.players[0]
        line = "/cribbage new vs_computer:True"
        if variant is not None:
            line += f" variant:{variant}"
        if players is not None or variant is None:
            line += f" players:{players or len(self.players) + 1}"
        if target is not None:
            line += f" target:{target}"
        reply = await self.fd.slash(creator, self.channel, f"{line} difficulty:{difficulty}")
        lobby = reply.original
        assert lobby is not None and not reply.ephemeral, reply
        # A variant's lobby names it, and its players (the variant's own unless asked).
        seated = "" if title and players is None else f"{players or len(self.players) + 1} players"
        kind = f"{title}, " if title else ""
        assert lobby.content.startswith(f"**Cribbage** — {kind}{seated}"), lobby.content
        assert not lobby.components, "a game against the computer deals at once"
        self.game_id = latest_game_id(self.database, self.channel.id)
        snap = self.snapshot()
        assert snap.status == "active" and snap.game is not None
        game = snap.game
        # The people dealt a card or more for the crib (not one dealt short: five and six
        # players); with none of them owing one, the play has begun.
        throwing = tuple(s for s in range(len(self.players)) if game.view(s).discard_count)
        assert game.pending_discards() == throwing
        assert logged_actions(self.database, self.game_id) == snap.game.actions
        await self._begin(snap)
        return snap

    async def take_seats(self) -> Snapshot:
        """Play the game someone else opened in the channel, seated and dealt (a tournament's
        director opens each pairing's so): its people, in seat order, are the driver's players
        (the ones given, put in their seats)."""
        self.game_id = await until(self.fd, lambda: _game_in(self.database, self.channel.id))
        snap = await until(self.fd, self._started)
        seated = rows(
            self.database,
            "SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat",
            (self.game_id,),
        )
        by_id = {user.id: user for user in self.players}
        self.players = [by_id[int(user_id)] for _, user_id in seated]
        await self._begin(snap)
        return snap

    def _started(self) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.status == "active" and snap.game is not None else None

    async def _begin(self, snap: Snapshot) -> None:
        self.seats = dict(enumerate(self.players))
        actions = logged_actions(self.database, self.game_id)
        self.replay = Replay.begin(snap, actions, set(self.seats))
        self.replay.later = bot_db.answering_apart(self.database, self.game_id)
        seat_of = {user.id: seat for seat, user in self.seats.items()}
        self._watch = LeakWatch(
            self.fd,
            self.channel,
            [*self.players, *self.spectators],
            seat_of,
            self.replay.dealt_to,
            cut=revealed_by(self.replay.deals[0]),
            public=self._public_in,
            made_public=self._made_public,
        )
        self._expect(snap.version)
        await self.settle(snap)
        assert snap.game is not None
        self._check_leaks(snap.game, snap.game, set())
        self._count_created(snap.game.state.deal_number)

    # -- one step -----------------------------------------------------------------------------

    async def play_out(self, max_steps: int = 3000, stop_after: int | None = None) -> Snapshot:
        """Act until the game is over (or `stop_after` steps); return the final snapshot."""
        for _ in range(max_steps):
            snap = self.snapshot()
            if snap.status != "active" or (stop_after is not None and self.steps >= stop_after):
                return snap
            await self.step(snap)
        raise AssertionError("the game did not finish")

    async def play_deal(self) -> Snapshot:
        """Act until the deal being played is over (or the game); the snapshot then."""
        snap = self.snapshot()
        assert snap.game is not None
        deal = snap.game.state.deal_number
        while (
            snap.status == "active"
            and snap.game is not None
            and snap.game.state.deal_number == deal
        ):
            snap = await self.step(snap)
        return snap

    def actor(self, snap: Snapshot) -> int:
        """The seat that acts next (a random one of those owing a discard)."""
        game = snap.game
        assert game is not None
        if game.state.phase is Phase.DISCARD:
            owed = game.pending_discards()
            assert set(owed) <= set(self.seats), "the computer never keeps the table waiting"
            return self.rng.choice(owed)
        assert game.state.phase is Phase.PLAY and game.state.turn is not None
        assert game.state.turn in self.seats, "the computer never keeps the table waiting"
        return game.state.turn

    async def next_move(self, snap: Snapshot) -> tuple[int, Message, dict[str, Any]]:
        """The seat that acts next, the message with its controls and the move it chooses."""
        seat = self.actor(snap)
        prompt = await self.prompt(snap, seat)
        return seat, prompt, self.choose(snap, seat)

    async def step(self, snap: Snapshot) -> Snapshot:
        """One action by whoever has to act, with every check; the game after it."""
        seat, prompt, action = await self.next_move(snap)
        click = await self.act(snap, seat, action, prompt)
        after = await self.after(snap, action, click)
        self.steps += 1
        return after

    def choose(self, snap: Snapshot, seat: int) -> dict[str, Any]:
        """A random legal action for `seat`, as the action log writes it."""
        game = snap.game
        assert game is not None
        if game.state.phase is Phase.DISCARD:
            chosen = self.rng.sample(list(game.hand(seat)), game.view(seat).discard_count)
            return {"type": "discard", "seat": seat, "cards": [c.code for c in chosen]}
        playable = sorted(game.playable_cards(seat), key=lambda c: c.index)
        return {"type": "play", "seat": seat, "card": self.rng.choice(playable).code}

    def hand_now(self, snap: Snapshot, seat: int) -> Rendering:
        """What `seat`'s hand message must show in `snap`."""
        game = snap.game
        assert game is not None and self.replay is not None
        deal = game.state.deal_number
        if game.state.phase is Phase.OVER:
            return self._last_hand(game, seat)
        coach = self.coach(deal - 1, seat)
        return current_hand(
            game, seat, self.game_id, snap.version, self.channel.id, coach, hint=self.hints()
        )

    async def prompt(self, snap: Snapshot, seat: int) -> Message:
        """The message with `seat`'s controls: their hand message by DM, once it shows exactly
        what they may do now (or the `/cribbage hand` reply when their DMs are closed)."""
        user = self.seats[seat]
        want = self.hand_now(snap, seat)
        if user.id in self.dm_closed or user.id in self.by_hand_command:
            reply = await self.fd.slash(user, self.channel, "/cribbage hand")
            assert reply.ephemeral and reply.original is not None, reply
            copy = reply.original
            # Its controls come with the bot's first edit of it, once it is written down.
            return await self._shows(f"/cribbage hand for {user.name}", want, lambda: copy)
        assert snap.game is not None
        return await self._shows(f"hand:{snap.game.state.deal_number}:{seat}", want)

    async def act(
        self, snap: Snapshot, seat: int, action: dict[str, Any], prompt: Message
    ) -> Interaction | None:
        """Do `action` with `prompt`'s controls (or, now and then, by slash command); the click
        when it was one."""
        user = self.seats[seat]
        game = snap.game
        assert game is not None
        if self.rng.random() < self.command_rate:
            if action["type"] == "discard":
                line = f"/cribbage discard cards:{' '.join(action['cards'])}"
            else:
                line = f"/cribbage play card:{action['card']}"
            reply = await self.fd.slash(user, self.channel, line)
            assert reply.ephemeral and reply.words().startswith("You "), reply.words()
            self.commands += 1
            return None
        if action["type"] == "discard":
            select_id = f"crib:{self.game_id}:discard:{game.state.deal_number}"
            click = await self.fd.select(user, prompt, select_id, action["cards"])
        else:
            button = f"crib:{self.game_id}:play:{snap.version}:{action['card']}"
            click = await self.fd.click(user, prompt, button)
        self.clicks.append(click)
        return click

    async def send(
        self, snap: Snapshot, seat: int, action: dict[str, Any], prompt: Message
    ) -> Interaction:
        """Send `action` (a click on `prompt`, or now and then the slash command, as
        `command_rate` says) and return at once, without waiting for the bot or checking."""
        user = self.seats[seat]
        if self.rng.random() < self.command_rate:
            if action["type"] == "discard":
                line = f"/cribbage discard cards:{' '.join(action['cards'])}"
            else:
                line = f"/cribbage play card:{action['card']}"
            return await self.fd.slash(user, self.channel, line, wait=False)
        assert snap.game is not None
        if action["type"] == "discard":
            select_id = f"crib:{self.game_id}:discard:{snap.game.state.deal_number}"
            return await self.fd.select(user, prompt, select_id, action["cards"], wait=False)
        button = f"crib:{self.game_id}:play:{snap.version}:{action['card']}"
        return await self.fd.click(user, prompt, button, wait=False)

    # -- checks after a step ------------------------------------------------------------------

    async def after(
        self, before: Snapshot, action: dict[str, Any], click: Interaction | None
    ) -> Snapshot:
        """Check one person's `action` (made by `click`, or by slash command) and the
        computer's answers: the log, the click's answer, the messages, the hidden cards."""
        assert before.game is not None and self.replay is not None
        moved: Snapshot = await until(self.fd, lambda: self._moved(before))
        # One call, one version: the person's move and every computer answer saved together,
        # but for a computer that thinks at length (expert), whose answer is saved once the
        # click is answered, as a version of its own.
        assert moved.version in (before.version + 1, before.version + 2), moved.version
        answered = self._as_answered(before, action, moved)
        if self.computer_owes(answered):
            if moved.version == answered.version:
                moved = await until(self.fd, lambda: self._moved(answered))
            assert moved.version == answered.version + 1, (moved.version, answered.version)
        else:
            assert moved is answered, "an answer left owed with none to make"
        new = logged_actions(self.database, self.game_id)[before.actions :]
        assert new and new[0] == action, (new[:1], action)
        assert all(a["seat"] not in self.seats for a in new[1:]), "only the computer answers"
        events = self._advance(moved, new)
        assert moved.game is not None
        answer = self._answer_of(before.game, answered, action["seat"])
        await self._no_control_for(before, action)
        if click is not None:
            assert click.response is not None and click.response.type == 7, click
            # What the answer itself said (the message may have been edited since: the
            # computer's later answer), with the message's attachments (a hand has none).
            assert click.original is not None
            data = click.response.data
            problem = answer.mismatch_in(
                data.get("content", click.original.content),
                data.get("components", click.original.components),
                click.original.attachments,
                words=self.release_words,
            )
            assert problem is None, f"the click's answer: {problem}"
        elif self.seats[action["seat"]].id not in self.dm_closed:
            # Played by slash command: the hand message by DM loses its controls all the same.
            key = f"hand:{before.game.state.deal_number}:{action['seat']}"
            await self._shows(key, answer)
        dealt = moved.game.state.deal_number != before.game.state.deal_number
        chance = self.deal_settle_rate if dealt else self.settle_rate
        # The bot keeps a finished deal's table up to date for two more deals (see
        # bot.core.games.deal_log): the driver, far quicker than people, waits before going further.
        unread = (
            dealt
            and moved.game.state.deal_number - 2 >= 1
            and (moved.game.state.deal_number - 2 not in self._called)
        )
        if moved.status != "active" or unread or self.rng.random() < chance:
            await self.settle(moved)
        else:
            self._check_versions()
        self._check_leaks(before.game, moved.game, revealed_by(events))
        self._count_created(moved.game.state.deal_number)
        return moved

    def _as_answered(self, before: Snapshot, action: dict[str, Any], moved: Snapshot) -> Snapshot:
        """The game as the click's answer shows it: ``moved`` when it is the next version,
        else (the computer's answer already saved) ``before`` with the person's action."""
        if moved.version == before.version + 1:
            return moved
        assert before.game is not None
        return dataclasses.replace(
            moved,
            version=before.version + 1,
            game=after_action(before.game, action),
            actions=before.actions + 1,
        )

    def computer_owes(self, snap: Snapshot) -> bool:
        """Whether a computer seat that answers apart must play in ``snap`` (its answer still
        to be saved; any other computer seat answers with the move)."""
        game, replay = snap.game, self.replay
        return (
            game is not None
            and replay is not None
            and game.state.phase is Phase.PLAY
            and game.state.turn in replay.later
        )

    def _moved(self, before: Snapshot) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.version > before.version else None

    def _answer_of(self, before: Game, after: Snapshot, seat: int) -> Rendering:
        """What the hand message clicked by `seat` must show after the move: the hand now, or
        closed when the move ended its deal."""
        assert after.game is not None and self.replay is not None
        deal = before.state.deal_number
        if after.game.state.phase is Phase.OVER and after.game.state.deal_number == deal:
            return self._last_hand(after.game, seat)
        if after.game.state.deal_number != deal:
            return closed_hand(self.channel.id, deal, self.replay.kept(deal, seat))
        return self.hand_now(after, seat)

    def _last_hand(self, game: Game, seat: int) -> Rendering:
        """A finished game's last hand message: closed, with how the game ended, the last
        coach's line and the rematch its result offers."""
        assert self.replay is not None
        deal = game.state.deal_number
        # (Whether the deal was shown, not whether this seat has a line on it: a seat dealt
        # short has none, and then no line at all, as the bot says it.)
        shown = deal in self.replay.shown
        lines = {
            (about, seat): line
            for about in (deal, deal - 1)
            if (line := self.coach(about, seat)) is not None
        }
        return closed_hand(
            self.channel.id,
            deal,
            self.replay.kept(deal, seat),
            last_coach(lines, deal, seat, shown=shown),
            ending_of(game, self.replay.resigned),
            None if (again := self._again()) is None else (self.game_id, again),
        )

    def _advance(self, snap: Snapshot, new: list[dict[str, Any]]) -> list[Event]:
        """Replay the `new` logged actions (which took the game to `snap`) and note what every
        message must show now."""
        assert self.replay is not None
        return self.replay.advance(snap, new, self._expect)

    def resync(self) -> Snapshot:
        """Take what happened outside the driver (a test acting by hand) as done: replay and
        check its events, and take every message shown so far as looked at for hidden cards
        (the test checked those itself: its answers may echo the cards their typist wrote)."""
        snap = self.sync()
        self._unseen = None
        assert self._watch is not None
        self._watch.mark_all()
        return snap

    def sync(self) -> Snapshot:
        """Replay whatever the stored game did that the driver did not see (a test acted by
        hand, the bot was killed around a move); the game as stored."""
        assert self.replay is not None
        if self._unseen is None:
            self._unseen = (self.replay.game, [])
        snap = self.snapshot()
        new = logged_actions(self.database, self.game_id)[self.actions_done :]
        self._unseen[1].extend(self._advance(snap, new))
        return snap
