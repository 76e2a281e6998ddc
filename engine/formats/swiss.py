"""Swiss: players on equal game points meet, never the same two twice while that can be
avoided (:func:`engine.tournament.swiss_round`), for enough rounds to leave one unbeaten
player unless the organiser asks for a number; the top of the standings is the champion.

An event may end in a playoff: after its Swiss rounds the top 4 or 8 of the standings (still
in) play a knockout, seeded by their standing, and the final's winner is the champion.

>>> from engine.formats.base import Match, Progress
>>> swiss = Swiss()
>>> swiss.rounds(16), swiss.rounds(16, asked=2), swiss.rounds(16, playoff=4)
(4, 2, 6)
>>> one = (Match(1, 2, decided=True, winner=2), Match(3, 4, decided=True, winner=3))
>>> swiss.pair(Progress(seeds=(1, 2, 3, 4), played=(one,), planned=3))
((2, 3), (1, 4))
"""

from __future__ import annotations

from engine.formats.base import Pairs, Progress, TournamentFormat, register
from engine.formats.knockout import final_winner, next_knockout_round
from engine.tournament import (
    default_swiss_rounds,
    knockout_first_round,
    playoff_rounds,
    swiss_round,
)

__all__ = ["Swiss"]


def _in_playoff(progress: Progress, round_: int) -> bool:
    return bool(progress.playoff) and round_ > progress.planned - playoff_rounds(progress.playoff)


@register
class Swiss(TournamentFormat):
    """Pairing by score (see the module)."""

    name = "swiss"
    title = "Swiss"
    in_sentence = "Swiss"  # (a proper name: after Switzerland, where it was first played)
    summary = "players on equal points meet, no rematches"
    rank = 10
    takes_playoff = True

    def rounds(self, entrants: int, *, asked: int = 0, playoff: int = 0) -> int:
        """``asked`` rounds (never more than there are opponents), or enough for one unbeaten
        player (at most 9); then the playoff's."""
        swiss = min(asked, entrants - 1) if asked else default_swiss_rounds(entrants)
        return swiss + playoff_rounds(playoff)

    def pair(self, progress: Progress) -> Pairs:
        """The next Swiss round by the standings; in a playoff, the knockout's next round."""
        if not _in_playoff(progress, progress.round + 1):
            return self._swiss_round(progress)
        if _in_playoff(progress, progress.round):
            return next_knockout_round(progress)
        # The playoff's first round: the top of the standings still in, seeded by them.
        table = [s.player for s in self.standings(progress) if s.player not in progress.withdrawn]
        return knockout_first_round(table[: progress.playoff])

    def _swiss_round(self, progress: Progress) -> Pairs:
        """The players still in, paired by their game points so far (see the module)."""
        table = [s for s in self.standings(progress) if s.player not in progress.withdrawn]
        met = {frozenset((m.a, m.b)) for m in progress.matches() if m.decided and m.b is not None}
        paired = swiss_round(
            [s.player for s in table],
            points={s.player: s.points for s in table},
            played=met,
            byes={m.a for m in progress.matches() if m.b is None},
        )
        if paired.bye is None:
            return paired.pairs
        return (*paired.pairs, (paired.bye, None))

    def champion(self, progress: Progress) -> int:
        """The playoff final's winner, if there was a playoff; else the top of the table."""
        winner = final_winner(progress) if _in_playoff(progress, progress.round) else None
        return winner if winner is not None else super().champion(progress)
