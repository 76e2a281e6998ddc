"""Migrations recorded by name and applied all or nothing, on both databases (issue 21, item 2):
every migration not yet applied is applied, in order of number and then name, so one merged
after a higher-numbered one still applies and two with the same number both do; a database that
applied one this release does not have is refused as newer, naming it; the pending migrations
go in one transaction (a start-up stopped part-way leaves the database as it was), and two
processes starting together apply them once."""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import sqlite3
from pathlib import Path
from types import ModuleType

import asyncpg
import pytest

from bot.core.base.store_errors import UnusableStore
from bot.store import Dialect, NewerSchema, Store, database, migrate, migrations, sqlite
from bot.store.sqlite import statements

#: The first migration of most of the folders below: one table.
BASE = {"001_base.sql": "CREATE TABLE base (x INTEGER);"}


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "migrations"
    folder.mkdir(parents=True, exist_ok=True)
    for name, sql in files.items():
        (folder / name).write_text(sql)
    return folder


async def _tables(store: Store) -> set[str]:
    return await store.db.table_names() - {"schema_migrations", "schema_version"}


async def test_migrations_apply_by_number_then_name(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path,
        {
            "002_zebra.sql": "CREATE TABLE zebra (x INTEGER);",
            "010_later.sql": "CREATE TABLE later (x INTEGER);",
            "002_apple.sql": "CREATE TABLE apple (x INTEGER);",
            **BASE,
            "notes.txt": "not a migration",
        },
    )
    assert [m.name for m in migrations(folder)] == [
        "001_base",
        "002_apple",
        "002_zebra",
        "010_later",
    ]


async def test_two_migrations_with_one_number_both_apply_in_order_of_name(
    tmp_path: Path, target: str | Path
) -> None:
    # Written on two branches at once: each picked 002.
    folder = _folder(
        tmp_path,
        {
            **BASE,
            "002_zebra.sql": "INSERT INTO base (x) VALUES (2);",
            "002_apple.sql": "INSERT INTO base (x) VALUES (1);",
        },
    )
    async with await Store.open(target, migrations_dir=folder) as store:
        assert await store.applied_migrations() == ["001_base", "002_apple", "002_zebra"]
        rows = await store.db.fetch("SELECT x FROM base ORDER BY x")
        assert [row[0] for row in rows] == [1, 2]
        assert await store.user_version() == 2


async def test_a_migration_merged_after_higher_numbers_is_still_applied(
    tmp_path: Path, target: str | Path
) -> None:
    ten, eleven = "CREATE TABLE ten (x INTEGER);", "CREATE TABLE eleven (x INTEGER);"
    folder = _folder(tmp_path, {**BASE, "010_lurches.sql": ten, "011_members.sql": eleven})
    await (await Store.open(target, migrations_dir=folder)).close()
    # 009 was written before 010 and 011 but merged after them.
    _folder(tmp_path, {"009_expert.sql": "ALTER TABLE base ADD COLUMN level TEXT;"})
    async with await Store.open(target, migrations_dir=folder) as store:
        assert await store.applied_migrations() == [
            "001_base",
            "009_expert",
            "010_lurches",
            "011_members",
        ]
        await store.db.execute("INSERT INTO base (x, level) VALUES (1, 'expert')")
    # And only once.
    async with await Store.open(target, migrations_dir=folder) as store:
        assert len(await store.applied_migrations()) == 4


async def test_a_migration_this_release_does_not_have_means_a_newer_release(
    tmp_path: Path, target: str | Path
) -> None:
    folder = _folder(tmp_path, BASE)
    newer = _folder(tmp_path / "newer", BASE)
    _folder(tmp_path / "newer", {"002_message_owners.sql": "CREATE TABLE owners (x INTEGER);"})
    await (await Store.open(target, migrations_dir=newer)).close()
    before = await _state(target)
    with pytest.raises(NewerSchema) as refused:
        await Store.open(target, migrations_dir=folder)
    said = str(refused.value)
    assert "002_message_owners" in said and "newer release" in said and "001_base" in said
    assert refused.value.unknown == ("002_message_owners",)
    assert await _state(target) == before, "nothing changed"
    async with await Store.open(target, migrations_dir=newer) as store:
        assert await store.applied_migrations() == ["001_base", "002_message_owners"]


