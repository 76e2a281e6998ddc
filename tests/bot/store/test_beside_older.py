"""Releases side by side during an upgrade (issue 50, item 5): a migration whose first line says
an older release may run beside it is recorded so, and a release without it then opens the
database (naming what it lacks) where it refused any unknown migration before; one that does not
say so still refuses it; and a release that opens a database a newer one migrated never lowers
the schema number the newer one set. Both databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import NewerSchema, Store
from bot.store.migrate import BESIDE_OLDER, newer_beside

#: This release's migrations in small: the table of names gains its column (as 021 does).
OLD = {
    "001_base.sql": "CREATE TABLE base (x INTEGER);",
    "002_operations.sql": f"{BESIDE_OLDER}\nALTER TABLE schema_migrations"
    " ADD COLUMN beside_older INTEGER;",
}


def _folder(where: Path, files: dict[str, str]) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    for name, sql in files.items():
        (where / name).write_text(sql)
    return where


def _releases(tmp_path: Path, name: str, sql: str) -> tuple[Path, Path]:
    """The migrations of this release in small, and of a newer one that adds ``name``."""
    return _folder(tmp_path / "old", OLD), _folder(tmp_path / "newer", {**OLD, name: sql})


async def test_an_older_release_runs_beside_a_migration_that_says_it_may(
    tmp_path: Path, target: str | Path
) -> None:
    more = f"{BESIDE_OLDER}\n-- adds a table\nCREATE TABLE more (y INTEGER);"
    old, newer = _releases(tmp_path, "003_more.sql", more)
    await (await Store.open(target, migrations_dir=old)).close()
    await (await Store.open(target, migrations_dir=newer)).close()
    async with await Store.open(target, migrations_dir=old) as store:
        # (Opened and upgraded: nothing to apply, and 003 is named as a newer one's.)
        assert await newer_beside(store.db, old) == ["003_more"]
        # The number releases before names read stays the newer release's (not lowered to 2).
        if store.db.dialect.value == "sqlite":
            [(number,)] = await store.db.fetch("PRAGMA user_version")
        else:
            [(number,)] = await store.db.fetch("SELECT version FROM schema_version")
        assert number == 3, "the newer release's number stays"
    async with await Store.open(target, migrations_dir=old, upgrade=False) as store:
        assert await store.applied_migrations() == ["001_base", "002_operations", "003_more"]


async def test_a_migration_that_does_not_say_so_still_refuses_an_older_release(
    tmp_path: Path, target: str | Path
) -> None:
    drop = "-- removes what the release before read\nDROP TABLE base;"
    old, newer = _releases(tmp_path, "003_drop.sql", drop)
    await (await Store.open(target, migrations_dir=newer)).close()
    with pytest.raises(NewerSchema) as refused:
        await Store.open(target, migrations_dir=old)
    assert refused.value.unknown == ("003_drop",)
    with pytest.raises(NewerSchema):
        await Store.open(target, migrations_dir=old, upgrade=False)


def test_this_release_s_migration_says_the_release_before_runs_beside_it() -> None:
    from bot.store.database import Dialect, migrations
    from bot.store.migrate import beside_older

    for dialect in Dialect:
        [operations] = [m for m in migrations(dialect.migrations_dir) if m.number == 21]
        assert beside_older(operations), dialect
