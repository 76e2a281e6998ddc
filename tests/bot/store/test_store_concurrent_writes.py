"""Two processes on one PostgreSQL database write what they sent of the same messages at the
same moment (the sender its edits, another process the clicks' answers it confirms): each write
is one statement over many rows, and rows taken in different orders by two of them could each
hold a row the other waits for (deadlock detected: one write refused, and its traceback
logged). Written in one order, they never do."""

from __future__ import annotations

import asyncio

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord
from bot.store import Store

OWNERS = [Owner.game(n) for n in range(1, 41)]
KEYS = [MessageKey.hand(d, seat) for d in range(1, 4) for seat in range(4)] + [MessageKey.table(1)]


def _rows(version: int) -> list[tuple[Owner, MessageRecord]]:
    return [
        (owner, MessageRecord(key, 900, 1000 + 100 * owner.id + i, f"v{version}", version=version))
        for owner in OWNERS
        for i, key in enumerate(KEYS)
    ]


async def test_two_processes_writing_the_same_rows_at_once_never_deadlock(
    migrated_postgres_url: str,
) -> None:
    first, second = await Store.open(migrated_postgres_url), await Store.open(migrated_postgres_url)
    try:
        for version in range(1, 41):
            rows = _rows(version)
            await asyncio.gather(
                first.set_messages(rows), second.set_messages(list(reversed(rows)))
            )
        kept = await first.messages(OWNERS[0])
        assert {r.digest for r in kept.values()} == {"v40"}
    finally:
        await first.close()
        await second.close()
