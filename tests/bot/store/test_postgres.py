"""The bot's PostgreSQL connections: what goes over the wire for each unit of work, and what
the store reads of the schema from the system catalogs (as information_schema would say it)."""

from __future__ import annotations

import asyncio
import secrets

from bot.store import Dialect
from bot.store.migrate import _HAS_BESIDE
from bot.store.postgres import POOL_MAX, PostgresDatabase


async def test_a_unit_of_work_sends_only_its_own_statements(migrated_postgres_url: str) -> None:
    """A read, a write and a transaction send what `round_trips` counts and nothing more: a
    connection goes back to the pool without asyncpg's reset query (a round trip more for
    each, for session state the bot never sets), and a transaction left open is still
    rolled back before its connection serves again."""
    database = await PostgresDatabase.open(migrated_postgres_url)
    sent: list[str] = []
    try:
        # Every connection the pool may lend, each logging what it sends.
        lent = [await database.pool.acquire() for _ in range(POOL_MAX)]
        for connection in lent:
            connection.add_query_logger(lambda logged: sent.append(logged.query))
        await asyncio.gather(*(database.pool.release(connection) for connection in lent))
        sent.clear()
        before = database.round_trips
        assert [tuple(row) for row in await database.fetch("SELECT 1")] == [(1,)]
        await database.execute("CREATE TABLE t (n integer PRIMARY KEY)")
        async with database.transaction() as tx:
            await tx.execute("INSERT INTO t VALUES (?)", (1,))
            await tx.fetch("SELECT n FROM t")
        assert len(sent) == database.round_trips - before, sent
        assert not any("RESET" in query or "UNLISTEN" in query for query in sent), sent

        # A transaction left open (no unit of work of the bot's does) is still rolled back
        # before its connection serves again.
        left = await database.pool.acquire()
        await left.execute("BEGIN")
        await left.execute("INSERT INTO t VALUES (2)")
        await database.pool.release(left)
        assert [row[0] for row in await database.fetch("SELECT n FROM t ORDER BY n")] == [1]
    finally:
        await database.close()


#: What information_schema.tables lists of the current schema: what
#: `PostgresDatabase.table_names` read until it read the system catalogs (the views' first read
#: in a connection cost the server some 8 ms of CPU, and a store reads it as it opens).
_VIEW_TABLES = (
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
)
#: What information_schema.columns says of the migrations' `beside_older` column: what
#: migrate's own reading of the system catalogs answered before.
_VIEW_BESIDE = (
    "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema()"
    " AND table_name = 'schema_migrations' AND column_name = 'beside_older'"
)


async def _listed(database: PostgresDatabase) -> tuple[set[str], set[str]]:
    """The tables `table_names` lists and those information_schema lists, on one database."""
    return await database.table_names(), {row[0] for row in await database.fetch(_VIEW_TABLES)}


async def test_the_tables_listed_are_those_information_schema_lists(
    migrated_postgres_url: str,
) -> None:
    """`table_names` reads the system catalogs and lists what information_schema.tables did:
    tables, views, foreign and partitioned tables of the current schema that the role may use;
    not a sequence, an index, nor another schema's table; and, for a role given nothing, none
    of the bot's tables until it is granted one, or one column of one."""
    owner = await PostgresDatabase.open(migrated_postgres_url)
    role = f"reader_{secrets.token_hex(4)}"
    await owner.execute(f"CREATE ROLE {role} LOGIN")
    reader: PostgresDatabase | None = None
    try:
        for sql in (
            "CREATE VIEW open_games AS SELECT id FROM games",
            "CREATE TABLE parted (n integer) PARTITION BY RANGE (n)",
            "CREATE SEQUENCE numbers",
            "CREATE SCHEMA elsewhere",
            "CREATE TABLE elsewhere.apart (n integer)",
        ):
            await owner.execute(sql)
        mine, viewed = await _listed(owner)
        assert mine == viewed, mine ^ viewed
        assert {"games", "seats", "open_games", "parted"} <= mine
        assert not {"numbers", "apart", "games_pkey"} & mine

        reader = await PostgresDatabase.open(migrated_postgres_url.replace("postgres@", f"{role}@"))
        assert await _listed(reader) == (set(), set())
        await owner.execute(f"GRANT SELECT ON games TO {role}")
        await owner.execute(f"GRANT SELECT (seat) ON seats TO {role}")
        assert await _listed(reader) == ({"games", "seats"}, {"games", "seats"})
    finally:
        if reader is not None:
            await reader.close()
        # The role is the cluster's, its grants this database's: both go with the test.
        await owner.execute(f"DROP OWNED BY {role}")
        await owner.execute(f"DROP ROLE {role}")
        await owner.close()


async def test_the_beside_older_column_is_found_as_information_schema_finds_it(
    migrated_postgres_url: str,
) -> None:
    """The migrations' reading of whether their table has its `beside_older` column (from the
    system catalogs) answers as information_schema.columns does: there, gone, and a table of
    that name in another schema only."""
    database = await PostgresDatabase.open(migrated_postgres_url)
    ours = _HAS_BESIDE[Dialect.POSTGRES]

    async def both() -> tuple[int, int]:
        return (await database.fetch(ours))[0][0], (await database.fetch(_VIEW_BESIDE))[0][0]

    try:
        assert await both() == (1, 1)
        await database.execute("CREATE SCHEMA elsewhere")
        await database.execute("CREATE TABLE elsewhere.schema_migrations (beside_older integer)")
        await database.execute("ALTER TABLE schema_migrations DROP COLUMN beside_older")
        assert await both() == (0, 0)
    finally:
        await database.close()
