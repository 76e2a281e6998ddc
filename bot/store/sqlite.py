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

from bot.core.base.store_errors import UnusableStore
from bot.store import preflight
from bot.store.database import Dialect, MissingReference, Observer, Row, UniqueViolation, timed
from bot.store.outages import on_sqlite, translated

__all__ = ["SqliteDatabase"]

_UNIQUE_FAILED = "UNIQUE constraint failed: "
_REFERENCE_FAILED = "FOREIGN KEY constraint failed"


def _unique(error: sqlite3.IntegrityError) -> UniqueViolation | MissingReference | None:
    """The unique index a write broke (SQLite names its columns), a reference to a row that
    is not there (a foreign key, which SQLite does not name), or None for any other integrity
    error (a CHECK: a bug, not a refusal)."""
    text = str(error)
    if text.startswith(_UNIQUE_FAILED):
        return UniqueViolation(text.removeprefix(_UNIQUE_FAILED))
    if text.startswith(_REFERENCE_FAILED):
        return MissingReference("")
    return None


def _unusable(error: sqlite3.Error, path: Path) -> UnusableStore:
    """What SQLite said when opening the database at ``path``, as the sentence for whoever
    runs the bot. SQLite answers a file or folder it cannot write with SQLITE_READONLY (or
    ..._DIRECTORY), or with SQLITE_CANTOPEN where it cannot make the -shm file WAL mode
    reads through: either way, say which is read-only and what to do."""
    name: str = getattr(error, "sqlite_errorname", "")
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
        why = preflight.read_only(path)
        if why is not None:
            return UnusableStore(why)
    if name.startswith("SQLITE_READONLY"):
        return UnusableStore(
            f"it cannot be written ({error}): make the file and its folder writable by the "
            "user the bot runs as."
        )
    return UnusableStore(f"SQLite cannot use it ({error}).")


#: How many of SQLite's virtual machine steps a statement takes between two calls of the
#: progress handler: often enough to stop a long statement at once, rare enough to cost
#: nothing (the bot's statements mostly take fewer).
_PROGRESS_STEPS = 10_000

#: How long opening waits for another process's switch of a new file to WAL mode: as long as
#: SQLite's busy timeout waits for a lock.
_WAL_SWITCH_SECONDS = 5.0


