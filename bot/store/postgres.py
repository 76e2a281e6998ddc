"""PostgreSQL through asyncpg: the database for a bot that runs as several processes.

asyncpg is the driver large discord.py bots already use (RoboDanny, Red-DiscordBot): asyncio
native, binary protocol, prepared statements cached per connection. A pool of connections
serves the process; each unit of work is one query (a read) or one transaction on one
connection (``BEGIN``, its statements, ``COMMIT``). The store's SQL is written with ``?``;
here it is numbered (``$1``...) as PostgreSQL wants.

Several processes share the database: a change names the version of what it was decided on
(``UPDATE ... WHERE version = ?``; under READ COMMITTED the second of two racing updates waits
for the first, sees the new version and changes nothing), the schema's constraints refuse what
no process may write (docs/architecture.md, "One discipline for every change"), migrations take
an advisory lock so two processes starting together apply them once (the one advisory lock),
:meth:`PostgresDatabase.listen` wakes a process when another one writes something it must act on
(``NOTIFY``); which process sends is a lease in a table (:mod:`bot.store.cluster`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

import asyncpg

from bot.core.base.store_errors import StoreUnavailable
from bot.core.base.timing import LEASE
from bot.store.database import (
    Dialect,
    MissingReference,
    Observer,
    Overtaken,
    Row,
    UniqueViolation,
    numbered_placeholders,
    timed,
)
from bot.store.outages import on_postgres, translated

__all__ = ["OutOfReach", "PostgresDatabase", "out_of_reach"]

#: The advisory lock key migrations take (any number no other part of the bot uses).
MIGRATION_LOCK = 0x0C1B_0001
#: Connections each process keeps open to the database.
POOL_MIN, POOL_MAX = 2, 10
#: How long PostgreSQL lets a transaction of the bot's wait on the bot between its statements
#: before it ends the session, rolling the transaction back (its
#: ``idle_in_transaction_session_timeout``, in milliseconds): a process frozen mid-transaction
#: (SIGSTOP, a paused VM, an event loop hung on other work) would otherwise keep the rows it
#: wrote locked for as long as its connection lives, and the process taking over as the sender,
#: writing the same rows (what was sent, the posts about to be made), waited on them as long,
#: sending nothing. Twice the sender's lease: no transaction of the running bot waits on more
#: than its next statement's round trip. (Migrations and ``copy`` wait on the bot longer, and
#: are patient: :data:`_PATIENT`.)
TRANSACTION_IDLE_AT_MOST = round(2 * LEASE * 1000)
#: A transaction that may wait on the bot between its statements as long as it takes: the
#: migrations at a start, ``copy`` reading SQLite's tables between its inserts.
_PATIENT = "SET LOCAL idle_in_transaction_session_timeout = 0"
#: What this release's connections say (a setting of their own, from the start): that they write
#: the row of each person their writes name (``people``, migration 040). A release before it
#: says nothing, and the database makes those rows for its writes (040's triggers), so that it
#: may run beside this one during an upgrade.
WRITES_PEOPLE = {"cribbage.writes_people": "on"}

#: A connection as the pool lends it, or one of our own.
_Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    """What the server refused, as the store names it: a unique index broken
    (:class:`UniqueViolation`), a reference to a row that is not there
    (:class:`MissingReference`), a transaction another overtook (:class:`Overtaken`: a
    serialization failure, or a deadlock the server broke by ending this one)."""
    try:
        yield
    except asyncpg.UniqueViolationError as error:
        raise UniqueViolation(error.constraint_name or "") from None
    except asyncpg.ForeignKeyViolationError as error:
        detail = getattr(error, "detail", None) or str(error).splitlines()[0]
        raise MissingReference(error.constraint_name or "", detail) from None
    except (asyncpg.SerializationError, asyncpg.DeadlockDetectedError) as error:
        raise Overtaken(str(error)) from None


@contextlib.contextmanager
def _ended_if_it_waited(began: float | None) -> Iterator[None]:
    """A transaction (begun at ``began``, by ``time.monotonic()``; None: a patient one) that
    lost its connection after waiting on this process longer than the server lets it
    (:data:`TRANSACTION_IDLE_AT_MOST`): the server ended it, rolled back, while the process
    was frozen (asyncpg says only that the connection is gone). It is :class:`Overtaken`, not
    a store out of reach: nothing of it was written, and others may have moved on since, so
    what it was for is decided again from a new read."""
    try:
        yield
    except StoreUnavailable as error:
        if began is None or time.monotonic() - began <= TRANSACTION_IDLE_AT_MOST / 1000:
            raise
        raise Overtaken(f"ended by the server after waiting on this process: {error}") from None


async def _as_it_is(connection: asyncpg.Connection) -> None:
    """A connection given back to the pool goes back as it is. asyncpg's default sends a reset
    query first (unlock advisory locks, close cursors, unlisten, reset settings: a round trip
    for every read and every transaction) for state the bot never leaves on a pooled
    connection: its locks are the transaction's own, its cursors none, it listens on a
    connection of its own (:meth:`PostgresDatabase.listen`) and sets nothing. asyncpg still
    rolls back a transaction left open, whatever this does."""


def _changed(status: str) -> int:
    """The number of rows a command changed, from its tag ("UPDATE 1", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PostgresTransaction:
    """Statements on one pooled connection, inside its transaction."""

    def __init__(self, owner: PostgresDatabase, connection: _Connection) -> None:
        self._owner = owner
        self._connection = connection

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._owner.round_trips += 1
        with _refusals():
            return list(await self._connection.fetch(numbered_placeholders(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._owner.round_trips += 1
        with _refusals():
            status = await self._connection.execute(numbered_placeholders(sql), *params)
        return _changed(status)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        self._owner.round_trips += 1
        with _refusals():
            await self._connection.executemany(numbered_placeholders(sql), rows)


class _PostgresMigration(_PostgresTransaction):
    """The statements of the migrations, inside their transaction."""

    async def script(self, sql: str) -> None:
        """The whole script in one round trip (PostgreSQL runs a script of several statements
        sent without parameters)."""
        self._owner.round_trips += 1
        await self._connection.execute(sql)


#: What asyncpg raises when no server answers at the URL's address (refused, no such host, no
#: answer in time, a server starting or shutting down).
_NO_ANSWER: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
)


def out_of_reach(url: str, error: BaseException) -> str:
    """The one sentence that says the PostgreSQL server ``url`` names is out of reach (asyncpg's
    ``error``), as ``copy``, ``health`` and the bot's start-up all say it: where it was looked
    for (never the URL itself, which may hold a password) and what to check.

    >>> said = out_of_reach("postgresql://crib:secret@db.example/crib", OSError("refused"))
    >>> said.startswith("Cannot reach the PostgreSQL database at db.example:5432 (refused):")
    True
    """
    parts = urlsplit(url)
    try:
        port = parts.port or 5432
    except ValueError:
        port = 5432
    where = f" at {parts.hostname}:{port}" if parts.hostname else ""
    said = str(error) or type(error).__name__
    return (
        f"Cannot reach the PostgreSQL database{where} ({said}): check that its server runs"
        " there and that the URL (DATABASE_URL, or the one given to the command) is right."
    )


class OutOfReach(OSError):
    """No PostgreSQL server answered as the store opened: its message is :func:`out_of_reach`'s
    sentence, said as it is wherever it stops a command or a start."""


class PostgresDatabase:
    """A pool of connections to the bot's PostgreSQL database. Open with
    ``await PostgresDatabase.open(url)``."""

    dialect = Dialect.POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.location = url
        self.round_trips = 0
        self.observe: Observer | None = None
        self._listener: asyncpg.Connection | None = None
        self._own: set[int] = set()

    @classmethod
    async def open(cls, url: str) -> PostgresDatabase:
        """Connect to the database at ``url`` (``postgresql://user@host:port/name``); a
        server out of reach raises :class:`OutOfReach`."""
        # The server's process ids of this process's connections: a notification one of them
        # sent is this process's own (see listen).
        own: set[int] = set()

        async def note(connection: asyncpg.Connection) -> None:
            own.add(connection.get_server_pid())

        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=POOL_MIN,
                max_size=POOL_MAX,
                init=note,
                reset=_as_it_is,
                server_settings={
                    **WRITES_PEOPLE,
                    "idle_in_transaction_session_timeout": str(TRANSACTION_IDLE_AT_MOST),
                },
            )
        except _NO_ANSWER as error:
            raise OutOfReach(out_of_reach(url, error)) from None
        assert pool is not None  # create_pool returns the pool once it is awaited
        database = cls(pool, url)
        database._own = own
        return database

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One query's rows (a writing statement with RETURNING among them, committed by
        itself: a duplicate key raises as in a transaction)."""
        self.round_trips += 1
        with timed(self.observe, "read"), translated(on_postgres), _refusals():
            return list(await self.pool.fetch(numbered_placeholders(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One writing statement, committed by itself (one round trip)."""
        self.round_trips += 1
        with timed(self.observe, "write"), translated(on_postgres), _refusals():
            status = await self.pool.execute(numbered_placeholders(sql), *params)
        return _changed(status)

    @contextlib.asynccontextmanager
    async def transaction(
        self, *, snapshot: bool = False, patient: bool = False
    ) -> AsyncIterator[_PostgresTransaction]:
        """One transaction on one connection: ``BEGIN`` ... ``COMMIT`` (or ``ROLLBACK`` if the
        block raised); with ``snapshot``, at REPEATABLE READ (one snapshot, taken at its first
        statement; a write over a row changed since raises :class:`Overtaken`). What its
        commit refuses (a reference checked then) is raised as its statements' refusals are.
        A full disk or a server out of reach raises
        :class:`~bot.core.base.store_errors.StoreUnavailable`; one that waited on the bot
        between its statements longer than :data:`TRANSACTION_IDLE_AT_MOST` (unless it is
        ``patient``) was ended by the server, and raises :class:`Overtaken`."""
        isolation: Literal["repeatable_read"] | None = "repeatable_read" if snapshot else None
        with (
            _ended_if_it_waited(None if patient else time.monotonic()),
            timed(self.observe, "transaction"),
            translated(on_postgres),
            _refusals(),
        ):
            async with self.pool.acquire() as connection:
                self.round_trips += 2  # BEGIN and COMMIT (or ROLLBACK)
                async with connection.transaction(isolation=isolation):
                    if patient:
                        self.round_trips += 1
                        await connection.execute(_PATIENT)
                    yield _PostgresTransaction(self, connection)

    @contextlib.asynccontextmanager
    async def migrating(self) -> AsyncIterator[_PostgresMigration]:
        """One transaction on one connection that first takes the migrations' advisory lock
        (held until it ends): a process that waited on it while another migrated reads what
        that one applied."""
        async with self.pool.acquire() as connection:
            self.round_trips += 4  # BEGIN, the lock, patience, COMMIT (or ROLLBACK)
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await connection.execute(_PATIENT)
                yield _PostgresMigration(self, connection)

    async def table_names(self) -> set[str]:
        """The names of the tables in the database's current schema."""
        # What information_schema.tables lists (tables, views, foreign and partitioned
        # tables this role may use), read from the system catalogs: a view's first read in a
        # connection cost the server some 8 ms of CPU (its definition read and planned), and a
        # store reads this as it opens (Store.open and close: 22 ms of the server's CPU with
        # the views, 14 without).
        rows = await self.fetch(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'f', 'p')"
            " AND (pg_has_role(c.relowner, 'USAGE')"
            " OR has_table_privilege(c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE,"
            " REFERENCES, TRIGGER')"
            " OR has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES'))"
        )
        return {row[0] for row in rows}

    async def notify(self, channel: str, payload: str) -> None:
        """Wake every process listening on ``channel`` (``pg_notify``; delivered at commit)."""
        self.round_trips += 1
        await self.pool.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(
        self, channel: str, callback: Callable[[str], None], *, others_only: bool = False
    ) -> None:
        """Call ``callback`` with each payload notified on ``channel`` (on a connection of its
        own, kept open until :meth:`close`); with ``others_only``, only those other processes
        sent (this one acts on its own changes as it makes them)."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self.location)

        def received(_connection: _Connection, pid: int, _channel: str, payload: object) -> None:
            if not (others_only and pid in self._own):
                callback(str(payload))

        await self._listener.add_listener(channel, received)

    async def reclaim(self, pages: int) -> None:
        """Nothing to do: PostgreSQL's autovacuum gives freed space back by itself."""

    async def close(self) -> None:
        """Close the listener's connection and the pool (after the units of work still
        running)."""
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        self._listener = None
        await self.pool.close()
