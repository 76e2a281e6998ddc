"""The bot's database: every query, the migrations and the version checks (SQLite today)."""

from bot.store.sqlite import (
    OPEN_STATUSES,
    ChannelBusy,
    GameRecord,
    LeaderRow,
    ResultRecord,
    SeatRecord,
    StatsRow,
    Store,
    StoreError,
    VersionConflict,
    migrations,
)

__all__ = [
    "OPEN_STATUSES",
    "ChannelBusy",
    "GameRecord",
    "LeaderRow",
    "ResultRecord",
    "SeatRecord",
    "StatsRow",
    "Store",
    "StoreError",
    "VersionConflict",
    "migrations",
]
