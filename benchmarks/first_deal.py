"""What the first game of each variant against the computer costs the event loop, in a bot
process just started.

    .venv/bin/python -m benchmarks.first_deal [--variants seven_card ...] [--levels easy ...]

``/cribbage new ... vs_computer:True`` opens, seats and deals in one call on the core, inside
Discord's 3 seconds to answer the interaction (the bot defers it after 2). Whatever the engine
works out on first use in that call (tables a variant's shows need, the computer players'
tables) is paid by that call, and, on the loop or in a thread holding the interpreter, by every
other game's clicks. Each variant and level is measured in a fresh process warmed as the bot
warms itself at start-up (``warm_engine``), on a scratch SQLite file, the expert's plays made
in a worker process as the bot makes them (the worker's start is part of the call, not of the
loop's time), the core's call timed while a ticker on the same loop (every 5 ms) measures how
late the loop runs it:

- ``call``: the call's wall time, from the command to its answer (the lobby, dealt);
- ``cpu``: the process's CPU time in the call (threads included);
- ``worst``: the longest the loop was held at once (a tick's lateness);
- ``held``: every tick's lateness added up (a thread holding the interpreter shows here);
- ``claims``: the first manual show's count menus working out what a claim may name, on the
  loop (``engine.scoring.claim_values``);
- ``warm``: the start-up's own warm-up, before the gateway connects.

Run it beside CPU hogs (``python3 -c 'while True: pass' &``, one a core) to see a starved
machine, where a second of CPU is several of wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.core.base.replies import TableAsked
from engine.players import LEVELS
from engine.variants import listed

#: How often the ticker wakes (seconds).
TICK = 0.005
#: The figures one run prints, in order.
FIGURES = ("call", "cpu", "worst", "held", "claims", "warm")


class Ticker:
    """Measures how late the event loop runs a task that asks to wake every :data:`TICK`."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.held = 0.0

    async def run(self) -> None:
        """Tick until cancelled."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(TICK)
            late = max(0.0, time.perf_counter() - started - TICK)
            self.worst = max(self.worst, late)
            self.held += late


async def _open(variant: str, level: str) -> dict[str, float]:
    """Open a game of ``variant`` against ``level`` on a fresh core, measured."""
    from bot.core.base.replies import User
    from bot.core.games.computer import THINKS_AT_LENGTH
    from bot.core.worker.thinking import WorkerThinking
    from bot.discord.app import warm_engine
    from bot.store import Store
    from engine.counting import Counting
    from engine.scoring import claim_values
    from engine.variants import named
    from tests.helpers.service_driver import Clock, make_service

    started = time.perf_counter()
    warm_engine()
    warm = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as scratch:
        store = await Store.open(Path(scratch) / "first_deal.db")
        # The expert's plays are made in a worker process, as in the bot (started when an
        # expert seat first throws: its start is part of the call, not of the loop's time).
        thinking = WorkerThinking(THINKS_AT_LENGTH)
        try:
            service = make_service(store, Clock(), computer=True, thinking=thinking)
            ticker = Ticker()
            ticking = asyncio.ensure_future(ticker.run())
            await asyncio.sleep(TICK * 4)  # the ticker runs
            ticker.worst = ticker.held = 0.0
            started, cpu = time.perf_counter(), time.process_time()
            answer = await service.lobbies.new_game(
                1, 2, User(3, "Al"), TableAsked(variant=variant, vs_computer=True, level=level)
            )
            call, cpu = time.perf_counter() - started, time.process_time() - cpu
            ticking.cancel()
            assert answer.ok, answer.reply.text
        finally:
            thinking.close()
            await store.close()
    rules = named(variant).rules(counting=Counting.MANUAL)
    started = time.perf_counter()
    claim_values(rules)
    claims = time.perf_counter() - started
    return {
        "call": call,
        "cpu": cpu,
        "worst": ticker.worst,
        "held": ticker.held,
        "claims": claims,
        "warm": warm,
    }


def main(argv: list[str] | None = None) -> None:
    """Print the figures of each variant and level, each from a fresh process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = [variant.name for variant in listed()]
    parser.add_argument("--variants", nargs="+", choices=names, default=names)
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=list(LEVELS))
    parser.add_argument("--one", nargs=2, metavar=("VARIANT", "LEVEL"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        figures = asyncio.run(_open(*args.one))
        print(" ".join(f"{figures[name] * 1000:.1f}" for name in FIGURES))
        return
    print(f"{'variant':<16} {'level':<7}" + "".join(f"{name + ' ms':>11}" for name in FIGURES))
    for variant in args.variants:
        for level in args.levels:
            out = subprocess.run(
                [sys.executable, "-m", "benchmarks.first_deal", "--one", variant, level],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            print(f"{variant:<16} {level:<7}" + "".join(f"{float(v):>11.1f}" for v in out))


if __name__ == "__main__":
    main()
