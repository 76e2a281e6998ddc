"""Leases: work that one of the bot's processes may start once in a while (an IDENTIFY per
rate-limit key every 5 seconds), on both databases; and PostgreSQL's session locks (the
sender's)."""

from __future__ import annotations

import asyncio

from bot.store import Store
from bot.store.cluster import SENDER_LOCK
from bot.store.postgres import PostgresDatabase
from tests.helpers.postgres import PostgresServer


async def test_a_lease_is_held_until_it_lapses(store: Store) -> None:
    assert await store.take_lease("identify:0", "a", now=100.0, seconds=10.0)
    assert not await store.take_lease("identify:0", "b", now=105.0, seconds=10.0)
    # Its holder renews it; the other still cannot take it.
    assert await store.take_lease("identify:0", "a", now=108.0, seconds=10.0)
    assert not await store.take_lease("identify:0", "b", now=117.9, seconds=10.0)
    # Lapsed: anyone may take it, and then it is theirs.
    assert await store.take_lease("identify:0", "b", now=118.0, seconds=10.0)
    assert not await store.take_lease("identify:0", "a", now=119.0, seconds=10.0)
    # Leases of other names are apart.
    assert await store.take_lease("identify:1", "a", now=119.0, seconds=5.0)


async def test_only_one_of_many_racing_takers_gets_a_lapsed_lease(store: Store) -> None:
    won = await asyncio.gather(
        *(store.take_lease("identify:0", f"p{n}", now=50.0, seconds=10.0) for n in range(8))
    )
    assert sum(won) == 1


async def test_a_session_lock_is_apart_per_database(postgres_server: PostgresServer) -> None:
    """Two bots whose databases share a PostgreSQL server (or two tests at once) have a sender
    each: one's lock is not the other's, so neither holds back for the other's sender."""
    ours = await PostgresDatabase.open(postgres_server.create_database("locks_ours"))
    theirs = await PostgresDatabase.open(postgres_server.create_database("locks_theirs"))
    try:
        assert await theirs.try_lock(SENDER_LOCK)
        assert await theirs.lock_taken(SENDER_LOCK)
        assert not await ours.lock_taken(SENDER_LOCK), "another database's lock"
        assert await ours.try_lock(SENDER_LOCK)
        assert await ours.lock_taken(SENDER_LOCK)
    finally:
        await ours.close()
        await theirs.close()
