"""Plays whole games through fakediscord as the players would, checking everything on the way.

`TableDriver` acts for every person at one game (the computer's seats answer by themselves): it
reads the game's state from the bot's database (the engine snapshot the bot saved), finds the
prompt the acting player was sent (a DM, or the ephemeral `/cribbage hand` reply when their DMs
are closed), checks its cards against the engine card by card, acts (select or button, sometimes
the slash command instead), and then checks:

- the database moved by exactly one version: the person's action, then one action per move the
  computer made in answer, and nobody else's;
- the channel got exactly the lines the engine's events of those actions call for, in order, and
  each line says what the engine says (the card, the count, the show said aloud, the result);
- no message created or edited during the step, seen by anyone (players and spectators), shows a
  card that was hidden from them and not revealed by the step itself;
- with `coach` on, each person the game owes a coach's line gets it by DM after a show.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from bot.core.render.calls import CalledStep, call_steps
from bot.core.render.text import escape
from bot.core.snapshot import decode
from engine.cards import Card, cards_str
from engine.coach import review_view
from engine.events import CutForDeal, Dealt, Discarded, Event, GameOver, Played, Shown, StarterCut
from engine.game import Game
from engine.phase import Phase
from engine.speech import say_score
from fakediscord import Channel, FakeDiscord, Guild, Message, User

NAMES = ("Al", "Bea", "Cy", "Di")
#: How the coach's DM after a show starts its line (after "Cribbage in #channel, deal N ").
COACH = "— coach: You kept"


T = TypeVar("T")


async def until(fd: FakeDiscord, predicate: Callable[[], T | None], timeout: float = 5.0) -> T:
    """`fd.wait_for`, typed for predicates that give None (or another falsy value) until the
    thing they wait for is there; returns that thing."""
    value: Any = await fd.wait_for(predicate, timeout=timeout)
    return cast(T, value)


@dataclass
class World:
    """The server the end-to-end tests play in (built by the `world` fixture)."""

    fd: FakeDiscord
    guild: Guild
    general: Channel
    players: list[User]
    spectator: User
    moderator: User
    db_path: Path


CARD_SYMBOLS = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
CARD_CODES = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([CDHS])(?![0-9A-Za-z])")
#: What the channel says when a player's DMs are closed (followed by the /cribbage hand hint).
DM_NOTICE = "I can't send you direct messages"
_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in_text(text: str) -> set[Card]:
    """Every card written as players see it (`5♥`, `10♦`) in `text`."""
    return {Card.parse(rank + _SUITS[suit]) for rank, suit in CARD_SYMBOLS.findall(text)}


def cards_in_message(message: Message) -> set[Card]:
    """Cards shown by a message: its text, button labels, select options and custom ids."""
    found = cards_in_text(message.text())
    for row in message.components:
        for item in row.get("components", []):
            found |= cards_in_text(str(item.get("label", "")))
            custom_id = str(item.get("custom_id", ""))
            found |= {Card.parse(r + s) for r, s in CARD_CODES.findall(custom_id.split(":")[-1])}
            for option in item.get("options", []):
                found |= cards_in_text(str(option.get("label", "")))
                found |= {Card.parse(r + s) for r, s in CARD_CODES.findall(option["value"])}
    return found


@dataclass
class Snapshot:
    """One game row of the bot's database, with the engine state restored from it."""

    id: int
    status: str
    version: int
    game: Game | None
    actions: int


