"""The schema of a migrated database, read from SQLite's or PostgreSQL's own catalogue into one
comparable form: per table, its columns (name, kind of type, nullable), primary key, unique
keys, other indexes and foreign keys. Type names differ between the two on purpose (BIGINT ids,
DOUBLE PRECISION times in PostgreSQL), so each is reduced to the kind of value it holds."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SqliteDatabase

__all__ = ["Table", "postgres_schema", "sqlite_schema"]

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
        for key in await db.fetch(f"PRAGMA foreign_key_list({name})"):
            table.foreign_keys.add(((key["from"],), key["table"], (key["to"],)))
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
