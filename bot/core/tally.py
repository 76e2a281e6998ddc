"""Per-seat running totals kept with a game for the stats: where each seat's points came from.

Built from public events as they happen (pegging, hands, cribs, deals, best hand, 29s) and
stored in the game's snapshot, so a finished game's result rows need no replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from engine.cards import cards_str
from engine.events import Event, PointSource, Shown, points_scored

__all__ = ["SeatTally", "Tally"]

PERFECT_HAND = 29


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
        """Count the points of ``events`` to the seats that scored them (his heels counts
        with the pegging)."""
        for event in events:
            scored = points_scored(event)
            if scored is None:
                continue
            seat = self.seats[scored.seat]
            if scored.source in (PointSource.PEGGING, PointSource.HEELS):
                seat.pegging += scored.points
                continue
            if scored.points == PERFECT_HAND:
                seat.twenty_nines += 1
            if scored.source is PointSource.CRIB:
                seat.crib += scored.points
                continue
            seat.hand += scored.points
            seat.deals += 1
            if isinstance(event, Shown) and (
                seat.best_hand_cards is None or scored.points > seat.best_hand
            ):
                seat.best_hand = scored.points
                seat.best_hand_cards = f"{cards_str(event.cards)} + {event.starter}"
