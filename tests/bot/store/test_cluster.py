"""Which process sends, on PostgreSQL: the sender's lease passes to another process when the
sender stops renewing it (killed, frozen, cut off), and a sender that finds it gone sends
nothing more; changes announced by one process reach the other's feed (a coach setting's
too)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import User
from bot.core.base.timing import LEASE
from bot.core.games.coach_settings import CoachSettings
from bot.core.ledger.transport import PendingPost
from bot.store import Store
from bot.store.cluster import Cluster
from bot.store.postgres import PostgresDatabase
from bot.store.queries import SENDER_LEASE
from bot.store.store import ANNOUNCE_CHANNEL
from tests.helpers.forgetting import forget
from tests.helpers.news import NewsHeard

#: Generous bounds for what must happen "within a lease and a little": the assertions are on
#: what happens, and in what order; these only stop a broken cluster from hanging the test.
WITHIN = 30.0


@dataclass
class Process:
    """One bot process's cluster, and what it was told."""

    store: Store
    feed: ChangeFeed = field(default_factory=ChangeFeed)
    events: list[str] = field(default_factory=list)
    heard: list[Change] = field(default_factory=list)
    news: NewsHeard = field(default_factory=NewsHeard)
    cluster: Cluster | None = None

    async def start(self, *, holds_back: bool = False) -> Cluster:
        """A cluster for this process, started (``holds_back``: as a process that waits for
        another to take the lease first)."""

        async def became() -> None:
            self.events.append("became")

        async def resumed() -> None:
            self.events.append("resumed")

        self.feed.subscribe(self.heard.append)
        self.cluster = Cluster(
            self.store,
            self.feed,
            self.news,
            became_sender=became,
            stopped_sending=lambda: self.events.append("stopped"),
            resumed=resumed,
        )
        await self.cluster.start(holds_back=holds_back)
        return self.cluster


async def _until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(WITHIN):
        while not condition():
            await asyncio.sleep(0.05)


@pytest.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[Process, Process]]:
    first = Process(await Store.open(postgres_url))
    second = Process(await Store.open(postgres_url))
    try:
        yield first, second
    finally:
        for process in (first, second):
            if process.cluster is not None:
                await process.cluster.stop()
            await process.store.close()


def _now() -> datetime:
    return datetime(2026, 11, 28, tzinfo=UTC)


def _freeze(cluster: Cluster) -> None:
    """Stop the cluster's renewals as a frozen process would (its connection stays open)."""
    task = cluster._task
    assert task is not None
    task.cancel()


async def test_a_sender_that_stops_renewing_is_replaced_and_stops_sending(
    two: tuple[Process, Process],
) -> None:
    first, second = two
    a, b = await first.start(), await second.start()
    assert a.sender and a.may_send() and not b.sender and not b.may_send()
    _freeze(a)
    # The frozen sender's own clock says its lease is over before the database lets another
    # process take it: there is no moment when both may send.
    both: list[bool] = []

    def taken() -> bool:
        both.append(a.may_send() and b.may_send())
        return b.sender

    await _until(taken)
    assert not any(both), "both processes could send at once"
    assert not a.may_send() and b.may_send() and second.events == ["became"]
    # Woken, the old sender tries to renew, finds the lease taken, and stops sending.
    a._task = asyncio.create_task(a._watch())
    await _until(lambda: not a.sender)
    assert first.events == ["stopped"] and not a.may_send() and b.may_send()


async def test_a_sender_that_stops_hands_over_at_once(two: tuple[Process, Process]) -> None:
    first, second = two
    a, b = await first.start(), await second.start(holds_back=True)
    loop = asyncio.get_running_loop()
    await a.stop()
    stopped = loop.time()
    await _until(lambda: b.sender)
    # Said on the stepped-down channel: taken well before the lease could have lapsed.
    assert loop.time() - stopped < LEASE
    assert not a.may_send() and b.may_send()


async def test_a_sender_renewing_late_sends_again_what_it_held_back(
    two: tuple[Process, Process],
) -> None:
    first, _ = two
    a = await first.start()
    _freeze(a)
    await _until(lambda: not a.may_send())
    # Nobody took the lease meanwhile: renewed late, it is the sender still, and brings every
    # game up to date (what the courier refused to send while the lease was not valid).
    a._task = asyncio.create_task(a._watch())
    await _until(lambda: a.may_send())
    await _until(lambda: first.events == ["resumed"])
    assert a.sender


