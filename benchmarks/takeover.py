"""How long the bot goes without a sender when the sender dies or is stopped.

Two bot processes on one PostgreSQL database against fakediscord, one shard each (shard 0's
process holds back, as in production). Each round stops the process that sends, by SIGKILL
(it renews its lease no more: the other takes it when it lapses) or SIGTERM (it gives the
lease up and says so: the other takes it at once), and times, from the signal, the moment the
other process says it is now the sender, and the moment it has brought the games up to date
("reconciling"). The process stopped is started again and the next round stops the new sender.

    .venv/bin/python -m benchmarks.takeover [--rounds 6]

Prints the median and the longest of each; the README promises a takeover within 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time

from fakediscord import FakeDiscord
from fakediscord.runner import BotProcess
from tests.helpers.pair import BECAME as TOOK_OVER
from tests.helpers.pair import READY, sends
from tests.helpers.postgres import PostgresServer

#: What the process taking over says (the pair's words: tests.helpers.pair).
BECAME = TOOK_OVER[1]
RECONCILED = "reconciling"
LOGGED_IN = "logged in as"
#: The promise the README makes.
PROMISE = 2.0


async def _said(bot: BotProcess, text: str, after: int, since: float) -> float:
    """Seconds from ``since`` until ``bot`` says ``text`` in a line after the first ``after``."""
    while not any(text in line for line in bot.output[after:]):
        await asyncio.sleep(0.005)
    return time.perf_counter() - since


async def run(rounds: int) -> int:
    fd = FakeDiscord()
    times: dict[str, dict[str, list[float]]] = {
        how: {"sender": [], "up to date": []} for how in ("SIGKILL", "SIGTERM")
    }
    async with fd, contextlib.AsyncExitStack() as stack:
        guild = fd.add_guild("Takeover", shard=(1, 2))
        guild.add_text_channel("general")
        server = stack.enter_context(PostgresServer.start())
        url = server.create_database("takeover")
        bots = {}
        for shard in (1, 0):  # shard 1's process starts first and sends
            bot = BotProcess(
                fd,
                database=url,
                dev_guild=guild.id,
                env={"SHARD_COUNT": "2", "SHARD_IDS": str(shard)},
                ready_text=READY,
                ready_timeout=60,
            )
            await bot.start()
            await _said(bot, LOGGED_IN, 0, 0.0)
            bots[shard] = bot
        for number in range(rounds):
            how = "SIGKILL" if number % 2 == 0 else "SIGTERM"
            sender = next(b for b in bots.values() if sends(b))
            other = next(b for b in bots.values() if b is not sender)
            seen = len(other.output)
            stopped = time.perf_counter()
            ending: asyncio.Future[object] = asyncio.ensure_future(
                sender.kill() if how == "SIGKILL" else sender.terminate()
            )
            took = await asyncio.wait_for(_said(other, BECAME, seen, stopped), timeout=30)
            done = await asyncio.wait_for(_said(other, RECONCILED, seen, stopped), timeout=30)
            times[how]["sender"].append(took)
            times[how]["up to date"].append(done)
            print(f"round {number + 1} ({how}): sender after {took:.2f} s, up to date {done:.2f} s")
            await ending
            mark = len(sender.output)
            await sender.start()
            # Started again, and its gateway ready (discord.py waits for the servers' data
            # first), as a process is that has run a while.
            await _said(sender, LOGGED_IN, mark, 0.0)
        for bot in bots.values():
            await bot.stop()
    worst = 0.0
    for how, figures in times.items():
        for what, values in figures.items():
            if values:
                worst = max(worst, max(values))
                print(
                    f"{how}: {what} in median {statistics.median(values):.2f} s,"
                    f" longest {max(values):.2f} s ({len(values)} rounds)"
                )
    print(f"takeover within {PROMISE:g} s: {'yes' if worst <= PROMISE else 'NO'}")
    return 0 if worst <= PROMISE else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    return asyncio.run(run(args.rounds))


if __name__ == "__main__":
    sys.exit(main())
