"""``python -m bot copy SQLITE POSTGRES``: copy a SQLite database into PostgreSQL, and prove
nothing was lost (every row compared, every game replayed, every rating recomputed: see
:mod:`bot.store.copy`). Stop the bot first; the PostgreSQL database must be new or empty.

Exit status: 0 when the copy is whole, 1 on any difference, 2 for arguments that name no
database.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.store.copy import copy_database, verify_copy
from bot.store.store import Store, is_postgres_url

__all__ = ["main", "run"]


async def run(sqlite_path: str, postgres_url: str) -> int:
    """Copy, check, and print what happened; the exit status."""
    async with (
        await Store.open(sqlite_path) as source,
        await Store.open(postgres_url) as target,
    ):
        try:
            report = await copy_database(source, target)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
        copied = ", ".join(f"{table} {count:,}" for table, count in report.rows.items())
        print(f"Copied {sum(report.rows.values()):,} rows: {copied}.")
        await verify_copy(source, target, report)
    if report.differences:
        print(f"{len(report.differences)} differences found:", file=sys.stderr)
        for line in report.differences[:20]:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(
        f"Checked: every row of every table is equal in both; {report.games_replayed:,} games"
        " replayed from the copy; the ratings recomputed from its results are the ones copied."
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bot copy", description=__doc__)
    parser.add_argument("sqlite", help="the bot's SQLite file (DATABASE_PATH)")
    parser.add_argument("postgres", help="the new PostgreSQL database (postgresql://...)")
    args = parser.parse_args(argv)
    if not Path(args.sqlite).is_file():
        print(f"No SQLite database at {args.sqlite}.", file=sys.stderr)
        return 2
    if not is_postgres_url(args.postgres):
        print("The second argument must be a postgresql:// URL.", file=sys.stderr)
        return 2
    return asyncio.run(run(args.sqlite, args.postgres))
