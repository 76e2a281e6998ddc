"""Rebuild engine/data/peg_table.json: what four kept cards are worth in the play, by role.

The method (each kept rank multiset played out by the club player's rules against every hand
a sensible opponent keeps, weighted by how often it keeps it) is described in
engine/players/peg_table.py and stored in the file. Run from the project root:

    .venv/bin/python benchmarks/build_peg_table.py [--check]

With --check it only compares the rebuilt tables to the shipped ones and exits 1 on a
difference.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a plain script from a checkout: make the project importable without installing it.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.data_tables import rebuild  # noqa: E402
from engine.players.peg_table import DATA_FILE, build_table  # noqa: E402


def main() -> int:
    return rebuild(
        __doc__.splitlines()[0],
        DATA_FILE,
        build_table,
        lambda t, s: f"built {len(t['dealer']) + len(t['pone'])} entries in {s:.1f} s",
    )


if __name__ == "__main__":
    sys.exit(main())
