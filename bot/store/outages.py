"""What the drivers raise when the database itself fails, as the core's
:class:`~bot.core.base.store_errors.StoreUnavailable`: its storage is full, or it cannot be reached.

Both are a lasting condition, not a bug in a query: the core tells the player what is wrong and
notes it in the log once per game (:mod:`bot.core.base.faults`) instead of a traceback per click.
Every other error passes unchanged.

- full: SQLite's ``SQLITE_FULL`` ("database or disk is full"), PostgreSQL's ``DiskFullError``
  (53100);
- unreachable: SQLite's ``SQLITE_IOERR*`` and ``SQLITE_CANTOPEN`` (the file cannot be read or
  written); on PostgreSQL a refused or lost connection (``OSError``, class 08, "connection is
  closed", a connection ended while idle in the pool), the server shutting down or starting
  up (57P01-57P03), no connection slot left (53300).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator

import asyncpg.exceptions as pg

from bot.core.base.faults import Cause
from bot.core.base.store_errors import StoreUnavailable

__all__ = ["on_postgres", "on_sqlite", "quiet_pool_retries", "translated"]

#: asyncpg's errors that mean the server cannot be reached or talked to now.
_PG_UNREACHABLE: tuple[type[BaseException], ...] = (
    OSError,
    pg.PostgresConnectionError,
    pg.CannotConnectNowError,
    pg.AdminShutdownError,
    pg.CrashShutdownError,
    pg.TooManyConnectionsError,
)


#: Which store fault an error is, on one database (None: not one).
Classify = Callable[[BaseException], StoreUnavailable | None]


def on_sqlite(error: BaseException) -> StoreUnavailable | None:
    """The store fault SQLite's ``error`` is, or None for any other error."""
    if isinstance(error, sqlite3.Error):
        name: str = getattr(error, "sqlite_errorname", "")
        if name == "SQLITE_FULL":
            return StoreUnavailable(Cause.FULL, f"SQLite: {error}")
        if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")):
            return StoreUnavailable(Cause.UNREACHABLE, f"SQLite: {error}")
    return None


def on_postgres(error: BaseException) -> StoreUnavailable | None:
    """The store fault asyncpg's ``error`` is, or None for any other error."""
    if isinstance(error, pg.DiskFullError):
        return StoreUnavailable(Cause.FULL, f"PostgreSQL: {error}")
    if isinstance(error, pg.InterfaceError) and "connection is closed" in str(error):
        # "connection is closed": the server dropped it (not a misuse of the driver).
        return StoreUnavailable(Cause.UNREACHABLE, f"PostgreSQL: {error}")
    if isinstance(error, pg.InternalClientError) and "another operation" in str(error):
        # A pooled connection the server ended while it was idle is next used in a protocol
        # state it cannot leave (MagicStack/asyncpg#1069, #784): it is a lost connection.
        return StoreUnavailable(Cause.UNREACHABLE, f"PostgreSQL: {error}")
    if isinstance(error, _PG_UNREACHABLE):
        return StoreUnavailable(
            Cause.UNREACHABLE, f"PostgreSQL: {type(error).__name__}: {error}".rstrip(": ")
        )
    return None


@contextlib.contextmanager
def translated(classify: Classify) -> Iterator[None]:
    """Raise a store fault met inside the block (:func:`on_sqlite`, :func:`on_postgres`) as
    :class:`StoreUnavailable`, the driver's error kept as its cause; anything else as it
    was."""
    try:
        yield
    except StoreUnavailable:
        raise
    except Exception as error:
        found = classify(error)
        if found is None:
            raise
        raise found from error


class _OneLine(logging.Filter):
    """A record whose exception is a store fault, on one line: what was logged and the
    driver's words, without the traceback (it says nothing more during an outage)."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and on_postgres(error) is not None:
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


_ONE_LINE = _OneLine()


def quiet_pool_retries() -> None:
    """asyncpg's pool tries to reconnect throughout an outage, logging each failed try with a
    traceback: log those on one line each (the core notes the outage itself, once per
    game)."""
    pool_log = logging.getLogger("asyncpg.pool")
    if _ONE_LINE not in pool_log.filters:
        pool_log.addFilter(_ONE_LINE)
