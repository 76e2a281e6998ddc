"""The fixture databases' benchmark still measures what it says: a test's database made each
way, the server's CPU for a test's database copied each way PostgreSQL copies one, and a
query to the tests' PostgreSQL server through TCP and through its Unix socket (the
CPU of this process and of the server, read by PostgresServer.cpu). (Its figures are never
asserted here; this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_fixture_databases_benchmark_makes_each_way_and_queries_both_ways() -> None:
    out = run_benchmark("fixture_databases", "--rounds", "1", "--queries", "50")
    assert "PostgreSQL, a copy of the migrated template" in out, out
    for strategy in ("WAL_LOG", "FILE_COPY"):
        found = re.findall(rf"^{strategy}\s+\d+\.\d ms a database$", out, re.MULTILINE)
        assert len(found) == 2, out  # (twice in turn)
    for way in ("TCP", r"Unix socket"):
        found = re.findall(
            rf"^{way}\s+this process\s+\d+\s+server\s+\d+\s+time\s+\d+$", out, re.MULTILINE
        )
        assert len(found) == 2, out  # (twice in turn)
