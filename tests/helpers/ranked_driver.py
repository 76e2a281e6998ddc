"""Plays ranked matches through fakediscord as their players would, each from the place they
queued from, checking every step.

Each player acts from their own hand at their own place: an ephemeral message opened with the
*Your hand* button of their place's table (kept up to date by the bot through that click's
token), or pressed again when they have none that offers what they may do, or the table
mentions them. After each move the driver replays the bot's action log on its own copy of the
game (:class:`~tests.helpers.replay.Replay`), and every version of every message each player
(and each watcher of a place: a server's other members, a DM's other person) can see is looked
at for a card hidden from them (:class:`~tests.helpers.card_leaks.LeakWatch`, one per place):
nothing of one player's hand may reach the other's place, or anyone watching either.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.base.owners import Owner
from engine.cards import Card
from fakediscord import Channel, FakeDiscord, Interaction, Message, User
from tests.helpers.bot_db import Database, Snapshot, logged_actions, read_game, rows
from tests.helpers.card_leaks import LeakWatch, hidden_from, revealed_by
from tests.helpers.private_driver import uninvited_server
from tests.helpers.private_hands import (
    live_hands,
    move_from_hand,
    move_prefix,
    newest_control,
    press_your_hand,
)
from tests.helpers.replay import Replay
from tests.helpers.table_driver import World, seat_to_move, until

__all__ = [
    "Place",
    "RankedDriver",
    "entry_of",
    "left_the_match",
    "match_games",
    "matched_across_servers",
    "queued",
]


@dataclass
class Place:
    """A player of a match and where they play from, with whoever else sees that place."""

    user: User
    channel: Channel
    watchers: list[User] = field(default_factory=list)


def match_games(database: Database, match_id: int) -> list[tuple[int, int, int | None, str | None]]:
    """The match's games: (number, game, winner, how it ended), in order."""
    found = rows(
        database,
        "SELECT rg.number, rg.game_id, rg.winner, g.ending FROM ranked_games rg"
        " JOIN games g ON g.id = rg.game_id WHERE rg.match_id = ?"
        " ORDER BY rg.number",
        (match_id,),
    )
    return [(int(n), int(g), None if w is None else int(w), e) for n, g, w, e in found]


def entry_of(database: Database, user: User) -> tuple[int, str, int | None]:
    """The user's latest ranked entry: its id, status and match."""
    found = rows(
        database,
        "SELECT id, status, match_id FROM ranked_entries WHERE user_id = ? ORDER BY id DESC",
        (user.id,),
    )
    assert found, f"{user.name} never queued"
    entry, status, match = found[0]
    return int(entry), str(status), None if match is None else int(match)


def queued(database: Database, user: User) -> bool:
    """Whether the user's latest entry is searching."""
    return entry_of(database, user)[1] == "searching"


@dataclass
class _PlaceWatch(LeakWatch):
    """A place's watch over every game of a match: a coach's line names the cards its reader
    was dealt, and the cut for deal the cards cut, in the game of the message they are on (an
    earlier game's table and hands are edited once more after the next game began)."""

    replay_of: Callable[[Message], Replay | None] = lambda message: None

    def _check_version(
        self, user: User, seat: int | None, hidden: set[Card], message: Message, version: Any
    ) -> None:
        replay = self.replay_of(message)
        if replay is not None:
            self.dealt, self.cut = replay.dealt_to, revealed_by(replay.deals[0])
        super()._check_version(user, seat, hidden, message, version)


