"""How fast the show is scored: prints figures next to their targets (issue 2).

    python -m benchmarks.scoring [--calls N] [--seed S]

- all 12,994,800 hand + starter combinations through engine.scoring.score_distribution
  (target: under 15 s on the project's 2-core machine, plain CPython), hand and crib rules;
- the median time of one score_hand call with its itemised breakdown (target: under 20 µs);
- for reference, the public Card-based hand_total per call, and the first-use table build.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import scoring
from engine.cards import full_deck

ALL_COMBINATIONS = 12_994_800
TARGET_ALL_S = 15.0
TARGET_CALL_US = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50_000, help="score_hand calls to time")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    start = time.perf_counter()
    scoring.rank_points([1, 2, 3, 4, 5])  # builds the 6,175-entry rank table
    build_s = time.perf_counter() - start
    print(f"rank table built on first use:       {build_s * 1000:8.1f} ms")

    for crib in (False, True):
        start = time.perf_counter()
        counts = scoring.score_distribution(crib=crib)
        elapsed = time.perf_counter() - start
        assert sum(counts.values()) == ALL_COMBINATIONS
        rules = "crib" if crib else "hand"
        verdict = "ok" if elapsed < TARGET_ALL_S else "OVER TARGET"
        print(
            f"all {ALL_COMBINATIONS:,} combinations ({rules}): {elapsed:8.2f} s"
            f"   target < {TARGET_ALL_S:.0f} s  {verdict}"
        )

    rng = random.Random(args.seed)
    deck = full_deck()
    deals = []
    for _ in range(args.calls):
        cards = rng.sample(deck, 5)
        deals.append((cards[:4], cards[4], rng.random() < 0.25))

    timings = []
    clock = time.perf_counter_ns
    score_hand = scoring.score_hand
    for hand, starter, crib in deals:
        begin = clock()
        score_hand(hand, starter, crib=crib)
        timings.append(clock() - begin)
    median_us = statistics.median(timings) / 1000
    p99_us = statistics.quantiles(timings, n=100)[98] / 1000
    verdict = "ok" if median_us < TARGET_CALL_US else "OVER TARGET"
    print(
        f"score_hand with items, median:       {median_us:8.2f} µs"
        f"   target < {TARGET_CALL_US:.0f} µs  {verdict}   (p99 {p99_us:.2f} µs,"
        f" {args.calls:,} random deals)"
    )

    hand_total = scoring.hand_total
    start = time.perf_counter()
    for hand, starter, crib in deals:
        hand_total(hand, starter, crib=crib)
    per_call_us = (time.perf_counter() - start) / len(deals) * 1e6
    print(
        f"hand_total (Card objects), mean:     {per_call_us:8.2f} µs"
        f"   (one by one over all combinations: ~{per_call_us * ALL_COMBINATIONS / 1e6:.0f} s)"
    )


if __name__ == "__main__":
    main()
