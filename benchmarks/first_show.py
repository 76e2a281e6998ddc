"""How long a manual show's first count menus hold the event loop, by variant (stop 44).

    .venv/bin/python -m benchmarks.first_show

The count menus offer every value a claim may name (``engine.scoring.claim_values``): worked
out once per process, on the event loop if nothing did it before. Each variant is measured in
a fresh process, warmed as the bot warms itself at start-up (``_warm_engine``), in two ways:

- ``before``: only the show's rank tables built (what ``tables_ready`` did before stop 44),
  then the first show's claims timed on the event loop;
- ``now``: ``tables_ready`` as it is (the claims worked out in its thread), then the same.

It prints, per variant, the milliseconds each way and ``tables_ready``'s own time (in a
thread, which holds no other game; with the 2 ms of starting an event loop to run it).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time

from engine.counting import Counting
from engine.variants import listed, named


def _one(variant: str, way: str) -> str:
    """Measure ``variant`` one ``way`` in this (fresh) process; the figures, as one line."""
    from bot.core.games import computer
    from bot.discord.app import _warm_engine
    from engine.scoring import claim_values, rank_table

    _warm_engine()
    rules = named(variant).rules(counting=Counting.MANUAL)
    started = time.perf_counter()
    if way == "before":
        for size in (rules.kept + 1, rules.crib_size + 1):
            rank_table(size, rules.points)
    else:
        asyncio.run(computer.tables_ready(rules))
    ready = time.perf_counter() - started
    started = time.perf_counter()
    claim_values(rules)
    held = time.perf_counter() - started
    return f"{ready * 1000:.0f} {held * 1000:.2f}"


def main(argv: list[str] | None = None) -> None:
    """Print each variant's figures, one fresh process per variant and way."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=2, metavar=("VARIANT", "WAY"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(_one(*args.one))
        return
    print(f"{'variant':<16} {'before: held':>13} {'now: held':>10} {'tables_ready':>13}")
    for variant in listed():
        figures = {}
        for way in ("before", "now"):
            out = subprocess.run(
                [sys.executable, "-m", "benchmarks.first_show", "--one", variant.name, way],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            figures[way] = (float(out[0]), float(out[1]))
        print(
            f"{variant.name:<16} {figures['before'][1]:>10.2f} ms {figures['now'][1]:>7.2f} ms"
            f" {figures['now'][0]:>10.0f} ms"
        )


if __name__ == "__main__":
    main()
