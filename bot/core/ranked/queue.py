"""The ranked queue: players join it from wherever they are, and are paired two by two.

A player who joins is paired at once with the best opponent already waiting within the window
(:func:`bot.core.ranked.matching.pick`), in whichever process took their command; the process
that sends sweeps the queue every :data:`SWEEP_EVERY` seconds (:meth:`Matchmaker.sweep`): it
ends the searches that waited :data:`~bot.core.ranked.matching.SEARCH_AT_MOST`, and pairs
those the widening windows now allow (:func:`bot.core.ranked.matching.pairs`). Every pairing is
one transaction that takes both entries or neither (:meth:`RankedStore.pair_entries`), so two
processes pairing at once pair nobody twice; one that finds a candidate gone tries the next.

Each change of an entry is published on the feed (its card is drawn again, and the referee
hears of a new match); on PostgreSQL the store announces it to the other processes as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord
from bot.core.ranked.matching import SEARCH_AT_MOST, pairs, pick
from bot.core.ranked.records import EntryRecord, EntryStatus, MatchRecord, PlaceKind
from bot.core.ranked.storage import RankedStore
from bot.core.standings.ratings import MODEL

__all__ = ["CANDIDATES", "SWEEP_EVERY", "Matchmaker"]

#: How many waiting players nearest in skill, on each side, a newcomer is compared with.
CANDIDATES = 24
#: How often the process that sends sweeps the queue.
SWEEP_EVERY = 2.0


class Matchmaker:
    """Puts players in the queue, takes them out, and pairs them."""

    def __init__(self, store: RankedStore, feed: ChangeFeed, clock: Callable[[], float]) -> None:
        self._store = store
        self._feed = feed
        self._clock = clock

    def published(self, entries: Sequence[EntryRecord]) -> None:
        """Each entry changed: on the feed (its card is drawn again; the referee hears)."""
        for entry in entries:
            self._feed.publish(Change(Owner.ranked(entry.id), entry.version, entry.channel_id))

    async def join(
        self,
        *,
        user_id: int,
        name: str,
        avatar: str | None,
        guild_id: int | None,
        channel_id: int,
        place: PlaceKind,
        card: Callable[[EntryRecord], MessageRecord | None],
    ) -> EntryRecord:
        """``user_id`` joins the queue from their place, matched on the skill of their latest
        season (a newcomer's otherwise); their entry, once paired if a waiting player fits
        already. ``card``: the message that answers them, kept with the entry. Raises
        :class:`~bot.core.ranked.records.AlreadyRanked`."""
        store = self._store
        rating = await store.latest_rating(user_id)
        mu = rating.mu if rating is not None else float(MODEL.mu)
        entry = await store.queue_entry(
            user_id=user_id,
            name=name,
            avatar=avatar,
            guild_id=guild_id,
            channel_id=channel_id,
            place=place,
            mu=mu,
            last_opponent=await store.last_opponent(user_id),
            now=self._clock(),
            card=card,
        )
        return entry

    async def pair_now(self, entry: EntryRecord) -> MatchRecord | None:
        """Pair a newcomer with the best opponent waiting in the window, if any (the one who
        waited sits first)."""
        store = self._store
        candidates = await store.nearest_searching(entry.mu, limit=CANDIDATES)
        if not any(c.id != entry.id for c in candidates):
            return None
        blocks = await store.blocks_among(sorted({c.user_id for c in candidates}))
        for other in pick(entry, candidates, self._clock(), blocks):
            made = await store.pair_entries(other.id, entry.id, now=self._clock())
            if made is not None:
                match, entries = made
                self.published(entries)
                return match
        return None

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
