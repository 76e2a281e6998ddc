"""``python -m bot backup FILE``: a consistent copy of the bot's SQLite database, made while the
bot runs.

It uses SQLite's online backup (``sqlite3.Connection.backup``), not a file copy: a copy of the
file taken while the bot writes can mix pages from before and after a move, and misses what
is still in the ``-wal`` file beside it. The backup reads the database in one read transaction
(in WAL mode the bot goes on writing meanwhile, and nothing it commits after the backup began
is in the copy), into ``FILE.partial``, checks the copy (``PRAGMA quick_check``), and only then
renames it to ``FILE``: a backup stopped half-way never leaves a ``FILE`` that looks whole, and
one that fails leaves nothing behind (the ``.partial`` is removed). ``FILE`` is refused when it
exists, unless ``--replace``, and always when it is a directory.

To restore: stop the bot, put the copy where ``DATABASE_PATH`` points (or point it at the
copy), and start the bot: games go on from the moves the copy holds, and the bot brings every
game's messages to what it says.

PostgreSQL is backed up with its own tools (``pg_dump``, restored with ``pg_restore``):
``docs/running.md`` says how; this command says the same and exits 2 (a setting to fix).

    .venv/bin/python -m bot backup FILE [--database PATH] [--replace]
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot.store import is_postgres_url
from bot.tools import DONE, FAILED, ToFix, counted, run_on_database, tool_parser

__all__ = ["PG_DUMP", "copy_sqlite", "main", "run"]

#: What the command says for a PostgreSQL database.
PG_DUMP = (
    "The database is PostgreSQL: back it up with pg_dump while the bot runs, e.g."
    ' pg_dump --format=custom --file=FILE "$DATABASE_URL", and restore it into an empty'
    ' database with pg_restore --no-owner --dbname="$NEW_DATABASE_URL" FILE (docs/running.md,'
    ' "Backups").'
)
#: How long SQLite waits for the bot's write lock before the backup's read begins.
BUSY_MS = 10_000


class BackupFailed(Exception):
    """The copy could not be made or is not whole: the sentence says why."""


def copy_sqlite(source: Path, target: Path) -> tuple[int, int]:
    """Copy the SQLite database ``source`` to ``target`` with SQLite's online backup (through
    ``target.partial``, checked, then renamed); its size in bytes and its games. Whatever
    stops it, the ``.partial`` (and its journal) is removed: nothing is left behind."""
    partial = target.with_name(f"{target.name}.partial")
    try:
        games = _copy_to(source, partial)
        os.replace(partial, target)
    except BaseException:
        for left in (partial, partial.with_name(f"{partial.name}-journal")):
            with contextlib.suppress(FileNotFoundError):
                left.unlink()
        raise
    return target.stat().st_size, games


def _copy_to(source: Path, partial: Path) -> int:
    """SQLite's online backup of ``source`` into ``partial`` (made anew), checked; its games."""
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    src = sqlite3.connect(source, timeout=BUSY_MS / 1000)
    try:
        dst = sqlite3.connect(partial)
        try:
            # All pages in one step: one read transaction, so the copy is the database as it
            # stood at one moment (a backup in steps starts again whenever the bot writes).
            src.backup(dst)
            [(check,)] = dst.execute("PRAGMA quick_check").fetchall()
            if check != "ok":
                raise BackupFailed(f"the copy did not pass SQLite's check ({check})")
            [(games,)] = dst.execute("SELECT COUNT(*) FROM games").fetchall()
            # A copy that stands alone: no -wal file beside it.
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    return int(games)


def _why(error: Exception) -> str:
    """What stopped a backup, in words: an operating system's error as its reason and the
    file (not "[Errno 28] ..."), SQLite's and the check's as they say it."""
    if isinstance(error, OSError) and error.strerror:
        where = f" ({error.filename})" if error.filename else ""
        return f"{error.strerror[:1].lower()}{error.strerror[1:]}{where}"
    return str(error)


def _check_target(source: Path, target: Path, replace: bool) -> None:
    """Raise :class:`ToFix` when ``target`` cannot take the copy as asked."""
    if target.is_dir():
        raise ToFix(
            f"{target} is a directory, not a file: give the path of the file to write the copy"
            f" to, such as {target / 'cribbage-backup.db'}."
        )
    if target.exists() and not replace:
        raise ToFix(f"{target} exists: choose another name, or add --replace.")
    if target.exists() and target.resolve() == source.resolve():
        raise ToFix(f"{target} is the database itself: choose another file.")
    if not target.parent.is_dir():
        raise ToFix(f"There is no folder {target.parent} to write {target.name} in.")


async def run(database: str, target: Path, *, replace: bool) -> int:
    """Back ``database`` up to ``target``; prints what it did, returns the exit status
    (raises :class:`ToFix` for a setting or a file to fix first)."""
    if is_postgres_url(database):
        raise ToFix(PG_DUMP)
    source = Path(database)
    _check_target(source, target, replace)
    started = time.perf_counter()
    try:
        size, games = await asyncio.to_thread(copy_sqlite, source, target)
    except (sqlite3.Error, OSError, BackupFailed) as error:
        print(
            f"The backup of {source} failed: {_why(error)}; {target} was not written.",
            file=sys.stderr,
        )
        return FAILED
    seconds = time.perf_counter() - started
    said = f"{size / 1e6:.1f} MB, {counted(games, 'game')}, {seconds:.1f} s"
    print(f"Backed up {source} to {target}: {said}.")
    return DONE


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = tool_parser("python -m bot backup", __doc__)
    parser.add_argument("file", type=Path, help="where to write the copy")
    parser.add_argument("--database", help="the database file (default: DATABASE_PATH)")
    parser.add_argument("--replace", action="store_true", help="replace FILE if it exists")
    args = parser.parse_args(argv)
    return run_on_database(
        args.database, lambda database: run(database, args.file, replace=args.replace)
    )
