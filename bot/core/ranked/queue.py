"""The ranked queue: players join it from wherever they are, and are paired two by two.

A player who joins is paired at once with the best opponent already waiting within the window
(:func:`bot.core.ranked.matching.pick`), in the transaction that queues them, in whichever
process took their command (a candidate another pairing holds that moment is passed over: the
newcomer takes the next, or waits for the sweep); the process
that sends sweeps the queue every :data:`SWEEP_EVERY` seconds (:meth:`Matchmaker.sweep`): it
ends the searches that waited :data:`~bot.core.ranked.matching.SEARCH_AT_MOST`, and pairs
those the widening windows now allow (:func:`bot.core.ranked.matching.pairs`). Every pairing is
one transaction that takes both entries or neither (:meth:`QueueStore.pair_entries`), so two
processes pairing at once pair nobody twice; one that finds a candidate gone tries the next.

Each change of an entry is published on the feed (its card is drawn again, and the referee
hears of a new match); on PostgreSQL the store announces it to the other processes as well.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner
from bot.core.ranked.matching import SEARCH_AT_MOST, pairs, pick
from bot.core.ranked.records import EntryRecord, EntryStatus, MatchRecord, Search
from bot.core.ranked.storage import Card, Joined, QueueStore

__all__ = ["CANDIDATES", "JOINS_AT_ONCE", "SWEEP_EVERY", "Matchmaker"]

#: How many waiting players nearest in skill, on each side, a newcomer is compared with.
CANDIDATES = 24
#: How often the process that sends sweeps the queue.
SWEEP_EVERY = 2.0
#: Players joined (each a transaction of a few statements) at once in a process, at most: a
#: crowd joining at once queues here, not for the database's connections, which the rest of
#: the bot (the moves, the sender's lease) keeps the use of meanwhile.
JOINS_AT_ONCE = 3


class Matchmaker:
    """Puts players in the queue, takes them out, and pairs them."""

    def __init__(self, store: QueueStore, feed: ChangeFeed, clock: Callable[[], float]) -> None:
        self._store = store
        self._feed = feed
        self._clock = clock
        self._joining = asyncio.Semaphore(JOINS_AT_ONCE)

    def published(self, entries: Sequence[EntryRecord]) -> None:
        """Each entry changed: on the feed (its card is drawn again; the referee hears)."""
        for entry in entries:
            self._feed.publish(Change(Owner.ranked(entry.id), entry.version, entry.channel_id))

    async def join(self, search: Search, card: Card) -> Joined:
        """A player joins the queue from their place and is paired at once, in the same
        transaction, with the best opponent waiting in the window that no other pairing holds
        (the one who waited sits first); never their last opponent. ``card``: the message that
        answers them, drawn from the entry as it ends, kept with it. The entry, its match if
        one was made, and the entries changed. Raises
        :class:`~bot.core.ranked.records.AlreadyRanked`."""
        async with self._joining:
            now = self._clock()
            return await self._store.queue_entry(
                search,
                now=now,
                card=card,
                pick=lambda entry, found, blocks: pick(entry, found, now, blocks),
                candidates=CANDIDATES,
            )

    async def stop(
        self, entry_id: int, status: EntryStatus = EntryStatus.STOPPED
    ) -> EntryRecord | None:
        """End a search unmatched; the entry then (None: it was not searching any more)."""
        ended = await self._store.end_search(entry_id, status, now=self._clock())
        if ended is not None:
            self.published([ended])
        return ended

    async def sweep(self) -> list[MatchRecord]:
        """End the searches that waited too long, and pair whom the windows now allow; the
        matches made."""
        now = self._clock()
        waiting: list[EntryRecord] = []
        for entry in await self._store.searching_entries():
            if now - entry.queued_at >= SEARCH_AT_MOST:
                await self.stop(entry.id, EntryStatus.EXPIRED)
            else:
                waiting.append(entry)
        if len(waiting) < 2:
            return []
        blocks = await self._store.blocks_among(sorted({e.user_id for e in waiting}))
        made: list[MatchRecord] = []
        for first, second in pairs(waiting, now, blocks):
            paired = await self._store.pair_entries(first.id, second.id, now=now)
            if paired is not None:
                made.append(paired[0])
                self.published(paired[1])
        return made
