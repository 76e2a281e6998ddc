"""Discord refusing things: closed DMs (50007) and rate limits (429). The game goes on.

A player whose DMs are closed plays from `/cribbage hand`, is told so once per deal in the
channel (remembered in the database, so a restart does not tell them again), is not sent
another DM in that game (each would be a 403, counted toward Discord's invalid-request limit),
and is mentioned in the channel when the table has waited on them. Each deal's notice names
every such player in one post.
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

    # Each new deal: no DM tried (the game knows), one notice; Bea plays from /cribbage hand.
    # (The driver waits for each notice: it plays a deal far faster than the channel's 5
    # messages per 5 s, and a notice whose deal ended before its turn came is dropped.)
    for _ in range(2):
        await driver.play_deal()
        await driver.expect_current()
    assert len(driver.dm_notices()) == 3 and refused_dms(fd) == 1
    assert len(_away(driver)) == 1, "the table never waited long enough again"
    assert fd.dms(bea) == [], "nothing reached Bea's closed DMs"
    assert fd.dms(al), "Al's DMs worked throughout"
    assert all(f"<@{bea.id}>" in m.words() for m in driver.dm_notices())


def _channel_posts(driver: TableDriver) -> int:
    """The channel's posts the bot made (the bot's own token: new messages, not answers)."""
    route = f"POST /channels/{driver.channel.id}/messages"
    return sum(1 for r in driver.fd.requests if r.route == route and r.status == 200)


async def test_closed_dms_are_tried_once_a_game_and_each_deal_told_in_one_post(
    world: World, bots: BotLauncher
) -> None:
    await bots.process(database=world.database, dev_guild=world.guild.id)
    fd = world.fd
    al, *closed = world.players[:4]
    for user in closed:
        fd.close_dms(user)
    names = {f"<@{user.id}>" for user in closed}
    driver = world.driver(world.players[:4], 11, dm_closed={u.id for u in closed})
    await driver.open(target=121)
    await driver.expect_current()
    # Deal 1: one DM tried to each of the three, refused. They are told as the refusals come
    # in (a notice may go before the last is heard): each named once, and pinged by the
    # notice that names them.
    first = driver.dm_notices()
    assert refused_dms(fd) == 3
    named = [name for m in first for name in names if name in m.words()]
    assert sorted(named) == sorted(names), [m.words() for m in first]
    for m in first:
        assert m.pinged == Pings(frozenset(u.id for u in closed if f"<@{u.id}>" in m.words()))
    figures = [(refused_dms(fd), len(first), _channel_posts(driver))]
    # Deal 2: no DM tried to any of them; one post names all three and pings them.
    await driver.play_deal()
    await driver.expect_current()
    second = driver.dm_notices()[len(first) :]
    figures.append((refused_dms(fd), len(second), _channel_posts(driver)))
    assert refused_dms(fd) == 3, figures
    assert len(second) == 1 and all(name in second[0].words() for name in names), figures
    assert second[0].pinged == Pings(frozenset(u.id for u in closed))
    assert all(fd.dms(user) == [] for user in closed) and fd.dms(al)


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
