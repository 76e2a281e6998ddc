"""An upgrade without stopping (issue 50, item 5): two processes on PostgreSQL, upgraded one
at a time, the previous release (a worktree of the last commit before the newest migrations:
tests.helpers.previous_release) and this one side by side on a database this one has
migrated, through one game with a takeover each way.

1. Both processes run the previous release (it makes the database: its own migrations).
2. The one with shard 0 (the DMs) is upgraded: stopped, started as this release, which
   applies its migrations while the other (the previous release) sends.
3. The previous release's sender freezes (SIGSTOP): this release takes over sending.
4. It wakes (SIGCONT) and finds it no longer sends; then this release stops (SIGTERM), and
   the previous release takes sending back.
5. This release comes back, the other process is upgraded too, and the game goes on to its
   end (a resignation).

Moves are made throughout, by DM (shard 0) and by command in the server (shard 1), only
through processes that run; the bot's processes log no error and the game ends.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.pair import sends, shard_world, start_shard
from tests.helpers.previous_release import checked_out, migration_names, previous_release
from tests.helpers.table_driver import resign, start_again, until


def _as_release(process: BotProcess, release: Path | None, repo: Path) -> None:
    """Run ``process`` from ``release`` (None: this checkout) when it next starts."""
    process.cwd = release or repo
    if release is None:
        process.extra_env.pop("PYTHONPATH", None)
    else:
        process.extra_env["PYTHONPATH"] = str(release)


async def test_the_previous_release_and_this_one_side_by_side(
    fake_discord: FakeDiscord, bots: BotLauncher, postgres_url: str, tmp_path: Path
) -> None:
    fd = fake_discord
    world = shard_world(fd, postgres_url)
    guild, players, spectator = world.guild, world.players, world.spectator
    driver = world.driver(players[:2], 27, spectators=[spectator], command_rate=0.5)
    # The previous release draws the messages in its own words until this one sends.
    driver.release_words = False
    previous = previous_release()
    # What this release adds: its process applies exactly these when it first starts.
    added = sorted(
        {Path(name).stem for name in migration_names("HEAD") - migration_names(previous)}
    )
    assert added, "the previous release is the one before the newest migrations"
    with checked_out(previous, tmp_path / "previous") as old:
        # 1. The previous release, both processes: it makes the database.
        server = await start_shard(bots, postgres_url, guild.id, 1, old)
        dms = await start_shard(bots, postgres_url, guild.id, 0, old)
        repo = Path(__file__).resolve().parents[2]
        assert sends(server) and not sends(dms)
        await driver.open(target=61)
        await driver.play_out(stop_after=4)

        # 2. Shard 0's process upgraded: this release migrates the database beside the
        # previous release, which goes on sending.
        assert await dms.terminate() == 0
        driver.command_rate = 1.0
        await driver.play_out(stop_after=driver.steps + 2)
        _as_release(dms, None, repo)
        mark = len(dms.output)
        await start_again(fd, dms)
        migrated = next(line for line in dms.output[mark:] if "database postgres ready" in line)
        assert all(name in migrated for name in added), (migrated, added)
        driver.command_rate = 0.5
        await driver.play_out(stop_after=driver.steps + 4)
        assert sends(server) and not sends(dms)

        # 3. The previous release's sender freezes: this release takes over.
        frozen = server.proc
        assert frozen is not None
        os.kill(frozen.pid, signal.SIGSTOP)
        try:
            driver.command_rate = 0.0  # (the server's shard is frozen with it)
            await until(fd, lambda: sends(dms), stall=None)
            driver.release_words = True  # (this release redraws what it takes over)
            await driver.play_out(stop_after=driver.steps + 4)
        finally:
            os.kill(frozen.pid, signal.SIGCONT)
        # 4. Woken, it no longer sends; this release stops, and the previous one takes over.
        await until(fd, lambda: not sends(server))
        assert await dms.terminate() == 0
        driver.command_rate = 1.0
        driver.release_words = False
        await until(fd, lambda: sends(server), stall=None)
        await driver.play_out(stop_after=driver.steps + 4)

        # 5. Back, and the other process upgraded too; the game is played out.
        await start_again(fd, dms)
        assert await server.terminate() == 0
        driver.command_rate = 0.0
        await until(fd, lambda: sends(dms), stall=None)
        driver.release_words = True
        _as_release(server, None, repo)
        await start_again(fd, server)
        driver.command_rate = 0.5
        await driver.play_out(stop_after=driver.steps + 4)
        # It ends on this release: the result recorded and rated on the migrated database.
        await resign(fd, players[0], world.general)
        await until(fd, lambda: driver.snapshot().status == "finished")
    assert fd.gateway.identify_refused == 0
