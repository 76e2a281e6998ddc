"""The DM link (a player's DM channel and latest interaction there) as the process that sends
reads it when other processes answer the DMs' clicks: from the store only when its copy may be
older than the store's (every hand DM used to read it)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest

from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.ledger import MessageLedger
from bot.core.ledger.records import DmLink
from bot.core.ledger.tokens import DM_LINK_REFRESH_SECONDS, DmLinks
from bot.store import Store
from tests.helpers.forgetting import known
from tests.helpers.held import held

USER = 41


@pytest.fixture(autouse=True)
async def _a_player(store: Store) -> None:
    """The player is someone the bot keeps (their first act made their row): a DM link is
    kept of nobody else."""
    await known(store, USER)


def _shared_ledger(store: Store) -> MessageLedger:
    return MessageLedger(
        store, ChangeFeed(), lambda: datetime.now(UTC), shared=True, faults=Faults()
    )


async def test_a_recent_link_is_read_from_the_store_once(store: Store) -> None:
    await store.set_dm_link(DmLink(USER, 900, "token-a", time.time()))
    ledger = _shared_ledger(store)
    first = store.db.round_trips
    link = await ledger.dm_links.link(USER)
    assert link is not None and link.token == "token-a"
    read = store.db.round_trips
    assert read > first
    for _ in range(3):
        assert await ledger.dm_links.link(USER) == link
    assert store.db.round_trips == read


async def test_an_older_link_is_read_again_for_a_newer_one(store: Store) -> None:
    old = time.time() - DM_LINK_REFRESH_SECONDS - 1
    await store.set_dm_link(DmLink(USER, 900, "token-a", old))
    ledger = _shared_ledger(store)
    assert (await ledger.dm_links.link(USER)) == DmLink(USER, 900, "token-a", old)
    # Another process answered a newer click in the DM and wrote its token down.
    await store.set_dm_link(DmLink(USER, 900, "token-b", time.time()))
    newer = await ledger.dm_links.link(USER)
    assert newer is not None and newer.token == "token-b"


async def test_a_link_without_a_newer_interaction_keeps_the_one_written_down(store: Store) -> None:
    # The process that sends learns a player's DM channel by posting their first hand there,
    # and writes it down with no interaction; the other process may have written down the
    # click the player made on that very post first. Erased, the sender posted every hand
    # with its own token, spending the DM's allowance, for the next five minutes.
    now = time.time()
    await store.set_dm_link(DmLink(USER, 900, "token-a", now))
    await store.set_dm_link(DmLink(USER, 901, None, None))
    assert await store.dm_link(USER) == DmLink(USER, 901, "token-a", now)
    await store.set_dm_link(DmLink(USER, 901, "token-older", now - 60))
    assert await store.dm_link(USER) == DmLink(USER, 901, "token-a", now)
    await store.set_dm_link(DmLink(USER, 901, "token-b", now + 1))
    assert await store.dm_link(USER) == DmLink(USER, 901, "token-b", now + 1)


async def test_a_click_heard_while_the_link_is_read_is_not_undone_by_the_read(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player clicks in the DM while their link is read from the store (the process
    knew none yet): the read, older than the click, is not kept over it (it was, and the
    player's hands went through the older token, until their next click there)."""
    old = time.time() - DM_LINK_REFRESH_SECONDS - 1
    await store.set_dm_link(DmLink(USER, 900, "token-a", old))
    links = DmLinks(store)
    reached, go_on = held(monkeypatch, store, "dm_link", answered=True)
    reading = asyncio.create_task(links.link(USER))
    await reached.wait()
    clicked = DmLink(USER, 900, "token-b", time.time())
    await links.linked(clicked)
    go_on.set()
    assert await reading == clicked
    assert await links.link(USER) == clicked
