"""The schema of a migrated database, read from SQLite's or PostgreSQL's own catalogue into one
comparable form: per table, its columns (name, kind of type, nullable), primary key, unique
keys, other indexes and foreign keys. Type names differ between the two on purpose (BIGINT ids,
DOUBLE PRECISION times in PostgreSQL), so each is reduced to the kind of value it holds.

:func:`definitions` reads one database's whole schema, every detail as its own catalogue states
it, to compare two databases of the same kind (one migrated from an old release's, one new)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.store import Dialect
from bot.store.database import Row
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SqliteDatabase

__all__ = ["Table", "definitions", "postgres_schema", "schema_text", "sqlite_schema"]

#: Each database's type names, by the kind of value they hold.
_KINDS = {
    "integer": "integer",
    "bigint": "integer",
    "real": "real",
    "double precision": "real",
    "text": "text",
    "blob": "bytes",
    "bytea": "bytes",
}
#: Tables that only one database has, for its own bookkeeping.
_BOOKKEEPING = {"schema_version", "sqlite_sequence"}


@dataclass
class Table:
    """One table's shape."""

    columns: dict[str, tuple[str, bool]] = field(default_factory=dict)  # name -> (kind, null)
    primary_key: tuple[str, ...] = ()
    unique: set[tuple[tuple[str, ...], str]] = field(default_factory=set)  # (columns, where)
    indexes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> columns
    foreign_keys: set[tuple[tuple[str, ...], str, tuple[str, ...]]] = field(default_factory=set)


def _where(text: str | None) -> str:
    """A partial index's condition, reduced to its words (each database writes it its way)."""
    if not text:
        return ""
    text = text.lower().replace("::text", "").replace("any (array[", "in (")
    return " ".join(re.findall(r"[a-z_]+|'[a-z_]+'", text))


async def sqlite_schema(db: SqliteDatabase) -> dict[str, Table]:
    """The shape of every table in a SQLite file."""
    tables: dict[str, Table] = {}
    names = sorted(await db.table_names() - _BOOKKEEPING)
    for name in names:
        table = tables[name] = Table()
        info = await db.fetch(f"PRAGMA table_info({name})")
        for row in info:
            # An INTEGER PRIMARY KEY is the rowid: never null, though SQLite reports it nullable.
            nullable = not row["notnull"] and not (row["pk"] and row["type"].upper() == "INTEGER")
            table.columns[row["name"]] = (_KINDS[row["type"].lower()], nullable)
        table.primary_key = tuple(r["name"] for r in sorted(info, key=lambda r: r["pk"]) if r["pk"])
        for index in await db.fetch(f"PRAGMA index_list({name})"):
            columns = tuple(
                r["name"] for r in await db.fetch(f"PRAGMA index_info({index['name']})")
            )
            if index["origin"] == "pk":
                continue
            sql = await db.fetch(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (index["name"],)
            )
            text = sql[0][0] if sql and sql[0][0] else ""
            where = text.split(" WHERE ", 1)[1] if " WHERE " in text else ""
            if index["unique"]:
                table.unique.add((columns, _where(where)))
            else:
                table.indexes[index["name"]] = columns
        # (A key of several columns is a row each, under one id, in their order.)
        keys: dict[int, list[Row]] = {}
        for key in await db.fetch(f"PRAGMA foreign_key_list({name})"):
            keys.setdefault(key["id"], []).append(key)
        for parts in keys.values():
            parts.sort(key=lambda part: part["seq"])
            table.foreign_keys.add(
                (
                    tuple(part["from"] for part in parts),
                    parts[0]["table"],
                    tuple(part["to"] for part in parts),
                )
            )
    return tables


async def postgres_schema(db: PostgresDatabase) -> dict[str, Table]:
    """The shape of every table in a PostgreSQL database's schema."""
    tables: dict[str, Table] = {}
    names = sorted(await db.table_names() - _BOOKKEEPING)
    for name in names:
        table = tables[name] = Table()
        for row in await db.fetch(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ?",
            (name,),
        ):
            kind = _KINDS[row["data_type"]]
            table.columns[row["column_name"]] = (kind, row["is_nullable"] == "YES")
        for row in await db.fetch(
            "SELECT i.relname AS name, x.indisunique AS is_unique, x.indisprimary AS is_primary,"
            " pg_get_expr(x.indpred, x.indrelid) AS predicate,"
            " ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)"
            "   JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum"
            "   ORDER BY k.n) AS columns"
            " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
            " WHERE x.indrelid = ?::regclass",
            (name,),
        ):
            columns = tuple(row["columns"])
            if row["is_primary"]:
                table.primary_key = columns
            elif row["is_unique"]:
                table.unique.add((columns, _where(row["predicate"])))
            else:
                table.indexes[row["name"]] = columns
        for row in await db.fetch(
            "SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint"
            " WHERE conrelid = ?::regclass AND contype = 'f'",
            (name,),
        ):
            match = re.match(r"FOREIGN KEY \((.+?)\) REFERENCES (\w+)\((.+?)\)", row["definition"])
            assert match, row["definition"]
            table.foreign_keys.add(
                (
                    tuple(c.strip() for c in match[1].split(",")),
                    match[2],
                    tuple(c.strip() for c in match[3].split(",")),
                )
            )
    return tables


# -- one database's whole schema, to compare with the same database's ------------------------

#: Tables the migrations' runner keeps (what was applied), not the bot's schema.
_RUNNER = {"schema_migrations", "schema_version"}


class _Reader(Protocol):
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


