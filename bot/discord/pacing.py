"""Keeping within Discord's rate limits before a request is made, instead of after a 429.

Discord allows a bot token 50 requests per second in all (interaction callbacks and interaction
webhooks apart) and each channel 5 new messages per 5 seconds (edits have a count of their
own). discord.py only reacts to limits once a response says they are spent; a bot that leans on
429s risks the invalid-request ban (10,000 refused requests per 10 minutes). So every request
the bot makes on its own goes through a :class:`Pacer` first: token buckets that refill
continuously, one for the whole token and one per channel and kind of request.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

__all__ = ["Bucket", "Pacer", "RequestKind"]

#: Requests per second the bot allows itself in all (Discord's limit is 50; headroom is left
#: for the requests discord.py makes on its own, such as opening a DM channel).
GLOBAL_RATE = 45.0
#: New messages, and edits, per channel: Discord allows 5 per 5 seconds of each.
CHANNEL_BURST = 5
CHANNEL_RATE = 1.0
#: Requests through one interaction's webhook (follow-ups and edits): 5 per 2 seconds.
WEBHOOK_BURST = 5
WEBHOOK_RATE = 2.5


class RequestKind(Enum):
    """What a request does to a channel, for the per-channel counts."""

    POST = "post"
    EDIT = "edit"


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``burst`` requests at once, refilled at ``rate`` per second."""

    rate: float
    burst: float
    tokens: float
    stamp: float

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait_for(self, now: float) -> float:
        """Seconds until one request may go (0 if it may go now)."""
        self._refill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self, now: float) -> None:
        """Spend one request (the caller waited until :meth:`wait_for` said 0)."""
        self._refill(now)
        self.tokens -= 1


class Pacer:
    """The buckets of one bot token: the global one, and one per (channel, kind)."""

    def __init__(
        self,
        *,
        global_rate: float = GLOBAL_RATE,
        channel_burst: int = CHANNEL_BURST,
        channel_rate: float = CHANNEL_RATE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        now = clock()
        self._global = Bucket(global_rate, global_rate, global_rate, now)
        self._channel_burst = channel_burst
        self._channel_rate = channel_rate
        self._channels: dict[tuple[int, RequestKind], Bucket] = {}
        self._webhooks: dict[str, Bucket] = {}
        # Requests waiting for the global bucket: urgent ones (a player's controls) first,
        # then in the order they came; one task hands out the turns.
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._tickets = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None

    def _channel(self, channel_id: int, kind: RequestKind) -> Bucket:
        key = (channel_id, kind)
        bucket = self._channels.get(key)
        if bucket is None:
            burst = float(self._channel_burst)
            bucket = Bucket(self._channel_rate, burst, burst, self._clock())
            self._channels[key] = bucket
        return bucket

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
            bucket = self._channel(channel_id, kind)
            while (delay := bucket.wait_for(self._clock())) > 0:
                await asyncio.sleep(delay)
            bucket.take(self._clock())
        if global_limit:
            await self._global_turn(urgent)

    async def _global_turn(self, urgent: bool) -> None:
        if not self._waiting and self._global.wait_for(self._clock()) == 0:
            self._global.take(self._clock())
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if urgent else 1, next(self._tickets), turn))
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._hand_out(), name="crib-pacer")
        await turn

    async def _hand_out(self) -> None:
        """Give the waiting requests their turns, as fast as the global bucket refills."""
        while self._waiting:
            while (delay := self._global.wait_for(self._clock())) > 0:
                await asyncio.sleep(delay)
            _, _, turn = heapq.heappop(self._waiting)
            if turn.done():
                continue  # its request was given up (cancelled) meanwhile
            self._global.take(self._clock())
            turn.set_result(None)

    async def webhook_slot(self, token: str) -> None:
        """Wait until one more request may go through an interaction's webhook (these do not
        count toward the global limit, but each interaction's token has a limit of its own)."""
        bucket = self._webhooks.get(token)
        if bucket is None:
            bucket = Bucket(WEBHOOK_RATE, WEBHOOK_BURST, WEBHOOK_BURST, self._clock())
            self._webhooks[token] = bucket
        while (delay := bucket.wait_for(self._clock())) > 0:
            await asyncio.sleep(delay)
        bucket.take(self._clock())

    def forget_idle(self, older_than: float = 900.0) -> None:
        """Drop the buckets not used for a while (they are full again anyway, and a token
        lives 15 minutes)."""
        now = self._clock()
        for key, bucket in list(self._channels.items()):
            if now - bucket.stamp > older_than:
                del self._channels[key]
        for token, bucket in list(self._webhooks.items()):
            if now - bucket.stamp > older_than:
                del self._webhooks[token]