async def _switch_to_wal(db: aiosqlite.Connection) -> None:
    """Put the file in WAL mode, waiting out another process doing the same.

    Two processes opening a new file together both hold a read lock and both need the
    exclusive one to change the journal mode: SQLite sees the deadlock and answers one of them
    SQLITE_BUSY at once, without its busy handler. That one tries again, briefly apart, until
    the other has switched the file (then the switch is a no-op) or the busy timeout has passed.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + _WAL_SWITCH_SECONDS
    pause = 0.005
    while True:
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorname", "").startswith("SQLITE_BUSY")
            if not busy or loop.time() + pause > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.1)


async def _prepare(db: aiosqlite.Connection) -> None:
    """The connection's settings, and a write that changes nothing, rolled back (the schema
    version set to itself): SQLite refuses it at once when the file or its folder is
    read-only, which would otherwise show only at the first move."""
    [(version,)] = await db.execute_fetchall("PRAGMA user_version")
    if version == 0 and not await db.execute_fetchall("SELECT 1 FROM sqlite_master LIMIT 1"):
        # A new file: let pruning give space back a little at a time (this can only be
        # chosen before the first table; an older file needs one VACUUM, python -m
        # python -m bot compact).
        await db.execute("PRAGMA auto_vacuum = INCREMENTAL")
    await _switch_to_wal(db)
    await db.execute("PRAGMA foreign_keys = ON")
    await db.execute("PRAGMA synchronous = NORMAL")
    await db.execute("PRAGMA busy_timeout = 5000")
    try:
        await db.executescript(f"BEGIN IMMEDIATE; PRAGMA user_version = {int(version)}; ROLLBACK;")
    except sqlite3.Error:
        if db.in_transaction:
            await db.rollback()
        raise


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


def statements(script: str) -> list[str]:
    r"""The statements of a script, one by one. SQLite's own test of a complete statement says
    where each ends (a ``;`` in a string, a comment or a trigger's body does not end one).

    >>> statements("CREATE TABLE a (x TEXT DEFAULT ';'); -- a note\nDROP TABLE a;")
    ["CREATE TABLE a (x TEXT DEFAULT ';');", ' -- a note\nDROP TABLE a;']
    """
    found = []
    start = 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : end + 1]):
            found.append(script[start : end + 1])
            start = end + 1
    if script[start:].strip():
        found.append(script[start:])  # a last statement without its ";", or only a comment
    return found


class _SqliteMigration(_SqliteTransaction):
    """The statements of the migrations, inside the transaction ``BEGIN IMMEDIATE`` opened."""

    async def script(self, sql: str) -> None:
        """Each statement of the script in turn (``executescript`` would commit first)."""
        for statement in statements(sql):
            await self.execute(statement)


async def _connect(path: str) -> aiosqlite.Connection:
    return await aiosqlite.connect(path, isolation_level="IMMEDIATE")


class SqliteDatabase:
    """The bot's SQLite file. Open with ``await SqliteDatabase.open(path)``."""

    dialect = Dialect.SQLITE

    def __init__(self, connection: aiosqlite.Connection, location: str) -> None:
        self.connection = connection
        self.location = location
        self.round_trips = 0
        self.observe: Observer | None = None
        self._lock = asyncio.Lock()
        #: Set while a cancelled unit of work rolls back: SQLite then stops the statement
        #: still running for it (see :meth:`_committing`).
        self._stopping = False

    def _stop_requested(self) -> int:
        """SQLite's progress handler (called in the connection's thread every few thousand
        steps of a statement): non-zero stops the statement, as an interrupt does."""
        return int(self._stopping)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        """Open (creating if needed) the database file at ``path``.

        Raises :class:`~bot.core.base.store_errors.UnusableStore` (nothing changed) for a directory,
        a missing folder, a file that is not a SQLite database or is shorter than its header says, a
        read-only file system (checked before SQLite touches it), and a file or folder it cannot
        write (saying which).
        """
        preflight.check_file(Path(path))
        connecting = asyncio.ensure_future(_connect(str(path)))
        try:
            db = await asyncio.shield(connecting)
        except sqlite3.Error as error:
            raise _unusable(error, Path(path)) from error
        except asyncio.CancelledError:
            # A stop signal while the connection opens: its thread would go on and answer an
            # event loop that is gone (a traceback at exit), and keep the process alive. It
            # is let open, then closed.
            with contextlib.suppress(Exception):
                await (await connecting).close()
            raise
        opened = cls(db, str(path))
        try:
            db.row_factory = sqlite3.Row
            try:
                await _prepare(db)
            except sqlite3.Error as error:
                raise _unusable(error, Path(path)) from error
            await db.set_progress_handler(opened._stop_requested, _PROGRESS_STEPS)
        except BaseException:
            # (A stop signal here too: the connection's thread would keep the process alive.)
            await db.close()
            raise
        return opened

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One query's rows, in one hop."""
        with timed(self.observe, "read"):
            async with self._lock:
                self.round_trips += 1
                with translated(on_sqlite):
                    return list(await self.connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One writing statement and its commit."""
        with timed(self.observe, "write"):
            async with self._transaction() as tx:
                return await tx.execute(sql, params)

    @contextlib.asynccontextmanager
    async def transaction(
        self, *, snapshot: bool = False, patient: bool = False
    ) -> AsyncIterator[_SqliteTransaction]:
        """A transaction: the first write statement begins it (in its own hop); commit at the
        end, or roll back if anything in the block raised. With ``snapshot`` it begins at once
        (``BEGIN IMMEDIATE``: the database's one write lock, before the first read), so what it
        reads is what it writes over. A full disk or a file that cannot be read or written
        raises :class:`~bot.core.base.store_errors.StoreUnavailable`; a reference to a row that
        is not there, :class:`~bot.store.database.MissingReference`. (``patient`` is
        PostgreSQL's: one process, nobody waits on its transactions here.)"""
        with timed(self.observe, "transaction"):
            async with self._transaction() as tx:
                if snapshot:
                    self.round_trips += 1
                    await self.connection.execute("BEGIN IMMEDIATE")
                yield tx

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_SqliteTransaction]:
        async with self._lock:
            with translated(on_sqlite):
                async with self._committing():
                    yield _SqliteTransaction(self)

    @contextlib.asynccontextmanager
    async def migrating(self) -> AsyncIterator[_SqliteMigration]:
        """``BEGIN IMMEDIATE`` first, so the transaction holds the database's one write lock
        from its first read (another process opening the same file waits, then finds the
        migrations applied); ``COMMIT`` at the end, or ``ROLLBACK`` if the block raised."""
        async with self._lock:
            self.round_trips += 1
            await self.connection.execute("BEGIN IMMEDIATE")
            async with self._committing():
                yield _SqliteMigration(self)

    @contextlib.asynccontextmanager
    async def _committing(self) -> AsyncIterator[None]:
        """Commit when the block ends; if it raised, roll back what it began, and re-raise.
        The caller holds the lock."""
        try:
            yield
        except BaseException as error:
            # Cancelled (a stop signal during start-up's migrations): the statement the await
            # was on still runs in the connection's thread, and the rollback waits behind it;
            # a migration's may take seconds, all of which the stop waited. Until the rollback
            # is done, SQLite's progress handler stops whatever statement runs or starts
            # (sqlite3_interrupt would miss one the thread has not begun yet).
            self._stopping = isinstance(error, asyncio.CancelledError)
            try:
                if self.connection.in_transaction:
                    await self.connection.rollback()
            finally:
                self._stopping = False
            raise
        self.round_trips += 1
        try:
            await self.connection.commit()
        except BaseException as error:
            # A commit SQLite refused (a full disk, a reference checked at the end) leaves the
            # transaction open.
            if self.connection.in_transaction:
                await self.connection.rollback()
            if isinstance(error, sqlite3.IntegrityError):
                raise _unique(error) or error from None
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

    async def reclaim(self, pages: int) -> None:
        """Give back to the file system up to ``pages`` free pages (with incremental
        auto-vacuum; nothing otherwise: SQLite reuses freed pages for new rows)."""
        if await self.auto_vacuum() == "incremental":
            async with self._lock:
                self.round_trips += 1
                # As a script: run through sqlite3's cursor, the pragma stops after its first
                # step, which frees one page.
                await self.connection.executescript(f"PRAGMA incremental_vacuum({int(pages)});")

    async def auto_vacuum(self) -> str:
        """How SQLite gives back the space of deleted rows: ``none`` (it reuses it, the file
        never shrinks), ``full`` or ``incremental`` (:meth:`reclaim` gives it back)."""
        mode = int((await self.fetch("PRAGMA auto_vacuum"))[0][0])
        return {0: "none", 1: "full", 2: "incremental"}.get(mode, str(mode))

    async def switch_on_incremental_vacuum(self) -> None:
        """Make an older file give space back as it is pruned: set incremental auto-vacuum and
        rebuild the file once (``VACUUM``: it takes as long as copying the file, and room for a
        second copy; nothing else may use the database meanwhile)."""
        async with self._lock:
            await self.connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
            await self.connection.execute("VACUUM")

    async def close(self) -> None:
        """Close the connection (after any unit of work still running)."""
        async with self._lock:
            await self.connection.close()
