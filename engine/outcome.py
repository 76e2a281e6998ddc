"""How a game ends: the winner, the final scores and the game points (win, skunk, lurch).

>>> game_points(121, 95)
(1, 'win')
>>> game_points(121, 90)
(2, 'skunk')
>>> game_points(121, 60)
(3, 'double_skunk')
>>> game_points(61, 30)
(2, 'lurch')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["TARGETS", "GameResult", "game_points", "make_result"]

#: The two game lengths the engine plays: twice round the board, and once round ("61 up").
TARGETS = (121, 61)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game.

    ``winner`` is a side (see ``Game.side_of``), ``scores`` every side's final score,
    ``game_points`` what the win is worth, ``reason`` ``"target"`` or ``"resigned"`` and
    ``kind`` ``"win"``, ``"skunk"``, ``"double_skunk"`` or ``"lurch"``.
    """

    winner: int
    scores: tuple[int, ...]
    game_points: int
    reason: str
    kind: str

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
            reason=str(data["reason"]),
            kind=str(data["kind"]),
        )


def game_points(target: int, loser_score: int) -> tuple[int, str]:
    """Game points and their name for a win over a loser who finished on ``loser_score``.

    In a 121 game a loser under 91 is skunked (2) and under 61 double skunked (3); in a 61
    game a loser under 31 is lurched (2). Anything else is a plain win (1).
    """
    if target == 121:
        if loser_score < 61:
            return 3, "double_skunk"
        if loser_score < 91:
            return 2, "skunk"
        return 1, "win"
    if loser_score < 31:
        return 2, "lurch"
    return 1, "win"


def make_result(target: int, scores: Sequence[int], winner: int, reason: str) -> GameResult:
    """The result of a game won by side ``winner``.

    With more than two sides the loser that decides skunks is the best of the others (second
    place), so a skunk means every other side was left behind.
    """
    loser_score = max(score for side, score in enumerate(scores) if side != winner)
    points, kind = game_points(target, loser_score)
    return GameResult(winner, tuple(scores), points, reason, kind)
