"""A started game for a page: from its snapshot, or from its archive once it was pruned."""

from __future__ import annotations

import asyncio

from bot.core.games import archive
from bot.core.games.games import Games, Loaded
from bot.core.games.records import GameRecord, GameStatus
from bot.core.store import CoreStore

__all__ = ["load_started"]


async def load_started(games: Games, store: CoreStore, record: GameRecord) -> Loaded | None:
    """The started game of ``record`` (None for a lobby, or a pruned game with no archive); an
    archive is restored on a worker thread (a whole game is replayed)."""
    if record.status is GameStatus.LOBBY:
        return None
    if record.snapshot is not None:
        return games.loaded.load(record)
    kept = await store.archived(record.id)
    if kept is None:
        return None
    found = await asyncio.to_thread(archive.restore, kept)
    return Loaded(record, found.game, found.tally, found.log, found.shuffles, found.seeds)
