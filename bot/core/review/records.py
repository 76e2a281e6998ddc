"""What the store keeps of a game's review (issue 23), and what the core asks of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["ReviewRecords", "ReviewRow"]


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """One seat's review of one game as kept: the deals it covers (all of them when
    ``final``), its figures, and the review itself (``data``: JSON of
    :class:`engine.review.GameReview`)."""

    game_id: int
    seat: int
    user_id: int | None
    guild_id: int | None
    deals: int
    final: bool
    decisions: int
    accurate: int
    given_up: float
    data: str
    made_at: float


class ReviewRecords(Protocol):
    """The reviews kept with the games (``bot.store.Store`` has them)."""

    async def review(self, game_id: int, seat: int) -> ReviewRow | None: ...

    async def save_review(self, row: ReviewRow) -> None: ...

    async def reviews_owed(self, since: float, *, limit: int) -> list[int]: ...

    async def reviews_done(self, game_id: int, outcome: str, *, now: float) -> None: ...

    async def review_totals(
        self, guild_id: int | None, user_id: int, *, last: int
    ) -> list[tuple[int, int, int, float]]: ...
