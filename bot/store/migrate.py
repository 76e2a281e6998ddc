"""Migrations applied by name, all or nothing.

A database records each migration it has applied in ``schema_migrations`` (its name, the
file's name without ``.sql``, and when: seconds since the epoch, NULL for one an earlier build
found applied in a database from before names were recorded). At start-up every migration of
this release that is not recorded is applied, in order of number and then name, so one merged
after a higher-numbered one is still applied, and two written in parallel under the same
number both apply (``bot/store/migrations/README.md`` has the rules for writing one).

The pending migrations and their records go in one transaction (:meth:`Database.migrating
<bot.store.database.Database.migrating>`): a start-up stopped part-way (a SIGTERM, a script
that fails, a crash) leaves the database as it was. That transaction holds the database's
write lock on SQLite and an advisory lock on PostgreSQL before it reads what was applied, so
two processes starting together apply each migration once: the second finds them applied.

A database that has applied a migration this release does not have was made by a newer one
and is refused (:class:`~bot.store.database.NewerSchema`, naming it), changing nothing;
:func:`check` makes that refusal alone, reading only, so that start-up can refuse such a
database before logging in and apply the migrations once Discord has taken the token.

A release may still run beside a newer one during an upgrade (one process at a time): a
migration whose first line says ``-- older releases: run beside it`` only adds, and is recorded
so (``schema_migrations.beside_older``, from migration 021); a database whose migrations this
release does not have are all recorded so is opened, and the migrations it lacks are named in
the log (:data:`BESIDE_OLDER`, :func:`newer_beside`). Any other unknown migration refuses it.

Builds from before names were recorded (before 12:00 UTC on 23 November 2026; none was
released) kept only the number of the last migration applied (SQLite's ``PRAGMA
user_version``, PostgreSQL's ``schema_version`` table). A database with such a number and no
names is refused (:data:`BEFORE_NAMES`), changing nothing: the builds up to commit 1a6c3ced
read it by what its migrations made and record the names (docs/running.md). The number is
still kept, as the highest number applied, for those builds: one that opens a database a
newer release migrated finds a number past its own and refuses it rather than misread it;
and a number past what the names say means such a build migrated it since, which is refused
here as newer.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.core.base.store_errors import UnusableStore
from bot.store.database import (
    Database,
    Dialect,
    Migration,
    MigrationTransaction,
    NewerSchema,
    migrations,
)

__all__ = [
    "BEFORE_NAMES",
    "BESIDE_OLDER",
    "TABLE",
    "applied_migrations",
    "beside_older",
    "check",
    "migrate",
    "newer_beside",
    "number_of",
]

#: The table of applied migrations, in both databases.
TABLE = "schema_migrations"

_CREATE = {
    Dialect.SQLITE: f"CREATE TABLE {TABLE} (name TEXT NOT NULL PRIMARY KEY, applied_at REAL);",
    Dialect.POSTGRES: (
        f"CREATE TABLE {TABLE} (name TEXT NOT NULL PRIMARY KEY, applied_at DOUBLE PRECISION);"
        # The number releases before names kept (they create it when it is missing, as 0).
        " CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
        " INSERT INTO schema_version (version) SELECT 0"
        " WHERE NOT EXISTS (SELECT 1 FROM schema_version);"
    ),
}
_HAS_TABLE = {
    Dialect.SQLITE: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)",
    Dialect.POSTGRES: "SELECT to_regclass(?) IS NOT NULL",
}


#: Why a database with a number and no names is refused (after the setting that names it).
BEFORE_NAMES = (
    "it was made by a build of the bot from before 12:00 UTC on 23 November 2026, whose"
    " databases this release no longer reads: start the bot at commit 1a6c3ced on it once"
    " (that build brings such a database forward), or start on a new database."
)


#: The first line of a migration that a release without it may run beside: it only adds
#: (tables, columns with defaults, indexes), so the release before still reads and writes
#: everything it knows.
BESIDE_OLDER = "-- older releases: run beside it"

_HAS_BESIDE = {
    Dialect.SQLITE: (
        f"SELECT COUNT(*) FROM pragma_table_info('{TABLE}') WHERE name = 'beside_older'"
    ),
    # The system catalogs, not information_schema.columns, for the reason
    # PostgresDatabase.table_names gives (a store reads both as it opens).
    Dialect.POSTGRES: (
        "SELECT COUNT(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        f" WHERE n.nspname = current_schema() AND c.relname = '{TABLE}'"
        " AND a.attname = 'beside_older' AND NOT a.attisdropped"
    ),
}


def beside_older(migration: Migration) -> bool:
    """Whether ``migration`` says a release without it may run beside it (its first line is
    :data:`BESIDE_OLDER`)."""
    first = migration.sql().split("\n", 1)[0]
    return first.strip() == BESIDE_OLDER


def number_of(name: str) -> int:
    """A migration's number, from its name.

    >>> number_of("009_expert_level")
    9
    """
    return int(name.split("_", 1)[0])


async def _has_table(tx: MigrationTransaction, dialect: Dialect, name: str) -> bool:
    return bool((await tx.fetch(_HAS_TABLE[dialect], (name,)))[0][0])


async def _number(tx: MigrationTransaction, dialect: Dialect) -> int:
    """The number of the last migration applied, as releases before names kept it."""
    if dialect is Dialect.SQLITE:
        return int((await tx.fetch("PRAGMA user_version"))[0][0])
    if not await _has_table(tx, dialect, "schema_version"):
        return 0
    rows = await tx.fetch("SELECT version FROM schema_version")
    return int(rows[0][0]) if rows else 0


async def _set_number(tx: MigrationTransaction, dialect: Dialect, number: int) -> None:
    if dialect is Dialect.SQLITE:
        await tx.execute(f"PRAGMA user_version = {int(number)}")
    else:
        await tx.execute("UPDATE schema_version SET version = ?", (number,))


async def _recorded(tx: MigrationTransaction, dialect: Dialect) -> list[str]:
    """The names of the migrations the database has recorded as applied."""
    names = [row[0] for row in await tx.fetch(f"SELECT name FROM {TABLE}")]
    number = await _number(tx, dialect)
    highest = max(map(number_of, names), default=0)
    if number > highest:
        # A release from before names has migrated it since this one did.
        raise NewerSchema.numbered(number, highest)
    return names


async def _refuse_before_names(tx: MigrationTransaction, dialect: Dialect) -> None:
    """Refuse a database without the table of names that has a number: a build from before
    names were recorded made it (:data:`BEFORE_NAMES`)."""
    if await _number(tx, dialect) > 0:
        raise UnusableStore(BEFORE_NAMES)


async def _adopted(tx: MigrationTransaction, dialect: Dialect) -> list[str]:
    """For a database without the table of names: make it (a new database has applied
    nothing), or refuse one from before names were recorded."""
    await _refuse_before_names(tx, dialect)
    await tx.script(_CREATE[dialect])
    return []


async def _beside_older(tx: MigrationTransaction, dialect: Dialect) -> set[str]:
    """The applied migrations recorded as ones a release without them may run beside."""
    if not await _beside_said(tx, dialect):
        return set()
    rows = await tx.fetch(f"SELECT name FROM {TABLE} WHERE beside_older = 1")
    return {row[0] for row in rows}


def _unknown(applied: list[str], known: list[Migration]) -> list[str]:
    names = {migration.name for migration in known}
    return sorted(set(applied) - names, key=lambda name: (number_of(name), name))


def _refuse_unknown(applied: list[str], known: list[Migration], beside: set[str]) -> None:
    """Refuse a database that has applied migrations this release does not have, unless each
    of them was recorded as one a release without it may run beside."""
    unknown = _unknown(applied, known)
    if any(name not in beside for name in unknown):
        last = known[-1].name if known else "none"
        raise NewerSchema.applied(unknown, last)


async def check(db: Database, directory: Path) -> None:
    """Refuse, as :func:`migrate` would, a database made by a newer release than the one
    whose migrations are in ``directory`` (:class:`~bot.store.database.NewerSchema`) or one
    from before names were recorded (:data:`BEFORE_NAMES`), and change nothing: this only
    reads, so a start-up can check the database before it knows it will run, and
    :func:`migrate` it after."""
    known = migrations(directory)
    async with db.migrating() as tx:
        if await _has_table(tx, db.dialect, TABLE):
            applied = await _recorded(tx, db.dialect)
            _refuse_unknown(applied, known, await _beside_older(tx, db.dialect))
            return
        await _refuse_before_names(tx, db.dialect)


async def migrate(db: Database, directory: Path) -> list[str]:
    """Apply every migration in ``directory`` the database has not applied, in one
    transaction; the names of those applied now, in the order they were.

    Raises :class:`~bot.store.database.NewerSchema` (nothing changed) when the database has
    applied one this release does not have, and
    :class:`~bot.core.base.store_errors.UnusableStore` (:data:`BEFORE_NAMES`, nothing
    changed) for one from before names were recorded.
    """
    known = migrations(directory)
    async with db.migrating() as tx:
        if await _has_table(tx, db.dialect, TABLE):
            applied = await _recorded(tx, db.dialect)
        else:
            applied = await _adopted(tx, db.dialect)
        _refuse_unknown(applied, known, await _beside_older(tx, db.dialect))
        pending = [migration for migration in known if migration.name not in applied]
        for migration in pending:
            await tx.script(migration.sql())
            await tx.execute(
                f"INSERT INTO {TABLE} (name, applied_at) VALUES (?, ?)",
                (migration.name, time.time()),
            )
        if await _beside_said(tx, db.dialect):
            # (The column comes with migration 021: from then on each one applied says.)
            await tx.executemany(
                f"UPDATE {TABLE} SET beside_older = ? WHERE name = ?",
                [(1 if beside_older(m) else 0, m.name) for m in pending],
            )
        # Every migration here is applied now: the number is the highest of theirs (never
        # lowered: a newer release beside this one may have applied higher ones).
        highest = max((migration.number for migration in known), default=0)
        if highest > await _number(tx, db.dialect):
            await _set_number(tx, db.dialect, highest)
    return [migration.name for migration in pending]


async def _beside_said(tx: MigrationTransaction, dialect: Dialect) -> bool:
    return bool((await tx.fetch(_HAS_BESIDE[dialect]))[0][0])


async def newer_beside(db: Database, directory: Path) -> list[str]:
    """The migrations the database applied that this release does not have (a newer release
    migrated it, and said this one may run beside it): named in the log at start-up."""
    known = migrations(directory)
    return _unknown(await applied_migrations(db), known)


async def applied_migrations(db: Database) -> list[str]:
    """The names of the migrations the database has applied, in order of number and name."""
    rows = await db.fetch(f"SELECT name FROM {TABLE}")
    return sorted((row[0] for row in rows), key=lambda name: (number_of(name), name))
