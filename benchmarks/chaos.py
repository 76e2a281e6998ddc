"""Chaos, for longer than CI runs it: the end-to-end chaos test (`tests/e2e/test_chaos.py`) with
many faults in a game to 121, on SQLite (one process) and on PostgreSQL (two processes).

Each fault (SIGKILL after a move's answer, mid-send or at a random instant; SIGSTOP for up to
3 s; the click's answer refused with 404, 500 or 503, or held back by a 429) is followed by the
test's checks: every answered move stored exactly once, every player shown the stored game,
no DM with live controls for a state that has passed, no message doubled, and the game played
to its end. This prints how many faults of each kind struck, the moves played, and the time
from each fault's end (the process started again, or woken) until every player saw the game.

    .venv/bin/python -m benchmarks.chaos [--faults 40]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faults", type=int, default=40, help="faults per game")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="chaos-") as scratch:
        report = Path(scratch) / "figures.jsonl"
        env = {**os.environ, "CHAOS_FAULTS": str(args.faults), "CHAOS_REPORT": str(report)}
        env["CHAOS_TARGET"] = "121"
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-n", "0", "-q", "tests/e2e/test_chaos.py"],
            cwd=ROOT,
            env=env,
            check=False,
        )
        games = (
            [json.loads(line) for line in report.read_text().splitlines()]
            if (report.exists())
            else []
        )
    struck: dict[str, int] = {}
    back: list[float] = []
    for game in games:
        for kind, count in game["struck"].items():
            struck[kind] = struck.get(kind, 0) + count
        back += game["back"]
    print(f"games: {len(games)}, moves stored: {sum(g['moves'] for g in games)}")
    for kind, count in struck.items():
        print(f"  {kind}: {count}")
    if back:
        back.sort()
        p99 = back[min(len(back) - 1, int(0.99 * len(back)))]
        print(
            f"every player saw the stored game after a fault in median"
            f" {statistics.median(back):.2f} s, p99 {p99:.2f} s, longest {back[-1]:.2f} s"
            f" ({len(back)} faults)"
        )
    print(
        f"checks (stored once, no stale controls, nothing doubled): "
        f"{'all held' if run.returncode == 0 else 'FAILED'}"
    )
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