def read_game(db_path: Path, game_id: int) -> Snapshot:
    """The game as the bot saved it (read with a separate connection; the DB is in WAL mode)."""
    with sqlite3.connect(db_path) as db:
        row = db.execute(
            "SELECT status, version, snapshot FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        actions = db.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    status, version, snapshot = row
    game = None
    if snapshot:
        # The rng only matters for future deals, which this copy never shows to anyone.
        game = decode(snapshot, random.Random(0)).game
    return Snapshot(game_id, status, version, game, actions)


def logged_actions(db_path: Path, game_id: int) -> list[dict[str, Any]]:
    """The game's action log as the bot saved it, oldest first."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [json.loads(row[0]) for row in rows]


def expected_steps(before: Game, actions: list[dict[str, Any]], after: Game) -> list[CalledStep]:
    """The events of each new action, found by applying the log to a copy of the game.

    A copy cannot know the bot's next shuffle, so once an action deals again the rest (the
    computer's discards in the new deal) are taken as the Discarded events they must be.
    """
    game = Game.from_dict(before.to_dict(), rng=random.Random(0))
    steps: list[CalledStep] = []
    dealt = False
    for action in actions:
        if dealt:
            assert action["type"] == "discard", action
            steps.append(
                ([Discarded(seat=action["seat"], count=len(action["cards"]))], after.public_view())
            )
            continue
        events = game.apply(action)
        steps.append((events, game.public_view()))
        dealt = any(isinstance(e, Dealt) for e in events)
    return steps


def latest_game_id(db_path: Path, channel_id: int) -> int:
    """The newest game opened in a channel."""
    with sqlite3.connect(db_path) as db:
        row = db.execute("SELECT MAX(id) FROM games WHERE channel_id = ?", (channel_id,)).fetchone()
    assert row[0] is not None, "no game was created in the channel"
    return int(row[0])


def hidden_from(game: Game, seat: int | None) -> set[Card]:
    """Cards `seat` (None: a spectator) may not know: others' held cards and crib cards."""
    hidden: set[Card] = set()
    for other in range(game.num_players):
        if other == seat:
            continue
        hidden |= set(game.hand(other))
        hidden |= set(game.view(other).discards)
    return hidden


def revealed_by(events: Iterable[Event]) -> set[Card]:
    """Cards made public by these events."""
    cards: set[Card] = set()
    for event in events:
        if isinstance(event, Played | StarterCut):
            cards.add(event.card)
        elif isinstance(event, Shown):
            cards |= set(event.cards) | {event.starter}
        elif isinstance(event, CutForDeal):
            for cut in event.rounds:
                cards |= {card for card in cut if card is not None}
    return cards


@dataclass
class TableDriver:
    """Plays one game in `channel` for `players` (the people, in seat order; against the
    computer the people take the first seats), checking each step."""

    fd: FakeDiscord
    channel: Channel
    players: list[User]
    db_path: Path
    rng: random.Random
    spectators: list[User] = field(default_factory=list)
    #: How often a seat types the slash command instead of using the DM controls.
    command_rate: float = 0.25
    #: Users whose DMs are closed: they get their controls from `/cribbage hand`.
    dm_closed: set[int] = field(default_factory=set)
    #: Check that every person with open DMs gets the coach's line after each show.
    coach: bool = False
    game_id: int = 0
    actions_done: int = 0
    steps: int = 0
    lines_checked: int = 0
    #: Card mentions looked at by the hidden-card check (so a test can see it was not vacuous).
    cards_seen: int = 0
    _seen: dict[int, int] = field(default_factory=dict)
    channel_lines: list[str] = field(default_factory=list)
    coach_lines: list[str] = field(default_factory=list)
    #: The person at each seat; a seat missing here is the computer's.
    seats: dict[int, User] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The game as saved now."""
        return read_game(self.db_path, self.game_id)

    def table_messages(self) -> list[Message]:
        """The public table lines of the channel (no ephemerals, no DM notices), in order."""
        return [
            m
            for m in self.fd.messages(self.channel)
            if not m.ephemeral and not m.deleted and DM_NOTICE not in m.content
        ]

    def dm_notices(self) -> list[Message]:
        """The channel lines telling a player their DMs are closed."""
        return [m for m in self.fd.messages(self.channel) if DM_NOTICE in m.content]

    def _visible(self, user: User) -> list[Message]:
        return [*self.fd.visible_to(user, self.channel), *self.fd.dms(user)]

    def _changed_messages(self, user: User) -> list[Message]:
        """Messages `user` sees that are new or edited since the last call for anyone."""
        changed = []
        for message in self._visible(user):
            versions = len(message.history) + 1
            if self._seen.get(message.id) != versions:
                changed.append(message)
        return changed

    def _mark_seen(self) -> None:
        for user in [*self.players, *self.spectators]:
            for message in self._visible(user):
                self._seen[message.id] = len(message.history) + 1

    def resync(self) -> Snapshot:
        """Take what happened outside the driver (a test acting by hand) as seen and counted."""
        snap = self.snapshot()
        self.actions_done = snap.actions
        self._mark_seen()
        return snap

    def latest_prompt(self, user: User, custom_id_prefix: str) -> Message | None:
        """The newest DM to `user` with a control whose custom id starts with the prefix."""
        for message in reversed(self.fd.dms(user)):
            for row in message.components:
                for item in row.get("components", []):
                    if str(item.get("custom_id", "")).startswith(custom_id_prefix):
                        return message
        return None

    # -- opening ------------------------------------------------------------------------------

    async def open(self, *, target: int = 121) -> Message:
        """`/cribbage new`, everyone joins by the lobby button, the creator starts."""
        creator = self.players[0]
        line = f"/cribbage new players:{len(self.players)} target:{target}"
        reply = await self.fd.slash(creator, self.channel, line)
        assert reply.ephemeral, "opening a game answers the creator privately"
        lobby = await until(self.fd, self._lobby_message)
        self.game_id = latest_game_id(self.db_path, self.channel.id)
        for user in self.players[1:]:
            click = await self.fd.click(user, lobby, f"crib:{self.game_id}:lobby:join")
            assert click.response is not None and click.response.type == 7, click
            assert user.name in lobby.content
        before = len(self.table_messages())
        self._mark_seen()
        start = await self.fd.click(creator, lobby, f"crib:{self.game_id}:lobby:start")
        assert start.response is not None and start.response.type == 7
        assert not list(lobby.buttons()), "a started game's lobby has no buttons left"
        snap = await until(self.fd, self._started)
        assert snap.game is not None
        # The channel: the cut for deal and the first deal, as the engine says them.
        lines = await self._new_lines(before, 2)
        assert lines[0].startswith("Cut for deal:"), lines
        assert "Deal 1" in lines[1], lines
        self.seats = dict(enumerate(self.players))
        # The cut for deal is public; the deal that follows is not.
        cut = {card for cards in snap.game.cut_rounds for card in cards if card is not None}
        self._check_leaks(snap.game, snap.game, cut)
        return lobby

    async def open_against_computer(self, difficulty: str = "hard") -> Snapshot:
        """`/cribbage new vs_computer:True`: the computer takes the other seats and, since it
        throws its cards with the deal, only the people are owed a discard."""
        creator = self.players[0]
        line = f"/cribbage new players:{len(self.players) + 1} vs_computer:True"
        reply = await self.fd.slash(creator, self.channel, f"{line} difficulty:{difficulty}")
        assert reply.ephemeral and "Dealing" in reply.content, reply.content
        self.game_id = latest_game_id(self.db_path, self.channel.id)
        self.seats = dict(enumerate(self.players))
        snap = self.snapshot()
        assert snap.status == "active" and snap.game is not None
        assert snap.game.pending_discards() == tuple(self.seats)
        assert logged_actions(self.db_path, self.game_id) == snap.game.actions
        # The lobby (closed at once), the cut, the deal, and the computer's discards.
        lines = await self._new_lines(0, 4)
        assert lines[0].startswith(f"**Cribbage** — {len(self.players) + 1} players"), lines
        assert lines[1].startswith("Cut for deal:") and "Deal 1" in lines[2], lines
        puts = "puts 2 cards in the crib. Waiting for "
        assert puts + ", ".join(self.players_names()) + "." in lines[3], lines
        cut = {card for cards in snap.game.cut_rounds for card in cards if card is not None}
        self._check_leaks(snap.game, snap.game, cut)
        return snap

    def _lobby_message(self) -> Message | None:
        for message in self.fd.messages(self.channel):
            if not message.ephemeral and any(
                b.get("custom_id", "").endswith(":lobby:join") for b in message.buttons()
            ):
                return message
        return None

    def _started(self) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.status == "active" and snap.game is not None else None

    # -- one step -----------------------------------------------------------------------------

    async def play_out(self, max_steps: int = 3000, stop_after: int | None = None) -> Snapshot:
        """Act until the game is over (or `stop_after` steps); return the final snapshot."""
        for _ in range(max_steps):
            snap = self.snapshot()
            if snap.status != "active" or (stop_after is not None and self.steps >= stop_after):
                return snap
            await self.step(snap)
        raise AssertionError("the game did not finish")

    async def step(self, snap: Snapshot) -> None:
        """One action by whoever has to act, with every check."""
        game = snap.game
        assert game is not None
        if game.phase is Phase.DISCARD:
            owed = game.pending_discards()
            assert set(owed) <= set(self.seats), "the computer never keeps the table waiting"
            await self._discard(snap, self.rng.choice(owed))
        else:
            assert game.phase is Phase.PLAY and game.turn is not None
            assert game.turn in self.seats, "the computer never keeps the table waiting"
            await self._play(snap, game.turn)
        self.steps += 1

    async def _controls(self, user: User, predicate: Any) -> Message:
        """The newest message with controls for `user` that satisfies `predicate`."""
        if user.id in self.dm_closed:
            reply = await self.fd.slash(user, self.channel, "/cribbage hand")
            assert reply.ephemeral and reply.original is not None
            assert predicate(reply.original), reply.original.components
            return reply.original

        def find() -> Message | None:
            for message in reversed(self.fd.dms(user)):
                if predicate(message):
                    return message
            return None

        found: Message = await until(self.fd, find, timeout=10)
        return found

    async def _discard(self, snap: Snapshot, seat: int) -> None:
        game = snap.game
        assert game is not None
        user = self.seats[seat]
        select_id = f"crib:{self.game_id}:discard:{game.deal_number}"
        prompt = await self._controls(user, lambda m: m.component(select_id) is not None)
        menu = prompt.component(select_id)
        assert menu is not None
        hand = game.hand(seat)
        # The DM shows exactly the engine's hand, card by card, and asks for the right count.
        assert [o["value"] for o in menu["options"]] == [c.code for c in hand]
        assert [o["label"] for o in menu["options"]] == [str(c) for c in hand]
        assert menu["min_values"] == menu["max_values"] == game.discard_count
        assert cards_str(hand) in prompt.content
        chosen = self.rng.sample(list(hand), game.discard_count)
        before = len(self.table_messages())
        if self.rng.random() < self.command_rate:
            codes = " ".join(c.code for c in chosen)
            reply = await self.fd.slash(user, self.channel, f"/cribbage discard cards:{codes}")
            assert reply.ephemeral, "a discard is answered privately"
        else:
            reply = await self.fd.select(user, prompt, select_id, [c.code for c in chosen])
            assert reply.response is not None and reply.response.type == 7, reply
            assert not list(prompt.selects()), "the used select menu is gone from the DM"
        await self._after(
            snap, {"type": "discard", "seat": seat, "cards": [c.code for c in chosen]}, before
        )

    async def _play(self, snap: Snapshot, seat: int) -> None:
        game = snap.game
        assert game is not None
        user = self.seats[seat]
        prefix = f"crib:{self.game_id}:play:{snap.version}:"
        prompt = await self._controls(
            user, lambda m: any(b.get("custom_id", "").startswith(prefix) for b in m.buttons())
        )
        buttons = [b for b in prompt.buttons() if b["custom_id"].startswith(prefix)]
        hand = game.hand(seat)
        playable = set(game.playable_cards(seat))
        # One button per card held, the unplayable ones disabled, the count shown.
        assert [b["label"] for b in buttons] == [str(c) for c in hand]
        assert [bool(b.get("disabled")) for b in buttons] == [c not in playable for c in hand]
        assert f"Count {game.count}" in prompt.content
        card = self.rng.choice(sorted(playable, key=lambda c: c.index))
        before = len(self.table_messages())
        if self.rng.random() < self.command_rate:
            reply = await self.fd.slash(user, self.channel, f"/cribbage play card:{card.code}")
            assert reply.ephemeral
        else:
            reply = await self.fd.click(user, prompt, prefix + card.code)
            assert reply.response is not None and reply.response.type == 7, reply
            assert not any(b.get("custom_id", "").startswith(prefix) for b in prompt.buttons()), (
                "the used buttons are gone from the DM"
            )
        await self._after(snap, {"type": "play", "seat": seat, "card": card.code}, before)

    # -- checks after a step ------------------------------------------------------------------

    async def _after(self, before_snap: Snapshot, action: dict[str, Any], before: int) -> None:
        game = before_snap.game
        after = await until(self.fd, lambda: self._moved(before_snap))
        assert game is not None and after.game is not None
        # One call, one version: the person's move and every computer answer saved together.
        assert after.version == before_snap.version + 1
        new = logged_actions(self.db_path, self.game_id)[before_snap.actions :]
        assert after.actions == before_snap.actions + len(new)
        assert new[0] == action, (new[0], action)
        assert all(a["seat"] not in self.seats for a in new[1:]), "only the computer answers"
        self.actions_done += len(new)
        steps = expected_steps(game, new, after.game)
        events = [event for step_events, _ in steps for event in step_events]
        expected_lines = call_steps(steps)
        new_lines = await self._new_lines(before, len(expected_lines))
        assert new_lines == expected_lines, (new_lines, expected_lines)
        self._check_lines(events, "\n".join(new_lines))
        if after.status == "active":
            # The bot agrees with the log replayed on a copy about everything public.
            expected = steps[-1][1]
            assert after.game.scores == expected.scores
            assert after.game.count == expected.count
            assert after.game.series == expected.series
        if self.coach and any(isinstance(e, Shown) for e in events):
            await self._expect_coach(game)
        self._check_leaks(game, after.game, revealed_by(events))

    async def _expect_coach(self, before: Game) -> None:
        """Each person with open DMs gets the coach's line about this deal's discard, naming
        only cards they were dealt."""
        for seat, user in self.seats.items():
            if user.id in self.dm_closed:
                continue
            review = review_view(before.view(seat))
            assert review is not None
            want = f"deal {before.deal_number} — coach: {review.line()}"
            found = await until(
                self.fd,
                lambda user=user, want=want: next(  # type: ignore[misc]
                    (m for m in self.fd.dms(user) if want in m.content), None
                ),
                timeout=10,
            )
            own = set(before.view(seat).kept) | set(before.view(seat).discards)
            assert cards_in_text(found.content) <= own
            assert not found.components
            self.coach_lines.append(found.content)

    def _moved(self, before: Snapshot) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.version > before.version else None

    async def _new_lines(self, before: int, count: int) -> list[str]:
        """Wait for `count` new channel lines after the first `before`, then for quiet."""
        await until(self.fd, lambda: len(self.table_messages()) >= before + count, timeout=10)
        await self.fd.quiet(0.03)
        lines = [m.content for m in self.table_messages()[before:]]
        self.channel_lines.extend(lines)
        self.lines_checked += len(lines)
        return lines

    def _check_lines(self, events: list[Event], text: str) -> None:
        """Every call and show line says what the engine says, independently of the renderer."""
        names = self.seat_names()
        for event in events:
            if isinstance(event, Played):
                assert f"{names[event.seat]} plays {event.card}" in text, (event, text)
                assert f"count {event.count}" in text, (event, text)
            elif isinstance(event, Shown):
                assert cards_str(event.cards) in text, (event, text)
                assert say_score(event.score) in text, (event, text)
            elif isinstance(event, StarterCut):
                assert f"Starter: {event.card}" in text, (event, text)
            elif isinstance(event, GameOver):
                result = event.result
                points = result.game_points
                assert f"{points} game point" in text, (event, text)
                sides = [result.winner] + [
                    side for side in range(len(result.scores)) if side != result.winner
                ]
                assert "-".join(str(result.scores[side]) for side in sides) in text

    def players_names(self) -> list[str]:
        """The people's display names, in seat order."""
        return [u.name for u in self.players]

    def seat_names(self) -> list[str]:
        """Every seat's name as the channel says it (the computer's too)."""
        game = self.snapshot().game
        assert game is not None
        return [escape(name) for name in game.players]

    def _check_leaks(self, before: Game, after: Game, revealed: set[Card]) -> None:
        """No new or edited message shows anyone a card hidden from them."""
        seat_of = {user.id: seat for seat, user in self.seats.items()}
        for user in [*self.players, *self.spectators]:
            seat = seat_of.get(user.id)
            secret = (hidden_from(before, seat) | hidden_from(after, seat)) - revealed
            for message in self._changed_messages(user):
                mentioned = cards_in_message(message)
                self.cards_seen += len(mentioned)
                if COACH in message.content:
                    # About the deal just shown; checked against the cards they were dealt
                    # (which the next deal may have given to someone else).
                    continue
                shown = mentioned & secret
                leaked = cards_str(sorted(shown, key=lambda c: c.index))
                assert not shown, f"{user.name} could see {leaked} in {message!r}"
        self._mark_seen()
