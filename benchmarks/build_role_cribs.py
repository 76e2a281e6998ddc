"""Rebuild engine/data/role_cribs.json: the crib's value by the cards thrown and the role.

The method (Hessel's iteration: sensible throws by every six-card rank multiset, the crib
scored exactly against them, repeated until the throws settle) is described in
engine/players/role_crib.py and stored in the file. Run from the project root:

    .venv/bin/python benchmarks/build_role_cribs.py [--check]

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
from engine.players.role_crib import DATA_FILE, build_tables  # noqa: E402


def main() -> int:
    return rebuild(
        __doc__.splitlines()[0],
        DATA_FILE,
        lambda: build_tables(report=True),
        lambda t, s: f"settled after {t['rounds']} rounds in {s:.1f} s",
    )


if __name__ == "__main__":
    sys.exit(main())
