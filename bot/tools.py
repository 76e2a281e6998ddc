"""What the maintenance commands (``python -m bot.ratings``, ``python -m bot.compact``) share:
which database they work on (``--database``, else ``DATABASE_PATH``), and one line, not a
traceback, when it is missing or cannot be used."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from bot.core.storage import UnusableStore
from bot.settings import Settings, SettingsError

__all__ = ["run_on_database"]


def run_on_database(given: str | None, work: Callable[[str], Coroutine[Any, Any, int]]) -> int:
    """Run ``work`` on the database at ``given`` (or ``DATABASE_PATH``); its exit status, or 2
    with one line on standard error when there is no database there or it cannot be used."""
    path = given
    if path is None:
        try:
            path = Settings.from_env().database_path
        except SettingsError as err:
            print(err, file=sys.stderr)
            return 2
    if not Path(path).is_file():
        print(f"No database at {path}: set DATABASE_PATH or pass --database.", file=sys.stderr)
        return 2
    try:
        return asyncio.run(work(path))
    except UnusableStore as err:
        print(f"The database {path} cannot be used: {err}", file=sys.stderr)
        return 2
