"""New databases that start at today's schema without running the migrations again.

Most tests of the store and the core (the `store` fixture), and the end-to-end bot of the
`world` fixture, want an empty database at the current schema. Migrating a new one from
nothing costs about a tenth of a second more than copying a migrated one on PostgreSQL, and
three hundredths on SQLite (`benchmarks/fixture_databases.py`; more on a busy machine), paid
by hundreds of tests. So the migrations run once: on PostgreSQL into a template database,
once per test run (shared by the run's processes, under a lock in the folder they share),
that each test's database is copied from (``CREATE DATABASE ... TEMPLATE``); on SQLite into
a file, once per process, that each test's file is copied from. A copy is the database the
migrations would have made: the tests of the migrations themselves start from empty ones.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import shutil
import threading
from pathlib import Path

from bot.store import Dialect, Store, migrations
from tests.helpers.postgres import PostgresServer

__all__ = [
    "copy_migrated_sqlite",
    "migrated_template",
    "migrations_before",
    "people_for_todays_code",
    "people_taken_away",
]

#: The PostgreSQL database every migrated copy is made from (nobody stays connected to it).
TEMPLATE = "migrated_template"


def _migrate(target: str | Path) -> None:
    """Open ``target`` (applying every migration) and close it again, in a thread of its own:
    a fixture may ask for this while the test's event loop runs."""
    failed: list[BaseException] = []

    def run() -> None:
        async def migrate() -> None:
            await (await Store.open(target)).close()

        try:
            asyncio.run(migrate())
        except BaseException as error:  # raised again in the caller's thread
            failed.append(error)

    thread = threading.Thread(target=run, name="migrate-template")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


def migrated_template(server: PostgresServer, shared: Path) -> str:
    """The name of the run's migrated template database on ``server``, made by the first
    process to ask (the others wait on the lock in ``shared``, the run's shared folder)."""
    done = shared / "migrated_template"
    with (shared / "migrated_template.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            _migrate(server.create_database(TEMPLATE))
            done.write_text(TEMPLATE)
    return TEMPLATE


def copy_migrated_sqlite(folder: Path, target: Path) -> Path:
    """``target``: a copy of a SQLite file migrated once and kept in ``folder`` (one folder
    per process)."""
    template = folder / "migrated.db"
    if not template.exists():
        # Made under another name and renamed, so a half-made file is never copied.
        making = folder / f"migrating-{os.getpid()}.db"
        _migrate(making)
        making.replace(template)
    shutil.copyfile(template, target)
    return target


def migrations_before(dialect: Dialect, number: int, folder: Path) -> Path:
    """``folder``, made, with today's migrations of ``dialect`` numbered below ``number``:
    what made a database before that migration (to write rows as the releases before it did,
    then open it with every migration)."""
    folder.mkdir()
    for migration in migrations(dialect.migrations_dir):
        if migration.number < number:
            (folder / migration.path.name).write_text(migration.sql())
    return folder


async def people_for_todays_code(store: Store) -> None:
    """The table of people (migration 040) in a database from before it, as today's store
    code writes it (a person's act makes their row), without the references to it: for a test
    that writes rows as an older release's schema holds them through today's code, then takes
    it away again (:func:`people_taken_away`) for 040 to make."""
    await store.db.execute(
        "CREATE TABLE people (id BIGINT NOT NULL PRIMARY KEY, version INTEGER NOT NULL DEFAULT 0)"
    )


async def people_taken_away(store: Store) -> None:
    """The database as its release left it again: without :func:`people_for_todays_code`'s
    table."""
    await store.db.execute("DROP TABLE people")
