"""The maintenance commands, ``python -m bot <verb>`` (``ratings``, ``compact``, ``verify``,
``copy``, ``health``, ``backup``; ``python -m bot --help`` lists them), and what those that
open a database share: which database they work on (``--database``: a SQLite file's path or a
PostgreSQL URL, else the one ``DATABASE_URL`` or ``DATABASE_PATH`` names), and one line, not a
traceback, when it is missing or cannot be used."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.core.base.store_errors import StoreUnavailable, UnusableStore
from bot.settings import Settings, SettingsError
from bot.store import is_postgres_url

__all__ = ["run_on_database"]


def run_on_database(given: str | None, work: Callable[[str], Coroutine[Any, Any, int]]) -> int:
    """Run ``work`` on the database ``given`` names (or the settings do); its exit status, or 2
    with one line on standard error when there is no database there or it cannot be used."""
    database = given
    if database is None:
        try:
            database = Settings.from_env().database
        except SettingsError as err:
            print(err, file=sys.stderr)
            return 2
    postgres = is_postgres_url(database)
    if not postgres and not Path(database).is_file():
        print(
            f"No database at {database}: set DATABASE_URL or DATABASE_PATH, or pass --database.",
            file=sys.stderr,
        )
        return 2
    try:
        return asyncio.run(work(database))
    except UnusableStore as err:
        named = "The PostgreSQL database" if postgres else f"The database {database}"
        print(f"{named} cannot be used: {err}", file=sys.stderr)
        return 2
    except (OSError, StoreUnavailable) as err:
        named = "the PostgreSQL database" if postgres else f"the database {database}"
        print(f"Cannot reach {named} ({err}).", file=sys.stderr)
        return 2
