"""SQLite through aiosqlite: the bot's default database, one file used by one process.

One aiosqlite connection; its worker thread runs the statements and the event loop only awaits
them. Every awaited statement is a hop to that thread and back, so each unit of work takes as
few as aiosqlite's public API allows: a read is one ``execute_fetchall``; a write opens its
transaction implicitly with its first statement (``isolation_level="IMMEDIATE"``: Python's
sqlite3 issues ``BEGIN IMMEDIATE`` before it, in the same hop) and ends with ``commit``. One
lock keeps units from interleaving on the shared connection (a read in the middle of another
coroutine's transaction would see writes that may yet be rolled back).

WAL mode with ``synchronous = NORMAL``: a commit survives the process being killed (what a bot
restart is) without an fsync per move; only a power loss may drop the last commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.database import Dialect, Row, UniqueViolation

__all__ = ["SqliteDatabase"]

_UNIQUE_FAILED = "UNIQUE constraint failed: "


def _unique(error: sqlite3.IntegrityError) -> UniqueViolation | None:
    """The unique index a write broke (SQLite names its columns), or None for any other
    integrity error (a CHECK, a foreign key: a bug, not a refusal)."""
    text = str(error)
    if text.startswith(_UNIQUE_FAILED):
        return UniqueViolation(text.removeprefix(_UNIQUE_FAILED))
    return None


class _SqliteTransaction:
    """Statements on the shared connection, inside the transaction the first one opened."""

    def __init__(self, owner: SqliteDatabase) -> None:
        self._owner = owner
        self._db = owner.connection

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._owner.round_trips += 1
        try:
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as error:
            raise _unique(error) or error from None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._owner.round_trips += 1
        try:
            cursor = await self._db.execute(sql, params)
        except sqlite3.IntegrityError as error:
            raise _unique(error) or error from None
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        self._owner.round_trips += 1
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise _unique(error) or error from None

    async def serialize(self, key: int) -> None:
        """Nothing to do: a write transaction here began with ``BEGIN IMMEDIATE``, which holds
        the database's one write lock until it ends."""


class SqliteDatabase:
    """The bot's SQLite file. Open with ``await SqliteDatabase.open(path)``."""

    dialect = Dialect.SQLITE

    def __init__(self, connection: aiosqlite.Connection, location: str) -> None:
        self.connection = connection
        self.location = location
        self.round_trips = 0
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Open (creating if needed) the database file at ``path``."""
        db = await aiosqlite.connect(str(path), isolation_level="IMMEDIATE")
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA busy_timeout = 5000")
        except BaseException:
            await db.close()
            raise
        return cls(db, str(path))

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One query's rows, in one hop."""
        async with self._lock:
            self.round_trips += 1
            return list(await self.connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One writing statement and its commit."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_SqliteTransaction]:
        """A transaction: the first write statement begins it (in its own hop); commit at the
        end, or roll back if anything in the block raised."""
        async with self._lock:
            try:
                yield _SqliteTransaction(self)
            except BaseException:
                if self.connection.in_transaction:
                    await self.connection.rollback()
                raise
            self.round_trips += 1
            await self.connection.commit()

    async def schema_version(self) -> int:
        """``PRAGMA user_version``: the number of the last migration applied."""
        rows = await self.fetch("PRAGMA user_version")
        return int(rows[0][0])

    async def apply_migration(self, number: int, sql: str) -> None:
        """The script and the new ``user_version`` commit together, or not at all."""
        async with self._lock:
            try:
                await self.connection.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {int(number)};\nCOMMIT;"
                )
            except BaseException:
                if self.connection.in_transaction:
                    await self.connection.rollback()
                raise

    async def table_names(self) -> set[str]:
        """The names of the tables in the file."""
        rows = await self.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}

    async def journal_mode(self) -> str:
        """SQLite's journal mode (``wal`` once open)."""
        return str((await self.fetch("PRAGMA journal_mode"))[0][0])

    async def foreign_keys(self) -> bool:
        """Whether SQLite enforces foreign keys on this connection (it does once open)."""
        return bool((await self.fetch("PRAGMA foreign_keys"))[0][0])

    async def close(self) -> None:
        """Close the connection (after any unit of work still running)."""
        async with self._lock:
            await self.connection.close()
