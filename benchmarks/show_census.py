"""The show of every hand of 3, 4 or 5 cards with every starter, by the tests' reference scorer.

    python -m benchmarks.show_census [--sizes 3 4 5] [--crib] [--check]

Prints, for each size, the seconds it took, the number of combinations, the mean and the
count of every total, as Python ready to paste (the recorded figures in
tests/helpers/show_census.py came from here: three cards for five-card cribbage's hands,
five for seven-card cribbage's). ``--check`` compares with what is recorded there (four
cards: the published distribution) and exits non-zero on any difference. Five cards takes a
few minutes on one core (plain CPython, no numpy: tests/helpers/show_census.py says how).
"""

from __future__ import annotations

import argparse
import sys
import time
from math import comb

from tests.helpers.show_census import census, matches_recorded, mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[3, 5], choices=(3, 4, 5))
    parser.add_argument("--crib", action="store_true", help="the crib's flush rule")
    parser.add_argument("--check", action="store_true", help="compare with the recorded figures")
    args = parser.parse_args()
    failed = False
    for size in args.sizes:
        start = time.perf_counter()
        counts = census(size, crib=args.crib)
        elapsed = time.perf_counter() - start
        combinations = comb(52, size) * (52 - size)
        assert sum(counts.values()) == combinations
        rules = "crib" if args.crib else "hand"
        print(f"# {size}-card hands + starter ({rules} rules): {combinations:,} combinations")
        print(f"# {elapsed:.1f} s, mean {mean(counts):.6f}, highest {max(counts)}")
        print("{")
        for total, n in counts.items():
            print(f"    {total}: {n:_},")
        print("}")
        if args.check and args.crib and size != 4:
            print("# nothing recorded for cribs of this size (every variant's crib has four cards)")
        elif args.check:
            ok = matches_recorded(counts, size, crib=args.crib)
            print(f"# matches the recorded figures: {'yes' if ok else 'NO'}")
            failed = failed or not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
