"""What the standings need from a store: the leaderboard, a player's stats and head to head, and
the ratings' changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.core.standings.records import Ranked, Rival, Standing

__all__ = ["StandingsRecords"]


class StandingsRecords(Protocol):
    """The standings derived from the results: ratings, totals, head to head (each variant's
    tables apart, the standard game's by default)."""

    async def ranking(
        self,
        guild_id: int | None,
        *,
        vs_computer: bool = ...,
        offset: int = ...,
        limit: int = ...,
        variant: str = ...,
    ) -> tuple[int, list[Ranked]]: ...

    async def standing(
        self, guild_id: int | None, player_id: int, variant: str = ...
    ) -> dict[bool, Ranked]: ...

    async def variants_played(self, guild_id: int | None, player_id: int) -> list[str]: ...

    async def tournaments_of(self, guild_id: int | None, user_id: int) -> tuple[int, int]: ...

    async def levels(self, guild_id: int | None, variant: str = ...) -> list[Standing]: ...

    async def rating_history(
        self,
        guild_id: int | None,
        player_id: int,
        *,
        vs_computer: bool = ...,
        last: int = ...,
        variant: str = ...,
    ) -> list[tuple[float, float]]: ...

    async def best_hands(
        self, guild_id: int | None, user_id: int, *, limit: int = ...
    ) -> list[tuple[int, str, int | None]]: ...

    async def game_channels(self, game_ids: Sequence[int]) -> dict[int, int]: ...

    async def game_targets(self, game_ids: Sequence[int]) -> dict[int, int]: ...

    async def server_points(
        self, guild_id: int | None, variant: str = ...
    ) -> tuple[int, int, int, int]: ...

    async def rival(self, guild_id: int | None, user_id: int, opponent_id: int) -> Rival | None: ...
