"""Databases made by the releases before migrations were recorded by name (issue 21, item 2):
every one of them, opened by this release, ends with the schema a new database has, on both
databases. Among them: one at schema 11 made before 009_expert_level (it never ran it, and could
not seat an expert computer), one made when 007 was the retention migration (every later
release failed on 008), and those whose 004 or 007 was an earlier version of today's file.

The old releases are the states of the migration folders in main's history
(tests/helpers/old_migrations/releases.txt, each file as git had it); each database is one a
sequence of them could leave, run the way they ran migrations."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.games.records import NewGame, Options, SeatRecord
from bot.store import Dialect, Store, migrations
from tests.helpers import old_releases
from tests.helpers.old_releases import (
    FOLDER,
    RELEASES,
    OldRelease,
    PostgresReader,
    SqliteReader,
    blob_id,
    old_file,
    postgres_made_by,
    reachable,
    release,
    run_postgres_release,
    run_sqlite_release,
    sqlite_made_by,
)
from tests.helpers.schemas import definitions, schema_text

AL = SeatRecord(0, 1, "Al")
EXPERT = SeatRecord(1, None, "Computer (expert)", True, "expert")


def _names(dialect: Dialect) -> list[str]:
    return [migration.name for migration in migrations(dialect.migrations_dir)]


def test_the_old_migration_files_are_those_git_had() -> None:
    listed = {
        (one.dialect.value, name)
        for releases in RELEASES.values()
        for one in releases
        for name in one.files
    }
    whole = {(path.parent.name, path.name) for path in FOLDER.glob("*/*.sql")}
    diffs = {
        (path.parent.name, path.name.removesuffix(".diff")) for path in FOLDER.glob("*/*.diff")
    }
    # A file is kept (whole when today's folder has none of its name, else as a diff) only when
    # it is listed and today's file of its name differs.
    assert whole <= listed and diffs <= listed and not whole & diffs
    for dialect, name in listed:
        found = old_file(Dialect(dialect), name)
        # old_file checks this itself; said again here, as what this test is for.
        assert blob_id(found).startswith(name.split(".")[1]), name
        today = Dialect(dialect).migrations_dir / f"{name.split('.')[0]}.sql"
        if (dialect, name) in whole:
            assert not today.exists(), name
        if (dialect, name) in diffs:
            assert today.read_bytes() != found, name
    # The releases that made 011 without 009, and the last before names, are main's.
    assert release(Dialect.SQLITE, "6befaa3").on_main and release(Dialect.SQLITE, "c10327a").on_main


def test_an_old_file_that_cannot_be_rebuilt_as_git_had_it_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "004_messages.dc5d3e06c5.sql"
    diff = (FOLDER / "sqlite" / f"{name}.diff").read_text()
    (tmp_path / "sqlite").mkdir()
    monkeypatch.setattr(old_releases, "FOLDER", tmp_path)
    # A diff that applies but names another blob: what it makes is not that file.
    (tmp_path / "sqlite" / "004_messages.0123456789.sql.diff").write_text(diff)
    with pytest.raises(FileNotFoundError, match="is not the file git had"):
        old_file(Dialect.SQLITE, "004_messages.0123456789.sql")
    # A diff whose lines today's file no longer has (as if it had been edited).
    (tmp_path / "sqlite" / f"{name}.diff").write_text(
        diff.replace(" token_at   REAL", " token_at   TEXT", 1)
    )
    with pytest.raises(FileNotFoundError, match="no longer applies"):
        old_file(Dialect.SQLITE, name)


async def _check_opened(dialect: Dialect, target: str | Path, want: dict[str, object]) -> None:
    """Open ``target`` with this release: every migration recorded, the new schema."""
    async with await Store.open(target) as store:
        assert await store.applied_migrations() == _names(dialect)
        assert await store.user_version() == migrations(dialect.migrations_dir)[-1].number
        assert await definitions(dialect, store.db) == want


class SqliteBench:
    """Old releases tried on an in-memory database, each on a copy of the last."""

    def __init__(self) -> None:
        self.stack = [sqlite3.connect(":memory:")]

    async def apply(self, one: OldRelease) -> tuple[int, str]:
        db = sqlite3.connect(":memory:", isolation_level="IMMEDIATE")
        self.stack[-1].backup(db)
        self.stack.append(db)
        db.execute("PRAGMA foreign_keys = ON")
        run_sqlite_release(one, db)
        [(number,)] = db.execute("PRAGMA user_version").fetchall()
        return number, await schema_text(Dialect.SQLITE, SqliteReader(db))

    async def undo(self) -> None:
        self.stack.pop().close()

    async def keep(self) -> sqlite3.Connection:
        copy = sqlite3.connect(":memory:")
        self.stack[-1].backup(copy)
        return copy


class PostgresBench:
    """Old releases tried in one transaction: each run in a savepoint (each of its migrations
    in one nested in it, as its own transaction was), rolled back to undo it. What it keeps
    is the releases, which make the database again for real."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection
        self.path: list[tuple[OldRelease, Any]] = []

    async def apply(self, one: OldRelease) -> tuple[int, str]:
        savepoint = self.connection.transaction()
        await savepoint.start()
        self.path.append((one, savepoint))
        await run_postgres_release(one, self.connection)
        number = await self.connection.fetchval("SELECT version FROM schema_version")
        return number, await schema_text(Dialect.POSTGRES, PostgresReader(self.connection))

    async def undo(self) -> None:
        await self.path.pop()[1].rollback()

    async def keep(self) -> tuple[OldRelease, ...]:
        return tuple(one for one, _ in self.path)


