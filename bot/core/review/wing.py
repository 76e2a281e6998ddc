"""The reviews put together: a player's review of a game (made in the worker), every finished
game's people reviewed in the background, and ``/cribbage verify``'s checks of the deals."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.base.feed import ChangeFeed
from bot.core.games.games import Games
from bot.core.review.automatic import AutoReviews
from bot.core.review.review import Reviews, ReviewStore
from bot.core.review.verify import ShuffleChecks
from bot.core.settings import Given

__all__ = ["ReviewWing", "review_wing"]


@dataclass(frozen=True, slots=True)
class ReviewWing:
    """The reviews' parts."""

    reviews: Reviews
    auto_reviews: AutoReviews
    shuffles: ShuffleChecks


def review_wing(store: ReviewStore, feed: ChangeFeed, games: Games, given: Given) -> ReviewWing:
    """The reviews on ``store``, made in ``given.thinking``'s worker (on the loop without), a
    game shown to those ``given.membership`` says see where it was played; the finished games
    heard of on ``feed``."""
    reviews = Reviews(games, store, given.clock, given.thinking, given.membership)
    return ReviewWing(
        reviews=reviews,
        auto_reviews=AutoReviews(reviews, games, store, feed, clock=given.stamp),
        shuffles=ShuffleChecks(reviews),
    )
