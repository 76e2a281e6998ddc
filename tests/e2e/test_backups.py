"""Backups, and a game going on from a restored one (issue 50, item 3).

SQLite: ``python -m bot backup FILE`` copies the database while the bot runs a game (SQLite's
online backup); the bot stopped, a bot started on the copy plays the game on to its end (the
original is left as it was). PostgreSQL: ``pg_dump`` while the bot runs, ``pg_restore`` into a
new database, and a bot there plays the game on, as docs/running.md says to.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.bot_db import read_game
from tests.helpers.bot_runs import REPO
from tests.helpers.postgres import PostgresServer
from tests.helpers.table_driver import TableDriver, World, resign, start_again, until


async def _backup(database: Path | str, target: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        str(target),
        "--database",
        str(database),
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def _under_way(world: World, bots: BotLauncher, seed: int) -> tuple[BotProcess, TableDriver]:
    """The bot started, and a game Al opened against the computer (easy, to 61) with three
    steps made and every message settled: the bot and the game's driver."""
    bot = await bots.process(database=world.database, dev_guild=world.guild.id)
    player = world.driver(world.players[:1], seed, command_rate=0.0)
    snap = await player.open_against_computer("easy", target=61)
    for _ in range(3):
        snap = await player.step(snap)
    await player.settle(snap)
    return bot, player


async def _plays_on(
    world: World, bot: BotProcess, player: TableDriver, restored: Path | str
) -> None:
    """The bot (stopped) started again on the ``restored`` database, the game goes on there:
    moves (each checked by the driver against Discord and the database), then its end,
    recorded."""
    bot.database = restored
    player.database = restored
    await start_again(world.fd, bot)
    await player.play_out(stop_after=player.steps + 6)
    await resign(world.fd, world.players[0], world.general)
    await until(world.fd, lambda: player.snapshot().status == "finished")
    assert read_game(player.database, player.game_id).status == "finished"


async def test_a_game_goes_on_from_a_backup_made_while_the_bot_ran(
    world: World, bots: BotLauncher, tmp_path: Path
) -> None:
    bot, player = await _under_way(world, bots, 23)
    copy = tmp_path / "backup.db"
    status, said = await _backup(Path(world.database), copy)
    assert status == 0 and "Backed up" in said and ", 1 game, " in said, said
    assert not Path(f"{copy}-wal").exists(), "the copy stands alone"
    # A second backup to the same name is refused, and changes nothing.
    status, said = await _backup(Path(world.database), copy)
    assert status == 2 and "--replace" in said
    kept = read_game(world.database, player.game_id)

    await bot.stop()
    await _plays_on(world, bot, player, copy)
    # The original is as the bot left it.
    assert read_game(world.database, player.game_id).version == kept.version


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_game_goes_on_from_a_pg_dump_restored(
    world: World, bots: BotLauncher, tmp_path: Path, postgres_server: PostgresServer
) -> None:
    bot, player = await _under_way(world, bots, 29)
    dump = tmp_path / "cribbage.dump"
    # As docs/running.md says, while the bot runs.
    subprocess.run(
        [
            str(postgres_server.bin / "pg_dump"),
            "--format=custom",
            f"--file={dump}",
            str(world.database),
        ],
        check=True,
        capture_output=True,
    )
    await bot.stop()
    restored = postgres_server.create_database(f"restored_{tmp_path.name}")
    subprocess.run(
        [str(postgres_server.bin / "pg_restore"), "--no-owner", f"--dbname={restored}", str(dump)],
        check=True,
        capture_output=True,
    )
    await _plays_on(world, bot, player, restored)
    # python -m bot backup says what to do rather than copy a PostgreSQL database.
    status, said = await _backup(restored, tmp_path / "no.db")
    assert status == 2 and "pg_dump" in said and "pg_restore" in said
