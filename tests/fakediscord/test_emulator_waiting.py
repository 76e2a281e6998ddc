"""`fd.wait_for(..., stall=)`: a wait that lasts while the bot keeps making requests and ends
soon after it stops, whatever the clock says."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from fakediscord import BotStalled, FakeDiscord


async def test_a_wait_with_a_stall_bound_ends_once_the_bot_makes_no_request(
    fake_discord: FakeDiscord,
) -> None:
    # Nothing asks anything: the wait ends with BotStalled long before its timeout would.
    with pytest.raises(BotStalled, match=r"no request for 0\.3s"):
        await fake_discord.wait_for(lambda: False, timeout=120, stall=0.3)


async def test_a_wait_with_a_stall_bound_lasts_while_the_bot_makes_requests(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    asked = 0

    async def keep_asking() -> None:
        nonlocal asked
        while True:
            async with http.get("users/@me") as response:
                assert response.status == 200
            asked += 1
            await asyncio.sleep(0.05)

    worker = asyncio.create_task(keep_asking())
    try:
        # Many times the stall bound passes while the requests go on: the wait goes on too.
        await fake_discord.wait_for(lambda: asked >= 40, timeout=120, stall=0.5)
    finally:
        worker.cancel()
    # And once they stop, it ends.
    with pytest.raises(BotStalled):
        await fake_discord.wait_for(lambda: False, timeout=120, stall=0.5)
