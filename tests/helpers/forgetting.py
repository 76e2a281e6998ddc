"""A person's data deleted in the store, and a wait for the statements of two processes to meet
on PostgreSQL's locks: for the tests of what one process writes while another deletes or
rebuilds what it reads."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.core.privacy.players import FORMER_NAME, renamed_archive, renamed_note, renamed_snapshot
from bot.core.privacy.records import FormerPlayer
from bot.store import Store

__all__ = ["forget", "known", "locks_waited_on"]


async def forget(
    store: Store, user_id: int, former_id: int = -(2**52) - 1, fresh: str = "ab" * 32
) -> None:
    """``user_id`` has their data deleted (``former_id`` in their place)."""
    former = FormerPlayer(
        former_id,
        FORMER_NAME,
        renamed_snapshot,
        renamed_archive,
        lambda note, names: renamed_note(note, user_id, names),
    )
    await store.forget_player(user_id, former, fresh_secret=fresh)


async def known(store: Store, *people: int) -> None:
    """``people`` are persons the bot keeps something of (their row, as their first act
    makes it), for a test that writes what it keeps of them directly."""
    for person in people:
        await store.db.execute(
            "INSERT INTO people (id) VALUES (?) ON CONFLICT (id) DO NOTHING", (person,)
        )


async def locks_waited_on(
    store: Store, count: int, *, unless: asyncio.Future[Any] | None = None
) -> None:
    """Until ``count`` statements on the store's (PostgreSQL) database wait on a lock (or
    ``unless`` is done: what might have waited did not)."""
    for _ in range(1000):
        if unless is not None and unless.done():
            return
        rows = await store.db.fetch(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        if int(rows[0][0]) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} statements never waited on a lock")
