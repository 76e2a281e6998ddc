"""What the ledger writes behind stays what it knows while the write is on its way: reading the
owner's messages from the store meanwhile (a change heard late, another process's answer)
must not forget a message just sent, or the keeper posts it again or edits it back to an
older look."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest

from bot.core.base.delivery import Drawing, Owed, Projector
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord, MessageView
from bot.core.ledger import MessageLedger
from bot.core.ledger.transport import NotSender

OWNER = Owner.game(7)
HAND = MessageRecord(MessageKey.parse("hand:1:0"), 900, 5001, "digest-of-the-hand", version=3)
T = TypeVar("T")


class SlowStore:
    """Holds no messages until a write of them has finished, and lets a test hold a write."""

    def __init__(self) -> None:
        self.rows: dict[MessageKey, MessageRecord] = {}
        self.writing = asyncio.Event()
        self.release = asyncio.Event()

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]:
        return dict(self.rows)

    async def set_messages(
        self, records: Sequence[tuple[Owner, MessageRecord]], *, posted: Sequence[Any] = ()
    ) -> None:
        self.writing.set()
        await self.release.wait()
        self.rows.update({record.key: record for _, record in records})


async def _started(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """``work`` in a task of its own, once it has gone as far as it goes without waiting on
    anything: to its end, or to the first thing it waits for (whatever it does before then
    is done, so a test can tell which it waits for)."""
    began = asyncio.Event()

    async def run() -> T:
        began.set()  # (this task goes on until it waits; the test wakes after that)
        return await work

    task = asyncio.create_task(run())
    await began.wait()
    return task


async def _writing_the_hand() -> tuple[SlowStore, ChangeFeed, MessageLedger]:
    """A ledger (of a process among several) whose write of the hand just sent is held."""
    store = SlowStore()
    feed = ChangeFeed()
    ledger = MessageLedger(
        store,  # type: ignore[arg-type]
        feed,
        lambda: datetime.now(UTC),
        shared=True,
        faults=Faults(),
    )
    await ledger.shown.sent(OWNER, [HAND])
    await asyncio.wait_for(store.writing.wait(), timeout=5)
    return store, feed, ledger


async def test_a_read_while_a_write_is_on_its_way_keeps_what_it_writes() -> None:
    store, feed, ledger = await _writing_the_hand()
    # A change heard late: what is kept of the owner's messages is read again, mid-write.
    ledger.answers.heard_late(OWNER)
    feed.publish(Change(OWNER, 4, 900))
    assert (await ledger.shown.kept(OWNER)).get(HAND.key) == HAND
    store.release.set()
    assert await ledger.writes.flush()
    ledger.answers.heard_late(OWNER)
    feed.publish(Change(OWNER, 4, 900))
    assert (await ledger.shown.kept(OWNER)).get(HAND.key) == HAND


async def test_a_flush_returns_once_the_write_on_its_way_has_ended() -> None:
    """A stopping sender flushes, then gives up its lease, and the process taking over reads
    the store at once (a clean hand-over waits nothing). A flush that returned while the
    write-behind's write was still on its way (nothing left unwritten, so nothing to do) let
    the next sender read the store without the hand just posted: it posted the hand again,
    and the first copy kept its live controls (seen in tests/e2e/test_two_processes.py's
    rolling restart)."""
    store, _, ledger = await _writing_the_hand()

    async def flush() -> dict[MessageKey, MessageRecord]:
        assert await ledger.writes.flush()
        return dict(store.rows)  # (what the store holds the moment the flush returns)

    flushing = await _started(flush())
    store.release.set()  # the write-behind's write ends
    written = await asyncio.wait_for(flushing, timeout=5)
    assert written.get(HAND.key) == HAND, "flushed while the hand's record was being written"


async def test_a_newer_look_in_the_store_is_not_replaced_by_an_older_one_being_written() -> None:
    store, feed, ledger = await _writing_the_hand()
    # Another process answered a click on the same message meanwhile, at a later version.
    answered = MessageRecord(HAND.key, 900, 5001, "digest-of-the-answer", "tok", 1.0, True, 5)
    store.rows[HAND.key] = answered
    ledger.answers.heard_late(OWNER)
    feed.publish(Change(OWNER, 5, 900))
    assert (await ledger.shown.kept(OWNER)).get(HAND.key) == answered
    store.release.set()
    await ledger.writes.flush()


async def test_a_message_s_id_once_learned_is_kept_over_its_answer_s_token_alone() -> None:
    """An edit through an answer's token that did not know the message's id (0: the answer to
    /cribbage new) comes after the answer landed and its id was learned: the id stays."""
    store = SlowStore()
    store.release.set()
    ledger = MessageLedger(store, ChangeFeed(), lambda: datetime.now(UTC), faults=Faults())  # type: ignore[arg-type]
    answer = MessageRecord(MessageKey.parse("lobby"), 900, 0, "the lobby", "tok", 1.0, True, 1)
    await ledger.shown.kept(OWNER)  # drawn once: kept in memory from then on
    await ledger.shown.sent(OWNER, [dataclasses.replace(answer, message_id=5002)])
    await ledger.shown.sent(OWNER, [dataclasses.replace(answer, digest="dealt", version=2)])
    kept = (await ledger.shown.kept(OWNER))[MessageKey.parse("lobby")]
    assert (kept.message_id, kept.digest) == (5002, "dealt")


class OneTable(Projector):
    """An owner whose one channel message, its table, should show ``digest``."""

    def __init__(self, digest: str) -> None:
        self.view = MessageView(digest)

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        return Drawing(900, 3, (Owed(MessageKey.parse("table:1"), self.view),))

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        return []


async def test_a_table_is_settled_only_once_what_it_shows_is_written() -> None:
    """Issue 32, item 4: the tournament director archives a finished match's thread once its
    table is settled. Were that said from memory alone, a stop before the write-behind would
    leave a restart that knows nothing of the last edit: it sends it again into the archived
    thread (and unarchives it to do so). Settled means written."""
    store = SlowStore()
    projector = OneTable("the end")
    ledger = MessageLedger(store, ChangeFeed(), lambda: datetime.now(UTC), faults=Faults())  # type: ignore[arg-type]
    ledger.add(OWNER.kind, projector)
    sent = MessageRecord(MessageKey.parse("table:1"), 900, 5001, projector.view.digest(), version=3)
    await ledger.shown.sent(OWNER, [sent])

    async def settle() -> dict[MessageKey, MessageRecord]:
        assert await ledger.settled(OWNER)
        return dict(store.rows)  # (what the store holds the moment it is said settled)

    settling = await _started(settle())
    store.release.set()  # the write of what it shows ends
    written = await asyncio.wait_for(settling, timeout=5)
    assert written.get(MessageKey.table(1)) == sent, "settled while what it shows was being written"


async def test_a_table_whose_write_fails_is_not_settled() -> None:
    class Refusing(SlowStore):
        async def set_messages(
            self, records: Sequence[tuple[Owner, MessageRecord]], *, posted: Sequence[Any] = ()
        ) -> None:
            raise ConnectionError("the database went away")

    store = Refusing()
    projector = OneTable("the end")
    ledger = MessageLedger(store, ChangeFeed(), lambda: datetime.now(UTC), faults=Faults())  # type: ignore[arg-type]
    ledger.add(OWNER.kind, projector)
    await ledger.shown.sent(
        OWNER, [MessageRecord(MessageKey.parse("table:1"), 900, 5001, projector.view.digest())]
    )
    assert not await ledger.settled(OWNER)


class HeldReads:
    """A store whose reads of an owner's messages a test holds, and whose rows it sets."""

    def __init__(self) -> None:
        self.rows: dict[MessageKey, MessageRecord] = {}
        self.reading = asyncio.Event()
        self.release = asyncio.Event()
        self.release.set()

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]:
        self.reading.set()
        await self.release.wait()
        return dict(self.rows)

    async def set_messages(
        self, records: Sequence[tuple[Owner, MessageRecord]], *, posted: Sequence[Any] = ()
    ) -> None:
        self.rows.update({record.key: record for _, record in records})


