"""Invalid requests (401, 403, 429) counted per 10 minutes, and Cloudflare's ban past 10,000."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord, invalid_requests
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld, client_of
from tests.helpers.wire import call, call_with_headers


async def test_401_403_and_429_count_but_not_shared_429s_or_404s(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    assert (fd.invalid_requests.limit, fd.invalid_requests.window) == (10_000, 600.0)
    async with aiohttp.ClientSession(
        fd.api_base + "/", headers={"Authorization": "Bot wrong"}
    ) as stranger:
        assert (await call(stranger, "GET", "/users/@me"))[0] == 401
    fd.close_dms(table.al)
    dm = fd.dm_channel(table.al)
    assert (await call(http, "POST", f"/channels/{dm.id}/messages", {"content": "x"}))[0] == 403
    fd.rate_limit("GET /users/@me")
    assert (await call(http, "GET", "/users/@me"))[0] == 429
    fd.rate_limit("GET /users/@me", scope="shared")
    assert (await call(http, "GET", "/users/@me"))[0] == 429
    assert (await call(http, "GET", f"{table.posts}/1"))[0] == 404
    assert fd.invalid_requests.count == 3 == fd.counters.invalid_requests
    # They are counted over the last 10 minutes only.
    fd.clock.advance(601)
    assert fd.invalid_requests.count == 0 and fd.invalid_requests.total == 3


async def test_past_the_limit_cloudflare_refuses_everything_for_a_while(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    fd.invalid_requests.limit = 3  # 10,000 in Discord; as few as 3 here to keep the test short
    async with aiohttp.ClientSession(
        fd.api_base + "/", headers={"Authorization": "Bot wrong"}
    ) as stranger:
        for _ in range(4):
            assert (await call(stranger, "GET", "/users/@me"))[0] == 401
    # Banned: even a good request gets Cloudflare's 429, without `Via`, not JSON ...
    status, body, headers = await call_with_headers(http, "GET", "/users/@me")
    assert (status, body) == (429, "error code: 1015") and "Via" not in headers
    # ... which discord.py does not retry: it raises.
    with pytest.raises(discord.HTTPException) as refused:
        await client_of(tiny).fetch_channel(table.general.id)
    assert refused.value.status == 429
    assert fd.invalid_requests.count == 4  # the ban's own answers are not counted
    fd.clock.advance(invalid_requests.BAN)
    assert (await call(http, "GET", "/users/@me"))[0] == 200


async def test_with_the_switch_off_there_is_no_ban_but_the_count_goes_on() -> None:
    from fakediscord import Limits

    async with FakeDiscord(limits=Limits(invalid_requests=False)) as fd:
        fd.invalid_requests.limit = 1
        async with aiohttp.ClientSession(fd.api_base + "/") as anonymous:
            for _ in range(3):
                assert (await call(anonymous, "GET", "/users/@me"))[0] == 401
        assert fd.invalid_requests.count == 3 and not fd.invalid_requests.banned()
