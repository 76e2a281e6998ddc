"""Every column that may hold a person's Discord id or name, in either database's schema (what
every migration together makes, SQLite's and PostgreSQL's), is in the inventory of what is kept
about a person (:mod:`bot.core.privacy.inventory`), or is named there as nobody's (issue 54,
item 7); and what the inventory names is in the schema. A new column holding a user's id or
name, added by any migration, fails this until the inventory says what it is, why it is kept,
for how long, and what a person's file and deletion do with it.

A column may hold a person when its name says so (an id, a user, a player, an opponent, a
winner, who did something, a name, a picture, a note that may name them...) or, in
PostgreSQL, when it is a BIGINT: every Discord id is one, and so is every such column, whatever
its name."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.core.privacy.inventory import INVENTORY, NOBODYS, person_columns
from bot.store import Dialect, Store

#: Names of columns that may hold a person's id or name.
_PERSONAL = re.compile(
    r"(^id$|_id$|user|player|member|opponent|winner|creator|organi[sz]er|champion|blocked"
    r"|_by$|name|avatar|nick|owner|holder|host|author|people|person|note)"
)


async def _columns(store: Store) -> dict[tuple[str, str], str]:
    """Every column of the store's schema, with its type as the database states it."""
    found: dict[tuple[str, str], str] = {}
    if store.db.dialect is Dialect.SQLITE:
        for table in sorted(await store.db.table_names()):
            for row in await store.db.fetch(f"PRAGMA table_info({table})"):
                found[table, row["name"]] = str(row["type"]).lower()
    else:
        rows = await store.db.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema()"
        )
        found = {(r[0], r[1]): str(r[2]).lower() for r in rows}
    return {key: kind for key, kind in found.items() if key[0] not in _RUNNER}


#: The tables the migrations' runner keeps for itself.
_RUNNER = {"schema_version", "sqlite_sequence"}


def may_hold_a_person(columns: Iterable[tuple[tuple[str, str], str]]) -> set[tuple[str, str]]:
    """The columns that may hold a person's id or name: by their name, or a BIGINT's type."""
    return {key for key, kind in columns if _PERSONAL.search(key[1]) or kind == "bigint"}


def unaccounted(columns: dict[tuple[str, str], str]) -> set[tuple[str, str]]:
    """The columns that may hold a person and that the inventory says nothing of."""
    theirs = person_columns()
    return {
        (table, column)
        for table, column in may_hold_a_person(columns.items())
        if column not in theirs.get(table, {})
        and f"{table}.{column}" not in NOBODYS
        and column not in NOBODYS
    }


async def test_every_column_that_may_hold_a_person_is_in_the_inventory(store: Store) -> None:
    columns = await _columns(store)
    assert unaccounted(columns) == set(), (
        "in no inventory: say what each holds in bot/core/privacy/inventory.py"
    )


async def test_what_the_inventory_names_is_in_the_schema(store: Store) -> None:
    columns = await _columns(store)
    tables = {table for table, _ in columns}
    for kept in INVENTORY:
        for table in kept.tables:
            assert table.name in tables, table.name
            for column in table.columns:
                assert (table.name, column.name) in columns, (table.name, column.name)
    named = {column for _, column in columns} | {f"{t}.{c}" for t, c in columns}
    assert set(NOBODYS) - named == set(), "nobody's, and in no table"


async def test_the_check_finds_a_new_column_that_may_hold_a_person(store: Store) -> None:
    """A migration adding a referee's id, a nickname, or (PostgreSQL) a BIGINT of any name:
    each is found, until the inventory says what it is."""
    added = [("games", "referee_id", "BIGINT"), ("rivals", "nickname", "TEXT")]
    if store.db.dialect is Dialect.POSTGRES:
        added.append(("tournaments", "judge", "BIGINT"))
    for table, column, kind in added:
        await store.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    assert unaccounted(await _columns(store)) == {(t, c) for t, c, _ in added}
