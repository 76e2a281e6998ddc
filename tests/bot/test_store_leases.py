"""Leases: work that exactly one of the bot's processes does at a time, on both databases."""

from __future__ import annotations

import asyncio

from bot.store import Store


async def test_a_lease_is_held_until_it_lapses_or_is_released(store: Store) -> None:
    assert await store.take_lease("sender", "a", now=100.0, seconds=10.0)
    assert not await store.take_lease("sender", "b", now=105.0, seconds=10.0)
    assert await store.lease_holder("sender", now=105.0) == "a"
    # Its holder renews it; the other still cannot take it.
    assert await store.take_lease("sender", "a", now=108.0, seconds=10.0)
    assert not await store.take_lease("sender", "b", now=115.0, seconds=10.0)
    # Lapsed: anyone may take it.
    assert await store.take_lease("sender", "b", now=118.0, seconds=10.0)
    assert not await store.take_lease("sender", "a", now=119.0, seconds=10.0)
    await store.release_lease("sender", "a")  # not a's any more: nothing happens
    assert await store.lease_holder("sender", now=119.0) == "b"
    await store.release_lease("sender", "b")
    assert await store.lease_holder("sender", now=119.0) is None
    assert await store.take_lease("sender", "a", now=119.0, seconds=10.0)
    # Leases of other names are apart.
    assert await store.take_lease("identify:0", "b", now=119.0, seconds=5.0)


async def test_only_one_of_many_racing_takers_gets_a_lapsed_lease(store: Store) -> None:
    won = await asyncio.gather(
        *(store.take_lease("sender", f"p{n}", now=50.0, seconds=10.0) for n in range(8))
    )
    assert sum(won) == 1