@dataclass
class RankedDriver:
    """Plays one match, its places in seat order (the first sits first in every game)."""

    fd: FakeDiscord
    database: Database
    places: list[Place]
    match_id: int
    rng: random.Random = field(default_factory=lambda: random.Random(49))
    game_id: int = 0
    number: int = 0
    replay: Replay | None = None
    #: Every move's click (each answered by updating the hand it was made on).
    clicks: list[Interaction] = field(default_factory=list)
    #: Card mentions looked at by the watches (a test shows the check was not vacuous).
    seen: int = 0
    _watches: list[LeakWatch] = field(default_factory=list)
    #: Each game's replay, by game id (an earlier game's table is edited after it ended).
    _replays: dict[int, Replay] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """The game being played, as saved now."""
        return read_game(self.database, self.game_id)

    def table_now(self, seat: int, game_id: int | None = None) -> Message | None:
        """The table message of ``seat``'s place at the game, once its id is kept."""
        owner = Owner.place(game_id or self.game_id, seat)
        found = rows(
            self.database,
            "SELECT message_id FROM messages WHERE owner = ? AND key = 'lobby'",
            (str(owner),),
        )
        if not found or not found[0][0]:
            return None
        return self.fd.world.messages.get(int(found[0][0]))

    def _hands_of(self, seat: int) -> list[Message]:
        place = self.places[seat]
        return live_hands(self.fd, place.user, place.channel, self.game_id)

    # -- a game -------------------------------------------------------------------------------
    async def next_game(self) -> Snapshot:
        """Wait for the match's next game to be dealt and its tables to reach both places;
        the game as dealt."""
        number = self.number + 1

        def dealt() -> tuple[int, int] | None:
            for n, game_id, _, _ in match_games(self.database, self.match_id):
                if n == number:
                    return n, game_id
            return None

        try:
            self.number, self.game_id = await until(self.fd, dealt)
            snap = await until(self.fd, lambda: self._started())
            await until(self.fd, lambda: all(self.table_now(s) for s in range(2)))
        except TimeoutError as waited:
            kept = rows(
                self.database,
                "SELECT owner, key, channel_id, message_id, token_at FROM messages"
                " WHERE owner LIKE 'place:%' OR owner LIKE 'ranked:%'",
            )
            games = match_games(self.database, self.match_id)
            raise AssertionError(
                f"game {number} of match {self.match_id} never reached both places: games "
                f"{games}; kept {kept}"
            ) from waited
        replay = Replay.begin(snap, logged_actions(self.database, self.game_id), {0, 1})
        self.replay = self._replays[self.game_id] = replay
        for seat, place in enumerate(self.places):
            watch = _PlaceWatch(
                self.fd,
                place.channel,
                [place.user, *place.watchers],
                {place.user.id: seat},
                replay.dealt_to,
                cut=revealed_by(replay.deals[0]),
                public=self._public_in,
                replay_of=self._replay_of,
            )
            if len(self._watches) > seat:
                # (What was checked under the game before stays checked.)
                watch._checked = self._watches[seat]._checked
                self.seen += self._watches[seat].cards_seen
                self._watches[seat] = watch
            else:
                self._watches.append(watch)
        self._check(snap)
        return snap

    def _started(self) -> Snapshot | None:
        snap = self.snapshot()
        return snap if snap.status == "active" and snap.game is not None else None

    async def play_out(self) -> Snapshot:
        """Play the game being played until it is over; the game then."""
        while True:
            snap = self.snapshot()
            if snap.status != "active":
                self._advance()
                return snap
            await self.move(snap)

    async def move(self, snap: Snapshot) -> Interaction:
        """One move by someone the game waits on (from their hand); the click."""
        game = snap.game
        assert game is not None
        seat = seat_to_move(game, self.rng)
        if seat is None:
            raise AssertionError(f"nobody to move in {game.state.phase}")
        user = self.places[seat].user
        hand, custom_id = await self._reach(seat, snap, move_prefix(snap, self.game_id))
        click = await move_from_hand(self.fd, user, hand, custom_id, game, seat, self.rng)
        assert click.response is not None and click.response.type == 7, click.words()
        self.clicks.append(click)
        await until(self.fd, lambda: self._moved_on(snap))
        self._advance()
        return click

    async def _reach(self, seat: int, snap: Snapshot, wanted: str) -> tuple[Message, str]:
        """``seat``'s newest hand with a live control whose custom id starts with ``wanted``:
        pressing *Your hand* on their table first when it mentions them or they have none."""

        def control() -> tuple[Message, str] | None:
            return newest_control(self._hands_of(seat), wanted)

        def to_open() -> bool:
            table = self.table_now(seat)
            user = self.places[seat].user
            return table is not None and (
                f"<@{user.id}>" in table.words() or not self._hands_of(seat)
            )

        found: Any = await until(self.fd, lambda: control() or to_open())
        if found is True:
            await self.open_hand(seat)
            found = await until(self.fd, control)
        assert isinstance(found, tuple)
        return found

    async def open_hand(self, seat: int) -> Message:
        """``seat`` presses *Your hand* on their place's table: the hand, theirs alone."""
        user = self.places[seat].user
        return await press_your_hand(self.fd, user, self.game_id, lambda: self.table_now(seat))

    def _moved_on(self, snap: Snapshot) -> Snapshot | None:
        now = self.snapshot()
        return now if now.version > snap.version else None

    # -- checking -----------------------------------------------------------------------------
    def _advance(self) -> None:
        """Replay what the bot logged since the last look (:meth:`Replay.catch_up`), and look
        at every message."""
        assert self.replay is not None
        self._check(self.replay.catch_up(self.database, self.game_id))

    def check_now(self) -> None:
        """Look at every version shown since the last look."""
        self._check(self.snapshot())

    def _check(self, snap: Snapshot) -> None:
        game = snap.game
        assert game is not None
        for watch in self._watches:
            watch.check(lambda seat: hidden_from(game, seat))

    @property
    def cards_seen(self) -> int:
        """Card mentions the hidden-card checks looked at."""
        return self.seen + sum(w.cards_seen for w in self._watches)

    def _public_in(self, message: Message) -> set[Card]:
        """What a message may name whoever holds those cards now: what its game made public
        (a table shows the deal before's show while the crib is made, an earlier game's table
        is told how the match goes on), and, for a hand, what its reader was dealt."""
        replay = self._replay_of(message)
        if replay is None:
            return set()
        shown = set().union(*(revealed_by(events) for events in replay.deals.values()))
        reader: Callable[[], int | None] = lambda: next(  # noqa: E731
            (s for s, p in enumerate(self.places) if p.user is message.ephemeral_for), None
        )
        seat = reader() if message.ephemeral_for is not None else None
        if seat is None:
            return shown
        return shown.union(*(replay.dealt_to(seat, d) for d in replay.deals))

    def _replay_of(self, message: Message) -> Replay | None:
        """The replay of the game whose place keeps ``message`` (a table or a hand)."""
        found = rows(
            self.database,
            "SELECT owner FROM messages WHERE message_id = ? AND owner LIKE 'place:%'",
            (message.id,),
        )
        for (owner,) in found:
            game_id = Owner.parse(str(owner)).game_id
            if game_id in self._replays:
                return self._replays[game_id]
        return self.replay