@pytest.mark.parametrize("channel_id", [99, -99], ids=["a channel", "a game played apart"])
async def test_changes_made_by_one_process_reach_the_others_feed(
    two: tuple[Process, Process], channel_id: int
) -> None:
    # (A game played apart has a channel below zero: its announcements were dropped, and the
    # sender heard of a ranked game's moves made in another process only from its sweep,
    # up to 15 seconds later.)
    first, second = two
    await first.start()
    await second.start()
    game = Owner.game(7)
    db = first.store.db
    assert isinstance(db, PostgresDatabase)
    await db.notify(ANNOUNCE_CHANNEL, f"game:7:3:{channel_id}")
    await _until(lambda: any(c.owner == game for c in second.heard))
    [change] = [c for c in second.heard if c.owner == game]
    assert (change.version, change.channel_id) == (3, channel_id)
    assert not any(c.owner == game for c in first.heard), "a process hears its own as it saves"


async def test_a_coach_setting_changed_in_one_process_is_the_others_at_once(
    two: tuple[Process, Process],
) -> None:
    """Al turns the coach off through one process while the other (the one that draws his
    hands) keeps his setting in memory: the change, announced as his, moves the other's on at
    once (it kept the setting from before for a minute)."""
    first, second = two
    await first.start()
    await second.start()
    drawing = CoachSettings(second.store, _now, second.feed)
    assert await drawing.off([41]) == frozenset(), "on, by default (and kept so)"
    answered = await CoachSettings(first.store, _now, first.feed).coach(User(41, "Al"), False)
    assert "Coach off" in answered.reply.text
    await _until(lambda: any(c.owner == Owner.person(41) for c in second.heard))
    assert await drawing.off([41]) == {41}


async def _off_becomes(drawing: CoachSettings, expected: frozenset[int]) -> None:
    async with asyncio.timeout(WITHIN):
        while await drawing.off([41]) != expected:
            await asyncio.sleep(0.05)


async def test_a_deleted_persons_setting_is_let_go_everywhere_and_a_later_one_holds(
    two: tuple[Process, Process],
) -> None:
    """Al turns the coach off (then on and off again) through one process while the other
    keeps his setting; then he has his data deleted: the setting goes with it, and the other
    process lets go of what it kept at once (the default is his again, where it kept "off"
    for good). A setting he makes afterwards starts a new row, and still reaches the other
    process, past the versions it saw before (a version is at least its change's time)."""
    first, second = two
    await first.start()
    await second.start()
    times = iter(datetime(2026, 11, 28, 20, 0, s, tzinfo=UTC) for s in range(60))
    drawing = CoachSettings(second.store, _now, second.feed)
    setting = CoachSettings(first.store, lambda: next(times), first.feed)
    for on in (False, True, False):
        await setting.coach(User(41, "Al"), on)
    await _off_becomes(drawing, frozenset({41}))
    await forget(first.store, 41)
    await _off_becomes(drawing, frozenset())
    await setting.coach(User(41, "Al"), False)
    await _off_becomes(drawing, frozenset({41}))


async def test_only_the_process_that_holds_the_lease_notes_a_post_it_is_about_to_make(
    migrated_postgres_url: str,
) -> None:
    """A follow-up about to be posted is noted (so that a process taking over looks for it)
    only by the process that holds the sender's lease, checked in the noting statement itself:
    a sender deposed while its write was held up noted a post it would never make, after the
    one taking over had looked for the lost ones, and that note stayed."""
    store = await Store.open(migrated_postgres_url)
    try:
        owner, key = Owner.game(1), MessageKey.table(2)
        assert await store.hold_lease(SENDER_LEASE, "one", 60.0)
        assert await store.set_pending(owner, PendingPost(key, 900, 1.0), held_as="one")
        # Another holds it: nothing is noted, and the note kept is not overwritten.
        assert not await store.set_pending(owner, PendingPost(key, 901, 2.0), held_as="two")
        [kept] = await store.pending_posts(owner)
        assert (kept.channel_id, kept.since) == (900, 1.0)
        # A lease lapsed is held by nobody, whoever held it last.
        assert await store.hold_lease(SENDER_LEASE, "one", -1.0)
        assert not await store.set_pending(owner, PendingPost(key, 902, 3.0), held_as="one")
        # A lone process (SQLite, or a caller that holds no lease) notes it as before.
        assert await store.set_pending(owner, PendingPost(key, 903, 4.0))
        [kept] = await store.pending_posts(owner)
        assert kept.channel_id == 903
    finally:
        await store.close()
