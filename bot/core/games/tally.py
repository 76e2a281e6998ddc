"""Per-seat running totals kept with a game for the stats: where each seat's points came from.

Built from public events as they happen (pegging, hands, cribs, deals, best hand, 29s) and
stored in the game's snapshot, so a finished game's result rows need no replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from bot.core.base.text import plural
from engine.cards import cards_str
from engine.events import Event, Mugginsed, Overclaimed, PointSource, Shown, points_scored

__all__ = ["SeatTally", "Tally", "counting_said", "tallied"]

PERFECT_HAND = 29
#: The cards of the hand (or crib) that scores it, with the starter: a hand of five cards
#: and the starter (seven-card cribbage) scoring 29 is nothing rare.
PERFECT_SIZE = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatTally:
    """One seat's points by source, the deals it showed, and its best hand: kept for each seat
    while a game is played, then in the seat's result row and, summed over a player's games,
    in their standing (:class:`~bot.core.games.records.ResultRecord` and
    :class:`~bot.core.standings.records.Standing` are tallies with more, their tables' columns
    named as these fields)."""

    pegging_points: int = 0
    hand_points: int = 0
    crib_points: int = 0
    deals: int = 0
    best_hand: int = 0
    best_hand_cards: str | None = None
    twenty_nines: int = 0
    #: Manual counting: points its claims left out, and points taken from wrong claims (by
    #: muggins on a short one, or pegged for one over its hand's value): from this seat's
    #: claims by opponents (given), and by this seat from theirs (taken).
    points_missed: int = 0
    muggins_given: int = 0
    muggins_taken: int = 0

    def plus(self, *others: SeatTally) -> SeatTally:
        """These tallies and ``others``' together: each count summed, and the best hand the
        one worth most (the first of equals)."""
        best = self
        for other in others:
            if other.best_hand_cards is not None and (
                best.best_hand_cards is None or other.best_hand > best.best_hand
            ):
                best = other
        return SeatTally(
            **{
                name: getattr(self, name) + sum(getattr(o, name) for o in others)
                for name in _SUMMED
            },
            best_hand=best.best_hand,
            best_hand_cards=best.best_hand_cards,
        )


def counting_said(tally: SeatTally) -> str:
    """What a player's claims at manual shows came to, in one sentence (empty for one who
    never counted their own hands there): said in ``/cribbage stats`` (the standard game's
    totals, each variant's line) and on a review's summary."""
    if not (tally.points_missed or tally.muggins_given or tally.muggins_taken):
        return ""
    return (
        f"Counting by hand: {plural(tally.points_missed, 'point')} missed;"
        f" taken from wrong counts (muggins, claims over) {tally.muggins_taken},"
        f" given away {tally.muggins_given}."
    )


#: The tallies that add up (the best hand is chosen, not summed).
_SUMMED = tuple(f.name for f in fields(SeatTally) if not f.name.startswith("best_hand"))
#: The names a snapshot keeps four of the tallies by, older than the columns' (every snapshot
#: format keeps them so).
_SNAPSHOT_NAMES = {
    "pegging_points": "pegging",
    "hand_points": "hand",
    "crib_points": "crib",
    "points_missed": "missed",
}
_READ_NAMES = {kept: name for name, kept in _SNAPSHOT_NAMES.items()}


def tallied(tally: SeatTally) -> dict[str, Any]:
    """``tally``'s fields by name, to build or update a record that holds them."""
    return {f.name: getattr(tally, f.name) for f in fields(SeatTally)}


@dataclass(slots=True)
class Tally:
    """Every seat's :class:`SeatTally`."""

    seats: list[SeatTally]

    @classmethod
    def empty(cls, players: int) -> Tally:
        """Zeros for ``players`` seats."""
        return cls([SeatTally() for _ in range(players)])

    @classmethod
    def from_list(cls, data: Iterable[dict[str, Any]]) -> Tally:
        """Rebuild a tally written by :meth:`to_list`."""
        return cls(
            [SeatTally(**{_READ_NAMES.get(k, k): v for k, v in item.items()}) for item in data]
        )

    def to_list(self) -> list[dict[str, Any]]:
        """JSON-ready data."""
        return [
            {_SNAPSHOT_NAMES.get(k, k): v for k, v in tallied(seat).items()} for seat in self.seats
        ]

    def add(self, events: Iterable[Event]) -> None:
        """Count the points of ``events`` to the seats that scored them (his heels and the
        points for last count with the pegging; points taken from wrong claims are kept apart), and
        each hand's worth (its best, its 29s, and what a claim missed) from its show."""
        for event in events:
            if isinstance(event, Shown):
                self._shown(event)
            elif isinstance(event, (Mugginsed, Overclaimed)):
                self._count(event.seat, SeatTally(muggins_taken=event.points))
                self._count(event.owner, SeatTally(muggins_given=event.points))
            scored = points_scored(event)
            if scored is None or scored.source is PointSource.MUGGINS:
                continue
            if scored.source in (PointSource.PEGGING, PointSource.HEELS, PointSource.FOR_LAST):
                self._count(scored.seat, SeatTally(pegging_points=scored.points))
            elif scored.source is PointSource.CRIB:
                self._count(scored.seat, SeatTally(crib_points=scored.points))
            else:
                self._count(scored.seat, SeatTally(hand_points=scored.points, deals=1))

    def _count(self, seat: int, more: SeatTally) -> None:
        self.seats[seat] = self.seats[seat].plus(more)

    def _shown(self, event: Shown) -> None:
        """A hand or crib shown: its true worth, whoever counted it (a claim is in
        ``points_missed``); a hand, not a crib, may be the seat's best."""
        worth = event.score.total
        hand = None if event.crib else f"{cards_str(event.cards)} + {event.starter}"
        shown = SeatTally(
            points_missed=event.missed,
            twenty_nines=int(worth == PERFECT_HAND and len(event.cards) == PERFECT_SIZE),
            best_hand=0 if event.crib else worth,
            best_hand_cards=hand,
        )
        self._count(event.seat, shown)
