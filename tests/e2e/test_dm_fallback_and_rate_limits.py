"""Discord refusing things: closed DMs (50007) and rate limits (429). The game goes on."""

from __future__ import annotations

import random

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import DM_NOTICE, TableDriver, World, until


async def test_closed_dms_fall_back_to_cribbage_hand(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    fd.close_dms(bea)
    driver = TableDriver(
        fd,
        world.general,
        [al, bea],
        world.db_path,
        random.Random(5),
        spectators=[world.spectator],
        dm_closed={bea.id},
    )
    await driver.open(target=61)
    # The channel tells Bea (by mention) to use /cribbage hand; Al still gets DMs.
    notice = await until(fd, driver.dm_notices)
    assert f"<@{bea.id}>" in notice[0].content and "/cribbage hand" in notice[0].content
    assert fd.dms(bea) == []
    final = await driver.play_out()
    assert final.status == "finished"
    assert final.actions == driver.actions_done
    assert fd.dms(bea) == [], "nothing reached Bea's closed DMs"
    assert fd.dms(al), "Al's DMs worked throughout"
    assert all(f"<@{bea.id}>" in m.content for m in driver.dm_notices())
    refused = [r for r in fd.requests if r.status == 403 and r.code == 50007]
    assert refused, "the bot did try to DM Bea"


async def test_rate_limits_slow_the_bot_but_lose_nothing(world: World, bot: BotProcess) -> None:
    fd = world.fd
    rng = random.Random(9)
    driver = TableDriver(fd, world.general, world.players[:2], world.db_path, rng, command_rate=0.5)
    await driver.open(target=61)
    # Before every step, one of the bot's next requests is refused with 429: a channel line or
    # DM, an interaction answer, a lobby edit or opening a DM. discord.py waits `retry_after`
    # and sends again; the driver checks that every line and prompt still arrives.
    routes = [
        r"POST /channels/\d+/messages",
        r"POST /interactions/\d+/[^/]+/callback",
        r"POST /users/@me/channels",
    ]
    injected = 0
    while (snap := driver.snapshot()).status == "active":
        fd.rate_limit(rng.choice(routes), times=rng.choice((1, 2)), retry_after=0.02)
        injected += 1
        await driver.step(snap)
    assert snap.status == "finished"
    assert snap.actions == driver.actions_done
    limited = [r for r in fd.requests if r.status == 429]
    assert len(limited) >= injected // 2, (len(limited), injected)
    assert DM_NOTICE not in "\n".join(driver.channel_lines)
