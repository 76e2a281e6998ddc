"""How a game ends: the winner, the final scores and the game points (win, lurch, skunk).

Game points follow the lurch by default, as the classic two-player rules say: a loser under
half the target is lurched and the winner scores 2. The American skunk scale is a table
option. The lines are the game's rules' (:meth:`engine.rules.Rules.game_points`), derived
from the target; this module names the outcomes.

>>> ResultKind.LURCH == "lurch"
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["EndReason", "GameResult", "ResultKind", "Scoring", "conceded_to", "final_scores"]


class Scoring(StrEnum):
    """The rule for game points, chosen per game. Members equal their values, which is what
    saved games and the store hold.

    ``LURCH`` (the default, as the rules documents say): a loser under half the target is
    lurched, 2 game points. ``SKUNK`` (the American scale): in a 121 game a loser under 91 is
    skunked (2) and under 61 double skunked (3); in a 61 game under 31 is skunked (2).
    """

    LURCH = "lurch"
    SKUNK = "skunk"


class ResultKind(StrEnum):
    """What a win is called, by how far behind the loser was. Members equal their values,
    which is what saved games and result rows hold."""

    WIN = "win"
    SKUNK = "skunk"
    DOUBLE_SKUNK = "double_skunk"
    LURCH = "lurch"


class EndReason(StrEnum):
    """Why a game ended: a side reached the target, or a player resigned."""

    TARGET = "target"
    RESIGNED = "resigned"


def conceded_to(scores: Sequence[int], loser: int) -> int:
    """The side that wins when side ``loser`` resigns at ``scores`` (each side's): the best
    of the other sides, on a tie the one nearest the resigner's left. The engine ends a
    resigned game by it, and ``/cribbage resign``'s question says who would win by it.

    >>> conceded_to([40, 52, 52], 0), conceded_to([40, 52, 52], 1)
    (1, 2)
    """
    sides = len(scores)
    others = [(loser + k) % sides for k in range(1, sides)]
    return max(others, key=lambda side: (scores[side], -others.index(side)))


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game.

    ``winner`` is a side (see ``Game.side_of``), ``scores`` every side's final score,
    ``game_points`` what the win is worth, ``reason`` why the game ended and ``kind`` what
    the win is called.
    """

    winner: int
    scores: tuple[int, ...]
    game_points: int
    reason: EndReason
    kind: ResultKind

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "game_points": self.game_points,
            "reason": self.reason,
            "kind": self.kind,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """Rebuild a result written by :meth:`to_dict`."""
        return cls(
            winner=int(data["winner"]),
            scores=tuple(int(s) for s in data["scores"]),
            game_points=int(data["game_points"]),
            reason=EndReason(str(data["reason"])),
            kind=ResultKind(str(data["kind"])),
        )


def final_scores(scores: Sequence[int], winner: int | None, target: int) -> tuple[int, ...]:
    """Each side's final score as players say a game's end, the one way every result, margin
    and board's words say it: the winner's at the game hole, the ``target`` it reached (a
    game to 61 won with a count that pegs past it is won "61-47": the board has no hole 62,
    whatever the pegs show), the others' as they stand. A game conceded below the target is
    said as it stood.

    >>> final_scores((62, 47), 0, 61), final_scores((95, 125, 70), 1, 121)
    ((61, 47), (95, 121, 70))
    >>> final_scores((40, 52), 1, 121)
    (40, 52)
    """
    return tuple(
        min(score, target) if side == winner else score for side, score in enumerate(scores)
    )
