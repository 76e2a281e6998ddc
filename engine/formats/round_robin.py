"""Round robin: everyone plays everyone once, by the circle method (one more round with an odd
number, the bye going round); the top of the standings is the champion.

The circle is made of every entrant, so a player who withdrew leaves a gap where they would
have sat: their opponent that round has a bye (at the table they would have played at).

>>> from engine.formats.base import Progress
>>> RoundRobin().pair(Progress(seeds=(1, 2, 3, 4), withdrawn=frozenset({4})))
((1, None), (2, 3))
"""

from __future__ import annotations

from engine.formats.base import Pairs, Progress, TournamentFormat, register
from engine.tournament import round_robin_round, round_robin_rounds

__all__ = ["RoundRobin"]


@register
class RoundRobin(TournamentFormat):
    """Everyone meets everyone (see the module)."""

    name = "round_robin"
    title = "Round robin"
    summary = "everyone plays everyone"
    rank = 20

    def rounds(self, entrants: int, *, asked: int = 0, playoff: int = 0) -> int:
        """One round per opponent, one more with an odd number (``asked`` and ``playoff`` do
        not apply)."""
        return round_robin_rounds(entrants)

    def pair(self, progress: Progress) -> Pairs:
        """The next turn of the circle, without those who withdrew."""
        pairs: list[tuple[int, int | None]] = []
        for a, b in round_robin_round(progress.seeds, progress.round):
            here = [p for p in (a, b) if p is not None and p not in progress.withdrawn]
            if len(here) == 2:
                pairs.append((here[0], here[1]))
            elif here:
                pairs.append((here[0], None))
        return tuple(pairs)
