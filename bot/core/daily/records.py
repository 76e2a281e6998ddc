"""What the store keeps of the discard of the day (issue 23), and what the core asks of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["DailyAnswer", "DailyRecords"]


@dataclass(frozen=True, slots=True)
class DailyAnswer:
    """One person's answer to a server's discard of the day: the two cards thrown (codes,
    space-separated), their expected points, the best split's, and the choice's rank among
    the fifteen (1: the best)."""

    guild_id: int
    day: str
    user_id: int
    name: str
    thrown: str
    points: float
    best: float
    rank: int
    answered_at: float


class DailyRecords(Protocol):
    """The discard of the day's secrets and answers (``bot.store.Store`` has them)."""

    async def daily_secret(self, guild_id: int, fresh: str) -> str: ...

    async def save_daily(self, answer: DailyAnswer) -> bool: ...

    async def daily_answer(self, guild_id: int, day: str, user_id: int) -> DailyAnswer | None: ...

    async def daily_board(self, guild_id: int, day: str) -> list[DailyAnswer]: ...

    async def daily_days(self, guild_id: int, user_id: int) -> list[tuple[str, int]]: ...
