"""The Activity's benchmark still measures what it says: moves at the table and in the chat
reach every other table, and it prints its figures. (The figures are never asserted here; this
only keeps the instrument working.)"""

from __future__ import annotations

from tests.helpers.bench_runs import run_benchmark


def test_the_activity_benchmark_measures_moves_from_both_places() -> None:
    out = run_benchmark("activity", "--moves", "12", "--watchers", "1", timeout=180)
    assert "a move at a table, to the other tables showing it: p50" in out, out
    assert "a move in the chat, to every table showing it: p50" in out, out
    assert "bytes sent to a watcher's table:" in out, out