async def test_a_check_changes_nothing_and_the_upgrade_applies_what_is_pending(
    tmp_path: Path, target: str | Path
) -> None:
    # What start-up does: check before logging in, upgrade once Discord took the token.
    folder = _folder(tmp_path, BASE)
    await (await Store.open(target, migrations_dir=folder)).close()
    _folder(tmp_path, {"002_one.sql": "CREATE TABLE one (x INTEGER);"})
    before = await _state(target)
    async with await Store.open(target, migrations_dir=folder, upgrade=False) as store:
        assert not store.upgraded and await store.applied_migrations() == ["001_base"]
    assert await _state(target) == before, "checked, and nothing changed"
    async with await Store.open(target, migrations_dir=folder, upgrade=False) as store:
        await store.upgrade()
        assert store.upgraded and store.migrated == ["002_one"]
        assert await _tables(store) == {"base", "one"}
        await store.upgrade()  # once only
        assert store.migrated == ["002_one"]
    later = "CREATE TABLE two (x INTEGER);"
    newer = _folder(tmp_path / "newer", {**BASE, "002_one.sql": "SELECT 1;", "003_two.sql": later})
    await (await Store.open(target, migrations_dir=newer)).close()
    before = await _state(target)
    with pytest.raises(NewerSchema, match="003_two"):
        await Store.open(target, migrations_dir=folder, upgrade=False)
    assert await _state(target) == before, "refused, and nothing changed"


