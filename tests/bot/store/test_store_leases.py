"""Leases: work that one of the bot's processes may start once in a while (an IDENTIFY per
rate-limit key every 5 seconds) and the sender's, on both databases."""

from __future__ import annotations

import asyncio

from bot.store import Store


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


async def test_the_senders_lease_is_timed_by_the_databases_clock(store: Store) -> None:
    """The sender's lease: held for its seconds by the database's clock whatever the
    processes' clocks say, renewed by its holder alone, taken by another once it lapsed, and
    given up at once by its holder only."""
    assert await store.lease_left("sender") == 0.0
    assert await store.hold_lease("sender", "a", 30.0)
    assert 29.0 < await store.lease_left("sender") <= 30.0
    assert not await store.hold_lease("sender", "b", 30.0)
    assert await store.hold_lease("sender", "a", 30.0), "its holder renews it"
    await store.give_up_lease("sender", "b")  # not b's to give up
    assert not await store.hold_lease("sender", "b", 30.0)
    await store.give_up_lease("sender", "a")
    assert await store.lease_left("sender") == 0.0
    assert await store.hold_lease("sender", "b", 0.2)
    assert not await store.hold_lease("sender", "a", 30.0)
    while await store.lease_left("sender") > 0.0:  # until it lapses by the database's clock
        await asyncio.sleep(0.02)
    # Lapsed: anyone may take it.
    assert await store.hold_lease("sender", "a", 30.0)
    assert not await store.hold_lease("sender", "b", 30.0)


async def test_only_one_of_many_racing_takers_gets_the_senders_lease(store: Store) -> None:
    won = await asyncio.gather(*(store.hold_lease("sender", f"p{n}", 5.0) for n in range(8)))
    assert sum(won) == 1


async def test_on_postgresql_the_senders_lease_is_one_statement_committed_by_itself(
    migrated_postgres_url: str,
) -> None:
    """Issue 32: a renewal in a transaction of its own (BEGIN, the statement, COMMIT) left the
    lease's row locked by a holder frozen before its COMMIT; the process taking over waited on
    that lock for the whole freeze, then got a lease whose time had run out while it waited,
    and the woken holder took it back: for a moment each said it was the sender. One statement
    committed by itself holds the row only while the server runs it."""
    store = await Store.open(migrated_postgres_url)
    try:
        before = store.db.round_trips
        assert await store.hold_lease("sender", "a", 30.0)
        assert not await store.hold_lease("sender", "b", 30.0)
        assert store.db.round_trips - before == 2, "one round trip each, no BEGIN or COMMIT"
    finally:
        await store.close()
