"""What the ``build_*.py`` scripts share: build one of the engine's shipped data tables, then
write it to ``engine/data/`` or, with ``--check``, only compare it to the shipped file (exit
status 1 on a difference). Each script names its table, its builder and what to say of it.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

Table = dict[str, Any]


def rebuild(
    description: str,
    data_file: str,
    build: Callable[[], Table],
    built: Callable[[Table, float], str],
) -> int:
    """Build the table, say what was built (``built(table, seconds)``), and write or check it."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    out = ROOT / "engine" / "data" / data_file
    started = time.perf_counter()
    table = build()
    print(built(table, time.perf_counter() - started))
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    if args.check:
        same = out.read_text(encoding="utf-8") == text
        print("matches the shipped file" if same else "DIFFERS from the shipped file")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0
