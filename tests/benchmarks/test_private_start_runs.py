"""The private table's start benchmark still measures what it says: starts in DMs and group DMs
with latency off and on, each lobby becoming its table. (Its figures are never asserted here;
this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_private_start_benchmark_times_starts_with_latency_off_and_on() -> None:
    out = run_benchmark("private_start", "--starts", "2")
    for latency in ("off", "40-250 ms"):
        row = rf"^\| {latency} \| \d+ / \d+ / \d+ \| [\d.]+ \(\d+-\d+\) \| 0 \| 0 \| 0 \|$"
        assert re.search(row, out, re.MULTILINE), out
