"""Everyone at a game's table: whom *Deal everyone in* seats and at which table, and the lobby
as one person at the table sees it (the Activity, which knows who has the table open).

*Deal everyone in* seats, in a lobby, everyone who has its table open and no seat yet, after
those seated, and deals. The table is the one that seats them all: the lobby's own variant
when it seats that many, else the one ``/cribbage new`` opens for that many players
(:func:`~bot.core.games.lobby.table_asked`: partners for four, five-hand for five, six-hand in
two teams of three for six), at the lobby's length of game and rule for game points where that
variant offers them (else its own). Who partners whom follows from the seats, as in any lobby.

>>> from bot.core.games.records import GameStatus, Options, SeatRecord
>>> lobby = GameRecord(1, 5, 9, GameStatus.LOBBY, 10, Options(2, 121), None, 1, 0.0, 0.0,
...                    (SeatRecord(0, 10, "Al"),))
>>> chosen = seats_everyone(lobby, User(10, "Al"), [User(10, "Al"), User(11, "Bea"),
...                                                 User(12, "Cy"), User(13, "Di")])
>>> [s.name for s in chosen.seats], chosen.table.players, chosen.table.variant.name
(['Al', 'Bea', 'Cy', 'Di'], 4, 'standard')
>>> everyone_kinds(lobby)[6]
'Six-hand cribbage, 6 players in two teams of three, to 121'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.base import refusals
from bot.core.base.refusals import Refused
from bot.core.base.replies import User
from bot.core.base.views import MessageView
from bot.core.games.lobby import Table, lobby_view, offered, table_asked, table_kind
from bot.core.games.records import GameRecord, GameStatus, SeatRecord
from engine.outcome import Scoring
from engine.variants import MOST_AT_A_TABLE, named

__all__ = [
    "Everyone",
    "LobbySeen",
    "everyone_kinds",
    "everyone_table",
    "lobby_seen",
    "seats_everyone",
]


@dataclass(frozen=True, slots=True)
class Everyone:
    """What *Deal everyone in* makes of a lobby: its seats (those seated, then everyone else
    at the table), the table that seats them all, and its rule for game points."""

    seats: tuple[SeatRecord, ...]
    table: Table
    scoring: Scoring


@dataclass(frozen=True, slots=True)
class LobbySeen:
    """A lobby as one person sees it at their own table: the chat's lobby message's words with
    the controls this person may press (``view``), and, for its creator, what *Deal everyone
    in* would play for each number of players it could seat (``everyone``, by number)."""

    view: MessageView
    everyone: dict[int, str]


def everyone_table(record: GameRecord, players: int) -> tuple[Table, Scoring]:
    """The table that seats ``players`` instead of ``record``'s lobby, and its rule for game
    points (see the module)."""
    variant = named(record.options.variant)
    if players not in variant.seats:
        variant = table_asked(players=players).variant
    target = (
        record.options.target
        if record.options.target in variant.targets
        else variant.default_target
    )
    scoring = record.options.scoring if variant.skunk else Scoring.LURCH
    return Table(variant, players, target), scoring


def seats_everyone(record: GameRecord, user: User, people: Sequence[User]) -> Everyone:
    """*Deal everyone in*, pressed by ``user`` with ``people`` at the table: the lobby's seats
    kept, everyone else among ``people`` seated after them in their order, at the table that
    seats them all. Refused (one sentence) unless the lobby is open, ``user`` opened it,
    someone at the table has no seat, and they all fit at one table."""
    if record.status is not GameStatus.LOBBY:
        raise Refused(refusals.ALREADY_STARTED)
    if user.id != record.creator_id:
        raise Refused(refusals.EVERYONE_CREATOR)
    seated = {s.user_id for s in record.seats if not s.is_computer}
    here = {person.id for person in people}
    # (A seat a rematch keeps for someone at the table is theirs: they are dealt in there.)
    kept = tuple(
        dataclasses.replace(s, held_until=None) if s.held and s.user_id in here else s
        for s in record.seats
    )
    newcomers: list[User] = []
    for person in people:
        if person.id not in seated and all(p.id != person.id for p in newcomers):
            newcomers.append(person)
    if not newcomers and kept == record.seats:
        raise Refused(refusals.EVERYONE_SEATED)
    players = len(record.seats) + len(newcomers)
    if players > MOST_AT_A_TABLE:
        raise Refused(refusals.everyone_too_many(players, MOST_AT_A_TABLE))
    table, scoring = everyone_table(record, players)
    first = len(record.seats)
    added = (SeatRecord(first + i, p.id, p.name) for i, p in enumerate(newcomers))
    return Everyone((*kept, *added), table, scoring)


def everyone_kinds(record: GameRecord) -> dict[int, str]:
    """What *Deal everyone in* would play, in the words of a lobby ("Cribbage, 4 players in
    two teams of two, to 121"), for each number of players it could seat at ``record``'s
    lobby: one more than are seated, up to a full table."""
    kinds = {}
    for players in range(max(2, len(record.seats) + 1), MOST_AT_A_TABLE + 1):
        table, scoring = everyone_table(record, players)
        rules = table.variant.rules(players, table.target, scoring, record.options.counting)
        kinds[players] = table_kind(rules, table.variant)
    return kinds


def lobby_seen(record: GameRecord, user: User, series: str = "") -> LobbySeen:
    """``record``'s lobby as ``user`` sees it at their own table (see :class:`LobbySeen`;
    ``series``: the line of the series a rematch's lobby continues)."""
    text = lobby_view(record, series=series).content
    everyone = everyone_kinds(record) if user.id == record.creator_id else {}
    return LobbySeen(MessageView(text, controls=offered(record, user)), everyone)
