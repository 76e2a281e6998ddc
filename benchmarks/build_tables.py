"""Rebuild one of the engine's shipped data tables (engine/data/), or check it.

From the project root:

    .venv/bin/python -m benchmarks.build_tables TABLE [--check]

TABLE is one of (each table's method is described in its module and stored in its file):

- ``crib_table``: the expected crib value of thrown cards, by exact enumeration over every
  other crib card and every starter (engine/players/crib_table.py);
- ``role_cribs``: the crib's value by the cards thrown and the role, by Hessel's iteration:
  sensible throws by every six-card rank multiset, the crib scored exactly against them,
  repeated until the throws settle (engine/players/role_crib.py);
- ``peg_table``: what four kept cards are worth in the play, by role: each kept rank multiset
  played out by the club player's rules against every hand a sensible opponent keeps,
  weighted by how often it keeps it (engine/players/peg_table.py);
- ``win_chance``: the chance to win a two-player game from a position: each deal's points
  drawn from club player against club player over many seeded deals, then the chances worked
  up exactly from the positions nearest the end (engine/players/win_chance.py);
- ``show_tables``: what each rank multiset of a show scores and what a show can total, for
  every show size a registered variant has, by exact enumeration (engine/scoring.py).

With --check it only compares the rebuilt table to the shipped file and exits 1 on a
difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import scoring
from engine.players import crib_table, peg_table, role_crib, win_chance

ROOT = Path(__file__).resolve().parent.parent

Table = dict[str, Any]


@dataclass(frozen=True)
class Builder:
    """One shipped table: its file, what builds it and what to say of what was built."""

    data_file: str
    build: Callable[[], Table]
    built: Callable[[Table, float], str]


BUILDERS = {
    "crib_table": Builder(
        crib_table.DATA_FILE,
        crib_table.build_table,
        lambda t, s: f"built {len(t['two'])} two-card and {len(t['one'])} one-card entries"
        f" in {s:.1f} s",
    ),
    "role_cribs": Builder(
        role_crib.DATA_FILE,
        lambda: role_crib.build_tables(report=True),
        lambda t, s: f"settled after {t['rounds']} rounds in {s:.1f} s",
    ),
    "peg_table": Builder(
        peg_table.DATA_FILE,
        peg_table.build_table,
        lambda t, s: f"built {len(t['dealer']) + len(t['pone'])} entries in {s:.1f} s",
    ),
    "win_chance": Builder(
        win_chance.DATA_FILE,
        win_chance.build_tables,
        lambda t, s: f"simulated {t['deals']} deals and solved the tables in {s:.1f} s",
    ),
    "show_tables": Builder(
        scoring.DATA_FILE,
        scoring.build_show_tables,
        lambda t, s: f"built {sum(len(show['ranks']) for show in t['shows'].values())} rank"
        f" multisets' points in {s:.1f} s",
    ),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", choices=sorted(BUILDERS))
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    builder = BUILDERS[args.table]
    out = ROOT / "engine" / "data" / builder.data_file
    started = time.perf_counter()
    table = builder.build()
    print(builder.built(table, time.perf_counter() - started))
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        same = out.read_text(encoding="utf-8") == text
        print("matches the shipped file" if same else "DIFFERS from the shipped file")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
