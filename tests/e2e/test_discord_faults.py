"""Discord's faults as they really come (issue 46), each met by the real bot process: the games
go on, nothing is lost, doubled or left stale, and the bot says one line, never a traceback
(the `bots` fixture fails a test on any traceback or ERROR line).

- the gateway: a connection dropped while Discord stays out of reach a moment (RESUME: the
  click made meanwhile is replayed), a zombied connection (nothing comes back, not even a
  heartbeat's ACK: the client closes it and resumes), a session Discord invalidates (a new
  IDENTIFY: the click made meanwhile is lost, and the bot brings every game's messages up to
  date as at a start);
- REST: 500, 502 (Cloudflare's page) and 503 (the proxy's text), Cloudflare's 429 without
  Discord's headers, persisting on the table's edits and refusing a click's answer, and a
  click's answer that reaches Discord after its 3 s (10062): what the bot owes is sent once
  Discord takes requests again.

`fakediscord/README.md` ("The internet's faults") says what Discord does in each case, with
its source, and what discord.py 2.7.1 makes of it.
"""

from __future__ import annotations

import pytest

from fakediscord.interactions import Interaction
from fakediscord.testing import BotLauncher, BotProcess
from tests.e2e.test_chaos import _one_of_each
from tests.helpers.table_driver import TableDriver, World, until

#: What the bot logs as it brings every game up to date, and once that is done.
RECONCILING = "reconciling"
CAUGHT_UP = "caught up: the messages of"
#: What the bot says once when Discord stops taking its requests.
REFUSED = "Discord did not take the bot's requests"


async def _to_the_play(world: World, seed: int) -> TableDriver:
    """A game of two to 61, both discards made (the play begins), every move by DM."""
    driver = world.driver(world.players[:2], seed, command_rate=0.0)
    await driver.open(target=61)
    await driver.play_out(stop_after=2)
    return driver


async def _goes_on(driver: TableDriver, steps: int = 4) -> None:
    """Every player sees the stored game, and the game goes on; no message of it doubled."""
    await driver.expect_current()
    await driver.play_out(stop_after=driver.steps + steps)
    _one_of_each(driver)


def _lines(bot: BotProcess, mark: int, text: str) -> list[str]:
    return [line for line in bot.output[mark:] if text in line]


