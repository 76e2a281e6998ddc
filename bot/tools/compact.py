"""``python -m bot compact``: let an older database give back the space pruning frees.

A database made by this release gives space back as old games are pruned (SQLite's
incremental auto-vacuum, chosen when the file is created). One made before can only switch
that on by rebuilding the file once (``VACUUM``): run this while the bot is stopped; it needs
room for a second copy of the file and takes about as long as copying it. Without it nothing is
lost: freed space is reused for new games, the file just never shrinks.

    .venv/bin/python -m bot compact [--database PATH]
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.store import Store
from bot.store.sqlite import SqliteDatabase
from bot.tools import DONE, run_on_database, tool_parser


async def run(database: str) -> int:
    """Switch on incremental auto-vacuum in the SQLite file ``database`` (rebuilding it once if
    it is not on yet); prints what it did and returns the exit status."""
    async with await Store.open(database) as store:
        if not isinstance(store.db, SqliteDatabase):
            print("PostgreSQL gives freed space back by itself (autovacuum): nothing to do.")
            return DONE
        before = Path(database).stat().st_size
        if await store.db.auto_vacuum() == "incremental":
            await store.db.reclaim(1_000_000)
            print(f"{database} already gives space back as games are pruned; freed pages returned.")
        else:
            print(f"Rebuilding {database} ({before / 1e6:.1f} MB) with incremental auto-vacuum…")
            await store.db.switch_on_incremental_vacuum()
    after = Path(database).stat().st_size
    print(f"Done: {before / 1e6:.1f} MB before, {after / 1e6:.1f} MB now.")
    return DONE


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = tool_parser("python -m bot compact", __doc__)
    parser.add_argument("--database", help="the database file (default: DATABASE_PATH)")
    args = parser.parse_args(argv)
    return run_on_database(args.database, run)
