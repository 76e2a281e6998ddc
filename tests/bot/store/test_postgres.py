"""The bot's PostgreSQL connections: what goes over the wire for each unit of work."""

from __future__ import annotations

import asyncio

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
