"""One small interface over the two databases the store runs on, so every query is written once.

:class:`~bot.store.store.Store` holds every query, written with ``?`` placeholders in the SQL
both databases speak (upserts with ``ON CONFLICT``, ``IS NOT DISTINCT FROM``, subqueries in
``VALUES``). A :class:`Database` runs them: :class:`~bot.store.sqlite.SqliteDatabase` through
aiosqlite (one file, one process: the default), :class:`~bot.store.postgres.PostgresDatabase`
through asyncpg (any number of processes). Each counts its round trips, which is what a unit of
work costs on a database across a network.

Each database applies its own numbered migrations (``migrations/sqlite/NNN_*.sql``,
``migrations/postgres/NNN_*.sql``); a schema's version is the number of the last one applied,
the same number for the same schema in both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, overload

from bot.core.storage import UnusableStore

__all__ = [
    "MIGRATIONS_DIR",
    "Database",
    "Dialect",
    "NewerSchema",
    "Row",
    "Transaction",
    "UniqueViolation",
    "migrations",
    "numbered_placeholders",
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


class NewerSchema(UnusableStore):
    """The database was made by a newer release: its schema is past the last migration here
    (this release would misread it, or read its rules as something else)."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"it has schema version {found}, from a newer release of the bot; this release "
            f"knows versions up to {known}. Run the newer release, or restore a backup made "
            "by this one."
        )
        self.found = found
        self.known = known


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

    async def serialize(self, key: int) -> None:
        """Hold the lock named ``key`` until the transaction ends: transactions that take the
        same key run one after the other, in whichever processes."""
        ...


class Database(Protocol):
    """A connection (or pool) to the bot's database."""

    dialect: Dialect
    #: Where it is: the SQLite file's path, or the PostgreSQL URL.
    location: str
    #: Awaited calls to the driver so far (each one a round trip to the database).
    round_trips: int

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one query, on its own (it sees every committed write)."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One writing statement, in a transaction of its own; how many rows it changed."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One transaction: its writes are kept together at the end of the block, or none."""
        ...

    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for an empty database)."""
        ...

    async def apply_migration(self, number: int, sql: str) -> None:
        """Run one migration script and record its number, in one transaction."""
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


def migrations(directory: Path) -> list[tuple[int, Path]]:
    """The numbered migration files in ``directory``, in order."""
    found = []
    for path in directory.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"Two migrations share a number in {directory}.")
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
