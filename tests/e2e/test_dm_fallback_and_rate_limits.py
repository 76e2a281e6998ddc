"""Discord refusing things: closed DMs (50007) and rate limits (429). The game goes on.

A player whose DMs are closed plays from `/cribbage hand`, is told so once per deal in the
channel (remembered in the database, so a restart does not tell them again), is not sent
another DM in that deal, and is mentioned in the channel when the table has waited on them.
"""

from __future__ import annotations

import random
import re

from fakediscord import Message
from fakediscord.mentions import Pings
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import dm_refusals
from tests.helpers.table_driver import (
    AWAY_NOTICE,
    TableDriver,
    World,
    refused_dms,
    start_again,
    until,
)

#: The reminder delay the tests run the bot with (the least the setting takes).
REMIND_AFTER = 5


def _away(driver: TableDriver) -> list[Message]:
    return [m for m in driver.fd.messages(driver.channel) if AWAY_NOTICE in m.words()]


async def test_closed_dms_are_told_once_per_deal_even_across_a_restart(
    world: World, bots: BotLauncher
) -> None:
    bot = await bots.process(
        database=world.database,
        dev_guild=world.guild.id,
        env={"TURN_REMINDER_SECONDS": str(REMIND_AFTER)},
    )
    fd = world.fd
    al, bea = world.players[:2]
    fd.close_dms(bea)
    driver = world.driver([al, bea], 5, spectators=[world.spectator], dm_closed={bea.id})
    await driver.open(target=61)
    # The channel tells Bea (by mention) to use /cribbage hand; one DM was tried, no more.
    notices = driver.dm_notices()
    assert len(notices) == 1 and not notices[0].ephemeral
    assert f"<@{bea.id}>" in notices[0].words() and "/cribbage hand" in notices[0].words()
    assert notices[0].pinged == Pings(frozenset({bea.id})), "Bea, and only Bea, is notified"
    assert refused_dms(fd) == 1

    # A restart remembers it (the database does): no second notice, no DM tried in this deal.
    assert dm_refusals(world.database, driver.game_id) == {1: 1}
    await bot.stop()
    await start_again(fd, bot)
    await driver.expect_current()
    # Both owe a discard: after the delay Al is reminded by DM and Bea mentioned in the
    # channel, once.
    away = await until(fd, lambda: _away(driver))
    assert len(away) == 1 and f"<@{bea.id}>" in away[0].words() and not away[0].ephemeral
    assert away[0].pinged == Pings(frozenset({bea.id}))
    await until(fd, lambda: [m for m in fd.dms(al) if "the table is waiting" in m.words()])
    await driver.expect_current()
    assert len(driver.dm_notices()) == 1 and refused_dms(fd) == 1

    # Each new deal: one DM tried (refused), one notice; Bea plays from /cribbage hand. (The
    # driver waits for each notice: it plays a deal far faster than the channel's 5 messages
    # per 5 s, and a notice whose deal ended before its turn came is dropped.)
    for _ in range(2):
        await driver.play_deal()
        await driver.expect_current()
    assert len(driver.dm_notices()) == 3 and refused_dms(fd) == 3
    assert len(_away(driver)) == 1, "the table never waited long enough again"
    assert fd.dms(bea) == [], "nothing reached Bea's closed DMs"
    assert fd.dms(al), "Al's DMs worked throughout"
    assert all(f"<@{bea.id}>" in m.words() for m in driver.dm_notices())


async def test_rate_limits_slow_the_bot_but_lose_nothing(world: World, bots: BotLauncher) -> None:
    await bots.process(database=world.database, dev_guild=world.guild.id)
    fd = world.fd
    rng = random.Random(9)
    driver = world.driver(world.players[:2], rng, command_rate=0.5)
    # Each kind of request the bot makes is refused with 429 in turn, once or twice: opening a
    # DM, a new message in the channel or a DM, an edit there, an interaction answer, a webhook
    # post or edit of a hand. discord.py waits `retry_after` and sends again; the driver checks
    # that every message still comes to show the game.
    routes = [
        r"POST /channels/\d+/messages",
        r"PATCH /channels/\d+/messages/\d+",
        r"POST /interactions/\d+/[^/]+/callback",
        r"/webhooks/\d+/",
    ]
    fd.rate_limit(r"POST /users/@me/channels", times=1, retry_after=0.02)
    await driver.open(target=61)
    # The table is posted and edited through the Start's token while it lives: on Discord's
    # clock its 15 minutes are over, so the bot's own token posts and edits the channel's.
    fd.clock.advance(fd.token_lifetime)
    snap = driver.snapshot()
    for route in routes:
        fault = fd.rate_limit(route, times=rng.choice((1, 2)), retry_after=0.02)
        for _ in range(15):  # a new message needs a new deal
            if fault.hits or snap.status != "active":
                break
            snap = await driver.step(snap)
        assert fault.hits, route
    await driver.play_deal()
    limited = [r.route for r in fd.requests if r.status == 429]
    for route in [r"POST /users/@me/channels", *routes]:
        assert any(re.search(route, hit) for hit in limited), route
    assert not driver.dm_notices()
