"""The ranked queue's benchmark still measures what it says: the time to a match with players
waiting, one sweep, and queue operations per second, on both databases. (Its figures are never
asserted here; this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_ranked_queue_benchmark_times_matches_sweeps_and_operations() -> None:
    out = run_benchmark(
        "ranked_queue", "--waiting", "10", "--rounds", "3", "--players", "10", "--concurrency", "4"
    )
    for database in ("sqlite", "postgres"):
        assert re.search(rf"{database}, 10 waiting +median +[\d.]+ ms", out), out
        assert re.search(rf"^  {database} +[\d.]+ ms, 5 matches made", out, re.MULTILINE), out
        assert re.search(rf"^  {database} +\d+ operations/s", out, re.MULTILINE), out