async def test_a_click_made_while_the_connection_was_down_is_replayed_on_resume(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    driver = await _to_the_play(world, 46)
    snap = driver.snapshot()
    seat, prompt, action = await driver.next_move(snap)
    async with fd.gateway_down():
        click = await driver.send(snap, seat, action, prompt)
        assert not fd.gateway.connected and click.response is None
    await until(fd, lambda: click.response)
    assert click.response is not None and click.response.type == 7, "answered in time"
    assert (fd.gateway.identify_count, fd.gateway.resume_count) == (1, 1)
    await _goes_on(driver)


async def test_a_zombied_connection_is_closed_and_resumed(world: World, bots: BotLauncher) -> None:
    """Nothing comes back on the connection, not a heartbeat's ACK nor an event: the bot
    closes it once the gateway has said nothing for HEARTBEAT_TIMEOUT_SECONDS (two here, with
    heartbeats every half second) and resumes; the click made meanwhile reaches it then (and
    is played, or, past Discord's window by then, left for the player to make again)."""
    fd = world.fd
    fd.gateway.heartbeat_interval_ms = 500
    bot = await bots.process(
        database=world.database,
        dev_guild=world.guild.id,
        env={"HEARTBEAT_TIMEOUT_SECONDS": "2"},
    )
    driver = await _to_the_play(world, 47)
    snap = driver.snapshot()
    seat, prompt, action = await driver.next_move(snap)
    mark = len(bot.output)
    fd.zombie_gateway()
    click = await driver.send(snap, seat, action, prompt)
    await until(fd, lambda: fd.gateway.resume_count == 1, stall=None)
    await until(fd, lambda: _dealt_with(click, bot, mark))
    assert fd.gateway.identify_count == 1
    warned = [line for line in bot.output[mark:] if " WARNING " in line]
    assert len(warned) <= 1 and all("stopped responding" in line for line in warned), warned
    await _goes_on(driver)


def _dealt_with(click: Interaction, bot: BotProcess, mark: int) -> bool:
    """Whether the bot did what it does with a click that reached it late: answered it (in
    time or too late: 10062), or left it, Discord having failed it already."""
    left = _lines(bot, mark, "past Discord's answer window: nothing done")
    return click.response is not None or click.late or bool(left)


async def test_a_session_discord_ended_is_lost_and_the_games_are_brought_up_to_date(
    world: World, bots: BotLauncher
) -> None:
    """The bot runs both shards in one process (discord.py then sends ``on_ready`` again only
    when every shard identified again). Discord invalidates the DMs' shard's session (op 9,
    not resumable): the click a player makes in a DM before the bot identifies again never
    reaches it (Discord tells them it failed); once the shard has a new session the bot brings
    every game's messages up to date, as at a start, and the player's next click is played."""
    fd = world.fd
    bot = await bots.process(
        database=world.database,
        dev_guild=world.guild.id,
        env={"SHARD_COUNT": "2"},
        ready_text=CAUGHT_UP,  # (both shards ready: the second identifies 5 s after the first)
    )
    driver = await _to_the_play(world, 48)
    snap = driver.snapshot()
    seat, prompt, action = await driver.next_move(snap)
    mark = len(bot.output)
    fd.gateway.down()  # (its new connection waits until the click is made)
    await fd.invalidate_session(shard=0)
    lost = await driver.send(snap, seat, action, prompt)
    fd.gateway.back()
    await until(fd, lambda: _lines(bot, mark, CAUGHT_UP), stall=None)
    assert _lines(bot, mark, "began a new session") and _lines(bot, mark, RECONCILING)
    assert driver.sync().version == snap.version, "the lost click was not played"
    fd.at_the_end(lambda: _never_answered(lost))
    await _goes_on(driver)


def _never_answered(click: Interaction) -> None:
    assert click.response is None, "a click Discord lost was answered"


#: Each fault, made on the table's edits (it persists a while: the first edits after the move
#: are refused) and on the click's answer.
REST_FAULTS = ["500", "502", "503", "cloudflare 429", "answer after 3 s"]


@pytest.mark.parametrize("fault", REST_FAULTS)
async def test_what_discord_refuses_for_now_is_sent_once_it_takes_requests_again(
    world: World, bot: BotProcess, fault: str
) -> None:
    fd = world.fd
    driver = await _to_the_play(world, 49)
    # The table is edited through the Start's token while it lives: on Discord's clock its 15
    # minutes are over, so the bot's own token edits it, where the faults are made.
    fd.clock.advance(fd.token_lifetime)
    snap = driver.snapshot()
    seat, prompt, action = await driver.next_move(snap)
    mark, start = len(bot.output), len(fd.requests)
    table_edits = rf"^PATCH /channels/{world.general.id}/messages/\d+$"
    status = 0
    if fault == "answer after 3 s":
        fd.delay(r"/callback$", 3.5)  # (the answer, made at once, reaches Discord too late)
    else:
        status = int(fault.split()[-1])
        # (discord.py waits 1, then 3 s before it tries a 500 or a 502 again itself.)
        fd.fail(table_edits, status=status, times=2 if status in (500, 502) else 3)
        fd.fail(r"/callback$", status=status)
    click = await driver.send(snap, seat, action, prompt)
    await until(fd, lambda: driver._moved(snap))
    await driver.expect_current()
    tried = [
        r.status
        for r in fd.requests[start:]
        if r.route.startswith(f"PATCH /channels/{world.general.id}/")
    ]
    if status == 429:
        # Raised at once by discord.py: the click's answer is lost (its message is edited
        # with the bot's token instead), and the table is tried again until Discord takes it.
        assert click.response is None
        assert tried[:3] == [429] * 3 and tried[-1] == 200, tried
        assert len(_lines(bot, mark, REFUSED)) == 1
    elif status:
        # discord.py tries a 5xx on an interaction's answer again a second later: in time.
        await until(fd, lambda: click.response)
        assert click.response is not None and click.response.type == 7
        assert tried[:1] == [status] and tried[-1] == 200, tried
        # It tries a 500 or a 502 with the bot's token again itself; a 503 it raises, and
        # the bot tries again, once Discord takes requests.
        assert len(_lines(bot, mark, REFUSED)) == (1 if status == 503 else 0)
    else:
        assert click.late and click.response is None
    await _goes_on(driver)


async def test_a_command_sync_discord_refused_is_made_again_once_it_answers(
    world: World, bots: BotLauncher
) -> None:
    """Discord answers the start's command sync with a 503 (which discord.py raises at once):
    the bot says so in one line and starts all the same (the commands synced before stay),
    and syncs them a few seconds later."""
    fd = world.fd
    fd.fail(r"^PUT /applications/\d+/guilds/\d+/commands$", status=503)
    bot = await bots.process(database=world.database, dev_guild=world.guild.id)
    said = _lines(bot, 0, "could not sync the commands")
    assert len(said) == 1 and " WARNING " in said[0] and "503 Service Unavailable" in said[0]
    driver = await _to_the_play(world, 50)
    await _goes_on(driver, steps=2)