async def _state(target: str | Path) -> object:
    """What a database holds: a SQLite file's bytes; a PostgreSQL database's tables and the
    rows of those that record migrations."""
    if isinstance(target, Path):
        with contextlib.closing(sqlite3.connect(target)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return target.read_bytes()
    connection = await asyncpg.connect(target)
    try:
        tables = await connection.fetch(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() ORDER BY 1"
        )
        names = []
        if await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            names = await connection.fetch("SELECT * FROM schema_migrations ORDER BY name")
        number = await connection.fetch("SELECT * FROM schema_version")
        return [list(map(tuple, rows)) for rows in (tables, names, number)]
    finally:
        await connection.close()


async def test_a_database_from_before_names_were_recorded_is_refused_as_it_is(
    tmp_path: Path, target: str | Path
) -> None:
    # Builds before 23 November 2026 kept only the number of the last migration applied
    # (SQLite's user_version, PostgreSQL's schema_version table), not the names.
    # Here: 001_base applied, the number 1, and no names.
    folder = _folder(tmp_path, BASE)
    await (await Store.open(target, migrations_dir=folder)).close()
    if isinstance(target, Path):
        with contextlib.closing(sqlite3.connect(target)) as db:
            db.execute("DROP TABLE schema_migrations")
    else:
        connection = await asyncpg.connect(target)
        try:
            await connection.execute("DROP TABLE schema_migrations")
        finally:
            await connection.close()
    before = await _state(target)
    for upgrade in (False, True):  # start-up's check, and the migrations
        with pytest.raises(UnusableStore) as refused:
            await (await Store.open(target, migrations_dir=folder, upgrade=upgrade)).close()
        assert not isinstance(refused.value, NewerSchema)
        assert str(refused.value) == migrate.BEFORE_NAMES
        assert await _state(target) == before, "refused, and nothing changed"


async def test_the_pending_migrations_apply_all_or_none(tmp_path: Path, target: str | Path) -> None:
    folder = _folder(tmp_path, BASE)
    await (await Store.open(target, migrations_dir=folder)).close()
    _folder(
        tmp_path,
        {
            "002_one.sql": "CREATE TABLE one (x INTEGER); INSERT INTO base (x) VALUES (2);",
            "003_two.sql": "CREATE TABLE two (x INTEGER);",
            "004_bad.sql": "CREATE TABLE three (x INTEGER); THIS IS NOT SQL;",
        },
    )
    with pytest.raises(Exception, match=r"(?i)syntax"):
        await Store.open(target, migrations_dir=folder)
    (folder / "004_bad.sql").unlink()
    # As it was before: 002 and 003 were not kept without 004.
    (folder / "002_one.sql").rename(tmp_path / "002_one.sql")
    (folder / "003_two.sql").rename(tmp_path / "003_two.sql")
    async with await Store.open(target, migrations_dir=folder) as store:
        assert await store.applied_migrations() == ["001_base"]
        assert await _tables(store) == {"base"}
        assert await store.db.fetch("SELECT x FROM base") == []
        assert await store.user_version() == 1


async def test_two_processes_starting_together_apply_the_migrations_once(
    target: str | Path,
) -> None:
    # Each Store is a process of its own as far as the database can tell (its own
    # connections); SQLite's write lock or PostgreSQL's advisory lock puts one after the other.
    first, second = await asyncio.gather(Store.open(target), Store.open(target))
    try:
        names = [m.name for m in migrations(first.dialect.migrations_dir)]
        assert await first.applied_migrations() == names
        rows = await first.db.fetch("SELECT name, COUNT(*) FROM schema_migrations GROUP BY name")
        assert sorted((row[0], row[1]) for row in rows) == [(name, 1) for name in sorted(names)]
    finally:
        await first.close()
        await second.close()


def test_a_script_is_cut_into_its_statements_where_sqlite_says() -> None:
    script = """
    -- A note; with a semicolon.
    CREATE TABLE a (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER t AFTER INSERT ON a BEGIN
        UPDATE a SET x = 'c;d';
    END;
    /* trailing; */
    """
    found = statements(script)
    assert len(found) == 3
    assert "'a;b'" in found[0] and found[1].strip().endswith("END;")
    db = sqlite3.connect(":memory:")
    for statement in found:
        db.execute(statement)
    db.execute("INSERT INTO a DEFAULT VALUES")
    assert db.execute("SELECT x FROM a").fetchall() == [("c;d",)]


@pytest.mark.parametrize("module", [database, migrate, sqlite])
def test_the_examples_in_the_docstrings_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


async def test_a_migration_cancelled_mid_statement_stops_it_and_rolls_back(
    tmp_path: Path,
) -> None:
    # A stop signal during start-up cancels the migration's await, but its statement runs on
    # in SQLite's thread, and the rollback and the close queue behind it: a long statement (a
    # large database rated for the first time) held the stop until it ended. This one never
    # ends on its own.
    store = await Store.open(tmp_path / "test.db")
    db = store.db
    assert isinstance(db, sqlite.SqliteDatabase)
    endless = (
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n"
    )
    began = asyncio.Event()

    async def migration() -> None:
        async with db.migrating() as tx:
            await tx.execute("CREATE TABLE half_made (x INTEGER)")
            began.set()
            await tx.fetch(endless)

    running = asyncio.create_task(migration())
    await began.wait()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        # (Bounded so that the failure is a failure, not a hung suite.)
        await asyncio.wait_for(asyncio.shield(running), timeout=60)
    assert "half_made" not in await db.table_names()
    await asyncio.wait_for(store.close(), timeout=60)


async def test_the_endings_migration_gives_each_finished_game_how_it_ended(tmp_path: Path) -> None:
    # 023_endings (issue 54): a finished game's ending comes from what said it before: a ranked
    # game's ended_by (the clock, leaving), else its results' reason (resigned, the target).
    source = Dialect.SQLITE.migrations_dir
    old = tmp_path / "old"
    old.mkdir()
    for path in sorted(source.glob("*.sql")):
        if migrate.number_of(path.stem) < 23:
            (old / path.name).write_bytes(path.read_bytes())
    target = tmp_path / "endings.db"
    await (await Store.open(target, migrations_dir=old)).close()
    games = {1: "target", 2: "resigned", 3: "resigned", 4: "resigned", 5: None, 6: None}
    with sqlite3.connect(target) as db:
        for game, reason in games.items():
            status = "finished" if reason is not None else ("cancelled", "active")[game - 5]
            db.execute(
                "INSERT INTO games (id, guild_id, channel_id, status, creator_id, num_players,"
                " target, created_at, updated_at) VALUES (?, NULL, ?, ?, 1, 2, 121, 0, 0)",
                (game, -4 * game, status),
            )
            for seat in (0, 1) if reason is not None else ():
                db.execute(
                    "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, won,"
                    " game_points, score, final_scores, reason, finished_at, rated_order)"
                    " VALUES (?, NULL, ?, ?, 'P', ?, 1, 0, '1-0', ?, 0, ?)",
                    (game, seat, seat + 1, int(seat == 0), reason, game),
                )
        for game, ended_by in ((3, "clock"), (4, "left"), (2, "resigned"), (1, "play")):
            # (Each game's match, and its two entries: the tables refer to them.)
            for entry in (2 * game, 2 * game + 1):
                db.execute(
                    "INSERT INTO ranked_entries (id, user_id, name, channel_id, place, status,"
                    " mu, queued_at, match_id) VALUES (?, ?, 'P', 9, 'private', 'done', 25, 0, ?)",
                    (entry, entry, game),
                )
            db.execute(
                "INSERT INTO ranked_matches (id, entry_a, entry_b, player_a, player_b, status,"
                " started_at) VALUES (?, ?, ?, ?, ?, 'finished', 0)",
                (game, 2 * game, 2 * game + 1, 2 * game, 2 * game + 1),
            )
            db.execute(
                "INSERT INTO ranked_games (match_id, number, game_id, winner, ended_by)"
                " VALUES (?, 1, ?, 1, ?)",
                (game, game, ended_by),
            )
    store = await Store.open(target)
    try:
        found = {g: (await store.get_game(g)) for g in games}
        endings = {g: None if r is None else r.ending for g, r in found.items()}
        assert endings == {1: "played", 2: "resigned", 3: "clock", 4: "left", 5: None, 6: None}
    finally:
        await store.close()
