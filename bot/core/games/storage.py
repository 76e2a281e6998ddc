"""What the games need from a store: the games and their moves (:class:`GameRecords`), the players'
settings (:class:`UserSettings`), the archive of ended games (:class:`Archives`) and the deals in
which a player's DMs were refused (:class:`DmRefusals`). Every write
is one transaction; a write to a game names the version it was based on and raises
:class:`~bot.core.base.store_errors.VersionConflict` (changing nothing) when the game has moved
on since. The methods are documented where they are written, in ``bot.store.store``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol

from bot.core.base.delivery import AnswerKept
from bot.core.base.owners import Owner
from bot.core.games.records import (
    GameChange,
    GameRecord,
    NewGame,
    Options,
    RatingChange,
    SeatRecord,
    SeriesResult,
)

__all__ = ["Archives", "DmRefusals", "GameRecords", "UserSettings"]


class GameRecords(Protocol):
    """Games, their seats and their action logs."""

    async def create_game(
        self,
        game: NewGame,
        *,
        now: float,
        fill: Callable[[GameRecord], Sequence[SeatRecord]] | None = ...,
        deal: Callable[[GameRecord], Awaitable[tuple[str, Sequence[str]]]] | None = ...,
        answered: Callable[[GameRecord], AnswerKept | None] | None = ...,
    ) -> GameRecord: ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None: ...

    async def last_game_in_channel(self, channel_id: int) -> GameRecord | None: ...

    async def idle_games(
        self, before: float, *, after: int = ..., limit: int | None = ...
    ) -> list[GameRecord]: ...

    async def set_seats(
        self,
        game_id: int,
        version: int,
        seats: Sequence[SeatRecord],
        *,
        now: float,
        answered: AnswerKept | None = ...,
        options: Options | None = ...,
    ) -> int: ...

    async def save(
        self,
        game_id: int,
        version: int,
        change: GameChange,
        *,
        now: float,
        answered: AnswerKept | None = ...,
        answered_by: Owner | None = ...,
    ) -> int: ...

    async def recent_games(self, since: float) -> list[GameRecord]: ...

    async def series_results(self, game_id: int) -> list[SeriesResult]: ...

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]: ...

    async def take_hint(self, game_id: int, seat: int) -> None: ...

    async def hints_taken(self, game_id: int) -> dict[int, int]: ...

    async def open_lesson(self, user_id: int) -> GameRecord | None: ...

    async def played_now(self, user_id: int) -> list[GameRecord]: ...

    async def has_played(self, user_id: int) -> bool: ...


class UserSettings(Protocol):
    """What each player chose for themselves."""

    async def coach_settings(self, user_ids: Iterable[int]) -> dict[int, tuple[int, bool]]: ...

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> int: ...

    async def offer_learn(self, user_id: int, *, now: float) -> bool: ...


class Archives(Protocol):
    """Ended games kept small: pruned to their results and one archive record."""

    async def prunable(self, before: float, *, limit: int) -> list[tuple[int, str | None]]: ...

    async def prune(
        self, records: Sequence[tuple[int, bytes | None]], *, before: float, now: float
    ) -> int: ...

    async def archived(self, game_id: int) -> bytes | None: ...

    async def forget_cards(self, before: float) -> list[int]: ...

    async def reclaim(self, pages: int) -> None: ...


class DmRefusals(Protocol):
    """The deal in which Discord first refused each player's DMs in a game (no DM is tried to
    them again in that game: their hands go by the table and ``/cribbage hand``)."""

    async def dm_refusals(self, game_id: int) -> dict[int, int]: ...

    async def refuse_dms(self, game_id: int, seat: int, deal: int) -> None: ...
