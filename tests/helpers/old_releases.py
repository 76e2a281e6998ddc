"""Databases as the releases before migrations were recorded by name made them.

Every state the migration folders had in main's history is listed in
``old_migrations/releases.txt``, with each file as it was then, named by its git blob id and
rebuilt to the byte by :func:`old_file`: from today's migration folder, or a diff against it
when it has changed since, or a copy when today's folder no longer has a file of its name.
:func:`run_sqlite_release` and :func:`run_postgres_release` migrate a database the way those
releases did: each file numbered above the number the database kept
(SQLite's ``PRAGMA user_version``, PostgreSQL's ``schema_version`` table), in order, each in a
transaction of its own with the new number; the first one that fails stops it (that release
refused to start), leaving the ones before it applied. :func:`reachable` finds every database
the releases could leave, run in any order and any number of times, one per distinct schema.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import asyncpg

from bot.store import Dialect
from bot.store.database import Row, numbered_placeholders
from bot.store.postgres import MIGRATION_LOCK
from tests.helpers.unified_diff import DiffMismatch, apply_unified_diff

__all__ = [
    "FOLDER",
    "RELEASES",
    "Bench",
    "OldRelease",
    "PostgresReader",
    "Reached",
    "SqliteReader",
    "blob_id",
    "old_file",
    "postgres_made_by",
    "reachable",
    "release",
    "run_postgres_release",
    "run_sqlite_release",
    "sqlite_made_by",
]

Handle = TypeVar("Handle")
Handle_co = TypeVar("Handle_co", covariant=True)

FOLDER = Path(__file__).with_name("old_migrations")


@dataclass(frozen=True)
class OldRelease:
    """One state of a database's migration folder in main's history."""

    dialect: Dialect
    #: The first commit that had it.
    commit: str
    #: Whether a commit on main's first-parent line had it (else only a branch merged into main).
    on_main: bool
    #: Its files, each as ``NNN_name.<blob id>.sql`` (see :func:`old_file`).
    files: tuple[str, ...]

    def migrations(self) -> list[tuple[int, str]]:
        """Each file's number and script, in the order the release applied them."""
        found = [
            (int(name.split("_", 1)[0]), old_file(self.dialect, name).decode())
            for name in self.files
        ]
        return sorted(found, key=lambda item: item[0])

    @property
    def last(self) -> int:
        """The number of its last migration."""
        return max(int(name.split("_", 1)[0]) for name in self.files)

    def __str__(self) -> str:
        return self.commit


