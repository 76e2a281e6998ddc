"""Plays whole games at a private table (a DM or group DM the bot is not in) through fakediscord,
as the players would, checking every step.

Each person acts from their own hand, an ephemeral message opened with the table's *Your hand*
button and kept up to date by the bot through that interaction's token; when they have none
that still shows what they may do, or the table mentions them (their token lapsed), they press
*Your hand* on the table again. After each move the driver replays the bot's action log on its
own copy of the game (`Replay`), and every version of every message each player can see is
looked at for a card hidden from them (`LeakWatch`). Nothing may go through the bot's own token
in the conversation: `bot_token_requests` lists what did.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.core.base.text import plural
from engine.cards import Card
from engine.phase import Phase
from engine.rules import Rules
from engine.scoring import claim_values, score_hand
from fakediscord import Channel, FakeDiscord, Interaction, Message, User
from fakediscord.model import MessageVersion
from tests.helpers.bot_db import (
    Database,
    Snapshot,
    answering_apart,
    latest_game_id,
    logged_actions,
    owned_messages,
    read_game,
)
from tests.helpers.card_leaks import LeakWatch, hidden_from, revealed_by
from tests.helpers.private_hands import (
    live_hands,
    move_from_hand,
    move_prefix,
    newest_control,
    press_your_hand,
    within_reach,
)
from tests.helpers.replay import Replay
from tests.helpers.table_driver import seat_to_move, until

#: What a claim may name in the standard game.
CLAIM_VALUES = claim_values(Rules())

__all__ = ["Claim", "PrivateDriver", "bot_token_requests", "conversation", "uninvited_server"]


def bot_token_requests(fd: FakeDiscord, since: int = 0) -> list[str]:
    """The requests made with the bot's own token (not an interaction's callback or webhook)
    among ``fd.requests[since:]``, a process's sync of its commands aside (a start-up's, made
    whenever a process gets to it: nothing of any game)."""
    return [
        f"{r.route} -> {r.status}"
        for r in fd.requests[since:]
        if not r.template.startswith(("POST /interactions/", "PUT /applications/"))
        and "/webhooks/" not in r.template
    ]


def conversation(fd: FakeDiscord, *people: User) -> Channel:
    """A DM (two people) or group DM between ``people``, each of whom installed the app to
    their account: a place the bot is not a member of, reached through their installs."""
    for user in people:
        fd.install_app(user)
    return fd.private_channel(*people)


def uninvited_server(fd: FakeDiscord, *people: User) -> Channel:
    """A text channel of a new server that did not invite the bot, whose members are
    ``people``, each of whom installed the app to their account."""
    elsewhere = fd.add_guild("Elsewhere", bot_member=False)
    lounge = elsewhere.add_text_channel("lounge")
    for user in people:
        elsewhere.add_member(user)
        fd.install_app(user)
    return lounge


@dataclass(frozen=True)
class Claim:
    """A count claimed by ``seat`` for its hand (or the crib), what the hand was worth, and
    what the plan had it do (see :attr:`PrivateDriver.count_plan`)."""

    seat: int
    crib: bool
    points: int
    worth: int
    plan: str


@dataclass
class PrivateDriver:
    """Plays one game at a private table in ``channel`` for ``players`` (in seat order)."""

    fd: FakeDiscord
    channel: Channel
    players: list[User]
    database: Database
    rng: random.Random
    game_id: int = 0
    replay: Replay | None = None
    #: Every click on a hand (its answer must update that hand: type 7).
    clicks: list[Interaction] = field(default_factory=list)
    #: How often a player pressed Your hand (or typed `/cribbage hand`).
    opened: int = 0
    #: Whether every other hand is opened by typing `/cribbage hand` (the first, the third,
    #: ...) rather than by pressing Your hand: by count, not by chance, so both ways are taken
    #: whenever two hands are opened, however the game's timing draws on the driver's rng.
    alternate_hand_command: bool = False
    typed_hands: int = 0
    #: With manual counting, what the next claims do, in order (each hand after them is
    #: claimed right from the menus, and its claim let stand): ``over`` (a claim over the
    #: value, pegged back to it, the opponent pegging the points over), ``short`` (under the
    #: value; the opponent calls muggins), ``short-pass`` (under it; the opponent lets it
    #: stand), ``typed`` (right, by `/cribbage count`), ``wrong-call`` (right; the opponent
    #: calls muggins all the same). A short one waits for a hand worth a point.
    count_plan: list[str] = field(default_factory=list)
    #: Every claim made, in order, and every answer to one (``muggins`` or ``pass``).
    claims: list[Claim] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    #: At each version of a manual show: the seat counting a hand, and the seats that may
    #: answer the open claim.
    show_turns: dict[int, tuple[int | None, tuple[int, ...]]] = field(default_factory=dict)
    _watch: LeakWatch | None = None
    _turned_up: set[Card] = field(default_factory=set)

    # -- reading ------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """The game as saved now."""
        return read_game(self.database, self.game_id)

    def table(self) -> Message:
        """The table message the game keeps now (the answer to `/cribbage new`, or the copy
        posted again through a later interaction once no token reached the first)."""
        found = self.table_now()
        assert found is not None, "the table's id is kept"
        return found

    def table_now(self) -> Message | None:
        """The table message, once its id is kept (the answer's id is written a moment after
        it is known)."""
        row = owned_messages(self.database, self.game_id).get("lobby")
        return None if row is None else self.fd.world.messages.get(row.message_id)

    @property
    def cards_seen(self) -> int:
        """Card mentions the hidden-card check looked at."""
        return self._watch.cards_seen if self._watch is not None else 0

    # -- opening ------------------------------------------------------------------------------
    async def open(self, *, target: int = 61, options: str = "") -> Message:
        """`/cribbage new` by the first player (with ``options``, e.g. `counting:manual`), the
        others join on the table, the creator starts: every click answered by updating the
        table (type 7)."""
        creator = self.players[0]
        table = await self._new(f"players:{len(self.players)} target:{target} {options}")
        for user in self.players[1:]:
            click = await self.fd.click(user, table, f"crib:{self.game_id}:lobby:join")
            assert click.response is not None and click.response.type == 7, click
        start = await self.fd.click(creator, table, f"crib:{self.game_id}:lobby:start")
        assert start.response is not None and start.response.type == 7
        await self._begin(watchers=())
        return table

    async def open_against_computer(
        self, difficulty: str, *, target: int = 61, watchers: tuple[User, ...] = ()
    ) -> Message:
        """`/cribbage new vs_computer:True` by the first player (the only person seated):
        the game deals at once. ``watchers`` see the table and must see no hand."""
        table = await self._new(f"target:{target} vs_computer:True difficulty:{difficulty}")
        await self._begin(watchers=watchers, apart=True)
        return table

    async def _new(self, options: str) -> Message:
        """`/cribbage new` with ``options`` by the first player: the table, its public answer."""
        reply = await self.fd.slash(self.players[0], self.channel, f"/cribbage new {options}")
        table = reply.original
        assert table is not None and not reply.ephemeral, reply.words()
        self.game_id = latest_game_id(self.database, self.channel.id)
        return table

    async def _begin(self, *, watchers: tuple[User, ...], apart: bool = False) -> None:
        """Once the game is dealt: its replay (``apart``: a computer that thinks at length
        answers in a version of its own) and the watch over every message ``watchers`` and
        the players see."""
        snap = await until(self.fd, self._started)
        seats = set(range(len(self.players)))
        self.replay = Replay.begin(snap, logged_actions(self.database, self.game_id), seats)
        if apart:
            self.replay.later = answering_apart(self.database, self.game_id)
        self._watch = LeakWatch(
            self.fd,
            self.channel,
            [*self.players, *watchers],
            {user.id: seat for seat, user in enumerate(self.players)},
            self.replay.dealt_to,
            cut=revealed_by(self.replay.deals[0]),
            public=self._public_in,
        )
        self._check(snap)

    def _started(self) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.status == "active" and snap.game is not None else None

    # -- playing ------------------------------------------------------------------------------
    async def play_out(self, *, moves: int | None = None) -> Snapshot:
        """Play until the game is over (or ``moves`` moves were made); the game then."""
        made = 0
        while True:
            snap = self.snapshot()
            if snap.status != "active" or (moves is not None and made >= moves):
                return snap
            game = snap.game
            assert game is not None
            if game.state.phase is Phase.PLAY and (game.state.turn or 0) >= len(self.players):
                await self.left_alone(snap)  # the computer answers in a version of its own
                continue
            await self.move(snap)
            made += 1

    async def move(self, snap: Snapshot, seat: int | None = None) -> Interaction:
        """One move by someone the game waits on (``seat``, else one :func:`seat_to_move`
        draws), from their hand; the click."""
        game = snap.game
        assert game is not None
        if game.state.phase is Phase.SHOW:
            return await self._show(snap)
        if seat is None:
            seat = seat_to_move(game, self.rng)
        if seat is None:
            raise AssertionError(f"nobody to move in {game.state.phase}")
        return await self._move(snap, seat)

    async def _reach(self, user: User, snap: Snapshot, wanted: str) -> tuple[Message, str]:
        """``user``'s newest hand with a control whose custom id starts with ``wanted``, and
        that control: pressing *Your hand* first when the table mentions them or they have
        no hand open."""
        found = await self._until(
            user, snap, lambda: self._control(user, wanted) or self._to_open(user)
        )
        if found is True:
            await self._open_hand(user, snap)
            found = await self._until(user, snap, lambda: self._control(user, wanted))
        assert isinstance(found, tuple)
        return found

    async def _move(self, snap: Snapshot, seat: int) -> Interaction:
        game = snap.game
        assert game is not None
        user = self.players[seat]
        hand, custom_id = await self._reach(user, snap, move_prefix(snap, self.game_id))
        click = await move_from_hand(self.fd, user, hand, custom_id, game, seat, self.rng)
        return await self._made(snap, click)

    async def _made(self, snap: Snapshot, click: Interaction) -> Interaction:
        """A move's click, answered by updating the hand it was made on; once it is saved, the
        replay follows it and every message is looked at."""
        assert click.response is not None and click.response.type == 7, click.words()
        self.clicks.append(click)
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()
        return click

    # -- counting by hand (manual counting) ----------------------------------------------------
    async def _show(self, snap: Snapshot) -> Interaction:
        """The next step of a manual show: an open claim answered by an opponent (Muggins! on
        a short one, unless the plan lets it stand; No muggins on a right one), else the
        hand waiting to be counted claimed by its owner (see :attr:`count_plan`)."""
        game = snap.game
        assert game is not None
        window, turn = game.state.muggins_window, game.count_turn
        callers = [
            s
            for s in range(game.state.num_players)
            if window is not None and game.side_of(s) != window.side and s not in window.passed
        ]
        self.show_turns[snap.version] = (None if turn is None else turn.seat, tuple(callers))
        if window is not None:
            claim = self.claims[-1]
            short = claim.points < claim.worth
            call = (short and claim.plan != "short-pass") or claim.plan == "wrong-call"
            answer = await self._answer_claim(snap, callers[0], "muggins" if call else "pass")
            if call and short:
                await self._table_says(f"Muggins! {self.players[callers[0]].name} takes the ")
            elif call:
                # Called on a right claim: it costs the caller only the chance, said to them
                # alone beside the update of their hand.
                note = await until(
                    self.fd, lambda: next((m for m in answer.followups if m.ephemeral), None)
                )
                assert note.words().startswith("No muggins: that count was right"), note
            return answer
        assert turn is not None and game.state.starter is not None
        worth = score_hand(turn.cards, game.state.starter, crib=turn.crib).total
        plan = self.count_plan[0] if self.count_plan else "right"
        if plan.startswith("short") and worth == 0:
            plan = "right"  # (nothing to leave out: the plan waits for a hand worth points)
        if plan != "right":
            self.count_plan.pop(0)
        if plan == "over":
            # Made once, like any claim: the hand is settled, the opponent pegs the points over.
            points = next(v for v in CLAIM_VALUES if v > worth)
        else:
            points = self.rng.randrange(worth) if plan.startswith("short") else worth
        self.claims.append(Claim(turn.seat, turn.crib, points, worth, plan))
        typed = plan == "typed"
        made = await self._claim(snap, turn.seat, points, typed=typed)
        if typed:
            assert made.ephemeral and made.words() == f"You claimed {points}.", made.words()
            await until(self.fd, lambda: self._moved_on(snap))
            self._advance()
        else:
            await self._made(snap, made)
        await self._table_says(f"{self.players[turn.seat].name} claims {points} ")
        if plan == "over":
            taker = self.players[(turn.seat + 1) % game.state.num_players].name
            over = plural(points - worth, "point")
            await self._table_says(f"Too many! {taker} pegs the {over} ")
        return made

    async def _table_says(self, words: str) -> None:
        """Wait until the table says ``words`` (players take a moment over a show: the next
        move would otherwise come before the table's edit, and the two go out as one)."""
        await self.settled(lambda table: words in table.words())

    async def _claim(self, snap: Snapshot, seat: int, points: int, *, typed: bool) -> Interaction:
        """``seat`` claims ``points`` for the hand it counts: typed, or from the count menus
        of its hand (26 values in two menus); the interaction."""
        user = self.players[seat]
        if typed:
            return await self.fd.slash(user, self.channel, f"/cribbage count points:{points}")
        wanted = f"crib:{self.game_id}:count:{snap.version}:"
        hand, _ = await self._reach(user, snap, wanted)
        menus = [m for m in hand.selects() if str(m["custom_id"]).startswith(wanted)]
        assert [int(o["value"]) for m in menus for o in m["options"]] == list(CLAIM_VALUES)
        menu = next(m for m in menus if str(points) in [o["value"] for o in m["options"]])
        return await self.fd.select(user, hand, menu["custom_id"], [str(points)])

    async def _answer_claim(self, snap: Snapshot, seat: int, kind: str) -> Interaction:
        """``seat`` answers the open claim from its hand: ``muggins`` or ``pass``."""
        user = self.players[seat]
        hand, custom_id = await self._reach(user, snap, f"crib:{self.game_id}:{kind}:")
        assert custom_id == f"crib:{self.game_id}:{kind}:{snap.version}", custom_id
        self.answers.append(kind)
        return await self._made(snap, await self.fd.click(user, hand, custom_id))

    async def type_move(self, snap: Snapshot) -> Interaction:
        """One move typed as a slash command by someone the game waits on; its answer."""
        game = snap.game
        assert game is not None
        if game.state.phase is Phase.DISCARD:
            seat = self.rng.choice(game.pending_discards())
            count = len(game.hand(seat)) - 4
            cards = self.rng.sample(sorted(game.hand(seat), key=lambda c: c.index), count)
            line = "/cribbage discard cards:" + " ".join(c.code for c in cards)
        else:
            assert game.state.phase is Phase.PLAY and game.state.turn is not None
            seat = game.state.turn
            line = f"/cribbage play card:{self.rng.choice(game.playable_cards(seat)).code}"
        answer = await self.fd.slash(self.players[seat], self.channel, line)
        assert answer.ephemeral, answer.words()
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()
        return answer

    def _advance(self) -> None:
        """Replay what the bot logged since the last look (:meth:`Replay.catch_up`), and look
        at every message."""
        assert self.replay is not None
        self._check(self.replay.catch_up(self.database, self.game_id))

    async def left_alone(self, snap: Snapshot) -> Snapshot:
        """Nobody acts: once the game moves on by itself (a computer's answer, a count the
        clock makes), the replay follows it and every message is looked at; the game then."""
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()
        return self.snapshot()

    async def _until(self, user: User, snap: Snapshot, predicate: Callable[[], Any]) -> Any:
        try:
            return await until(self.fd, predicate)
        except TimeoutError as waited:
            hands = [
                [str(i.get("custom_id")) + ("(off)" if i.get("disabled") else "") for i in m.walk()]
                for m in self._hands_of(user)
            ]
            owned = owned_messages(self.database, self.game_id)
            table = self.table_now()  # (not kept is what may have gone wrong)
            raise AssertionError(
                f"{user.name} never got controls at version {snap.version}: their hands "
                f"{hands}; the table {'not kept' if table is None else table.words()!r}; "
                f"kept {owned}"
            ) from waited

    def _control(self, user: User, wanted: str) -> tuple[Message, str] | None:
        return newest_control(self._hands_of(user), wanted)

    def _hands_of(self, user: User) -> list[Message]:
        return live_hands(self.fd, user, self.channel, self.game_id)

    def _to_open(self, user: User) -> bool:
        """Whether ``user`` should press Your hand: the table mentions them, or no hand of
        theirs may still bring them their move: none is open, or none is within a token's
        reach. After a pause longer than a token lives, the bot can edit none of their hands,
        nor call them on a table that no token reaches (the only live one's follow-ups used
        up): an older copy of their hand, left behind when they opened another, may still
        show a control long stale, and is no reason to wait."""
        table = self.table_now()
        if table is None:
            return False
        reached = [hand for hand in self._hands_of(user) if within_reach(self.fd, hand)]
        return f"<@{user.id}>" in table.words() or not reached

    async def _open_hand(self, user: User, snap: Snapshot) -> None:
        self.opened += 1
        if self.alternate_hand_command and self.opened % 2 == 1:
            typed = await self.fd.slash(user, self.channel, "/cribbage hand")
            assert typed.ephemeral and typed.original is not None, typed.words()
            assert typed.original.ephemeral_for is user
            self.typed_hands += 1
            return
        await press_your_hand(self.fd, user, self.game_id, self.table_now)

    def _moved_on(self, snap: Snapshot) -> Snapshot | None:
        now = self.snapshot()
        return now if now.version > snap.version else None

    # -- checking -----------------------------------------------------------------------------
    def check_now(self) -> None:
        """Look at every version shown since the last look (the end of the game)."""
        self._check(self.snapshot())

    def _check(self, snap: Snapshot) -> None:
        game = snap.game
        assert game is not None and self._watch is not None
        if game.count_turn is not None:
            # At a manual show the hand to count is face up, the crib too once its turn comes.
            self._turned_up |= set(game.count_turn.cards)
        self._watch.check(lambda seat: hidden_from(game, seat))

    def check_mentions(self) -> int:
        """The table never called a player to press *Your hand* while a hand of theirs with
        their controls was in front of them: no version of the table mentions someone whose
        hand (an ephemeral message of theirs with this game's live controls) showed those
        controls when that version was made (issue 46: drawn from what the bot believed
        while the hand's own send was on its way). For a game in which no token lapses (a
        token past its life makes a hand unreachable, and its player is rightly called). How
        many versions of the table mentioned someone."""
        table = self.table_now()
        assert table is not None
        prefix = f"crib:{self.game_id}:"
        mentioned = 0
        for version in [*table.history, table.version()]:
            words = version.words()
            if "press **Your hand**" not in words:
                continue
            mentioned += 1
            # (When the bot sent it: a slow network may hold it on its way while a hand
            # the bot sent after it shows.)
            made = datetime.fromisoformat(version.requested or version.at)
            for user in self.players:
                if f"<@{user.id}>" not in words:
                    continue
                for hand in self._hands_of(user):
                    shown = _shown_at(hand, made)
                    if shown is None:
                        continue
                    live = [
                        str(i.get("custom_id"))
                        for i in _walk(shown.components)
                        if str(i.get("custom_id", "")).startswith(prefix) and not i.get("disabled")
                    ]
                    assert not live, (
                        f"the table called {user.name} to press Your hand at {version.at},"
                        f" while their hand {hand.id} showed {live} (since {shown.at})"
                    )
        return mentioned

    def check_count_controls(self) -> int:
        """Every enabled count menu, Muggins! and No muggins button ever shown (in any version
        of any message here) was on an ephemeral message of the one it was for, at the
        version its custom id names: the player counting, or an opponent of the open claim.
        How many were seen."""
        seen = 0
        for message in self.fd.messages(self.channel):
            for version in [*message.history, message.version()]:
                for item in _walk(version.components):
                    parts = str(item.get("custom_id", "")).split(":")
                    if parts[:2] != ["crib", str(self.game_id)] or item.get("disabled"):
                        continue
                    if parts[2] not in ("count", "muggins", "pass"):
                        continue
                    reader = message.ephemeral_for
                    assert reader is not None, f"{parts} on a message everyone sees"
                    counting, callers = self.show_turns[int(parts[3])]
                    meant = (counting,) if parts[2] == "count" else callers
                    assert self.players.index(reader) in meant, (parts, reader.name, meant)
                    seen += 1
        return seen

    def _public_in(self, message: Message) -> set[Card]:
        """What a message may name whoever holds the cards now: what any deal so far made
        public (the table shows the deal before's show while the crib is made, and a hand is
        carried from deal to deal, naming the starter and the count's cards; a manual show
        turns each hand up when its count comes), and, for a hand, the cards its reader was
        dealt in any deal."""
        assert self.replay is not None
        shown = set().union(*(revealed_by(events) for events in self.replay.deals.values()))
        shown |= self._turned_up
        if message.ephemeral_for is None:
            return shown
        seat = next((s for s, u in enumerate(self.players) if u is message.ephemeral_for), None)
        if seat is None:
            return set()
        return shown.union(*(self.replay.dealt_to(seat, d) for d in self.replay.deals))

    async def settled(self, predicate: Any = None) -> Message:
        """The table once it shows the game as saved (its result with its Review and Rematch
        buttons, once the game is over)."""

        def shown() -> Message | None:
            table = self.table_now()
            if table is None:
                return None
            snap = self.snapshot()
            if snap.status == "finished":
                # The result, with no control left but its Review and Rematch buttons.
                reviews = [b for b in table.buttons() if _of_result(b)]
                done = "game point" in table.words() and reviews == list(table.buttons())
                return table if done else None
            return table if predicate is None or predicate(table) else None

        return await until(self.fd, shown)


def _shown_at(message: Message, moment: datetime) -> MessageVersion | None:
    """The version of ``message`` Discord showed at ``moment`` (None: not posted yet)."""
    shown = None
    for version in [*message.history, message.version()]:
        if datetime.fromisoformat(version.at) > moment:
            break
        shown = version
    return shown


def _of_result(button: dict[str, Any]) -> bool:
    """Whether ``button`` is a result's: Review, or Rematch (Play again)."""
    custom_id = str(button.get("custom_id", ""))
    return custom_id.startswith("crib:review:") or custom_id.endswith(":rematch")


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in ``components``, nested ones included."""
    found: list[dict[str, Any]] = []
    for node in components:
        found.append(node)
        accessory = node.get("accessory")
        found += _walk([*node.get("components", []), *([accessory] if accessory else [])])
    return found
