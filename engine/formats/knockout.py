"""Knockout: seeded 1 against the lowest, the loser is out, the winners meet in bracket order
until one is left, the final's winner the champion.

A field short of a power of two gives the top seeds byes in the first round. A winner who
withdrew is not paired again; an odd one left over has a bye. A match both lost (a deadline
with the scores level, a double forfeit) sends its first player on.

>>> from engine.formats.base import Match, Progress
>>> ko = Knockout()
>>> ko.pair(Progress(seeds=(1, 2, 3)))
((1, None), (2, 3))
>>> first = (Match(1, None, decided=True, winner=1), Match(2, 3, decided=True, winner=3))
>>> ko.pair(Progress(seeds=(1, 2, 3), played=(first,), planned=2))
((1, 3),)
"""

from __future__ import annotations

from engine.formats.base import Pairs, Progress, TournamentFormat, register
from engine.tournament import knockout_first_round, knockout_next_round, knockout_rounds

__all__ = ["Knockout", "next_knockout_round"]


def next_knockout_round(progress: Progress) -> Pairs:
    """The round after the one being played in a knockout (or a playoff): its winners still
    in, in bracket order, in twos; an odd one left over has a bye."""
    winners = [m.winner if m.winner is not None else m.a for m in progress.last]
    alive = [w for w in winners if w not in progress.withdrawn]
    pairs: Pairs = knockout_next_round(alive)
    if len(alive) % 2:
        pairs += ((alive[-1], None),)
    return pairs


def final_winner(progress: Progress) -> int | None:
    """The winner of the round being played when it is a final (one table, a winner)."""
    final = progress.last
    if len(final) == 1 and final[0].winner is not None:
        return final[0].winner
    return None


@register
class Knockout(TournamentFormat):
    """A seeded single-elimination bracket (see the module)."""

    name = "knockout"
    title = "Knockout"
    summary = "seeded, the loser is out"
    rank = 30
    seeded_by_rating = True

    def rounds(self, entrants: int, *, asked: int = 0, playoff: int = 0) -> int:
        """Until one is left (``asked`` and ``playoff`` do not apply)."""
        return knockout_rounds(entrants)

    def pair(self, progress: Progress) -> Pairs:
        """Round 1 by seed, then the winners in bracket order."""
        if progress.round == 0:
            return knockout_first_round(progress.active)
        return next_knockout_round(progress)

    def champion(self, progress: Progress) -> int:
        """The final's winner (the top of the standings if the final had none)."""
        winner = final_winner(progress)
        return winner if winner is not None else super().champion(progress)