def _releases() -> dict[Dialect, tuple[OldRelease, ...]]:
    found: dict[Dialect, list[OldRelease]] = {Dialect.SQLITE: [], Dialect.POSTGRES: []}
    for line in (FOLDER / "releases.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        dialect, commit, where, *files = line.split()
        found[Dialect(dialect)].append(
            OldRelease(Dialect(dialect), commit, where == "main", tuple(f"{f}.sql" for f in files))
        )
    return {dialect: tuple(releases) for dialect, releases in found.items()}


#: Every old release, per database, oldest first.
RELEASES = _releases()


def blob_id(data: bytes) -> str:
    """The id git gives a file's contents (``git hash-object``)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def old_file(dialect: Dialect, name: str) -> bytes:
    """The old file ``name`` (``NNN_name.<blob id>.sql``), byte for byte as git had it.

    Kept in ``old_migrations/<dialect>/`` as ``<name>.diff``, a unified diff from today's file of
    its name (``diff -u --label NNN_name.sql --label <name> <today's file> <old file>``), when
    that file has changed since; as ``<name>`` itself when today's folder has no file of that
    name; else it is today's file. Whichever way it is rebuilt, its git blob id must be the one
    in its name, or this raises. So a diff holds only while today's file stays as it is, as it
    should, since a released migration is never edited (they are applied by name, once); this
    check, made for every listed file by tests/bot/store/test_store_legacy.py, is what catches an
    edit to one of them. Were one edited after all, keep each old file again from git (``git
    cat-file blob <id>``) and make its diff against the edited file."""
    stem, blob, _ = name.rsplit(".", 2)
    kept = FOLDER / dialect.value / name
    patch = kept.with_name(f"{name}.diff")
    today = dialect.migrations_dir / f"{stem}.sql"
    where = kept if kept.exists() else patch if patch.exists() else today
    if kept.exists():
        data = kept.read_bytes()
    elif not today.exists():
        raise FileNotFoundError(
            f"{today} is gone, and with it the file {name} an old release had: keep that one"
            f" (git cat-file blob {blob} > {kept})"
        )
    elif patch.exists():
        try:
            # Decoded and encoded as UTF-8 without newline translation, so bytes stay bytes.
            text = apply_unified_diff(today.read_bytes().decode(), patch.read_bytes().decode())
        except DiffMismatch as mismatch:
            raise FileNotFoundError(
                f"{patch} no longer applies to {today} ({mismatch}): was it edited?"
                f" Make the diff again from git cat-file blob {blob}"
            ) from mismatch
        data = text.encode()
    else:
        data = today.read_bytes()
    if not blob_id(data).startswith(blob):
        raise FileNotFoundError(
            f"{name}, read from {where}, is not the file git had (its blob id is"
            f" {blob_id(data)[:10]}): was {today} edited? Keep the old file again from"
            f" git cat-file blob {blob}"
        )
    return data


def run_sqlite_release(release: OldRelease, db: sqlite3.Connection) -> None:
    """Migrate ``db`` as ``release`` did at start-up (its store's ``_migrate``)."""
    [(current,)] = db.execute("PRAGMA user_version").fetchall()
    for number, sql in release.migrations():
        if number <= current:
            continue
        try:
            db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
        except sqlite3.Error:
            if db.in_transaction:
                db.rollback()
            return


async def run_postgres_release(release: OldRelease, db: asyncpg.Connection) -> None:
    """Migrate ``db`` as ``release`` did at start-up (``PostgresDatabase.open`` made the
    table of the number, then ``apply_migration`` ran each file above it)."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
        " INSERT INTO schema_version (version) SELECT 0"
        " WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
    )
    for number, sql in release.migrations():
        try:
            async with db.transaction():
                await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                if await db.fetchval("SELECT version FROM schema_version") >= number:
                    continue
                await db.execute(sql)
                await db.execute("UPDATE schema_version SET version = $1", number)
        except asyncpg.PostgresError:
            return


class SqliteReader:
    """A sqlite3 connection, read as a ``Database`` is (``fetch`` with ``?`` placeholders)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        connection.row_factory = sqlite3.Row

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(self.connection.execute(sql, params).fetchall())


class PostgresReader:
    """An asyncpg connection, read as a ``Database`` is (``fetch`` with ``?`` placeholders)."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.connection.fetch(numbered_placeholders(sql), *params))


class Bench(Protocol[Handle_co]):
    """One database the releases are tried on, one after another."""

    async def apply(self, release: OldRelease) -> tuple[int, str]:
        """Run ``release`` on the database as it stands; its number then, and its schema as
        text."""
        ...

    async def undo(self) -> None:
        """Put the database back as it was before the last :meth:`apply` not undone."""
        ...

    async def keep(self) -> Handle_co:
        """What gives this database again, as it stands."""
        ...


@dataclass(frozen=True)
class Reached(Generic[Handle]):
    """A database the old releases could leave: what gives it, the releases that made it, in
    the order they ran (each from its start, on what the one before left), its number and its
    schema as text."""

    handle: Handle
    releases: tuple[OldRelease, ...]
    number: int
    schema: str

    def __str__(self) -> str:
        return " then ".join(map(str, self.releases))


async def reachable(releases: Sequence[OldRelease], bench: Bench[Handle]) -> list[Reached[Handle]]:
    """Every database ``releases`` could leave, run in any order, any number of times, on
    what any sequence of them left, starting from a new one on ``bench``: one per distinct
    schema and number (the new one left out).

    What a release does depends only on the schema and the number it finds, so one database
    stands for all that share them; and a release whose files are all numbered at or below
    the number does nothing.
    """
    seen: dict[tuple[int, str], Reached[Handle]] = {}

    async def visit(path: tuple[OldRelease, ...], current: int) -> None:
        for release in releases:
            if release.last <= current:
                continue
            number, schema = await bench.apply(release)
            if (number, schema) not in seen:
                kept = await bench.keep()
                seen[number, schema] = Reached(kept, (*path, release), number, schema)
                await visit((*path, release), number)
            await bench.undo()

    await visit((), 0)
    return list(seen.values())


def release(dialect: Dialect, commit: str) -> OldRelease:
    """The old release of ``dialect`` first made at ``commit``."""
    return next(r for r in RELEASES[dialect] if r.commit == commit)


def sqlite_made_by(path: Path, *releases: OldRelease) -> None:
    """A SQLite file at ``path`` as ``releases`` left it, run one after the other (with the
    settings every one of them opened the file with)."""
    with contextlib.closing(sqlite3.connect(path, isolation_level="IMMEDIATE")) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        for one in releases:
            run_sqlite_release(one, db)


#: Commits that do not wait for the disk: these databases are thrown away.
QUICK = "synchronous_commit=off"


async def postgres_made_by(url: str, schema: str, *releases: OldRelease) -> str:
    """A new schema ``schema`` of the PostgreSQL database at ``url`` as ``releases`` left it,
    run one after the other; the URL that opens the database with that schema as its own."""
    connection = await asyncpg.connect(url, server_settings={"synchronous_commit": "off"})
    try:
        await connection.execute(f'CREATE SCHEMA "{schema}"')
        await connection.execute(f'SET search_path TO "{schema}"')
        for one in releases:
            await run_postgres_release(one, connection)
    finally:
        await connection.close()
    return f"{url}?search_path={schema}&{QUICK}"
