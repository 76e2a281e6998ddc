"""``python -m bot.compact``: let an older database give back the space pruning frees.

A database made by this release gives space back as old games are pruned (SQLite's
incremental auto-vacuum, chosen when the file is created). One made before can only switch
that on by rebuilding the file once (``VACUUM``): run this while the bot is stopped; it needs
room for a second copy of the file and takes about as long as copying it. Without it nothing is
lost: freed space is reused for new games, the file just never shrinks.

    .venv/bin/python -m bot.compact [--database PATH]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.store import Store
from bot.tools import run_on_database


async def run(path: str | Path) -> int:
    """Switch on incremental auto-vacuum at ``path`` (rebuilding the file once if it is not
    on yet); prints what it did and returns the exit status."""
    before = Path(path).stat().st_size
    async with await Store.open(path) as store:
        mode = await store.auto_vacuum()
        if mode == "incremental":
            await store.reclaim(1_000_000)
            print(f"{path} already gives space back as games are pruned; freed pages returned.")
        else:
            print(f"Rebuilding {path} ({before / 1e6:.1f} MB) with incremental auto-vacuum…")
            await store.switch_on_incremental_vacuum()
    after = Path(path).stat().st_size
    print(f"Done: {before / 1e6:.1f} MB before, {after / 1e6:.1f} MB now.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bot.compact", description=__doc__)
    parser.add_argument("--database", help="the database file (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    return run_on_database(args.database, run)


if __name__ == "__main__":
    sys.exit(main())
