"""Databases from before migrations were recorded by name: what their migrations did.

Until then a database kept one number, the last migration applied (SQLite's ``PRAGMA
user_version``, PostgreSQL's ``schema_version`` table), and a release applied every file
numbered above it. That number cannot say everything:

- ``009_expert_level`` was merged after ``010_lurches`` and ``011_members_seen``: a database at
  10 or 11 made before it never ran it, and one made on its branch never ran ``008_retention``;
- a few migrations were changed after some databases had run them, under the same number:
  ``004_messages`` first made no ``token_original`` column and no ``pending_posts`` table
  (commits 8765cc2, 07b8dd7), ``007`` first made only the ``leases`` table, without
  ``game_messages.shown_version`` (5e64fa2, 2fb8738, 396c26c), and for one commit (9275946) was
  the retention migration, whose ``game_archives.game_id`` lacked its NOT NULL: such a
  database then failed on ``008_retention`` at every start.

So such a database is read, once, by what its migrations made (:func:`adopt`): first
:data:`REPAIRS` bring what an earlier version of a migration left to what today's makes (rows
kept), then every migration of that era whose work is there (:data:`DONE`) is recorded as
applied; the others apply as any pending migration does. Every database any earlier release
made ends with the schema a new one has (``tests/bot/store/test_store_legacy.py`` builds them
all). Migrations added since names are recorded never need an entry here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.store.database import Dialect, MigrationTransaction

__all__ = ["DONE", "REPAIRS", "Repair", "adopt"]


@dataclass(frozen=True)
class Repair:
    """A change that brings what an earlier version of a migration made to what today's
    version makes."""

    #: Which releases made the difference.
    why: str
    #: A query whose one value is true when the database needs the repair.
    needed: str
    #: The script that makes it (in the migrations' transaction).
    sql: str


def _sqlite_table(name: str) -> str:
    return f"EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '{name}')"


def _sqlite_column(table: str, column: str) -> str:
    return f"EXISTS (SELECT 1 FROM pragma_table_info('{table}') WHERE name = '{column}')"


def _postgres_table(name: str) -> str:
    return f"to_regclass('{name}') IS NOT NULL"


def _postgres_column(table: str, column: str) -> str:
    return (
        "EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
        f" AND table_name = '{table}' AND column_name = '{column}')"
    )


def _query(*conditions: str) -> str:
    """A query whose one value is true when every condition holds."""
    return "SELECT " + " AND ".join(conditions)


def _since_007(
    table: Callable[[str], str], column: Callable[[str, str], str], expert: str
) -> dict[str, str]:
    """:data:`DONE`'s entries for 007 to 011, which both databases ran and which made the same
    things on each: asked with the database's own ``table`` and ``column`` questions, and
    ``expert`` for 009, whose one change (the seats' CHECK) each keeps its own way."""
    return {
        "007_processes": _query(table("leases")),
        "008_retention": _query(table("game_archives")),
        "009_expert_level": _query(expert),
        "010_lurches": _query(column("results", "scoring")),
        "011_members_seen": _query(table("members_seen")),
    }


def _statement(migration: str, start: str) -> str:
    """The statement of today's SQLite ``migration`` that begins with ``start``, through the
    first ``;`` after it (the statements taken have none inside them). A migration is never
    changed once applied, so this is what today's file makes, read from it, not copied."""
    text = (Dialect.SQLITE.migrations_dir / f"{migration}.sql").read_text(encoding="utf-8")
    begin = text.index(start)
    return text[begin : text.index(";", begin) + 1]


#: For each migration from before names were recorded, a query whose one value is true when
#: what it made is in the database (after :data:`REPAIRS`). Each migration's changes were
#: committed together, so one thing it made stands for all of it, its data changes included.
DONE: dict[Dialect, dict[str, str]] = {
    Dialect.SQLITE: {
        "001_base": _query(_sqlite_table("games")),
        "002_user_settings": _query(_sqlite_table("user_settings")),
        "003_computer_level": _query(_sqlite_column("seats", "computer_level")),
        "004_messages": _query(_sqlite_table("game_messages")),
        "005_table_options": _query(_sqlite_column("games", "scoring")),
        "006_ratings": _query(_sqlite_table("standings")),
        **_since_007(
            _sqlite_table,
            _sqlite_column,
            # Only the table's text holds its CHECK.
            expert="EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seats'"
            " AND sql LIKE '%''expert''%')",
        ),
    },
    Dialect.POSTGRES: {
        "006_base": _query(_postgres_table("games")),
        **_since_007(
            _postgres_table,
            _postgres_column,
            expert="EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass('seats')"
            " AND conname = 'seats_computer_level_check'"
            " AND pg_get_constraintdef(oid) LIKE '%''expert''%')",
        ),
    },
}

#: game_messages as 004 and 007 make it on SQLite, made again for a database whose
#: game_messages has 007's shown_version but not 004's token_original, which goes before it.
_SQLITE_GAME_MESSAGES = """
CREATE TABLE game_messages_new (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key            TEXT    NOT NULL,
    channel_id     INTEGER NOT NULL,
    message_id     INTEGER NOT NULL,
    digest         TEXT    NOT NULL,
    token          TEXT,
    token_at       REAL,
    token_original INTEGER NOT NULL DEFAULT 0,
    shown_version  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, key)
);
INSERT INTO game_messages_new
    (game_id, key, channel_id, message_id, digest, token, token_at, shown_version)
    SELECT game_id, key, channel_id, message_id, digest, token, token_at, shown_version
    FROM game_messages;
DROP TABLE game_messages;
ALTER TABLE game_messages_new RENAME TO game_messages;
"""


_SQLITE_GAME_ARCHIVES = """
CREATE TABLE game_archives_new (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    record  BLOB    NOT NULL
);
INSERT INTO game_archives_new (game_id, record) SELECT game_id, record FROM game_archives;
DROP TABLE game_archives;
ALTER TABLE game_archives_new RENAME TO game_archives;
"""


def _leases_alone(table: Callable[[str], str], column: Callable[[str, str], str]) -> Repair:
    """The repair both databases need where 007 was first written, asked with the database's
    own ``table`` and ``column`` questions."""
    return Repair(
        why="007 as first written (5e64fa2, 2fb8738, 396c26c) made leases alone, without "
        "game_messages.shown_version",
        needed=_query(table("leases"), "NOT " + column("game_messages", "shown_version")),
        sql="ALTER TABLE game_messages ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;",
    )


#: Repairs in the order they run. SQLite makes a table again to change a column or put one
#: in its place, as its documentation says (a new table, the rows copied, the old one dropped
#: and the new one renamed): nothing refers to game_messages or game_archives, and their only
#: indexes are their keys, which the new definitions make again.
REPAIRS: dict[Dialect, tuple[Repair, ...]] = {
    Dialect.SQLITE: (
        _leases_alone(_sqlite_table, _sqlite_column),
        Repair(
            why="004 as first written (8765cc2) made game_messages without token_original",
            needed=_query(
                _sqlite_table("game_messages"),
                "NOT " + _sqlite_column("game_messages", "token_original"),
                "NOT " + _sqlite_column("game_messages", "shown_version"),
            ),
            sql="ALTER TABLE game_messages ADD COLUMN token_original INTEGER NOT NULL DEFAULT 0;",
        ),
        Repair(
            why="the same, with 007's shown_version added since",
            needed=_query(
                _sqlite_column("game_messages", "shown_version"),
                "NOT " + _sqlite_column("game_messages", "token_original"),
            ),
            sql=_SQLITE_GAME_MESSAGES,
        ),
        Repair(
            why="004 as first written (8765cc2, 07b8dd7) made no pending_posts table",
            needed=_query(_sqlite_table("game_messages"), "NOT " + _sqlite_table("pending_posts")),
            sql=_statement("004_messages", "CREATE TABLE pending_posts ("),
        ),
        Repair(
            why="retention as migration 007 (9275946) made game_archives.game_id without NOT NULL",
            needed=_query(
                "EXISTS (SELECT 1 FROM pragma_table_info('game_archives')"
                " WHERE name = 'game_id' AND NOT \"notnull\")"
            ),
            sql=_SQLITE_GAME_ARCHIVES,
        ),
    ),
    Dialect.POSTGRES: (_leases_alone(_postgres_table, _postgres_column),),
}


async def _holds(tx: MigrationTransaction, query: str) -> bool:
    rows = await tx.fetch(query)
    return bool(rows[0][0])


async def adopt(tx: MigrationTransaction, dialect: Dialect, names: Sequence[str]) -> list[str]:
    """Repair what earlier versions of migrations left, then which of ``names`` (this
    release's migrations) the database has applied, by what they made."""
    for repair in REPAIRS[dialect]:
        if await _holds(tx, repair.needed):
            await tx.script(repair.sql)
    done = DONE[dialect]
    return [name for name in names if name in done and await _holds(tx, done[name])]
