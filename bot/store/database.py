"""One small interface over the two databases the store runs on, so every query is written once.

:class:`~bot.store.store.Store` holds every query, written with ``?`` placeholders in the SQL
both databases speak (upserts with ``ON CONFLICT``, ``IS NOT DISTINCT FROM``, subqueries in
``VALUES``). A :class:`Database` runs them: :class:`~bot.store.sqlite.SqliteDatabase` through
aiosqlite (one file, one process: the default), :class:`~bot.store.postgres.PostgresDatabase`
through asyncpg (any number of processes). Each counts its round trips, which is what a unit of
work costs on a database across a network.

Each database applies its own migrations (``migrations/sqlite/NNN_name.sql``,
``migrations/postgres/NNN_name.sql``), in order of number and then name, and records each one
applied by its name (:mod:`bot.store.migrate`); a migration keeps its number and name in both.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, Protocol, overload

from bot.core.base.store_errors import UnusableStore

__all__ = [
    "MIGRATIONS_DIR",
    "Database",
    "Dialect",
    "Migration",
    "MigrationTransaction",
    "MissingReference",
    "NewerSchema",
    "Observer",
    "Overtaken",
    "Row",
    "Transaction",
    "UniqueViolation",
    "migrations",
    "numbered_placeholders",
    "timed",
]

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")


class Dialect(StrEnum):
    """Which database a :class:`Database` talks to (and which migrations it applies)."""

    SQLITE = "sqlite"
    POSTGRES = "postgres"

    @property
    def migrations_dir(self) -> Path:
        """Where this dialect's migrations are."""
        return MIGRATIONS_DIR / self.value


#: What is told how long each unit of work on the database took: its kind (``read``, one query
#: on its own; ``write``, one statement committed by itself; ``transaction``, a whole one,
#: its statements and what the caller did between them) and the seconds (for the metrics).
Observer = Callable[[str, float], None]


@contextlib.contextmanager
def timed(observe: Observer | None, kind: str) -> Iterator[None]:
    """Tell ``observe`` (when there is one) how long the block took, as a unit of ``kind``."""
    if observe is None:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        observe(kind, time.perf_counter() - started)


