"""The work of a review, as the worker process does it: deal the game again from its
recorded shuffles and judge each decision of a seat (:func:`engine.review.review_game`).

A request holds only plain data (names, options, shuffles, the action log), so it pickles
small for the worker; the answer is the :class:`~engine.review.GameReview`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.base.shuffles import ScriptedRandom
from engine.counting import Counting
from engine.game import Game
from engine.outcome import Scoring
from engine.review import GameReview, review_game

__all__ = ["ReviewRequest", "make_review"]


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """What a review of ``seat`` needs: the game's players and options, every shuffle it
    had, its action log, how far to go (``through_deal``; None: the whole game) and the seed
    of the play-outs."""

    players: tuple[str, ...]
    target: int
    scoring: str
    counting: str
    shuffles: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]
    seat: int
    through_deal: int | None
    seed: int

    @classmethod
    def of(
        cls,
        game: Game,
        shuffles: Sequence[str],
        *,
        seat: int,
        through_deal: int | None,
        seed: int,
    ) -> ReviewRequest:
        """The request for a review of ``seat`` in ``game``, dealt from ``shuffles``."""
        return cls(
            players=tuple(game.players),
            target=game.target,
            scoring=game.scoring.value,
            counting=game.counting.value,
            shuffles=tuple(shuffles),
            actions=tuple(dict(action) for action in game.actions),
            seat=seat,
            through_deal=through_deal,
            seed=seed,
        )


def make_review(request: ReviewRequest) -> GameReview:
    """The review ``request`` asks for (run in the worker process)."""
    return review_game(
        request.players,
        request.actions,
        rng=ScriptedRandom(request.shuffles),
        seats={request.seat},
        seed=request.seed,
        target=request.target,
        scoring=Scoring(request.scoring),
        counting=Counting(request.counting),
        through_deal=request.through_deal,
    )