async def test_who_draws_an_owner_while_it_is_read_again_waits_for_that_read() -> None:
    """After a takeover every owner is read again, and the keeper's lanes draw it at once,
    together. The first to draw started the read; the others drew from what was kept before
    it, without the hand the last sender had posted, and posted it again (seen in
    tests/e2e/test_two_processes.py's rolling restart: a hand posted twice, the first left
    with live controls)."""
    store = HeldReads()
    now = lambda: datetime.now(UTC)  # noqa: E731
    ledger = MessageLedger(store, ChangeFeed(), now, shared=True, faults=Faults())  # type: ignore[arg-type]
    assert await ledger.shown.kept(OWNER) == {}  # (kept in memory from here on)
    # The sender before posted the hand and wrote it down; this process takes over.
    store.rows[HAND.key] = HAND
    ledger.sending_again()
    store.release.clear()
    store.reading.clear()
    first = asyncio.ensure_future(ledger.shown.kept(OWNER))
    await asyncio.wait_for(store.reading.wait(), timeout=5)
    second = await _started(ledger.shown.kept(OWNER))  # drawn while the read is on its way
    store.release.set()  # the read ends
    assert (await asyncio.wait_for(first, timeout=5)).get(HAND.key) == HAND
    drawn = await asyncio.wait_for(second, timeout=5)
    assert drawn.get(HAND.key) == HAND, "drawn from memory while the owner was read again"