async def test_every_sqlite_database_an_earlier_release_made_ends_with_the_new_schema(
    tmp_path: Path,
) -> None:
    async with await Store.open(tmp_path / "new.db") as new:
        want = await definitions(Dialect.SQLITE, new.db)
    reached = await reachable(RELEASES[Dialect.SQLITE], SqliteBench())
    # The cases that made this necessary are among them: 011 without 009; retention as 007
    # (every later release failed on 008); 007 without shown_version; 004 without
    # token_original, or without pending_posts.
    assert any(r.number == 11 and "'expert'" not in r.schema for r in reached)
    assert any(r.number == 7 and "table game_archives" in r.schema for r in reached)
    assert any("table leases" in r.schema and "shown_version" not in r.schema for r in reached)
    assert any("shown_version" in r.schema and "token_original" not in r.schema for r in reached)
    assert any("table game_messages" in r.schema and "pending" not in r.schema for r in reached)
    assert len(reached) > 50
    for number, one in enumerate(reached):
        path = tmp_path / f"old{number}.db"
        with contextlib.closing(sqlite3.connect(path)) as file:
            one.handle.backup(file)
        try:
            await _check_opened(Dialect.SQLITE, path, want)
        except Exception as error:
            raise AssertionError(f"a database made by {one} (schema {one.number})") from error


async def test_every_postgresql_database_an_earlier_release_made_ends_with_the_new_schema(
    postgres_url: str,
) -> None:
    async with await Store.open(postgres_url) as new:
        want = await definitions(Dialect.POSTGRES, new.db)
    connection = await asyncpg.connect(postgres_url)
    try:
        async with connection.transaction():
            await connection.execute("CREATE SCHEMA tried; SET LOCAL search_path TO tried")
            reached = await reachable(RELEASES[Dialect.POSTGRES], PostgresBench(connection))
    finally:
        await connection.close()
    assert any(r.number == 11 and "'expert'" not in r.schema for r in reached)
    assert any('"leases"' in r.schema and "shown_version" not in r.schema for r in reached)
    assert len(reached) > 15
    for number, one in enumerate(reached):
        url = await postgres_made_by(postgres_url, f"old{number}", *one.handle)
        try:
            await _check_opened(Dialect.POSTGRES, url, want)
        except Exception as error:
            raise AssertionError(f"a database made by {one} (schema {one.number})") from error


@pytest.mark.parametrize("dialect", [Dialect.SQLITE, Dialect.POSTGRES])
async def test_a_database_at_11_made_before_009_seats_an_expert_computer(
    request: pytest.FixtureRequest, tmp_path: Path, dialect: Dialect
) -> None:
    # The release that merged 011 before 009 existed; the next one (c10327a) skipped 009.
    made = release(dialect, "6befaa3"), release(dialect, "c10327a")
    target: str | Path = tmp_path / "old.db"
    if dialect is Dialect.SQLITE:
        sqlite_made_by(tmp_path / "old.db", *made)
    else:
        target = await postgres_made_by(request.getfixturevalue("postgres_url"), "old", *made)
    async with await Store.open(target) as store:
        record = await store.create_game(NewGame(5, 10, AL, Options(2, 121)), now=1.0)
        await store.set_seats(record.id, record.version, [AL, EXPERT], now=2.0)
        again = await store.get_game(record.id)
        assert again is not None and again.seats == (AL, EXPERT)
        assert "009_expert_level" in await store.applied_migrations()


def _made_with_rows(path: Path, commit: str, *inserts: str) -> None:
    """A SQLite database made by the release at ``commit``, with rows put in by ``inserts``."""
    sqlite_made_by(path, release(Dialect.SQLITE, commit))
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        for insert in inserts:
            db.execute(insert)


async def test_what_earlier_versions_of_004_and_retention_kept_is_kept(tmp_path: Path) -> None:
    # A message kept by the first 004 (no token_original), then 007 added shown_version; and
    # an archive kept when retention was 007: each table is made again with its rows.
    first = tmp_path / "first004.db"
    _made_with_rows(
        first,
        "8765cc2",
        "INSERT INTO games (id, channel_id, creator_id, num_players, target, created_at,"
        " updated_at) VALUES (1, 10, 1, 2, 121, 1.0, 1.0)",
        "INSERT INTO game_messages (game_id, key, channel_id, message_id, digest, token,"
        " token_at) VALUES (1, 'table:1', 10, 70, 'abc', 'tok', 5.0)",
    )
    sqlite_made_by(first, release(Dialect.SQLITE, "c10327a"))
    async with await Store.open(first) as store:
        kept = (await store.messages(Owner.game(1)))[MessageKey.parse("table:1")]
        assert (kept.message_id, kept.digest, kept.token, kept.original) == (
            70,
            "abc",
            "tok",
            False,
        )

    retention = tmp_path / "retention007.db"
    _made_with_rows(
        retention,
        "9275946",
        "INSERT INTO games (id, channel_id, creator_id, num_players, target, created_at,"
        " updated_at, status, pruned_at) VALUES (1, 10, 1, 2, 121, 1.0, 1.0, 'finished', 9.0)",
        "INSERT INTO game_archives (game_id, record) VALUES (1, x'0102')",
    )
    async with await Store.open(retention) as store:
        rows = await store.db.fetch("SELECT game_id, record FROM game_archives")
        assert [tuple(row) for row in rows] == [(1, b"\x01\x02")]
