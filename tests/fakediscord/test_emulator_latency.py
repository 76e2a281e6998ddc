"""The internet's latency: requests and gateway events on the wire, and Discord's clocks on its
side of it (fakediscord.latency)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.latency import Latency
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld, client_of
from tests.helpers.wire import call, receive

#: What an event loop's timer may fire early by (its clock's resolution, and rounding).
EPSILON = 0.005


class Draws(random.Random):
    """A source of draws a test decides: each round trip (twice a gateway frame's way) and each
    split of one, in the order they are drawn; the last of each again once they run out."""

    def __init__(self, trips: list[float], shares: list[float] | None = None) -> None:
        super().__init__(0)
        self.trips = _repeating(trips)
        self.shares = _repeating(shares or [0.5])

    def uniform(self, a: float, b: float) -> float:
        return next(self.trips)

    def random(self) -> float:
        return next(self.shares)


def _repeating(values: list[float]) -> Iterator[float]:
    yield from values
    while True:
        yield values[-1]


def test_the_draws_are_seeded_within_the_bounds() -> None:
    first, again = Latency(seed=7), Latency(seed=7)
    trips = [first.round_trip() for _ in range(200)]
    assert trips == [again.round_trip() for _ in range(200)]
    assert trips != [Latency(seed=8).round_trip() for _ in range(200)]
    assert all(0.040 <= there + back <= 0.250 and there >= 0 and back >= 0 for there, back in trips)
    assert min(there for there, _ in trips) < 0.02 < max(there for there, _ in trips)
    assert first.requests == 200
    assert all(0.020 <= first.one_way() <= 0.125 for _ in range(200))
    with pytest.raises(ValueError):
        Latency(low=0.3, high=0.1)


async def test_a_request_takes_its_way_there_before_discord_sees_it_and_its_way_back_after(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fd = fake_discord
    fd.latency = Latency(rng=Draws([0.4], [0.25]))  # 0.1 s there, 0.3 s back
    loop = asyncio.get_running_loop()
    sent = fd.clock.now()
    started = loop.time()
    status, _ = await call(http, "GET", "/users/@me")
    took = loop.time() - started
    assert status == 200
    [record] = fd.requests
    assert record.arrived - sent >= 0.1 - EPSILON
    assert took >= 0.4 - EPSILON and took - (record.at - sent) >= 0.3 - EPSILON
    # Off again, a request crosses at once.
    fd.latency = None
    started = loop.time()
    await call(http, "GET", "/users/@me")
    assert loop.time() - started < 0.1


async def test_requests_on_two_connections_land_in_either_order(
    fake_discord: FakeDiscord,
) -> None:
    fd = fake_discord
    # The first request sent is 0.3 s on its way, the second 0.01 s.
    fd.latency = Latency(rng=Draws([0.3, 0.02], [1.0, 0.5]))
    headers = {"Authorization": f"Bot {fd.bot_token}"}
    async with (
        aiohttp.ClientSession(fd.api_base + "/", headers=headers) as one,
        aiohttp.ClientSession(fd.api_base + "/", headers=headers) as two,
    ):
        first = asyncio.create_task(call(one, "GET", "/users/@me"))
        await fd.wait_for(lambda: fd.latency is not None and fd.latency.requests == 1)
        second = asyncio.create_task(call(two, "GET", "/oauth2/applications/@me"))
        await asyncio.gather(first, second)
    assert [r.route for r in fd.requests] == ["GET /oauth2/applications/@me", "GET /users/@me"]


async def test_gateway_events_come_late_in_the_order_they_were_sent(
    fake_discord: FakeDiscord,
) -> None:
    fd = fake_discord
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fd.gateway_url) as ws,
    ):
        await receive(ws)  # HELLO, at once
        await ws.send_json({"op": 2, "d": {"token": fd.bot_token, "intents": 0}})
        await receive(ws)  # READY
        # Three events, each on the wire longer than the one after it (0.3, 0.2, 0.05 s).
        fd.latency = Latency(rng=Draws([0.6, 0.4, 0.1]))
        loop = asyncio.get_running_loop()
        sent = loop.time()
        for n in range(3):
            await fd.gateway.dispatch("TEST_EVENT", {"n": n})
        heard = [await receive(ws) for _ in range(3)]
        took = loop.time() - sent
    assert [(f["d"]["n"], f["s"]) for f in heard] == [(0, 2), (1, 3), (2, 4)]
    assert took >= 0.3 - EPSILON


async def test_the_answer_window_counts_the_time_on_the_wire(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    fd.response_deadline = 0.3
    # The command reaches the bot 0.2 s after Discord sent it, and its answer reaches Discord
    # 0.2 s after the bot sent it: 0.4 s in all, past the 0.3 s Discord waits, though the bot
    # answered at once.
    fd.latency = Latency(rng=Draws([0.4, 0.4], [0.5]))
    started = time.monotonic()
    r = await fd.slash(table.al, table.general, "/tiny slow seconds:0", wait=False)
    await fd.wait_for(lambda: client_of(tiny).late_codes, timeout=10)
    assert client_of(tiny).late_codes == [10062]
    assert r.late and r.response is None
    assert time.monotonic() - started >= 0.4 - EPSILON
    # Within Discord's 3 s, the same answer on the same wire is taken, 0.4 s and more after
    # Discord sent the command.
    fd.response_deadline = 3.0
    fd.latency = Latency(rng=Draws([0.4, 0.4], [0.5]))
    r = await fd.slash(table.al, table.general, "/tiny slow seconds:0")
    assert r.response is not None and not r.late and r.content == "late"
    assert r.latency is not None and r.latency >= 0.4 - EPSILON


async def test_an_answer_held_on_its_way_back_is_done_on_discord_already(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fd = fake_discord
    fd.delay(r"^GET /users/@me$", 0.3, back=True)
    loop = asyncio.get_running_loop()
    started = loop.time()
    task = asyncio.create_task(call(http, "GET", "/users/@me"))
    # Discord has it (recorded, handled) while the answer is still on its way.
    await fd.wait_for(lambda: fd.requests)
    assert not task.done()
    status, _ = await task
    assert status == 200 and loop.time() - started >= 0.3 - EPSILON
    # Used up: the next one comes back at once, and a delay of the way there is another's.
    started = loop.time()
    await call(http, "GET", "/users/@me")
    assert loop.time() - started < 0.3


async def test_an_answer_held_until_the_test_releases_it(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fd = fake_discord
    held = fd.hold(r"^GET /users/@me$")
    task = asyncio.create_task(call(http, "GET", "/users/@me"))
    # Discord has it (recorded, handled) while the answer waits, however long the test takes.
    await fd.wait_for(lambda: held.routes)
    assert [r.route for r in fd.requests] == ["GET /users/@me"]
    assert not task.done()
    held.release()
    status, _ = await task
    assert status == 200
    # Used up: the next one comes back at once; clearing the faults lets a held answer go.
    assert (await call(http, "GET", "/users/@me"))[0] == 200
    fd.hold(r"^GET /users/@me$")
    task = asyncio.create_task(call(http, "GET", "/users/@me"))
    await fd.wait_for(lambda: len(fd.requests) == 3)
    fd.faults.clear()
    assert (await task)[0] == 200
