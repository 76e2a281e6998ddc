"""The work of a review, as the worker process does it: deal the game again from its
recorded shuffles and judge each decision of a seat (:func:`engine.review.review_game`).

A request holds only plain data (names, options, shuffles, the action log), so it pickles
small for the worker; the answer is the :class:`~engine.review.GameReview`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.deck.shuffles import ScriptedRandom
from engine.game import Game
from engine.review import GameReview, review_game
from engine.rules import Rules

__all__ = ["ReviewRequest", "make_review"]


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """What a review of ``seat`` needs: the game's players and rules (as saved: plain
    data), every shuffle it had, its action log, how far to go (``through_deal``; None: the
    whole game) and the seed of the play-outs."""

    players: tuple[str, ...]
    rules: dict[str, Any]
    shuffles: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]
    seat: int
    through_deal: int | None
    seed: int
    #: The seat the table gave the first deal without a cut (a following game's), if any.
    dealer: int | None = None

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
            players=tuple(game.state.players),
            rules=game.state.rules.to_dict(),
            shuffles=tuple(shuffles),
            actions=tuple(dict(action) for action in game.actions),
            seat=seat,
            through_deal=through_deal,
            seed=seed,
            dealer=game.state.given_dealer,
        )


def make_review(request: ReviewRequest) -> GameReview:
    """The review ``request`` asks for (run in the worker process)."""
    return review_game(
        request.players,
        request.actions,
        rng=ScriptedRandom(request.shuffles),
        seats={request.seat},
        seed=request.seed,
        rules=Rules.from_dict(request.rules),
        through_deal=request.through_deal,
        dealer=request.dealer,
    )
