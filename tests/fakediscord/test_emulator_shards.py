"""Shards: `GET /gateway/bot`, IDENTIFY with shard ids and its limits, events routed by guild,
and the tiny bot as one sharded client and as two shard processes sharing the global limit."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakediscord import Channel, FakeDiscord, Guild, Limits, User
from fakediscord.testing import BotLauncher
from tests.helpers.tinybot import ShardedTinyBot
from tests.helpers.wire import call, gateway_socket, receive

TINYBOT = str(Path(__file__).parents[1] / "helpers" / "tinybot.py")
MESSAGE_INTENTS = (1 << 9) | (1 << 12) | (1 << 15)  # guild, direct messages; content


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """An emulator that recommends two shards."""
    async with FakeDiscord(shards=2) as fd:
        yield fd


@dataclass
class TwoGuilds:
    """Guild A on shard 0 of 2 and guild B on shard 1, a channel in each, Al in both."""

    fd: FakeDiscord
    first: Guild
    second: Guild
    in_a: Channel
    in_b: Channel
    al: User


@pytest.fixture
def two(fake_discord: FakeDiscord) -> TwoGuilds:
    """Two guilds that Discord routes to different shards."""
    fd = fake_discord
    first, second = fd.add_guild("A", shard=(0, 2)), fd.add_guild("B", shard=(1, 2))
    al = fd.add_user("Al")
    first.add_member(al)
    second.add_member(al)
    return TwoGuilds(
        fd, first, second, first.add_text_channel("a"), second.add_text_channel("b"), al
    )


async def identify(
    ws: aiohttp.ClientWebSocketResponse, fd: FakeDiscord, shard: list[int]
) -> dict[str, Any]:
    """HELLO, then IDENTIFY as `shard`; the first frame answered."""
    assert (await receive(ws))["op"] == 10
    data = {"token": fd.bot_token, "intents": MESSAGE_INTENTS, "shard": shard}
    await ws.send_json({"op": 2, "d": data})
    return await receive(ws)


async def test_gateway_bot_gives_the_shard_count_and_session_start_limit(
    fake_discord: FakeDiscord,
) -> None:
    fd = fake_discord
    headers = {"Authorization": f"Bot {fd.bot_token}"}
    async with aiohttp.ClientSession(fd.api_base + "/", headers=headers) as http:
        status, body = await call(http, "GET", "/gateway/bot")
        assert status == 200 and body["url"] == fd.gateway_url.rstrip("/")
        assert body["shards"] == 2
        limit = body["session_start_limit"]
        assert (limit["total"], limit["remaining"], limit["max_concurrency"]) == (1000, 1000, 1)
        assert 86_399_000 <= limit["reset_after"] <= 86_400_000
        async with aiohttp.ClientSession() as session, session.ws_connect(fd.gateway_url) as ws:
            assert (await identify(ws, fd, [0, 2]))["t"] == "READY"
        _, body = await call(http, "GET", "/gateway/bot")
        assert body["session_start_limit"]["remaining"] == 999


async def test_identify_beyond_max_concurrency_per_5s_is_invalid_session(
    fake_discord: FakeDiscord,
) -> None:
    fd = fake_discord
    fd.clock.freeze()
    async with aiohttp.ClientSession() as session, session.ws_connect(fd.gateway_url) as first:
        assert (await identify(first, fd, [0, 2]))["t"] == "READY"
        async with session.ws_connect(fd.gateway_url) as second:
            assert await identify(second, fd, [1, 2]) == {
                "op": 9,
                "d": False,
                "s": None,
                "t": None,
            }
        fd.clock.advance(5)
        async with session.ws_connect(fd.gateway_url) as third:
            assert (await identify(third, fd, [1, 2]))["d"]["shard"] == [1, 2]
    assert (fd.gateway.identify_count, fd.gateway.identify_refused) == (2, 1)


async def test_shards_with_different_rate_limit_keys_identify_together() -> None:
    async with FakeDiscord(max_concurrency=2) as fd, aiohttp.ClientSession() as session:
        fd.clock.freeze()
        async with session.ws_connect(fd.gateway_url) as a, session.ws_connect(fd.gateway_url) as b:
            assert (await identify(a, fd, [0, 4]))["t"] == "READY"
            assert (await identify(b, fd, [1, 4]))["t"] == "READY"
            async with session.ws_connect(fd.gateway_url) as c:
                assert (await identify(c, fd, [2, 4]))["op"] == 9  # key 0 again, too soon


async def test_events_go_to_the_shard_of_their_guild_and_dms_to_shard_0(two: TwoGuilds) -> None:
    fd, first, second, al, in_b = two.fd, two.first, two.second, two.al, two.in_b
    fd.limits.identify = False  # two raw connections identifying at once
    assert ((first.id >> 22) % 2, (second.id >> 22) % 2) == (0, 1)
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fd.gateway_url) as ws0,
        session.ws_connect(fd.gateway_url) as ws1,
    ):
        ready0, ready1 = await identify(ws0, fd, [0, 2]), await identify(ws1, fd, [1, 2])
        assert ready0["d"]["guilds"] == [{"id": str(first.id), "unavailable": True}]
        assert ready1["d"]["guilds"] == [{"id": str(second.id), "unavailable": True}]
        assert (await receive(ws0))["d"]["id"] == str(first.id)  # GUILD_CREATE
        assert (await receive(ws1))["d"]["id"] == str(second.id)
        await fd.say(al, in_b, "in B")
        await fd.say(al, fd.dm_channel(al), "in a DM")
        created = await receive(ws1)
        assert (created["t"], created["d"]["content"]) == ("MESSAGE_CREATE", "in B")
        in_dm = await receive(ws0)
        assert (in_dm["t"], in_dm["d"]["content"]) == ("MESSAGE_CREATE", "in a DM")
        # Nothing from guild B reached shard 0: a later DM is the next thing it hears (had the
        # message in B gone there too, it would have come first).
        await fd.say(al, fd.dm_channel(al), "after")
        after = await receive(ws0)
        assert (after["t"], after["d"]["content"]) == ("MESSAGE_CREATE", "after")


async def test_a_shard_id_out_of_range_closes_4010(fake_discord: FakeDiscord) -> None:
    async with gateway_socket(fake_discord.gateway_url) as ws:
        data = {"token": fake_discord.bot_token, "intents": 0, "shard": [2, 2]}
        await ws.send_json({"op": 2, "d": data})
        msg = await ws.receive(timeout=10)
        assert msg.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4010


async def test_one_identify_more_than_the_day_allows_resets_the_token() -> None:
    async with FakeDiscord(session_starts=2) as fd, aiohttp.ClientSession() as session:
        fd.clock.freeze()
        old_token = fd.bot_token
        async with session.ws_connect(fd.gateway_url) as first:
            assert (await identify(first, fd, [0, 1]))["t"] == "READY"
            fd.clock.advance(5)
            async with session.ws_connect(fd.gateway_url) as second:
                assert (await identify(second, fd, [0, 1]))["t"] == "READY"
                fd.clock.advance(5)
                async with session.ws_connect(fd.gateway_url) as third:
                    await receive(third)
                    await third.send_json({"op": 2, "d": {"token": old_token, "intents": 0}})
                    assert (await third.receive(timeout=10)).type == aiohttp.WSMsgType.CLOSE
                    assert third.close_code == 4004
                # Every session of the old token ended.
                assert (await second.receive(timeout=10)).type == aiohttp.WSMsgType.CLOSE
                assert second.close_code == 4004
        assert fd.token_resets == 1 and fd.bot_token != old_token
        headers = {"Authorization": f"Bot {old_token}"}
        async with aiohttp.ClientSession(fd.api_base + "/", headers=headers) as http:
            assert (await call(http, "GET", "/users/@me"))[0] == 401


async def test_an_auto_sharded_client_gets_each_guild_on_its_shard(
    two: TwoGuilds, bots: BotLauncher
) -> None:
    fd, al, in_a, in_b = two.fd, two.al, two.in_a, two.in_b
    await bots.in_process(ShardedTinyBot, ready_timeout=20)
    await fd.wait_for(lambda: len(fd.gateway.shards) == 2 and fd.gateway.ready.is_set(), 60)
    # The client asked GET /gateway/bot for the count and paced its two IDENTIFYs itself.
    assert fd.counters.rest["GET /gateway/bot"] == 1
    assert (fd.gateway.identify_count, fd.gateway.identify_refused) == (2, 0)
    answers = [
        (await fd.slash(al, channel, "/tiny shard")).content
        for channel in (in_a, in_b, fd.dm_channel(al))
    ]
    assert answers == ["shard 0", "shard 1", "shard 0"]
    interactions = {
        shard: [d["channel_id"] for _, t, d in s.events if t == "INTERACTION_CREATE"]
        for shard, s in fd.gateway.shards.items()
    }
    dm = fd.dm_channel(al)
    assert interactions == {0: [str(in_a.id), str(dm.id)], 1: [str(in_b.id)]}


async def test_two_shard_processes_share_one_global_limit(
    two: TwoGuilds, bots: BotLauncher
) -> None:
    fd, al, in_a, in_b = two.fd, two.al, two.in_a, two.in_b
    # Two processes cannot know of each other's IDENTIFY: the second, within Discord's 5 s,
    # is told to wait (op 9). The emulator's clock stands still (a busy machine may take
    # longer than 5 s to start the second process) until it has been, then moves past the
    # window so that the second identifies again and starts; it stands still from then on.
    fd.clock.freeze()
    await bots.process([TINYBOT], env={"TINYBOT_SHARD": "0/2"}, ready_text="tinybot ready")
    second = asyncio.create_task(
        bots.process([TINYBOT], env={"TINYBOT_SHARD": "1/2"}, ready_text="tinybot ready")
    )
    await fd.wait_for(lambda: fd.gateway.identify_refused >= 1, timeout=60)
    fd.clock.advance(5)
    await second
    assert (fd.gateway.identify_count, fd.gateway.identify_refused) == (2, 1)
    answers = [
        (await fd.slash(al, channel, "/tiny shard")).content
        for channel in (in_a, in_b, fd.dm_channel(al))
    ]
    assert answers == ["shard 0", "shard 1", "shard 0"]
    # 40 requests from each process at once: past 50 in a second for the one token. The
    # clock still stands still until the first wave is refused, so the window cannot roll over.
    bursts = [await fd.slash(al, c, "/tiny burst count:40", wait=False) for c in (in_a, in_b)]
    await fd.wait_for(lambda: fd.counters.rate_limited["global"] >= 30, timeout=60)
    fd.clock.advance(1)
    done = await asyncio.gather(*(r.wait_settled(timeout=60) for r in bursts))
    assert [m.content for m in done if m is not None] == ["burst 40 done"] * 2
    fetches = [q.status for q in fd.requests if q.template == "GET /channels/{id}"]
    assert fetches.count(200) == 80 and set(fetches) == {200, 429}


async def test_with_the_identify_limit_off_any_number_may_identify() -> None:
    async with (
        FakeDiscord(limits=Limits(identify=False), session_starts=1) as fd,
        aiohttp.ClientSession() as session,
    ):
        for _ in range(3):
            async with session.ws_connect(fd.gateway_url) as ws:
                assert (await identify(ws, fd, [0, 1]))["t"] == "READY"
        assert fd.token_resets == 0 and fd.gateway.identify_count == 3
