"""Both databases' migrations make the same schema: the same tables and columns holding the same
kinds of value, the same keys, indexes and foreign keys, at the same schema version."""

from __future__ import annotations

from pathlib import Path

from bot.store import Dialect, Store, migrations
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SqliteDatabase
from tests.helpers.schemas import postgres_schema, sqlite_schema


async def test_sqlite_and_postgresql_migrations_make_the_same_schema(
    tmp_path: Path, postgres_url: str
) -> None:
    async with (
        await Store.open(tmp_path / "schema.db") as lite,
        await Store.open(postgres_url) as postgres,
    ):
        assert isinstance(lite.db, SqliteDatabase)
        assert isinstance(postgres.db, PostgresDatabase)
        assert await lite.user_version() == await postgres.user_version()
        mine, theirs = await sqlite_schema(lite.db), await postgres_schema(postgres.db)
    assert sorted(mine) == sorted(theirs)
    assert "games" in mine and "standings" in mine
    for name in mine:
        assert mine[name] == theirs[name], name


def test_each_postgresql_migration_has_a_sqlite_twin() -> None:
    # PostgreSQL's first migration is the schema SQLite's first ones made; after it every
    # migration exists in both, under one name (each database records it by that name).
    lite = migrations(Dialect.SQLITE.migrations_dir)
    postgres = migrations(Dialect.POSTGRES.migrations_dir)
    first = postgres[0]
    assert first.name == "006_base"
    assert [m.name for m in postgres[1:]] == [m.name for m in lite if m.number > first.number]
