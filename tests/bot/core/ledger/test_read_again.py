"""What is kept of an owner's messages read again from the store (``OwnerLives.again``): after a
change heard late, plainly; after a takeover, every look read taken as unknown (each message is
edited again), a doubt that a plain read asked for later never lessens, and a read that fails
leaves what was asked for to the next."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord
from bot.core.ledger import MessageLedger
from bot.core.ledger.life import Again, OwnerLives

OWNER = Owner.game(3)
TABLE = MessageRecord(MessageKey.parse("table:1"), 900, 5001, "digest-of-the-table", version=4)


class Store:
    """Holds the table as sent; counts the reads, and holds one back or fails it when told."""

    def __init__(self) -> None:
        self.reads = 0
        self.hold: asyncio.Event | None = None
        self.fail = False

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]:
        self.reads += 1
        if self.hold is not None:
            await self.hold.wait()
        if self.fail:
            raise OSError("the store is out of reach")
        return {TABLE.key: TABLE}

    async def set_messages(
        self, records: Sequence[tuple[Owner, MessageRecord]], *, posted: Sequence[Any] = ()
    ) -> None:
        pass


NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _ledger(feed: ChangeFeed | None = None) -> tuple[Store, MessageLedger]:
    store = Store()
    return store, MessageLedger(store, feed or ChangeFeed(), lambda: NOW, faults=Faults())  # type: ignore[arg-type]


def test_a_doubt_is_never_lessened_to_a_plain_read() -> None:
    entry = OwnerLives()
    entry.read_again(Again.DOUBT)
    entry.read_again()
    assert entry.again is Again.DOUBT
    entry.again = None
    entry.read_again()
    assert entry.again is Again.READ


async def test_after_a_takeover_what_is_read_is_taken_as_unknown_once() -> None:
    store, ledger = _ledger()
    assert (await ledger.shown.kept(OWNER))[TABLE.key] == TABLE
    ledger.touches.reassert([OWNER])
    assert (await ledger.shown.kept(OWNER))[TABLE.key].digest == ""  # edited again
    assert store.reads == 2
    await ledger.shown.kept(OWNER)
    assert store.reads == 2, "read once, then kept"


async def test_a_doubt_asked_while_a_read_is_on_its_way_is_that_reads() -> None:
    store, ledger = _ledger()
    await ledger.shown.kept(OWNER)
    ledger.sending_again()
    store.hold = asyncio.Event()
    reading = asyncio.ensure_future(ledger.shown.kept(OWNER))
    while store.reads < 2:
        await asyncio.sleep(0)
    ledger.touches.reassert([OWNER])
    store.hold.set()
    assert (await reading)[TABLE.key].digest == ""
    store.hold = None
    assert (await ledger.shown.kept(OWNER))[TABLE.key] == TABLE  # read again, plainly
    assert store.reads == 3


async def test_a_read_that_fails_leaves_its_doubt_to_the_next() -> None:
    feed = ChangeFeed()
    store, ledger = _ledger(feed)
    await ledger.shown.kept(OWNER)
    ledger.touches.reassert([OWNER])
    store.fail = True
    with pytest.raises(OSError):
        await ledger.shown.kept(OWNER)
    store.fail = False
    assert (await ledger.shown.kept(OWNER))[TABLE.key].digest == ""
    ledger.answers.heard_late(OWNER)
    feed.publish(Change(OWNER, 5, 900))  # (heard late)
    assert (await ledger.shown.kept(OWNER))[TABLE.key] == TABLE
