"""A process frozen mid-transaction (SIGSTOP, a paused VM, an event loop held up) keeps no rows
locked against the others for longer than a moment: PostgreSQL ends a session whose transaction
waits on its process longer than ``TRANSACTION_IDLE_AT_MOST``, rolling it back. The sender frozen
between the two statements of a write of what it sent (the records, then the posts it made
forgotten) kept the pending post's row locked, and the process taking over, forgetting the same
post once it had looked for it, waited on that row for as long as the sender stayed frozen,
sending nothing (seen in the end-to-end tests of a takeover after a frozen sender). A copy, and
the migrations, wait on the bot between their statements as long as they take."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord
from bot.core.ledger.transport import PendingPost
from bot.store import Store
from bot.store.database import Overtaken
from bot.store.postgres import TRANSACTION_IDLE_AT_MOST

OWNER, KEY = Owner.game(1), MessageKey.table(2)


async def test_a_transaction_its_frozen_process_left_open_frees_its_rows_in_a_moment(
    migrated_postgres_url: str,
) -> None:
    frozen, other = await Store.open(migrated_postgres_url), await Store.open(migrated_postgres_url)
    await frozen.set_pending(OWNER, PendingPost(KEY, 900, 1.0))
    holding, wakes = asyncio.Event(), asyncio.Event()

    async def write_then_freeze() -> None:
        async with frozen.db.transaction() as tx:
            await tx.execute(
                "DELETE FROM pending_posts WHERE owner = ? AND key = ?", (str(OWNER), str(KEY))
            )
            holding.set()
            await wakes.wait()  # (frozen: the transaction waits on its process)
            await tx.execute("SELECT 1")

    writing = asyncio.create_task(write_then_freeze())
    try:
        await holding.wait()
        # The other process writes the same row: it waits until the server ended the frozen
        # one's session, and then goes.
        await asyncio.wait_for(other.clear_pending(OWNER, KEY), timeout=60)
        await other.set_pending(OWNER, PendingPost(KEY, 900, 2.0))
        wakes.set()
        # Woken, the frozen process finds its transaction ended, overtaken: nothing of it was
        # written, and what it was for is decided again from a new read.
        with pytest.raises(Overtaken):
            await writing
        [kept] = await other.pending_posts(OWNER)
        assert kept.since == 2.0  # (its delete rolled back, never over the other's write)
    finally:
        wakes.set()
        await asyncio.gather(writing, return_exceptions=True)
        await frozen.close()
        await other.close()


async def test_the_running_bots_transactions_are_ended_when_they_wait_and_a_copys_are_not(
    migrated_postgres_url: str,
) -> None:
    store = await Store.open(migrated_postgres_url)
    try:
        said = "SELECT setting FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'"
        async with store.db.transaction() as tx:
            [(plain,)] = await tx.fetch(said)
        async with store.db.transaction(patient=True) as tx:
            [(patient,)] = await tx.fetch(said)
        async with store.db.migrating() as migration:
            [(migrating,)] = await migration.fetch(said)
        # (In milliseconds: twice the sender's lease.)
        assert plain == str(TRANSACTION_IDLE_AT_MOST) == "3000"
        assert patient == migrating == "0"
        # Outside any transaction the setting is the running bot's again.
        [(after,)] = await store.db.fetch(said)
        assert after == plain
    finally:
        await store.close()


async def test_what_the_sender_sent_is_kept_and_its_posts_forgotten_in_one_statement(
    migrated_postgres_url: str,
) -> None:
    """What was sent and the posts it made are written in one statement, committed by itself:
    a sender frozen mid-write leaves nothing half done and no rows locked (two statements in a
    transaction, frozen between the messages of the second, held their rows with no timeout:
    the server waits on a statement's next message as long as it takes)."""
    store = await Store.open(migrated_postgres_url)
    try:
        await store.set_pending(OWNER, PendingPost(KEY, 900, 1.0))
        await store.set_pending(OWNER, PendingPost(MessageKey.table(3), 900, 1.0))
        before = store.db.round_trips
        record = MessageRecord(KEY, 900, 5000, "d", version=4)
        await store.set_messages([(OWNER, record)], posted=[(OWNER, KEY)])
        assert store.db.round_trips - before == 1
        kept = await store.messages(OWNER)
        assert kept[KEY].message_id == 5000
        assert [p.key for p in await store.pending_posts(OWNER)] == [MessageKey.table(3)]
    finally:
        await store.close()
