"""The variants benchmark still measures what it says: the time to score a hand of each
variant, and a level's games against the greedy baseline with their interval, fair share and
decision times. (Its figures are never asserted here; this only keeps the instrument working.)"""

from __future__ import annotations

import re

from tests.helpers.bench_runs import run_benchmark


def test_the_variants_benchmark_scores_hands_and_plays_duplicate_seats_against_greedy() -> None:
    out = run_benchmark(
        "variants",
        *("--variants", "five_card", "six_hand_pairs", "--levels", "medium"),
        *("--budget", "5", "--hands", "300", "--max-seeds", "2"),
    )
    assert re.search(r"^\| five_card \| [\d.]+ / [\d.]+ \|", out, re.MULTILINE), out
    # Two seats swapped for two players; six seatings for six, a third the fair share.
    assert "five_card (2 players), medium vs greedy: 4 games (2 seeds x 2 seatings)" in out, out
    assert "six_hand_pairs (6 players), medium vs greedy: 12 games (2 seeds x 6 seatings)" in out
    assert "fair share 33.3%" in out and "decision ms median / p99: discard wall" in out, out
    assert re.search(r"^\| six_hand_pairs \| medium \| 12 \| [\d.]+% \|", out, re.MULTILINE), out
