"""Games replayed at one table: the rematch a result offers, who deals it first, and the
series the games make.

**The rematch.** A finished game's result offers one (:func:`again_of`): *Rematch*, or *Play
again* where one person played the computer. It is a game at the same table with the same
options and the same seats, partners and teams as they were (:func:`seats_again`): its
opener sits where they sat, each other person keeps their seat until they take it with one
press or :data:`SEAT_KEPT` passes (then anyone may take it), the computers sit again at
their levels. A ranked match's game, a tournament's and a game that ended without a result
offer none (:func:`no_rematch`): those go on their own way.

**Who deals first** in it follows the rule for a following game (:func:`following_dealer`):
between two players the loser of the game before deals first (Bicycle's rules of Cribbage:
"the loser of the game deals first if another game is played"). The house's rules documents
speak only of the cut for the first deal (``001``: "The lower card player deals first";
``002``: "the player cutting the lowest card wins the cut and proceeds to deal"), and no
source gives a following game's deal for more players or partners: they cut for it.

**The series.** Games replayed at one table by the same people, each the rematch of the one
before and opened within :data:`SERIES_GAP` of its end, make a series: a change of the
table's people, or a day's pause, begins a new one. Whether a finished game continues one is
decided with its result (:func:`continued`) and kept (``games.series``, its first game); the
score is drawn from the results of its games alone (:func:`standings`), in game points as
each game's rule counts them (a lurch 2), and said on each result of the series (with it)
and on every lobby and table of a game that continues one, from its opening to its end (as it
stood when the game was opened: :func:`continued_text`), a rematch dealt at once against the
computer too (:func:`series_line`).

>>> series_line([Standing("Al", 2, 1), Standing("Bea", 1, 1)])
'Al leads the series 2–1 in game points (1–1 in games).'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from bot.core.base import refusals
from bot.core.base.replies import User
from bot.core.base.text import escape
from bot.core.base.views import AgainLabel
from bot.core.games.records import (
    GameRecord,
    GameStatus,
    Match,
    Round,
    SeatRecord,
    SeriesResult,
    is_former,
)
from bot.core.games.storage import GameRecords

__all__ = [
    "SEAT_KEPT",
    "SERIES_GAP",
    "Standing",
    "again_of",
    "continued",
    "continued_said",
    "continued_text",
    "following_dealer",
    "match_thread",
    "member",
    "no_rematch",
    "seats_again",
    "series_line",
    "series_said",
    "series_text",
    "shown_series",
    "standings",
]

#: How long a rematch's lobby keeps a seat for a person of the game before.
SEAT_KEPT = timedelta(minutes=5)
#: The longest pause between one game's end and its rematch's opening that keeps a series.
SERIES_GAP = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Standing:
    """One side's part of a series so far (or one player's, where the sides were not the same
    throughout): its ``name`` (escaped), the game points it won and the games, and how many
    players it is (``players``: two or three partners are said as many, "Al & Cy lead")."""

    name: str
    points: int
    wins: int
    players: int = 1


def member(user_id: int | None, name: str, is_computer: bool) -> str:
    """Who sits in a seat, the same from game to game: a person by their id, a computer by its
    name at the table ("Hard bot 2": its level and place)."""
    return f"computer:{name}" if is_computer or user_id is None else f"user:{user_id}"


def _seat_member(seat: SeatRecord) -> str:
    return member(seat.user_id, seat.name, seat.is_computer)


def _row_member(row: SeriesResult) -> str:
    return member(row.result.user_id, row.result.display_name, row.result.is_computer)


def match_thread(record: GameRecord | None) -> str | None:
    """Why no game of one's own is opened from the table where ``record`` is the last game,
    in a sentence (None: one may be): it is a tournament's, so the place is its match's
    thread, whose next game the director deals (and a game opened there meanwhile it ends)."""
    if record is not None and isinstance(record.occasion, Round | Match):
        return refusals.MATCH_THREAD
    return None


def no_rematch(record: GameRecord) -> str | None:
    """Why ``record``'s game offers no rematch, in a sentence (None: it offers one): it is not
    over, ended without a result, is a ranked match's, a tournament's or a lesson's, seated
    nobody, or seated someone who had their data deleted since (a seat kept for a former
    player would wait for nobody, and the series would go on against no one)."""
    if record.is_open:
        return refusals.REMATCH_NOT_OVER
    if record.status is not GameStatus.FINISHED:
        return refusals.REMATCH_NO_RESULT
    if record.in_match:
        return refusals.REMATCH_RANKED
    if isinstance(record.occasion, Round):
        return refusals.REMATCH_TOURNAMENT
    if record.in_lesson:
        return refusals.REMATCH_LESSON
    if not any(not s.is_computer and s.user_id is not None for s in record.seats):
        return refusals.REMATCH_NO_RESULT
    if any(s.user_id is not None and is_former(s.user_id) for s in record.seats):
        return refusals.REMATCH_FORMER
    return None


def again_of(record: GameRecord) -> AgainLabel | None:
    """What ``record``'s result offers: *Rematch*, *Play again* (one person at a table of
    computers), or nothing (:func:`no_rematch`)."""
    if no_rematch(record) is not None:
        return None
    people = sum(1 for s in record.seats if not s.is_computer)
    return "again" if people == 1 else "rematch"


def seats_again(record: GameRecord, opener: User, now: float) -> list[SeatRecord]:
    """The seats of ``record``'s rematch, opened by ``opener`` (one of its people) at ``now``:
    every seat where it was, the opener's taken (under their name now), each other person's
    kept for them until ``now`` + :data:`SEAT_KEPT`, each computer at its level again."""
    until = now + SEAT_KEPT.total_seconds()
    seats = []
    for seat in record.seats:
        if seat.is_computer:
            seats.append(dataclasses.replace(seat, held_until=None))
        elif seat.user_id == opener.id:
            seats.append(dataclasses.replace(seat, name=opener.name, held_until=None))
        else:
            seats.append(dataclasses.replace(seat, held_until=until))
    return seats


def following_dealer(before: Sequence[SeriesResult], seats: Sequence[SeatRecord]) -> int | None:
    """The seat that deals first in a following game seated as ``seats``, after the game whose
    results are ``before``: between two players, the loser of that game, wherever they sit
    now (Bicycle: "the loser of the game deals first if another game is played"); None (they
    cut for it, as for any first deal) with more players, or when the loser is not at the
    table now."""
    if len(seats) != 2 or len(before) != 2:
        return None
    losers = [_row_member(row) for row in before if not row.result.won]
    keys = [_seat_member(seat) for seat in seats]
    if len(losers) != 1 or losers[0] not in keys:
        return None
    return keys.index(losers[0])


def continued(record: GameRecord, before: Sequence[SeriesResult]) -> int | None:
    """The series ``record``'s game continues (its first game's id), given the results of the
    series of the game it is the rematch of (``before``, game by game up to that one): the
    same people at the table (kept seats count as theirs, while a lobby), and opened within
    :data:`SERIES_GAP` of that game's end. None: it begins a series of its own, if any."""
    last = [row for row in before if row.game_id == record.rematch_of]
    if record.rematch_of is None or not last:
        return None
    if {_seat_member(s) for s in record.seats} != {_row_member(row) for row in last}:
        return None
    if record.created_at - last[0].finished_at > SERIES_GAP.total_seconds():
        return None
    return before[0].game_id


