"""Keeping within Discord's rate limits before a request is made, instead of after a 429.

Discord allows a bot token 50 requests per second in all (interaction callbacks and interaction
webhooks apart) and each channel 5 new messages per 5 seconds (edits have a count of their
own). discord.py only reacts to limits once a response says they are spent; a bot that leans on
429s risks the invalid-request ban (10,000 refused requests per 10 minutes). So every request
the bot makes on its own goes through a :class:`Pacer` first: token buckets that refill
as sliding windows, one for the whole token, one per channel and kind of request, and one per
interaction token.

A request that spends its channel's allowance is held by discord.py until the channel's window
resets (up to 5 s: it sleeps before returning), and keeps its place in the global window all
that time. So the bot takes one fewer than a channel allows, and, since requests can still
arrive bunched, the last places of the global window are kept for urgent requests (what a
player waits on to move): table edits held back never fill it against the players' controls.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import AsyncIterator, Callable

from bot.core.base.timing import (
    CHANNEL_PERIOD,
    CHANNEL_WRITES_TAKEN,
    GLOBAL_TAKEN,
    WEBHOOK_PERIOD,
    WEBHOOK_WRITES,
)
from bot.core.ledger.transport import RequestKind, Unwritten

__all__ = ["Bucket", "Pacer", "RequestKind"]

#: Requests the bot allows itself in any one second, in all (see :data:`GLOBAL_TAKEN`).
GLOBAL_LIMIT = GLOBAL_TAKEN
#: Places in the global window only urgent requests (a player's controls) may take: requests
#: for the channels' tables, however many discord.py holds back at once, never take the last
#: of them, so the next player's turn never waits behind a table edit.
URGENT_RESERVE = 2
#: How often the queue is looked at again while a routine request waits for a place.
ROUTINE_LOOK = 0.02
#: How soon to look again when every place in the global window is held by a request on its way.
IN_FLIGHT_POLL = 0.005
#: New messages, and edits, per channel and period (see :data:`CHANNEL_WRITES_TAKEN`).
CHANNEL_LIMIT = CHANNEL_WRITES_TAKEN
#: Requests through one interaction's webhook (follow-ups and edits) per period.
WEBHOOK_LIMIT = WEBHOOK_WRITES
#: Buckets made between two looks for empty ones (a bucket whose window is empty is dropped:
#: it would let a request through at once anyway).
SWEEP_AFTER = 256


class Bucket:
    """At most ``limit`` requests in any ``period`` seconds (a sliding window: then any
    window Discord counts in, wherever it starts, holds no more than that either)."""

    __slots__ = ("in_flight", "limit", "period", "stamp", "times")

    def __init__(self, limit: int, period: float) -> None:
        self.limit = limit
        self.period = period
        self.times: deque[float] = deque()
        #: Requests given their turn and not answered yet (see :meth:`begin`).
        self.in_flight = 0
        self.stamp = -math.inf  # when it was last used

    def _forget(self, now: float) -> None:
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()

    def wait_for(self, now: float, limit: int | None = None) -> float:
        """Seconds until one more request may go (0 if it may go now), counting at most
        ``limit`` requests in a period (the bucket's own limit unless given)."""
        self._forget(now)
        allowed = self.limit if limit is None else limit
        held = len(self.times) + self.in_flight
        if held < allowed:
            return 0.0
        # The place that frees first for this request: once ``held - allowed + 1`` of the
        # answered ones have left the window.
        leaving = held - allowed
        if leaving >= len(self.times):
            return IN_FLIGHT_POLL  # the turns that would free it are out: look again soon
        return self.times[leaving] + self.period - now

    def room(self, now: float) -> int:
        """How many more requests may go now."""
        self._forget(now)
        return max(0, self.limit - len(self.times) - self.in_flight)

    def empty(self, now: float) -> bool:
        """Whether nothing is counted in it any more (it would let a request through at once:
        it may be dropped)."""
        self._forget(now)
        return not self.times and not self.in_flight

    def take(self, now: float) -> None:
        """Count one request (the caller waited until :meth:`wait_for` said 0)."""
        self._forget(now)
        self.times.append(now)
        self.stamp = now

    def begin(self, now: float) -> None:
        """Count one request that is on its way: it fills a place until :meth:`end`, and then
        for a period after its answer. However late a busy event loop writes it, it is still
        counted when it reaches Discord."""
        self._forget(now)
        self.in_flight += 1
        self.stamp = now

    def end(self, now: float) -> None:
        """The request counted by :meth:`begin` was answered."""
        self.in_flight -= 1
        self.times.append(now)
        self.stamp = now

    def give_back(self, taken_at: float) -> None:
        """Uncount a request counted by :meth:`take` at ``taken_at`` that never went."""
        with contextlib.suppress(ValueError):  # (already out of the window)
            self.times.remove(taken_at)

    def drop(self) -> None:
        """Uncount a request counted by :meth:`begin` that never went."""
        self.in_flight -= 1


class Pacer:
    """The buckets of one bot token: the global one, and one per (channel, kind)."""

    def __init__(
        self,
        *,
        global_limit: int = GLOBAL_LIMIT,
        channel_limit: int = CHANNEL_LIMIT,
        channel_period: float = CHANNEL_PERIOD,
        urgent_reserve: int = URGENT_RESERVE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._global = Bucket(global_limit, 1.0)
        #: How many places of the global window requests that are not urgent may hold.
        self._routine_limit = max(1, global_limit - urgent_reserve)
        self._channel_limit = channel_limit
        self._channel_period = channel_period
        self._channels: dict[tuple[int, RequestKind], Bucket] = {}
        self._webhooks: dict[str, Bucket] = {}
        self._made = 0  # buckets made since the last look for empty ones
        # Requests waiting for the global bucket: urgent ones (a player's controls) first,
        # then in the order they came; one task hands out the turns.
        self._waiting: list[tuple[int, int, asyncio.Future[None], bool]] = []
        self._tickets = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None
        #: Requests waiting for a channel's, a token's or the global count now.
        self.waiting = 0

    def _channel(self, channel_id: int, kind: RequestKind) -> Bucket:
        key = (channel_id, kind)
        bucket = self._channels.get(key)
        if bucket is None:
            self._made_one()
            bucket = Bucket(self._channel_limit, self._channel_period)
            self._channels[key] = bucket
        return bucket

    def _webhook(self, token: str) -> Bucket:
        bucket = self._webhooks.get(token)
        if bucket is None:
            self._made_one()
            bucket = Bucket(WEBHOOK_LIMIT, WEBHOOK_PERIOD)
            self._webhooks[token] = bucket
        return bucket

    def _made_one(self) -> None:
        """A bucket is about to be made: now and then, drop the buckets whose windows are
        empty (a channel or a token not used for a period), so memory holds only the buckets
        in use, however many channels and interactions pass."""
        self._made += 1
        if self._made < SWEEP_AFTER:
            return
        self._made = 0
        now = self._clock()
        for key in [k for k, b in self._channels.items() if b.empty(now)]:
            del self._channels[key]
        for token in [t for t, b in self._webhooks.items() if b.empty(now)]:
            del self._webhooks[token]

    @property
    def buckets(self) -> int:
        """How many channel and token buckets are kept (for the memory figures)."""
        return len(self._channels) + len(self._webhooks)

    def room(self, channel_id: int, kind: RequestKind) -> int:
        """How many more requests of ``kind`` ``channel_id`` takes now."""
        return self._channel(channel_id, kind).room(self._clock())

    def webhook_room(self, token: str) -> int:
        """How many more requests ``token``'s webhook takes now."""
        return self._webhook(token).room(self._clock())

    def spent_before(self, channel_id: int, kind: RequestKind, ages: list[float]) -> None:
        """Another process may have made requests of ``kind`` in ``channel_id`` this many
        seconds ago (``ages``: the sender before this one, whose counts Discord still holds):
        they are counted here too, so this one stays within what is left."""
        bucket = self._channel(channel_id, kind)
        now = self._clock()
        recent = sorted(now - age for age in ages if 0 <= age < bucket.period)
        bucket.times = deque(sorted([*bucket.times, *recent[-bucket.limit :]]))

    def channel_delay(self, channel_id: int, kind: RequestKind) -> float:
        """Seconds until ``channel_id`` takes one more request of ``kind``."""
        return self._channel(channel_id, kind).wait_for(self._clock())

    async def slot(
        self,
        channel_id: int | None,
        kind: RequestKind,
        *,
        global_limit: bool,
        urgent: bool = False,
    ) -> None:
        """Wait until a request to ``channel_id`` (None: not a channel's count) may go, then
        count it; ``global_limit`` says whether it counts toward the token's global limit
        (requests through an interaction's webhook do not); ``urgent`` ones (what a player
        waits on to move) go before the others when the global limit is what they wait for."""
        if channel_id is not None:
            await self._take(self._channel(channel_id, kind))
        if global_limit:
            await self._global_turn(urgent, hold=False)

    async def _take(self, bucket: Bucket) -> float:
        """Wait until ``bucket`` lets one more request go, then count it; when it was counted."""
        if bucket.wait_for(self._clock()) > 0:
            self.waiting += 1
            try:
                while (delay := bucket.wait_for(self._clock())) > 0:
                    await asyncio.sleep(delay)
            finally:
                self.waiting -= 1
        at = self._clock()
        bucket.take(at)
        return at

    @contextlib.asynccontextmanager
    async def turn(
        self, channel_id: int | None, kind: RequestKind, *, urgent: bool = False
    ) -> AsyncIterator[None]:
        """A request with the bot's token, made inside the block: it waits like :meth:`slot`,
        and holds its place in the global window while it is on its way and for a second after
        its answer. A busy event loop can write requests later than their turns, and bunched;
        counted this way they still reach Discord at most ``GLOBAL_LIMIT`` in any second."""
        channel = None if channel_id is None else self._channel(channel_id, kind)
        taken_at = None if channel is None else await self._take(channel)
        await self._global_turn(urgent, hold=True)
        went = True
        try:
            yield
        except Unwritten:
            went = False
            raise
        finally:
            if went:
                self._global.end(self._clock())
            else:
                # Its fence refused it before any of it went (the owner moved on while it
                # waited for its turn): Discord counted nothing. Left counted, such places held
                # the next hand's post back for seconds under quick play.
                self._global.drop()
                if channel is not None and taken_at is not None:
                    channel.give_back(taken_at)

    def _global_wait(self, urgent: bool) -> float:
        """Seconds until a request may take a place in the global window (urgent ones may
        take the reserved places too)."""
        limit = None if urgent else self._routine_limit
        return self._global.wait_for(self._clock(), limit)

    async def _global_turn(self, urgent: bool, *, hold: bool) -> None:
        # An urgent request goes ahead of any routine one waiting; a routine one keeps its
        # place in the queue.
        if urgent:
            ahead = any(w[0] == 0 and not w[2].done() for w in self._waiting)
        else:
            ahead = bool(self._waiting)
        if not ahead and self._global_wait(urgent) == 0:
            self._count(hold)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if urgent else 1, next(self._tickets), turn, hold))
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._hand_out(), name="crib-pacer")
        self.waiting += 1
        try:
            await turn
        except asyncio.CancelledError:
            if hold and turn.done() and not turn.cancelled():
                self._global.end(self._clock())  # given its turn just as it was given up
            raise
        finally:
            self.waiting -= 1

    async def _hand_out(self) -> None:
        """Give the waiting requests their turns, as fast as the global bucket refills."""
        while self._waiting:
            # While a routine request waits, an urgent one may come and go first: look again
            # soon rather than sleep the routine request's whole wait.
            while (delay := self._global_wait(urgent := self._waiting[0][0] == 0)) > 0:
                await asyncio.sleep(delay if urgent else min(delay, ROUTINE_LOOK))
            _, _, turn, hold = heapq.heappop(self._waiting)
            if turn.done():
                continue  # its request was given up (cancelled) meanwhile
            self._count(hold)
            turn.set_result(None)

    def _count(self, hold: bool) -> None:
        if hold:
            self._global.begin(self._clock())
        else:
            self._global.take(self._clock())

    @contextlib.asynccontextmanager
    async def through(self, token: str) -> AsyncIterator[None]:
        """A request through an interaction's webhook, made inside the block, once one more
        may go (these do not count toward the global limit, but each interaction's token has
        a limit of its own); its place is given back if its fence refused it."""
        bucket = self._webhook(token)
        taken_at = await self._take(bucket)
        try:
            yield
        except Unwritten:
            bucket.give_back(taken_at)
            raise
