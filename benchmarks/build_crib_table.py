"""Rebuild engine/data/crib_table.json: the expected crib value of thrown cards.

The method (exact enumeration over every other crib card and every starter) is described in
engine/players/crib_table.py and stored in the file. Run from the project root:

    .venv/bin/python benchmarks/build_crib_table.py [--check]

With --check it only compares the rebuilt table to the shipped one and exits 1 on a difference.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a plain script from a checkout: make the project importable without installing it.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.data_tables import rebuild  # noqa: E402
from engine.players.crib_table import DATA_FILE, build_table  # noqa: E402


def _built(table: dict[str, dict[str, float]], seconds: float) -> str:
    two, one = len(table["two"]), len(table["one"])
    return f"built {two} two-card and {one} one-card entries in {seconds:.1f} s"


def main() -> int:
    return rebuild(__doc__.splitlines()[0], DATA_FILE, build_table, _built)


if __name__ == "__main__":
    sys.exit(main())