def shown_series(record: GameRecord, rows: Sequence[SeriesResult]) -> Sequence[SeriesResult]:
    """What of a series ``record``'s result says: a finished game that continued one, that
    series with it (``rows``: its own series' results). Nothing otherwise: a game not over,
    or one that is no series' (a series of one game is none)."""
    if record.status is GameStatus.FINISHED and record.series is not None:
        return rows
    return ()


def standings(record: GameRecord, rows: Sequence[SeriesResult]) -> list[Standing]:
    """Each side's part of the series ``rows`` holds, by ``record``'s sides (its seats, and the
    rules' sides); each player's instead where the players of a side did not score alike (the
    sides changed during the series: partners changed)."""
    points: dict[str, int] = {}
    wins: dict[str, int] = {}
    names: dict[str, str] = {}
    for row in rows:
        key, result = _row_member(row), row.result
        names[key] = result.display_name
        points[key] = points.get(key, 0) + (result.game_points if result.won else 0)
        wins[key] = wins.get(key, 0) + int(result.won)
    for seat in record.seats:
        names[_seat_member(seat)] = seat.name
    keys = [_seat_member(seat) for seat in record.seats]
    sides = record.options.rules.sides if len(keys) == record.options.rules.seats else ()
    grouped = [[keys[s] for s in side] for side in sides]
    alike = all(len({(points.get(k, 0), wins.get(k, 0)) for k in g}) == 1 for g in grouped)
    if not grouped or not alike:
        grouped = [[key] for key in keys]
    return [
        Standing(
            " & ".join(escape(names[k]) for k in group),
            points.get(group[0], 0),
            wins.get(group[0], 0),
            len(group),
        )
        for group in grouped
    ]


def series_line(sides: Sequence[Standing]) -> str:
    """The series in a line, in game points (and in games, where they differ): "Al leads the
    series 2–1.", "Al & Cy lead the series 3–1 in game points (2–1 in games).", "The series
    is level at 1–1."; with more than two sides each side's points, the leader first
    ("The series, in game points — Al: 3 · Bea: 1 · Cy: 0.")."""
    ranked = sorted(sides, key=lambda s: (-s.points, -s.wins))
    if len(ranked) != 2:
        each = " · ".join(f"{s.name}: {s.points}" for s in ranked)
        return f"The series, in game points — {each}."
    first, second = ranked
    games = f"{first.wins}–{second.wins}"
    score = f"{first.points}–{second.points}"
    said = "" if games == score else f" in game points ({games} in games)"
    if first.points == second.points:
        return f"The series is level at {score}{said}."
    verb = "lead" if first.players > 1 else "leads"
    return f"{first.name} {verb} the series {score}{said}."


async def series_text(store: GameRecords, record: GameRecord) -> str:
    """The line of the series ``record``'s result says, with its own game (empty: none), read
    from the results of the series' games (:func:`shown_series`)."""
    if record.status is not GameStatus.FINISHED or record.series is None:
        return ""
    return series_said(record, await store.series_results(record.id))


def series_said(record: GameRecord, rows: Sequence[SeriesResult]) -> str:
    """The line of the series ``record``'s result says, given ``rows`` (as
    :func:`shown_series` takes them), or empty."""
    shown = shown_series(record, rows)
    return series_line(standings(record, shown)) if shown else ""


async def continued_text(store: GameRecords, record: GameRecord) -> str:
    """The line of the series ``record``'s game continues, as it stood when the game was
    opened (empty: none), said on its lobby and its tables from its opening to its end, so
    they never change with it: read from the results of the series of the game it replays
    (:func:`continued_said`)."""
    if record.rematch_of is None:
        return ""
    return continued_said(record, await store.series_results(record.rematch_of))


def continued_said(record: GameRecord, rows: Sequence[SeriesResult]) -> str:
    """The line of the series ``record``'s game continues, given ``rows`` (the results of the
    series of the game it replays, up to it): said while its people are the same and it was
    opened soon enough (:func:`continued`), whatever its status (a lobby, a rematch dealt at
    once against the computer, a game being played or over), else empty."""
    if continued(record, rows) is None:
        return ""
    return series_line(standings(record, rows))