def _sql_words(text: str) -> str:
    """SQL without its comments, its whitespace collapsed (``( a )`` and ``(a)`` alike)."""
    text = re.sub(r"--[^\n]*", " ", text)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = " ".join(text.split())
    return re.sub(r"\( | \)", lambda m: m.group(0).strip(), text)


def _checks(create: str) -> list[str]:
    """The expressions of a CREATE TABLE statement's CHECK constraints (SQLite keeps them only
    in the statement), as words."""
    text = _sql_words(create)
    found = []
    for match in re.finditer(r"\bCHECK\s*\(", text, flags=re.IGNORECASE):
        depth, start = 0, match.end() - 1
        quoted = False
        for end in range(start, len(text)):
            char = text[end]
            if char == "'":
                quoted = not quoted
            elif not quoted and char == "(":
                depth += 1
            elif not quoted and char == ")":
                depth -= 1
                if depth == 0:
                    found.append(text[start + 1 : end])
                    break
    return sorted(found)


async def _sqlite_definitions(db: _Reader) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    master = await db.fetch("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
    for row in master:
        name = row["name"]
        if row["type"] != "table" or name in _RUNNER or name.startswith("sqlite_"):
            continue
        columns = [
            [r["name"], r["type"], r["notnull"], r["dflt_value"], r["pk"], r["hidden"]]
            for r in await db.fetch(f"PRAGMA table_xinfo({name})")
        ]
        keys = sorted(
            [r["table"], r["from"], r["to"], r["on_update"], r["on_delete"], r["match"]]
            for r in await db.fetch(f"PRAGMA foreign_key_list({name})")
        )
        indexes = []
        for index in await db.fetch(f"PRAGMA index_list({name})"):
            parts = [
                [r["name"], r["desc"], r["coll"], r["key"]]
                for r in await db.fetch(f"PRAGMA index_xinfo({index['name']})")
            ]
            sql = next((r["sql"] for r in master if r["name"] == index["name"]), None) or ""
            where = _sql_words(sql.split(" WHERE ", 1)[1]) if " WHERE " in sql else ""
            # SQLite names the indexes of a table's keys itself (sqlite_autoindex_...).
            label = index["name"] if index["origin"] == "c" else index["origin"]
            indexes.append([label, index["unique"], index["partial"], where, parts])
        create = row["sql"]
        tables[name] = {
            "columns": columns,
            "checks": _checks(create),
            "foreign keys": keys,
            "indexes": sorted(indexes),
            "without rowid": _sql_words(create).upper().endswith("WITHOUT ROWID"),
        }
    others = sorted(
        [row["type"], row["name"], _sql_words(row["sql"])]
        for row in master
        if row["type"] in ("view", "trigger")
    )
    return {"tables": tables, "views and triggers": others}


#: What PostgreSQL's catalogues say of each table (its name first on every row).
_POSTGRES_CATALOGUES = {
    "columns": "SELECT table_name, column_name, data_type, is_nullable, column_default,"
    " is_identity, identity_generation FROM information_schema.columns"
    " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
    "constraints": "SELECT c.relname, x.conname, x.contype::text, pg_get_constraintdef(x.oid)"
    " FROM pg_constraint x JOIN pg_class c ON c.oid = x.conrelid"
    " WHERE c.relnamespace = current_schema()::regnamespace ORDER BY c.relname, x.conname",
    "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes"
    " WHERE schemaname = current_schema() ORDER BY tablename, indexname",
}


async def _postgres_definitions(db: _Reader) -> dict[str, Any]:
    [(schema,)] = await db.fetch("SELECT current_schema()")
    tables: dict[str, Any] = {}
    for row in await db.fetch(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_name NOT IN (?, ?) ORDER BY table_name",
        tuple(sorted(_RUNNER)),
    ):
        tables[row[0]] = {part: [] for part in _POSTGRES_CATALOGUES}
    # Each catalogue's rows by table, in order; an index's definition names the schema, which
    # differs from database to database and is left out.
    for part, sql in _POSTGRES_CATALOGUES.items():
        for row in await db.fetch(sql):
            if row[0] in tables:
                found = list(row)[1:]
                if part == "indexes":
                    found[-1] = found[-1].replace(f" {schema}.", " ")
                tables[row[0]][part].append(found)
    others = sorted(
        list(r)
        for r in await db.fetch(
            "SELECT 'view', table_name, view_definition FROM information_schema.views"
            " WHERE table_schema = current_schema()"
            " UNION ALL SELECT 'trigger', trigger_name, action_statement"
            " FROM information_schema.triggers WHERE trigger_schema = current_schema()"
        )
    )
    return {"tables": tables, "views and triggers": others}


async def definitions(dialect: Dialect, db: _Reader) -> dict[str, Any]:
    """The whole schema of a database, as its own catalogue states it, to compare with another
    database of the same kind: per table, its columns in order (name, declared type, null or
    not, default, key), its CHECK, key and foreign key constraints, its indexes (columns,
    order, partial condition); and any view or trigger. The tables the migrations' runner
    keeps are left out. Plain values (lists, strings, numbers), so it can be a JSON key."""
    if dialect is Dialect.SQLITE:
        return await _sqlite_definitions(db)
    return await _postgres_definitions(db)


async def schema_text(dialect: Dialect, db: _Reader) -> str:
    """The statements that make a database's schema, as its catalogue keeps them, without
    comments: equal for two databases whose :func:`definitions` are equal, and quicker to
    read (SQLite keeps each table's statement; PostgreSQL's definitions are read instead)."""
    if dialect is Dialect.SQLITE:
        rows = await db.fetch("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        return "\n".join(f"{r['type']} {r['name']}: {_sql_words(r['sql'] or '')}" for r in rows)
    return json.dumps(await _postgres_definitions(db), sort_keys=True)
