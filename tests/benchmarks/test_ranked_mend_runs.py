"""Migration 029's benchmark still measures what it says: the upgrade's time on a database of
ranked games recorded the old way, and that the ratings are reproduced after it, on both
databases. (Its figures are never asserted here; this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_ranked_mend_benchmark_times_the_migration_and_checks_the_ratings() -> None:
    out = run_benchmark("ranked_mend", "--games", "30", "--ranked", "12", "--postgres")
    for database in ("sqlite", "postgres"):
        assert f"{database}: 30 server games and 12 ranked games" in out, out
    assert len(re.findall(r"^migration 029: \d+ ms", out, re.MULTILINE)) == 2, out
    assert out.count("ranked results at 1 game point after it: 24 of 24") == 2, out
    assert out.count("ratings --check: reproduced exactly") == 2, out
