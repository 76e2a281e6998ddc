"""The maintenance commands, ``python -m bot <verb>`` (``ratings``, ``compact``, ``verify``,
``copy``, ``health``, ``backup``; ``python -m bot --help`` lists them), and what they share:
which database they work on (``--database``: a SQLite file's path or a PostgreSQL URL, else the
one ``DATABASE_URL`` or ``DATABASE_PATH`` names); one line, not a traceback, when it is
missing or cannot be used; their help, each module's docstring as plain text; and one set of
exit statuses (:data:`EXIT_STATUSES`)."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import textwrap
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from bot.core.base.store_errors import StoreUnavailable, UnusableStore
from bot.settings import Settings, SettingsError
from bot.store import is_postgres_url
from bot.store.postgres import OutOfReach
from bot.store.preflight import check_readable

__all__ = [
    "DONE",
    "EXIT_STATUSES",
    "FAILED",
    "TO_FIX",
    "ToFix",
    "counted",
    "database_label",
    "plain",
    "run_on",
    "run_on_database",
    "tool_parser",
]

#: Every maintenance command's exit statuses: done (or well); it ran and found something
#: wrong or could not finish; a setting or a file to fix before it can run.
DONE, FAILED, TO_FIX = 0, 1, 2
#: The exit statuses as every command's help says them, and docs/running.md ("Maintenance
#: commands"), where a test holds them to this.
EXIT_STATUSES = (
    f"exit status: {DONE} done (health: the bot is well); {FAILED} it ran and found something"
    f" wrong or could not finish (health: unwell; backup: the copy failed; ratings --check,"
    f" copy: a difference; verify: a mismatch); {TO_FIX} a setting or a file to fix first"
    " (no database there, not a database, a folder where a file goes, an argument refused)"
)


class ToFix(Exception):
    """A command cannot run as it is asked: ``str()`` is one sentence saying what to fix (exit
    status :data:`TO_FIX`)."""


def counted(n: int, one: str, many: str | None = None) -> str:
    """How a command's line counts things, the plural right: ``1 game``, ``2,048 games``
    (``many``: a plural not made with an s, ``1 match``, ``3 matches``)."""
    word = one if n == 1 else (many or f"{one}s")
    return f"{n:,} {word}"


def plain(doc: str | None) -> str:
    """A module's docstring as a command's help prints it: its reStructuredText markup
    (````code````, ``:mod:`name```) dropped, so the terminal shows the words alone.

    >>> plain("``python -m bot health``: see :mod:`bot.ops.health`.")
    'python -m bot health: see bot.ops.health.'
    """
    text = re.sub(r":\w+:`~?([^`]+)`", r"\1", doc or "")
    return text.replace("``", "")


def tool_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """The argument parser of the command ``prog``: its help is ``doc`` (the module's
    docstring) as plain text, its lines kept, then the exit statuses."""
    return argparse.ArgumentParser(
        prog=prog,
        description=plain(doc),
        epilog=textwrap.fill(EXIT_STATUSES, width=92),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


#: What to do when no database is where the settings (or ``--database``) say.
SET_DATABASE = "set DATABASE_URL or DATABASE_PATH, or pass --database"


def _sqlite_problem(database: str, missing: str) -> str | None:
    """Why the SQLite database at ``database`` cannot be read, as one sentence (``missing``:
    what to do when there is none), or None."""
    path = Path(database)
    if not path.exists():
        return f"No database at {database}: {missing}."
    try:
        check_readable(path)
    except UnusableStore as err:
        return f"The database {database} cannot be used: {err}"
    return None


def database_label(database: str) -> str:
    """How a line names a database: the SQLite file, or "the PostgreSQL database" (never its
    URL, which may hold a password)."""
    return "the PostgreSQL database" if is_postgres_url(database) else f"the database {database}"


def run_on_database(given: str | None, work: Callable[[str], Coroutine[Any, Any, int]]) -> int:
    """Run ``work`` on the database ``given`` names (or the settings do); its exit status, or
    :data:`TO_FIX` with one line on standard error when there is no database there, it cannot
    be used, or ``work`` raises :class:`ToFix`."""
    database = given
    if database is None:
        try:
            database = Settings.from_env().database
        except SettingsError as err:
            print(err, file=sys.stderr)
            return TO_FIX
    return run_on([database], lambda: work(database), missing=SET_DATABASE)


def run_on(
    databases: Sequence[str], work: Callable[[], Coroutine[Any, Any, int]], *, missing: str
) -> int:
    """Run ``work`` on ``databases`` (SQLite paths or PostgreSQL URLs; ``work`` opens them):
    its exit status, or :data:`TO_FIX` with one line on standard error when a SQLite file is
    not there (``missing``: what to do then) or cannot be read, or ``work`` raises
    :class:`ToFix` (with one database, an unusable or unreachable one is named here;
    ``work`` names it where there are more)."""
    for database in databases:
        problem = None if is_postgres_url(database) else _sqlite_problem(database, missing)
        if problem is not None:
            print(problem, file=sys.stderr)
            return TO_FIX
    named = database_label(databases[0]) if len(databases) == 1 else "a database"
    try:
        return asyncio.run(work())
    except (ToFix, OutOfReach) as err:
        # (A PostgreSQL server out of reach: said as the bot's start-up says it.)
        print(err, file=sys.stderr)
    except UnusableStore as err:
        print(f"{named[:1].upper()}{named[1:]} cannot be used: {err}", file=sys.stderr)
    except (OSError, StoreUnavailable) as err:
        print(f"Cannot reach {named} ({err}).", file=sys.stderr)
    return TO_FIX