class Row(Protocol):
    """A row as both drivers give it: by column name or position, and iterable."""

    # In this order: mypy matches a protocol's overloads against asyncpg's in turn.
    @overload
    def __getitem__(self, key: str, /) -> Any: ...

    @overload
    def __getitem__(self, key: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class UniqueViolation(Exception):
    """A write broke a unique index or primary key; ``names`` says which, as the database
    named it (the index name or the columns), for the store to tell what it means."""

    def __init__(self, names: str) -> None:
        super().__init__(names)
        self.names = names


class MissingReference(Exception):
    """A write referred to a row that is not there (a foreign key): a person whose data was
    deleted (their row moved to a former player's id), a seat or a search no longer as it was
    read. Checked when the write's transaction commits (the schema's references are
    ``DEFERRABLE INITIALLY DEFERRED``), so it waits for a deletion under way and then finds
    what it refers to gone. ``names`` says which reference, as the database named it;
    ``detail``, which row, as the database said it (PostgreSQL's ``Key (...)=(...) is not
    present in table ...``; empty where it says nothing)."""

    def __init__(self, names: str, detail: str = "") -> None:
        super().__init__(f"a foreign key refused the write ({names or 'unnamed'})")
        self.names = names
        self.detail = detail


class Overtaken(Exception):
    """Another transaction changed what this one read or wrote before it could commit
    (PostgreSQL's serialization failure of a transaction with one snapshot, or a deadlock it
    broke): nothing was written. The change is decided again from a new read, as a lost
    compare-and-set is."""


class NewerSchema(UnusableStore):
    """The database was made by a newer release: it has applied migrations this release does
    not have (this release would misread it, or read its rules as something else).

    ``unknown`` names them; a database whose number (kept as builds from before migrations
    were recorded by name kept it) is past what its names say has ``found``, that number, and
    ``known``, the highest its names say.
    """

    def __init__(
        self, what: str, *, unknown: Sequence[str] = (), found: int = 0, known: int = 0
    ) -> None:
        super().__init__(
            f"{what}: it was made by a newer release of the bot. Run that release, or restore a "
            "backup made by this one."
        )
        self.unknown = tuple(unknown)
        self.found = found
        self.known = known

    @classmethod
    def applied(cls, unknown: Sequence[str], last: str) -> NewerSchema:
        """A database that has applied the migrations ``unknown``, which this release (whose
        last migration is ``last``) does not have."""
        names = ", ".join(unknown)
        plural = "s" if len(unknown) > 1 else ""
        return cls(
            f"it has applied migration{plural} {names}, which this release does not have "
            f"(its last is {last})",
            unknown=unknown,
        )

    @classmethod
    def numbered(cls, found: int, known: int) -> NewerSchema:
        """A database at schema version ``found`` (the number of the last migration applied,
        as releases before names kept it), past ``known``."""
        return cls(
            f"it has schema version {found}, and this release knows versions up to {known}",
            found=found,
            known=known,
        )


class Transaction(Protocol):
    """Statements inside one transaction (committed when its block ends, else rolled back)."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters."""
        ...


class MigrationTransaction(Transaction, Protocol):
    """The transaction migrations run in: statements, and whole migration scripts."""

    async def script(self, sql: str) -> None:
        """Run a migration script (any number of statements) inside the transaction."""
        ...


class Database(Protocol):
    """A connection (or pool) to the bot's database."""

    dialect: Dialect
    #: Where it is: the SQLite file's path, or the PostgreSQL URL.
    location: str
    #: Awaited calls to the driver so far (each one a round trip to the database).
    round_trips: int
    #: Told the time of each unit of work (None: nobody asks; the running bot's metrics do).
    observe: Observer | None

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query, on its own (it sees every committed write)."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One writing statement, in a transaction of its own; how many rows it changed."""
        ...

    def transaction(
        self, *, snapshot: bool = False, patient: bool = False
    ) -> AbstractAsyncContextManager[Transaction]:
        """One transaction: its writes are kept together at the end of the block, or none.
        ``snapshot``: everything it reads is as it was when it began, and a write over a row
        another transaction changed since raises :class:`Overtaken` (PostgreSQL's REPEATABLE
        READ; SQLite's one writer, its lock taken before the first read). A reference it
        wrote to a row that is not there by the end raises :class:`MissingReference`. On
        PostgreSQL a transaction that waits on the bot between its statements longer than a
        moment is ended by the server (a process frozen mid-transaction keeps no rows locked
        against the others), unless it is ``patient`` (a copy reading another database between
        its writes)."""
        ...

    def migrating(self) -> AbstractAsyncContextManager[MigrationTransaction]:
        """The one transaction that applies every pending migration (and reads what was
        applied): no other process migrates or writes meanwhile, and its changes are kept
        together at the end of the block, or none."""
        ...

    async def table_names(self) -> set[str]:
        """The names of the tables in the database."""
        ...

    async def reclaim(self, pages: int) -> None:
        """Give back up to ``pages`` pages of space that deleted rows freed to the file system,
        where the database does that a little at a time (SQLite with incremental auto-vacuum;
        PostgreSQL's autovacuum does it by itself)."""
        ...

    async def close(self) -> None:
        """Close the connection(s), after any unit of work still running."""
        ...


class Migration(NamedTuple):
    """One migration file: ``NNN_name.sql``."""

    number: int
    path: Path

    @property
    def name(self) -> str:
        """What a database records once it has applied it: the file's name without ``.sql``
        (``009_expert_level``)."""
        return self.path.stem

    def sql(self) -> str:
        """The script."""
        return self.path.read_text(encoding="utf-8")


def migrations(directory: Path) -> list[Migration]:
    """The migration files in ``directory`` (``NNN_name.sql``), in the order they apply: by
    number, then by name (two written apart may share a number; both apply)."""
    found = []
    for path in directory.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), path))
    found.sort(key=lambda migration: (migration.number, migration.name))
    return found


@lru_cache(maxsize=1024)
def numbered_placeholders(sql: str) -> str:
    """``?`` placeholders as PostgreSQL numbers them (``$1``, ``$2``, ...).

    The store's SQL has no ``?`` inside a string literal (every value is a parameter), which
    is what makes this safe.

    >>> numbered_placeholders("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
    'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'
    """
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)
