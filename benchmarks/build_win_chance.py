"""Rebuild engine/data/win_chance.json: the chance to win a two-player game from a position.

The method (each deal's points drawn from club player against club player over many seeded
deals, then the chances worked up exactly from the positions nearest the end) is described in
engine/players/win_chance.py and stored in the file. Run from the project root:

    .venv/bin/python benchmarks/build_win_chance.py [--check]

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
from engine.players.win_chance import DATA_FILE, build_tables  # noqa: E402


def main() -> int:
    return rebuild(
        __doc__.splitlines()[0],
        DATA_FILE,
        build_tables,
        lambda t, s: f"simulated {t['deals']} deals and solved the tables in {s:.1f} s",
    )


if __name__ == "__main__":
    sys.exit(main())
