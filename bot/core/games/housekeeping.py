"""Keeping the games tidy: idle games end, and ended games are pruned after the retention.

An open game nobody has moved in for the expiry period ends with no result (its channel is told
why). A game that ended longer ago than the retention period is kept as its results and ratings plus
one archive record that replays it (:mod:`bot.core.games.archive`); its snapshot, action log and
messages are dropped. Both go through the games in batches, giving the event loop back between them:
one pass over thousands of games never holds it for long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.core.base.faults import Fault
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused
from bot.core.games import archive
from bot.core.games.endings import expired_note
from bot.core.games.games import Games
from bot.core.games.records import GameRecord, GameStatus
from bot.core.games.storage import Archives

__all__ = ["EXPIRE_BATCH", "PRUNE_BATCH", "PRUNE_PAGES", "RETENTION", "Housekeeping"]

#: How long an ended game is kept whole, by default (the setting ``RETENTION_DAYS`` overrides
#: it): then only its results and a compact record that replays it are kept.
RETENTION = timedelta(days=30)

#: Idle games read (and ended) at a time, the loop given back between batches.
EXPIRE_BATCH = 50
#: Ended games archived and pruned at a time (one transaction each), and the most pages of
#: freed space given back to the file system after each batch.
PRUNE_BATCH = 50
PRUNE_PAGES = 2000


class Housekeeping:
    """Ends idle games and prunes old ended ones."""

    def __init__(
        self,
        games: Games,
        archives: Archives,
        *,
        idle_expiry: timedelta,
        retention: timedelta | None = None,
        forget: Callable[[Owner], None] | None = None,
    ) -> None:
        """``forget`` is told of each owner pruned (what was kept in memory about its
        messages can go)."""
        self._games = games
        self._archives = archives
        self._idle_expiry = idle_expiry
        #: How long an ended game is kept whole before it is pruned (None: for ever).
        self.retention = retention
        self._forget = forget

    async def expire_idle(self, now: datetime | None = None) -> list[int]:
        """End every game idle longer than the expiry (no stats); the ids of the games ended.
        Each ended game's change is published as it is made (so its messages go out
        meanwhile)."""
        moment = now if now is not None else self._games.clock()
        cutoff = (moment - self._idle_expiry).timestamp()
        line = expired_note(self._idle_expiry)
        ended: list[int] = []
        after = 0
        store = self._games.store
        try:
            while batch := await store.idle_games(cutoff, after=after, limit=EXPIRE_BATCH):
                after = batch[-1].id
                for stale in batch:
                    if await self._expire(stale, cutoff, line):
                        ended.append(stale.id)
                await asyncio.sleep(0)
        except Fault as fault:
            self._games.faults.note(fault)  # the store failed: the next pass goes on
        return ended

    async def _expire(self, stale: GameRecord, cutoff: float, line: str) -> bool:
        """End one idle game, unless a move came since it was listed (or the store failed:
        noted, and left for the next pass)."""

        async def expire(record: GameRecord) -> bool:
            # A move may have arrived since the list was read: then it is not idle.
            if not record.is_open or record.updated_at >= cutoff:
                return False
            try:
                await self._games.close(record, GameStatus.EXPIRED, line)
            except Fault as fault:
                self._games.faults.note(fault.about(record.id))
                return False  # the store failed: tried again at the next pass
            except Refused:
                return False  # it moved on between the read and the write: not idle
            return True

        return await self._games.on(stale.id, expire, read=stale)

    async def prune(self, now: datetime | None = None) -> int:
        """Prune every game that ended longer ago than the retention period: keep its results
        and one archive record that replays it, drop its snapshot, action log and messages (and
        the messages of the ranked searches' cards that ended as long ago). In
        batches of :data:`PRUNE_BATCH` (the loop given back after each game's record and
        between batches), each followed by a little incremental vacuum. Returns how many games
        were pruned (none without a retention)."""
        if self.retention is None:
            return 0
        moment = now if now is not None else self._games.clock()
        cutoff = (moment - self.retention).timestamp()
        try:
            # The ranked cards of searches ended as long ago go too (no game's, so no game's
            # pruning takes them).
            for entry_id in await self._archives.forget_cards(cutoff):
                if self._forget is not None:
                    self._forget(Owner.ranked(entry_id))
            return await self._prune(cutoff)
        except Fault as fault:
            self._games.faults.note(fault)  # the store failed: the next pass goes on
            return 0

    async def _prune(self, cutoff: float) -> int:
        """Prune the games that ended before ``cutoff``; how many."""
        pruned = 0
        while batch := await self._archives.prunable(cutoff, limit=PRUNE_BATCH):
            records = []
            for game_id, text in batch:
                # A record is checked by replaying the game (a few ms of engine work): made
                # here one at a time, the loop given back after each. (On a worker thread it
                # would hold the GIL against the loop, and the loop waits longer that way.)
                records.append((game_id, None if text is None else archive.compact(text)))
                await asyncio.sleep(0)
            done = await self._archives.prune(records, before=cutoff, now=self._games.now())
            if done == 0:
                break  # every game of the batch changed meanwhile (they are not ended now)
            pruned += done
            for game_id, _ in batch:
                self._games.feed.forget(Owner.game(game_id))
                if self._forget is not None:
                    self._forget(Owner.game(game_id))
            await self._archives.reclaim(PRUNE_PAGES)
            await asyncio.sleep(0)
        return pruned
