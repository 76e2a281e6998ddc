"""A store as the whole core uses it: every wing's part in one protocol (``bot.store.Store`` is
one); each class of the core names only the part it uses.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.daily.records import DailyRecords
from bot.core.games.storage import Archives, DmRefusals, GameRecords, UserSettings
from bot.core.ledger.storage import MessageRecords
from bot.core.review.records import ReviewRecords
from bot.core.standings.storage import StandingsRecords

__all__ = ["CoreStore"]


class CoreStore(
    GameRecords,
    DmRefusals,
    MessageRecords,
    StandingsRecords,
    UserSettings,
    Archives,
    ReviewRecords,
    DailyRecords,
    Protocol,
):
    """A store as the whole core uses it (``bot.store.Store`` is one)."""
