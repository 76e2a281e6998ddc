"""The first-deal benchmark still measures what it says: a variant's first game against the
computer in a process just started, its call and how long it held the event loop. (Its figures
are never asserted here; this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_first_deal_benchmark_opens_a_variants_first_game_in_a_fresh_process() -> None:
    out = run_benchmark("first_deal", "--variants", "seven_card", "--levels", "easy")
    assert "call ms" in out and "held ms" in out, out
    assert re.search(r"^seven_card\s+easy(\s+[\d.]+){6}$", out, re.MULTILINE), out
