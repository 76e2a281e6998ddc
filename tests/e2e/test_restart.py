"""Stopping the bot process mid-game and starting it again loses nothing and repeats nothing.

The state is in the database and the components carry the game id, so the DM controls sent
before the restart still work afterwards.
"""

from __future__ import annotations

import random

from engine.phase import Phase
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import TableDriver, World


async def _restart_keeping_prompts(world: World, bot: BotProcess, driver: TableDriver) -> None:
    dms_before = {user.id: [m.id for m in world.fd.dms(user)] for user in driver.players}
    await bot.restart()
    snap = driver.snapshot()
    assert snap.actions == driver.actions_done, "no action lost or applied twice by the restart"
    # Nothing was re-sent by the restart: the players act on the DMs they already had.
    await world.fd.quiet(0.1)
    for user in driver.players:
        assert [m.id for m in world.fd.dms(user)] == dms_before[user.id]


async def test_restart_mid_game_continues_with_old_buttons(world: World, bot: BotProcess) -> None:
    driver = TableDriver(
        world.fd,
        world.general,
        world.players[:2],
        world.db_path,
        random.Random(7),
        spectators=[world.spectator],
        command_rate=0.0,  # every action by a DM control, so old controls are what gets used
    )
    await driver.open(target=61)

    # Restart in the discard phase: the crib select menus were sent before it.
    await _restart_keeping_prompts(world, bot, driver)
    assert driver.snapshot().game.phase is Phase.DISCARD  # type: ignore[union-attr]
    await driver.play_out(stop_after=driver.steps + 2)

    # Restart in the play, after a few cards: the turn's buttons were sent before it.
    await driver.play_out(stop_after=driver.steps + 3)
    assert driver.snapshot().game.phase is Phase.PLAY  # type: ignore[union-attr]
    await _restart_keeping_prompts(world, bot, driver)

    final = await driver.play_out()
    assert final.status == "finished"
    assert final.actions == driver.actions_done


async def test_killed_bot_restarts_where_it_was(world: World, bot: BotProcess) -> None:
    """A hard stop (SIGKILL, no clean shutdown) between moves loses nothing either: every
    accepted move was committed before it was answered."""
    driver = TableDriver(
        world.fd, world.general, world.players[:3], world.db_path, random.Random(13)
    )
    await driver.open(target=61)
    await driver.play_out(stop_after=driver.steps + 6)
    await world.fd.quiet(0.1)
    before = driver.snapshot()
    await bot.stop(timeout=0)  # SIGINT and, without waiting, SIGKILL
    await bot.start()
    after = driver.snapshot()
    assert (after.version, after.actions) == (before.version, before.actions)
    final = await driver.play_out()
    assert final.status == "finished"
    assert final.actions == driver.actions_done


async def test_dropped_gateway_connections_lose_no_clicks(world: World, bot: BotProcess) -> None:
    """The connection to Discord drops (and Discord asks for a reconnect) mid-game: the client
    resumes, and clicks made meanwhile are replayed to it and applied once."""
    driver = TableDriver(
        world.fd, world.general, world.players[:2], world.db_path, random.Random(17)
    )
    await driver.open(target=61)
    for turn in range(6):
        if turn % 2:
            await world.fd.request_reconnect()
        else:
            await world.fd.drop_gateway()
        await driver.play_out(stop_after=driver.steps + 2)
    final = await driver.play_out()
    assert final.status == "finished"
    assert final.actions == driver.actions_done
