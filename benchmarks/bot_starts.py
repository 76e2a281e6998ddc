"""What an end-to-end test pays for each bot it starts: ``python -m bot`` started cold (a new
interpreter that imports the bot), against a warm start (forked from a process that imported
it already: fakediscord.warm, what the tests' ``bots`` fixture does).

    .venv/bin/python -m benchmarks.bot_starts [--starts 6]

Each start is a bot on a SQLite copy of a migrated database, against an emulator of its own
with one server (as each test has), stopped once ready (as Ctrl-C). Prints each way's CPU from
the start until the bot is ready (the process's own, read from /proc; the median and the most)
and the seconds until it is ready (median). The first start of each way is not counted (the
warm one starts the zygote).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.runner import REPO_ROOT, BotLauncher
from fakediscord.testing import BOT_IMPORTS
from fakediscord.warm import WarmStarts
from tests.helpers.migrated import copy_migrated_sqlite

_TICK = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int) -> float:
    """Seconds of CPU (user and system) process ``pid`` has used."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


async def _start(folder: Path, name: str, starts: WarmStarts | None) -> tuple[float, float]:
    """One bot started and stopped, against an emulator of its own: its CPU and seconds to
    ready."""
    fd = FakeDiscord()
    await fd.start()
    try:
        guild = fd.add_guild("Bench")
        guild.add_text_channel("general")
        database = copy_migrated_sqlite(folder, folder / f"{name}.db")
        began = time.perf_counter()
        bot = await BotLauncher(fd, starts).process(database=database, dev_guild=guild.id)
        ready = time.perf_counter() - began
        assert bot.proc is not None
        cpu = _cpu(bot.proc.pid)
        await bot.stop()
    finally:
        await fd.close()
    return cpu, ready


async def _starts(folder: Path, count: int, warm: bool) -> list[tuple[float, float]]:
    """``count`` starts one way, after one not counted: each one's CPU and seconds to ready."""
    starts = WarmStarts("bot", BOT_IMPORTS, REPO_ROOT) if warm else None
    try:
        figures = [await _start(folder, f"{warm}-{n}", starts) for n in range(count + 1)]
    finally:
        if starts is not None:
            starts.close()
    return figures[1:]


async def main(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        print(f"{count} bot starts each way (CPU until ready; seconds until ready):")
        for warm in (False, True):
            figures = await _starts(Path(folder), count, warm)
            cpu = [c for c, _ in figures]
            ready = statistics.median(s for _, s in figures)
            way = "warm (forked)" if warm else "cold (python -m bot)"
            print(
                f"{way:<22} CPU median {statistics.median(cpu):.2f} s, most {max(cpu):.2f} s;"
                f" ready in {ready:.2f} s (median)"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=6)
    asyncio.run(main(parser.parse_args().starts))