async def matched_across_servers(world: World, rng: int = 49) -> RankedDriver:
    """Bea searches for a ranked match from a server that did not invite the bot (Di sees
    it too), then Al from the general channel (the spectator sees it): the driver of the match
    that pairs them, Bea sitting first, its choices from the seed ``rng``."""
    fd, (al, bea, _, di) = world.fd, world.players
    lounge = uninvited_server(fd, bea, di)
    await fd.slash(bea, lounge, "/cribbage ranked play")
    await fd.slash(al, world.general, "/cribbage ranked play")
    _, _, match_id = entry_of(world.database, al)
    assert match_id is not None
    places = [Place(bea, lounge, [di]), Place(al, world.general, [world.spectator])]
    return RankedDriver(fd, world.database, places, match_id, rng=random.Random(rng))


async def left_the_match(fd: FakeDiscord, user: User, place: Channel, asks: str = "") -> str:
    """``user`` leaves their ranked match from ``place`` as a player does: ``/cribbage ranked
    leave`` asks first (a question to them alone, saying ``asks``), *Yes, leave the match*
    confirms; answers what the confirmation says."""
    asked = await fd.slash(user, place, "/cribbage ranked leave")
    assert asked.ephemeral and asked.original is not None, asked.words()
    assert asks in asked.words(), asked.words()
    left = await fd.click(user, asked.original, label="Yes, leave the match")
    assert left.original is not None, left.words()
    return left.original.words()
