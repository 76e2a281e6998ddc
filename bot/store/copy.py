"""Copy a SQLite database into PostgreSQL, and prove nothing was lost (``python -m bot copy``).

For a bot moving from one process on SQLite to several on PostgreSQL (docs/running.md, "Running at
scale"). Stop the bot first. The SQLite file is brought to the current schema (the bot would do
the same at its next start), the PostgreSQL database must be new or empty, and every row of
every table is copied in one transaction (a copy that fails part-way leaves nothing behind, and
says why in one line: :class:`CopyRefused`).

The tables are copied parents first, in the order PostgreSQL's own foreign keys give (read from
the database, so a table or a reference a migration adds is ordered with no list to keep: see
:func:`copy_order`). References that go round in a circle (a table that refers to itself, or
two that refer to each other) can be satisfied by no order: those constraints are dropped for
the copy and added again, in the same transaction, before it commits; adding one checks every
row copied, so a broken reference still fails the copy and leaves nothing behind.

Then the copy is checked, and the command fails (exit status 1) on any difference:

- every row of every table, read back from both in primary-key order, is equal, value for value;
- every game is replayed from what PostgreSQL now holds: its snapshot is read back into the
  engine, written out again unchanged, and its action log (the ``actions`` rows) is the log the
  game itself carries (a game pruned after the retention period is replayed from its archive
  record instead); a finished game's results agree with the game's final scores;
- every rating, total and head to head is recomputed from the copied results, in the order they
  were recorded, and equals what was copied.

    python -m bot copy ./cribbage.db postgresql://bot@localhost/cribbage
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from typing import Any

import asyncpg

from bot.core.games import archive
from bot.core.games.snapshot import SnapshotError, decode
from bot.store.database import Database, MissingReference, Transaction, UniqueViolation
from bot.store.store import Store

__all__ = ["CopyRefused", "CopyReport", "Reference", "copy_database", "copy_order", "verify_copy"]

#: Rows inserted per statement batch.
BATCH = 1000
#: Tables that are the bot's own bookkeeping, not data (who sends now; which processes ran on
#: the SQLite file, whose heartbeats a process of the PostgreSQL database would be judged by;
#: which migrations each database applied, which it records itself): not copied.
_NOT_COPIED = frozenset({"leases", "bot_processes", "schema_migrations"})
#: Tables the database writes itself, from the rows copied (who is present in each place:
#: migration 041's triggers): not copied, and checked like the rest.
_MADE_BY_THE_DATABASE = frozenset({"presence"})


@dataclass
class CopyReport:
    """What was copied, and every difference found when checking it (none: nothing lost)."""

    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0
    differences: list[str] = field(default_factory=list)


class CopyRefused(ValueError):
    """PostgreSQL refused a row of the copy (a reference to a row that is not there, a value
    its schema does not allow): nothing was copied; ``str()`` says which, in one line."""


@dataclass(frozen=True)
class Reference:
    """A foreign key of the PostgreSQL schema: ``child``'s rows refer to ``parent``'s."""

    name: str
    child: str
    parent: str
    #: Its definition, as ``ALTER TABLE ... ADD CONSTRAINT name`` takes it.
    definition: str


def copy_order(
    tables: Iterable[str], references: Iterable[Reference]
) -> tuple[list[str], list[Reference]]:
    """``tables`` in an order that copies every row after the rows it refers to (by
    ``references``, those between two of ``tables``), and the references no order satisfies:
    each one inside a circle of references (a table that refers to itself, two or more that
    refer round to each other), to be lifted while the rows go in.
    """
    names = sorted(set(tables))
    known = set(names)
    inside = [r for r in references if r.child in known and r.parent in known]
    parents: dict[str, set[str]] = {name: set() for name in names}
    for ref in inside:
        parents[ref.child].add(ref.parent)
    circle = _circles(parents)
    lifted = [r for r in inside if circle[r.child] == circle[r.parent]]
    sorter: TopologicalSorter[str] = TopologicalSorter()
    for name in names:
        sorter.add(name, *sorted(p for p in parents[name] if circle[p] != circle[name]))
    return list(sorter.static_order()), lifted


def _circles(parents: dict[str, set[str]]) -> dict[str, int]:
    """Each table's strongly connected component of ``parents`` (Tarjan's algorithm): tables
    with the same number refer round to each other; a table alone in its own refers to no
    table that refers back to it (except, perhaps, to itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    component: dict[str, int] = {}

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for parent in sorted(parents[name]):
            if parent not in index:
                visit(parent)
                low[name] = min(low[name], low[parent])
            elif parent in on_stack:
                low[name] = min(low[name], index[parent])
        if low[name] == index[name]:
            number = len(set(component.values()))
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component[member] = number
                if member == name:
                    break

    for name in sorted(parents):
        if name not in index:
            visit(name)
    return component


async def _references(tx: Transaction) -> list[Reference]:
    """The PostgreSQL schema's foreign keys, from its catalogue."""
    rows = await tx.fetch(
        "SELECT c.conname, child.relname, parent.relname, pg_get_constraintdef(c.oid)"
        " FROM pg_constraint c"
        " JOIN pg_class child ON child.oid = c.conrelid"
        " JOIN pg_class parent ON parent.oid = c.confrelid"
        " JOIN pg_namespace n ON n.oid = child.relnamespace"
        " WHERE c.contype = 'f' AND n.nspname = current_schema()"
        " ORDER BY child.relname, c.conname"
    )
    return [Reference(str(r[0]), str(r[1]), str(r[2]), str(r[3])) for r in rows]


def _refused(table: str, detail: str) -> CopyRefused:
    """What PostgreSQL said (``detail``) of a row of ``table`` it would not take, as one
    line."""
    return CopyRefused(
        f"Nothing was copied: PostgreSQL refused a row of {table} ({detail.rstrip('.')});"
        " mend or delete that row in the SQLite file, then copy again."
    )


async def _tables(db: Database) -> list[tuple[str, list[str], list[str]]]:
    """The SQLite file's tables to copy (alphabetically): each with its columns and its
    primary key's columns."""
    found = []
    for name in sorted(await db.table_names() - _NOT_COPIED):
        if name.startswith("sqlite_"):
            continue
        info = await db.fetch(f"PRAGMA table_info({name})")
        columns = [row["name"] for row in info]
        key = [row["name"] for row in sorted(info, key=lambda r: r["pk"]) if row["pk"]]
        found.append((name, columns, key or columns))
    return found


def _select(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    return f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(key)}"


async def copy_database(source: Store, target: Store) -> CopyReport:
    """Copy every row of ``source`` (SQLite) into ``target`` (PostgreSQL, empty), in one
    transaction, parents before the rows that refer to them (:func:`copy_order`); the rows
    copied per table. Raises :class:`CopyRefused` (and copies nothing) when PostgreSQL refuses
    a row, and :class:`ValueError` when it is not empty."""
    report = CopyReport()
    if await target.db.fetch("SELECT 1 FROM games LIMIT 1"):
        raise ValueError("The PostgreSQL database already has games: copy into an empty one.")
    tables = {
        table: (columns, key)
        for table, columns, key in await _tables(source.db)
        if table not in _MADE_BY_THE_DATABASE
    }
    table = ""
    try:
        # Patient: it reads SQLite's tables between its inserts, which takes a while.
        async with target.db.transaction(patient=True) as tx:
            # Each row's references checked as it goes in (a person's wait for the end of the
            # transaction otherwise), so that a refusal names the table of the row refused.
            await tx.execute("SET CONSTRAINTS ALL IMMEDIATE")
            order, circles = copy_order(tables, await _references(tx))
            for ref in circles:
                await tx.execute(f"ALTER TABLE {ref.child} DROP CONSTRAINT {ref.name}")
            for table in order:
                columns, key = tables[table]
                rows = [tuple(row) for row in await source.db.fetch(_select(table, columns, key))]
                marks = ", ".join("?" for _ in columns)
                insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
                for start in range(0, len(rows), BATCH):
                    await tx.executemany(insert, rows[start : start + BATCH])
                report.rows[table] = len(rows)
            for ref in circles:
                table = ref.child
                await tx.execute(
                    f"ALTER TABLE {ref.child} ADD CONSTRAINT {ref.name} {ref.definition}"
                )
            # New rows continue the numbering after the copied ones, in every numbered table
            # (games, tournaments, ranked searches and matches...), as PostgreSQL's schema says.
            for numbered, column in await _numbered(tx):
                await tx.fetch(
                    f"SELECT setval(pg_get_serial_sequence('{numbered}', '{column}'),"
                    f" (SELECT COALESCE(MAX({column}), 0) + 1 FROM {numbered}), false)"
                )
    except MissingReference as error:
        raise _refused(table, error.detail) from None
    except asyncpg.IntegrityConstraintViolationError as error:
        detail = getattr(error, "detail", None) or str(error).splitlines()[0]
        raise _refused(table, detail) from None
    except UniqueViolation:
        raise ValueError(
            f"Nothing was copied: the PostgreSQL database already has rows in {table}:"
            " copy into an empty one."
        ) from None
    return report


async def _numbered(tx: Transaction) -> list[tuple[str, str]]:
    """The PostgreSQL schema's numbered columns (identities), each as (table, column)."""
    rows = await tx.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
        " ORDER BY table_name, column_name"
    )
    return [(str(row[0]), str(row[1])) for row in rows]


