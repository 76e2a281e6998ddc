"""What the core needs from a store, one protocol per job, and the refusals a store may raise.

``bot.store.Store`` is the one store (SQLite or PostgreSQL); the core may not import it (a test
guards that), so each class of the core names the part of it that it uses: the games and
their moves (:class:`GameRecords`), the messages their owners keep on Discord
(:class:`MessageRecords`), the standings (:class:`StandingsRecords`), the players' settings
(:class:`UserSettings`) and the archive of ended games (:class:`Archives`). Every write is one
transaction; a write to a game names the version it was based on and raises
:class:`VersionConflict` (changing nothing) when the game has moved on since. The methods are
documented where they are written, in ``bot.store.store``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol

from bot.core import refusals
from bot.core.daily_records import DailyRecords
from bot.core.faults import Cause, Fault
from bot.core.owners import Owner
from bot.core.records import (
    DmLink,
    GameRecord,
    GameStatus,
    MessageRecord,
    PendingPost,
    Ranked,
    RatingChange,
    ResultRecord,
    Rival,
    SeatRecord,
    Standing,
    StatsRow,
)
from bot.core.review_records import ReviewRecords
from engine.counting import Counting
from engine.outcome import Scoring

__all__ = [
    "Archives",
    "ChannelBusy",
    "CoreStore",
    "GameRecords",
    "MessageRecords",
    "StandingsRecords",
    "StoreError",
    "StoreUnavailable",
    "UnusableStore",
    "UserSettings",
    "VersionConflict",
]


class StoreError(refusals.Refused):
    """A write the store refused (nothing was written); the message is for the player."""


class VersionConflict(StoreError):
    """The game changed since it was loaded: another action got there first."""

    def __init__(self) -> None:
        super().__init__(refusals.RACED)


class ChannelBusy(StoreError):
    """The channel already has an open game."""

    def __init__(self) -> None:
        super().__init__(refusals.CHANNEL_BUSY)


class StoreUnavailable(StoreError, Fault):
    """The database could not carry out a read or a write: its storage is full
    (:attr:`Cause.FULL`) or it cannot be reached (:attr:`Cause.UNREACHABLE`). Nothing was
    written; ``detail`` is what the driver said."""

    def __init__(self, cause: Cause, detail: str) -> None:
        Fault.__init__(self, cause, detail)


class UnusableStore(Exception):
    """The store cannot be opened for use as it is: the file is not a database, is damaged,
    cannot be written, or was made by a newer release (``bot.store.NewerSchema``). ``str()``
    says what is wrong and what to do, in words for whoever runs the bot (the caller names the
    setting). Nothing was changed."""


class GameRecords(Protocol):
    """Games, their seats and their action logs."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        creator: SeatRecord,
        num_players: int,
        target: int,
        now: float,
        vs_computer: bool = ...,
        scoring: Scoring = ...,
        counting: Counting = ...,
        private: bool = ...,
        fill: Callable[[GameRecord], Sequence[SeatRecord]] | None = ...,
        deal: Callable[[GameRecord], Awaitable[tuple[str, Sequence[str]]]] | None = ...,
        answered: Callable[[GameRecord], MessageRecord | None] | None = ...,
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
        answered: MessageRecord | None = ...,
    ) -> int: ...

    async def save(
        self,
        game_id: int,
        version: int,
        *,
        now: float,
        status: GameStatus,
        snapshot: str | None = ...,
        actions: Sequence[str] = ...,
        results: Sequence[ResultRecord] = ...,
        end_note: str | None = ...,
        answered: MessageRecord | None = ...,
    ) -> int: ...

    async def recent_games(self, since: float) -> list[GameRecord]: ...


class MessageRecords(Protocol):
    """The Discord messages each owner keeps, and what the keeper knows of the players' DMs."""

    async def messages(self, owner: Owner) -> dict[str, MessageRecord]: ...

    async def set_messages(
        self,
        messages: Sequence[tuple[Owner, MessageRecord]],
        *,
        posted: Sequence[tuple[Owner, str]] = ...,
    ) -> None: ...

    async def set_answered(self, owner: Owner, message: MessageRecord) -> None: ...

    async def forget_look(self, owner: Owner, key: str, version: int | None) -> None: ...

    async def doubt_look(self, owner: Owner, message_id: int, lost_since: float | None) -> bool: ...

    async def forget_message(self, owner: Owner, key: str) -> None: ...

    async def set_pending(self, owner: Owner, post: PendingPost) -> None: ...

    async def pending_posts(self, owner: Owner) -> list[PendingPost]: ...

    async def clear_pending(self, owner: Owner, key: str) -> None: ...

    async def dm_refusals(self, game_id: int) -> dict[int, int]: ...

    async def refuse_dms(self, game_id: int, seat: int, deal: int) -> None: ...

    async def dm_link(self, user_id: int) -> DmLink | None: ...

    async def set_dm_link(self, link: DmLink) -> None: ...

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]: ...


class StandingsRecords(Protocol):
    """The standings derived from the results: ratings, totals, head to head."""

    async def ranking(
        self, guild_id: int | None, *, vs_computer: bool = ..., offset: int = ..., limit: int = ...
    ) -> tuple[int, list[Ranked]]: ...

    async def standing(self, guild_id: int | None, player_id: int) -> dict[bool, Ranked]: ...

    async def tournaments_of(self, guild_id: int | None, user_id: int) -> tuple[int, int]: ...

    async def levels(self, guild_id: int | None) -> list[Standing]: ...

    async def player_stats(self, guild_id: int | None, user_id: int) -> dict[bool, StatsRow]: ...

    async def rating_history(
        self, guild_id: int | None, player_id: int, *, vs_computer: bool = ..., last: int = ...
    ) -> list[tuple[float, float]]: ...

    async def best_hands(
        self, guild_id: int | None, user_id: int, *, limit: int = ...
    ) -> list[tuple[int, str]]: ...

    async def server_points(self, guild_id: int | None) -> tuple[int, int, int, int]: ...

    async def rival(self, guild_id: int | None, user_id: int, opponent_id: int) -> Rival | None: ...


class UserSettings(Protocol):
    """What each player chose for themselves."""

    async def coach_off(self, user_ids: Iterable[int]) -> set[int]: ...

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> None: ...


class Archives(Protocol):
    """Ended games kept small: pruned to their results and one archive record."""

    async def prunable(self, before: float, *, limit: int) -> list[tuple[int, str | None]]: ...

    async def prune(
        self, records: Sequence[tuple[int, bytes | None]], *, before: float, now: float
    ) -> int: ...

    async def archived(self, game_id: int) -> bytes | None: ...

    async def reclaim(self, pages: int) -> None: ...


class CoreStore(
    GameRecords,
    MessageRecords,
    StandingsRecords,
    UserSettings,
    Archives,
    ReviewRecords,
    DailyRecords,
    Protocol,
):
    """A store as the whole core uses it (``bot.store.Store`` is one)."""
