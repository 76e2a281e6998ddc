"""``python -m bot copy SQLITE POSTGRES``: copy a SQLite database into PostgreSQL, and prove
nothing was lost (every row compared, every game replayed, every rating recomputed: see
:mod:`bot.store.copy`). Stop the bot first; the PostgreSQL database must be new or empty.

The copy is whole: exit status 0; any difference, or a row PostgreSQL refuses (one that refers
to a row the file does not have: nothing is copied then, and the line names it): 1; a database
that is not there or cannot be used, or a PostgreSQL database that is not empty: 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bot.core.base.store_errors import UnusableStore
from bot.store.copy import CopyRefused, copy_database, verify_copy
from bot.store.store import Store, is_postgres_url
from bot.tools import (
    DONE,
    FAILED,
    TO_FIX,
    ToFix,
    counted,
    database_label,
    run_on,
    tool_parser,
)

__all__ = ["main", "run"]


async def _open(database: str) -> Store:
    """The store of ``database``, or :class:`ToFix` naming it when it cannot be used."""
    try:
        return await Store.open(database)
    except UnusableStore as err:
        named = database_label(database)
        raise ToFix(f"{named[:1].upper()}{named[1:]} cannot be used: {err}") from None


async def run(sqlite_path: str, postgres_url: str) -> int:
    """Copy, check, and print what happened; the exit status (raises :class:`ToFix` for a
    database that cannot be used, or a PostgreSQL one that is not empty)."""
    async with await _open(sqlite_path) as source, await _open(postgres_url) as target:
        try:
            report = await copy_database(source, target)
        except CopyRefused as error:
            print(error, file=sys.stderr)
            return FAILED
        except ValueError as error:
            raise ToFix(str(error)) from None
        copied = ", ".join(f"{table} {count:,}" for table, count in report.rows.items())
        print(f"Copied {counted(sum(report.rows.values()), 'row')}: {copied}.")
        await verify_copy(source, target, report)
    if report.differences:
        print(f"{counted(len(report.differences), 'difference')} found:", file=sys.stderr)
        for line in report.differences[:20]:
            print(f"  {line}", file=sys.stderr)
        return FAILED
    replayed = counted(report.games_replayed, "game")
    print(
        f"Checked: every row of every table is equal in both; {replayed} replayed from the"
        " copy; the ratings recomputed from its results are the ones copied."
    )
    return DONE


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = tool_parser("python -m bot copy", __doc__)
    parser.add_argument("sqlite", help="the bot's SQLite file (DATABASE_PATH)")
    parser.add_argument("postgres", help="the new PostgreSQL database (postgresql://...)")
    args = parser.parse_args(argv)
    if is_postgres_url(args.sqlite) or not is_postgres_url(args.postgres):
        print("Give the SQLite file first, then a postgresql:// URL.", file=sys.stderr)
        return TO_FIX
    work = lambda: run(args.sqlite, args.postgres)  # noqa: E731
    return run_on([args.sqlite, args.postgres], work, missing="give the bot's SQLite file")
