"""Rebuild engine/data/peg_table.json: what four kept cards are worth in the play, by role.

The method (Hessel's iteration: sensible throws by every six-card rank multiset, the crib
scored exactly against them, repeated until the throws settle) is described in
engine/players/role_crib.py and stored in the file. Run from the project root:

    .venv/bin/python benchmarks/build_peg_table.py [--check]

With --check it only compares the rebuilt tables to the shipped ones and exits 1 on a
difference.
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

from engine.players.peg_table import DATA_FILE, build_table  # noqa: E402

OUT = ROOT / "engine" / "data" / DATA_FILE


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    started = time.perf_counter()
    tables = build_table()
    elapsed = time.perf_counter() - started
    text = json.dumps(tables, indent=1, sort_keys=True) + "\n"
    print(f"built {len(tables['dealer']) + len(tables['pone'])} entries in {elapsed:.1f} s")
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("matches the shipped file" if same else "DIFFERS from the shipped file")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
