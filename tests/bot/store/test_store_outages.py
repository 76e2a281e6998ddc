"""Which drivers' errors are a store that is full or out of reach (and nothing else is)."""

from __future__ import annotations

import sqlite3

import asyncpg.exceptions as pg
import pytest

from bot.core.base.faults import Cause
from bot.core.base.store_errors import StoreUnavailable
from bot.store.database import UniqueViolation
from bot.store.outages import on_postgres, on_sqlite, translated

#: What asyncpg says of a connection the server ended while it sat idle in the pool.
_BUSY = "another operation (2) is in progress"


def _sqlite(text: str, name: str) -> sqlite3.Error:
    error = sqlite3.OperationalError(text)
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        (_sqlite("database or disk is full", "SQLITE_FULL"), Cause.FULL),
        (_sqlite("disk I/O error", "SQLITE_IOERR_WRITE"), Cause.UNREACHABLE),
        (_sqlite("unable to open database file", "SQLITE_CANTOPEN"), Cause.UNREACHABLE),
        (_sqlite("database is locked", "SQLITE_BUSY"), None),
        (_sqlite("no such table: games", "SQLITE_ERROR"), None),
        (ConnectionRefusedError(111, "Connect call failed"), None),
    ],
)
def test_sqlite(error: BaseException, cause: Cause | None) -> None:
    found = on_sqlite(error)
    assert (found.cause if found else None) is cause


@pytest.mark.parametrize(
    ("error", "cause"),
    [
        (pg.DiskFullError("could not extend file: No space left on device"), Cause.FULL),
        (ConnectionRefusedError(111, "Connect call failed"), Cause.UNREACHABLE),
        (pg.ConnectionDoesNotExistError("connection was closed"), Cause.UNREACHABLE),
        (pg.AdminShutdownError("terminating connection"), Cause.UNREACHABLE),
        (pg.CannotConnectNowError("the database system is starting up"), Cause.UNREACHABLE),
        (pg.InterfaceError("connection is closed"), Cause.UNREACHABLE),
        (
            pg.InternalClientError(
                "cannot switch to state 12; another operation (2) is in progress"
            ),
            Cause.UNREACHABLE,
        ),
        (pg.InterfaceError("cannot perform operation: another operation is in progress"), None),
        (pg.UniqueViolationError("duplicate key"), None),
        (pg.QueryCanceledError("canceling statement due to statement timeout"), None),
        (_sqlite("database or disk is full", "SQLITE_FULL"), None),
    ],
)
def test_postgres(error: BaseException, cause: Cause | None) -> None:
    found = on_postgres(error)
    assert (found.cause if found else None) is cause


def test_anything_else_passes_unchanged() -> None:
    with pytest.raises(UniqueViolation), translated(on_postgres):
        raise UniqueViolation("games_channel_open")
    with pytest.raises(StoreUnavailable) as raised, translated(on_sqlite):
        raise _sqlite("database or disk is full", "SQLITE_FULL")
    assert raised.value.cause is Cause.FULL and isinstance(raised.value.__cause__, sqlite3.Error)
