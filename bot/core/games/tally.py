"""Per-seat running totals kept with a game for the stats: where each seat's points came from.

Built from public events as they happen (pegging, hands, cribs, deals, best hand, 29s) and
stored in the game's snapshot, so a finished game's result rows need no replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from engine.cards import cards_str
from engine.events import Event, Mugginsed, Overclaimed, PointSource, Shown, points_scored

__all__ = ["SeatTally", "Tally"]

PERFECT_HAND = 29
#: The cards of the hand (or crib) that scores it, with the starter: a hand of five cards
#: and the starter (seven-card cribbage) scoring 29 is nothing rare.
PERFECT_SIZE = 4


@dataclass(slots=True)
class SeatTally:
    """One seat's points by source, the deals it showed, and its best hand."""

    pegging: int = 0
    hand: int = 0
    crib: int = 0
    deals: int = 0
    best_hand: int = 0
    best_hand_cards: str | None = None
    twenty_nines: int = 0
    #: Manual counting: points its claims left out, and points taken from wrong claims (by
    #: muggins on a short one, or pegged for one over its hand's value): from this seat's
    #: claims by opponents (given), and by this seat from theirs (taken).
    missed: int = 0
    muggins_given: int = 0
    muggins_taken: int = 0


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
        return cls([SeatTally(**item) for item in data])

    def to_list(self) -> list[dict[str, Any]]:
        """JSON-ready data."""
        return [asdict(seat) for seat in self.seats]

    def add(self, events: Iterable[Event]) -> None:
        """Count the points of ``events`` to the seats that scored them (his heels and the
        points for last count with the pegging; points taken from wrong claims are kept apart), and
        each hand's worth (its best, its 29s, and what a claim missed) from its show."""
        for event in events:
            if isinstance(event, Shown):
                self._shown(event)
            elif isinstance(event, (Mugginsed, Overclaimed)):
                self.seats[event.seat].muggins_taken += event.points
                self.seats[event.owner].muggins_given += event.points
            scored = points_scored(event)
            if scored is None or scored.source is PointSource.MUGGINS:
                continue
            seat = self.seats[scored.seat]
            if scored.source in (PointSource.PEGGING, PointSource.HEELS, PointSource.FOR_LAST):
                seat.pegging += scored.points
            elif scored.source is PointSource.CRIB:
                seat.crib += scored.points
            else:
                seat.hand += scored.points
                seat.deals += 1

    def _shown(self, event: Shown) -> None:
        """A hand or crib shown: its true worth, whoever counted it (a claim is in ``missed``)."""
        seat = self.seats[event.seat]
        worth = event.score.total
        seat.missed += event.missed
        if worth == PERFECT_HAND and len(event.cards) == PERFECT_SIZE:
            seat.twenty_nines += 1
        if not event.crib and (seat.best_hand_cards is None or worth > seat.best_hand):
            seat.best_hand = worth
            seat.best_hand_cards = f"{cards_str(event.cards)} + {event.starter}"
