"""How a game ends: the winner, the final scores and the game points (win, lurch, skunk).

Game points follow the lurch by default, as the classic two-player rules say: a loser under
61 in a 121 game, or under 31 in a 61 game, is lurched and the winner scores 2. The American
skunk scale is a table option.

>>> game_points(121, 60)
(2, <ResultKind.LURCH: 'lurch'>)
>>> game_points(121, 61)
(1, <ResultKind.WIN: 'win'>)
>>> game_points(121, 90, Scoring.SKUNK)
(2, <ResultKind.SKUNK: 'skunk'>)
>>> game_points(121, 60, Scoring.SKUNK)
(3, <ResultKind.DOUBLE_SKUNK: 'double_skunk'>)
>>> game_points(61, 30), game_points(61, 30, Scoring.SKUNK)
((2, <ResultKind.LURCH: 'lurch'>), (2, <ResultKind.SKUNK: 'skunk'>))
>>> ResultKind.LURCH == "lurch"
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "TARGETS",
    "EndReason",
    "GameResult",
    "ResultKind",
    "Scoring",
    "game_points",
    "make_result",
]

#: The two game lengths the engine plays: twice round the board, and once round ("61 up").
TARGETS = (121, 61)


class Scoring(StrEnum):
    """The rule for game points, chosen per game. Members equal their values, which is what
    saved games and the store hold.

    ``LURCH`` (the default, as the rules documents say): a loser under half the target is
    lurched, 2 game points. ``SKUNK`` (the American scale): in a 121 game a loser under 91 is
    skunked (2) and under 61 double skunked (3); in a 61 game under 31 is skunked (2).
    """

    LURCH = "lurch"
    SKUNK = "skunk"


#: Where a loser must be to be lurched (under it), by target.
LURCH_LINE = {121: 61, 61: 31}
#: Under the skunk scale, a 121 game's loser under this is skunked (under 61 double skunked).
SKUNK_LINE_121 = 91


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


def game_points(
    target: int, loser_score: int, scoring: Scoring = Scoring.LURCH
) -> tuple[int, ResultKind]:
    """Game points and their name for a win over a loser who finished on ``loser_score``.

    Under the lurch (the default) a loser under 61 in a 121 game, or under 31 in a 61 game,
    is lurched (2). Under the skunk scale a 121 game's loser under 91 is skunked (2) and under
    61 double skunked (3), a 61 game's loser under 31 skunked (2). Anything else is a plain
    win (1).
    """
    half = LURCH_LINE[target]
    if scoring == Scoring.LURCH:
        return (2, ResultKind.LURCH) if loser_score < half else (1, ResultKind.WIN)
    if target == 121:
        if loser_score < half:
            return 3, ResultKind.DOUBLE_SKUNK
        if loser_score < SKUNK_LINE_121:
            return 2, ResultKind.SKUNK
    elif loser_score < half:
        return 2, ResultKind.SKUNK
    return 1, ResultKind.WIN


def make_result(
    target: int,
    scores: Sequence[int],
    winner: int,
    reason: EndReason,
    scoring: Scoring = Scoring.LURCH,
) -> GameResult:
    """The result of a game won by side ``winner``, with game points by ``scoring``.

    With more than two sides the loser that decides a lurch or skunk is the best of the
    others (second place), so a lurch means every other side was left behind. A resignation
    is scored the same way, at the scores as they stand.
    """
    loser_score = max(score for side, score in enumerate(scores) if side != winner)
    points, kind = game_points(target, loser_score, scoring)
    return GameResult(winner, tuple(scores), points, reason, kind)