class PostingStore(SlowStore):
    """Keeps the pending posts, and which were cleared with each write."""

    def __init__(self) -> None:
        super().__init__()
        self.release.set()
        self.pending: set[tuple[Owner, MessageKey]] = set()
        self.cleared: list[set[tuple[Owner, MessageKey]]] = []

    #: The process that holds the sender's lease, as the store knows it.
    sender = "this process"

    async def set_pending(self, owner: Owner, post: Any, *, held_as: str | None = None) -> bool:
        if held_as is not None and held_as != self.sender:
            return False
        self.pending.add((owner, post.key))
        return True

    async def set_messages(
        self, records: Sequence[tuple[Owner, MessageRecord]], *, posted: Sequence[Any] = ()
    ) -> None:
        await super().set_messages(records, posted=posted)
        self.cleared.append(set(posted))
        self.pending -= set(posted)


async def test_the_pending_posts_of_several_follow_ups_are_cleared_in_one_write() -> None:
    # Each player's hand of a new deal posted as a follow-up of their latest click: the
    # write that keeps their ids clears their pending posts (keys being values, whose order
    # is nobody's business: sorting them to write failed the write).
    store = PostingStore()
    ledger = MessageLedger(store, ChangeFeed(), lambda: datetime.now(UTC), faults=Faults())  # type: ignore[arg-type]
    hands = [dataclasses.replace(HAND, key=MessageKey.hand(1, seat)) for seat in (0, 1)]
    for hand in hands:
        await ledger.writes.posting(OWNER, hand.key, 900)
    await ledger.shown.sent(OWNER, hands)
    assert await ledger.writes.flush()
    assert store.cleared == [{(OWNER, hand.key) for hand in hands}] and not store.pending


async def test_a_post_is_not_noted_nor_made_by_a_process_that_no_longer_holds_the_lease() -> None:
    # The store checks the lease in the statement that notes the post: a sender deposed while
    # its write was held up is told so, and sends nothing (NotSender: held back for whoever
    # sends next), where it noted a post it never made after the next sender had looked.
    store = PostingStore()
    ledger = MessageLedger(store, ChangeFeed(), lambda: datetime.now(UTC), faults=Faults())  # type: ignore[arg-type]
    await ledger.writes.posting(OWNER, HAND.key, 900, held_as="this process")
    store.sender = "the process that took over"
    other = MessageKey.hand(1, 1)
    with pytest.raises(NotSender):
        await ledger.writes.posting(OWNER, other, 900, held_as="this process")
    assert store.pending == {(OWNER, HAND.key)}