async def verify_copy(source: Store, target: Store, report: CopyReport | None = None) -> CopyReport:
    """Check ``target`` against ``source`` row by row, replay every game from ``target`` and
    recompute its ratings; every difference goes into the report."""
    report = report or CopyReport()
    for table, columns, key in await _tables(source.db):
        mine = [tuple(row) for row in await source.db.fetch(_select(table, columns, key))]
        theirs = [tuple(row) for row in await target.db.fetch(_select(table, columns, key))]
        if len(mine) != len(theirs):
            report.differences.append(f"{table}: {len(mine)} rows, {len(theirs)} copied")
        for a, b in zip(mine, theirs, strict=False):
            if a != b:
                report.differences.append(f"{table}: {a!r} was copied as {b!r}")
                break
    await _replay_games(target, report)
    if await target.stored_ratings() != await target.replay_ratings():
        report.differences.append("the ratings recomputed from the copied results differ")
    return report


async def _replay_games(target: Store, report: CopyReport) -> None:
    """Every started game read back into the engine from the copy, as the bot would load it."""
    games = await target.db.fetch("SELECT id, status, snapshot FROM games ORDER BY id")
    logs: dict[int, list[Any]] = {}
    for game_id, action in await target.db.fetch(
        "SELECT game_id, action FROM actions ORDER BY game_id, seq"
    ):
        logs.setdefault(game_id, []).append(json.loads(action))
    archives = {
        game_id: bytes(record)
        for game_id, record in await target.db.fetch("SELECT game_id, record FROM game_archives")
    }
    for game_id, status, snapshot in games:
        if snapshot is None and game_id in archives:
            # A pruned game: its archive record replays it (its moves were dropped with it).
            try:
                found = archive.restore(archives[game_id])
            except archive.ArchiveError as error:
                report.differences.append(f"game {game_id}: its archive record fails ({error})")
                continue
        elif snapshot is None:
            continue  # a lobby that never dealt
        else:
            try:
                found = decode(snapshot, random.Random(0))
            except (SnapshotError, ValueError, KeyError) as error:
                report.differences.append(f"game {game_id}: its snapshot does not load ({error})")
                continue
            state = json.loads(snapshot)["game"]
            if found.game.to_dict() != state:
                report.differences.append(
                    f"game {game_id}: the engine does not write it back alike"
                )
            if found.game.actions != logs.get(game_id, []):
                report.differences.append(f"game {game_id}: its action log differs from the game's")
        if status == "finished":
            results = await target.results(game_id)
            game = found.game
            if [r.score for r in results] != [
                game.state.scores[game.side_of(r.seat)] for r in results
            ]:
                report.differences.append(f"game {game_id}: its results differ from its scores")
        report.games_replayed += 1
