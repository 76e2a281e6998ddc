"""Rebuild engine/data/crib_table.json: the expected crib value of thrown cards.

The method (exact enumeration over every other crib card and every starter) is described in
engine/players/crib_table.py and stored in the file. Run from the project root:

    .venv/bin/python benchmarks/build_crib_table.py [--check]

With --check it only compares the rebuilt table to the shipped one and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a plain script from a checkout: make the project importable without installing it.
sys.path.insert(0, str(ROOT))

from engine.players.crib_table import DATA_FILE, build_table  # noqa: E402

OUT = ROOT / "engine" / "data" / DATA_FILE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    started = time.perf_counter()
    table = build_table()
    elapsed = time.perf_counter() - started
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    print(
        f"built {len(table['two'])} two-card and {len(table['one'])} one-card entries "
        f"in {elapsed:.1f} s"
    )
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("matches the shipped file" if same else "DIFFERS from the shipped file")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
