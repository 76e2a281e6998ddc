"""The soak still measures what it says (issue 33, item 7): games are played one after another
in each channel with new players, the bot's memory is read as they finish, and the verdict is
printed. (Its figures are never asserted here; this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_soak_plays_games_one_after_another_and_reads_the_memory() -> None:
    out = run_benchmark(
        "soak",
        *("--channels", "2", "--games", "2", "--warm-up", "2", "--warm-up-seconds", "0"),
        *("--every", "1"),
        ok=False,
    )
    readings = re.findall(r"^\s+(\d+)\s+(\d+\.\d)\s+\d+ s$", out, re.MULTILINE)
    assert len(readings) >= 3 and int(readings[-1][0]) >= 4, out[-3000:]
    warmed = re.search(r"after the warm-up \((\d+) games\)", out)
    assert warmed is not None and int(warmed[1]) >= 2, out[-3000:]
    assert "goal: flat within 10%" in out, out[-3000:]
    assert "failures" not in out, out[-3000:]
