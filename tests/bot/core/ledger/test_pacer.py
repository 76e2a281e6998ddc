"""The pacer's buckets: no bucket lets more than its limit through in any period, channels and
kinds of request are counted apart, a player's controls go first when the global window is
spent, and a request keeps (or gives back) its place in the window as Discord counts it."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.core.ledger.pacer import WEBHOOK_LIMIT, Bucket, Pacer
from bot.core.ledger.transport import NotSender, RequestKind, Superseded, TokenLapsed
from tests.helpers.cast import CHANNEL


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_never_lets_more_than_its_limit_through_in_any_period() -> None:
    bucket = Bucket(limit=5, period=5.0)
    for at in (0.0, 1.0, 2.0, 3.0, 4.0):
        assert bucket.wait_for(at) == 0
        bucket.take(at)
    assert bucket.wait_for(4.5) == pytest.approx(0.5), "until the first leaves the window"
    bucket.take(5.0)
    assert bucket.wait_for(5.0) == pytest.approx(1.0)
    # Whatever fixed window Discord counts in, it never sees more than 5 of these.
    times = list(bucket.times)
    assert all(sum(1 for x in times if s <= x < s + 5) <= 5 for s in times)


async def test_the_pacer_counts_channels_and_kinds_apart() -> None:
    clock = FakeClock()
    pacer = Pacer(global_limit=1000, channel_limit=2, channel_period=1.0, clock=clock)
    for _ in range(2):
        await pacer.slot(7, RequestKind.POST, global_limit=True)
    assert pacer.channel_delay(7, RequestKind.POST) == pytest.approx(1.0)
    assert pacer.channel_delay(7, RequestKind.EDIT) == 0, "edits have a count of their own"
    assert pacer.channel_delay(8, RequestKind.POST) == 0, "another channel is not affected"


async def test_when_the_global_limit_is_spent_a_players_controls_go_first() -> None:
    pacer = Pacer(global_limit=20, urgent_reserve=0)
    for _ in range(20):
        await pacer.slot(None, RequestKind.EDIT, global_limit=True)
    order: list[str] = []

    async def send(name: str, urgent: bool) -> None:
        await pacer.slot(None, RequestKind.EDIT, global_limit=True, urgent=urgent)
        order.append(name)

    await asyncio.gather(send("table", False), send("table 2", False), send("hand", True))
    assert order == ["hand", "table", "table 2"]


async def test_a_request_its_fence_refused_gives_its_places_back() -> None:
    # Refused right before it was written (the owner moved on while it waited for its turn,
    # or the lease lapsed), it reached Discord not at all. Counted all the same, such places
    # held a new deal's hand back for up to 3.7 s under quick play with two processes.
    pacer = Pacer(global_limit=1, urgent_reserve=0, channel_limit=1, clock=FakeClock())

    async def one(refused: type[Exception] | None) -> None:
        async with pacer.turn(7, RequestKind.POST):
            if refused is not None:
                raise refused

    for refused in (Superseded, NotSender):
        # (The clock stands still: a place kept would never free, so a bound on the wait.)
        with pytest.raises(refused):
            await asyncio.wait_for(one(refused), timeout=30)
        assert pacer.channel_delay(7, RequestKind.POST) == 0, "the channel's one place is free"
    await asyncio.wait_for(one(None), timeout=30)  # the global place is free too
    assert pacer.channel_delay(7, RequestKind.POST) > 0, "one that went counts"
    for _ in range(WEBHOOK_LIMIT):
        with pytest.raises(Superseded):
            async with pacer.through("token"):
                raise Superseded
    assert pacer.webhook_room("token") == WEBHOOK_LIMIT
    with pytest.raises(TokenLapsed):
        async with pacer.through("token"):
            raise TokenLapsed("Discord answered: it counted")
    assert pacer.webhook_room("token") == WEBHOOK_LIMIT - 1


async def test_a_request_on_its_way_holds_its_place_in_the_global_window() -> None:
    # Discord counts requests as they arrive: one that a busy event loop writes late must still
    # count. With room for 2 in any second, a third waits until a second after the first
    # answer (at 0.3 s), not a second after the first turn.
    # (Each bound is read from the other requests' own moments, so a machine that stalls
    # the event loop delays the measure with the requests, never fails it.)
    pacer = Pacer(global_limit=2, urgent_reserve=0)
    started: dict[str, float] = {}
    answered: dict[str, float] = {}

    async def request(name: str, takes: float) -> None:
        async with pacer.turn(None, RequestKind.POST):
            started[name] = time.monotonic()
            await asyncio.sleep(takes)
            answered[name] = time.monotonic()

    await asyncio.gather(request("a", 0.3), request("b", 0.3), request("c", 0.0))
    # The first two went at once: the second did not wait for the first's answer.
    assert started["b"] < answered["a"]
    # The third waited a whole second after the first answer, not after the first turn.
    assert started["c"] >= min(answered["a"], answered["b"]) + 1.0


async def test_table_requests_held_back_never_keep_a_players_controls_waiting() -> None:
    # A request that spends its channel's allowance is held by discord.py until the channel's
    # window resets (some 4.6 s), keeping its place in the global window: were the window full
    # of such table edits, the next player's turn would go only once one of them returned.
    pacer = Pacer(global_limit=10, urgent_reserve=2)
    order: list[str] = []
    returned = asyncio.Event()
    holding: list[int] = []
    full = asyncio.Event()
    went = asyncio.Event()

    async def table_edit(channel: int) -> None:
        async with pacer.turn(channel, RequestKind.EDIT):
            holding.append(channel)
            if len(holding) == 10 - 2:  # every place a table edit may take (the rest reserved)
                full.set()
            await returned.wait()  # held back by discord.py, its place kept

    async def hand() -> None:
        async with pacer.turn(CHANNEL + 1000, RequestKind.EDIT, urgent=True):
            order.append("hand")
            went.set()

    tables = [asyncio.create_task(table_edit(CHANNEL + n)) for n in range(10)]
    turn = None
    try:
        # The window full of table edits held back, then the player's turn asked for: it
        # goes while they are still held (the bounds are for a pacer that keeps it waiting).
        await asyncio.wait_for(full.wait(), timeout=30)
        turn = asyncio.create_task(hand())
        try:
            await asyncio.wait_for(went.wait(), timeout=30)
        except TimeoutError:
            raise AssertionError("the player's turn waited behind the table edits") from None
        assert len(holding) == 10 - 2, "no table edit was let in beyond the window"
        order.append("a table edit returned")
    finally:
        returned.set()
        await asyncio.gather(*tables, *([turn] if turn is not None else []))
    assert order == ["hand", "a table edit returned"]


def test_a_bucket_counts_a_smaller_limit_from_the_places_that_free_first() -> None:
    bucket = Bucket(limit=4, period=1.0)
    for at in (0.0, 0.1, 0.2):
        bucket.take(at)
    assert bucket.wait_for(0.3) == 0, "its own limit has room"
    assert bucket.wait_for(0.3, limit=2) == pytest.approx(0.8), "until the second one leaves"
    bucket.begin(0.3)
    assert bucket.wait_for(0.3, limit=3) == pytest.approx(0.8), "the one on its way counts"
    assert bucket.wait_for(0.3, limit=1) > 0, "until the one on its way is answered"
