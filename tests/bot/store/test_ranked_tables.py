"""The store's ranked play (both databases): one live entry a player, paired once, a game counted
once, a match decided and rated once; and on PostgreSQL two stores (as two processes are)
pairing two hundred players at once, each paired at most once, nobody in two matches; and a
block that outlives the blocked player's deletion, by their keyed id, across a restart."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.core.base.owners import Owner
from bot.core.base.places import PlaceKind
from bot.core.base.views import MessageRecord
from bot.core.games.records import NewGame, Options, SeatRecord
from bot.core.ledger.transport import PendingPost
from bot.core.privacy.keyed import keyed_id
from bot.core.privacy.players import (
    FORMER_NAME,
)
from bot.core.ranked.cards import CARD
from bot.core.ranked.records import AlreadyRanked, EntryRecord, EntryStatus, Search
from bot.store import Store
from bot.store.queries import SENDER_LEASE
from tests.helpers.forgetting import forget, known, locks_waited_on


async def _queue(
    store: Store, user_id: int, mu: float = 25.0, now: float = 0.0, *, paired: bool = False
) -> EntryRecord:
    """``user_id`` joins the queue (``paired``: and is paired at once with anyone waiting,
    as the core does); their entry as it ends."""
    entry, _, changed = await store.queue_entry(
        Search(user_id, f"P{user_id}", None, None, 1000 + user_id, PlaceKind.PRIVATE, mu, None),
        now=now,
        pick=(lambda me, found, blocks: [f for f in found if f.user_id != me.user_id])
        if paired
        else None,
    )
    return next(e for e in changed if e.id == entry.id)


def _card(entry: EntryRecord, message_id: int, version: int) -> MessageRecord:
    """The record of ``entry``'s card as the ledger writes it once sent: where it is (the
    place it was searched from), and the token of the search that it answered."""
    return MessageRecord(
        CARD, entry.channel_id, message_id, "d", f"search-{entry.user_id}", 1.0, True, version
    )


async def _kept(store: Store, table: str) -> set[str]:
    """The owners ``table`` (``messages``, ``pending_posts``) keeps rows of."""
    return {str(r[0]) for r in await store.db.fetch(f"SELECT owner FROM {table}")}


async def test_one_live_entry_a_player_and_paired_once(store: Store) -> None:
    al = await _queue(store, 1)
    with pytest.raises(AlreadyRanked):
        await _queue(store, 1)
    bea, cy = await _queue(store, 2), await _queue(store, 3)
    made = await store.pair_entries(al.id, bea.id, now=1.0)
    assert made is not None
    match, entries = made
    assert {e.status for e in entries} == {EntryStatus.MATCHED}
    assert {e.match_id for e in entries} == {match.id}
    assert await store.pair_entries(al.id, cy.id, now=2.0) is None  # Al is taken
    assert await store.pair_entries(cy.id, bea.id, now=2.0) is None
    again = await store.ranked_entry(cy.id)
    assert again is not None and again.status is EntryStatus.SEARCHING
    with pytest.raises(AlreadyRanked):
        await _queue(store, 1)  # in a match: still one live entry
    assert await store.end_search(al.id, EntryStatus.STOPPED, now=3.0) is None  # matched


async def test_a_game_is_counted_once_and_a_match_decided_and_rated_once(store: Store) -> None:
    al, bea = await _queue(store, 1), await _queue(store, 2)
    made = await store.pair_entries(al.id, bea.id, now=1.0)
    assert made is not None
    match = made[0]
    assert await store.add_match_game(match.id, 1, 500)
    assert not await store.add_match_game(match.id, 1, 500)
    assert await store.count_match_game(match.id, 1, 2)
    assert not await store.count_match_game(match.id, 1, 2)  # heard twice
    now = 1_800_000_000.0
    assert await store.finish_match(match.id, winner=2, how="games", abandoned_by=None, now=now)
    assert not await store.finish_match(match.id, winner=1, how="left", abandoned_by=1, now=now)
    decided = await store.ranked_match(match.id)
    assert decided is not None and (decided.winner, decided.wins_b) == (2, 1)
    assert not await store.count_match_game(match.id, 1, 1)  # the match is over
    season = decided.season
    assert season is not None
    winner, loser = await store.season_rating(season, 2), await store.season_rating(season, 1)
    assert winner is not None and loser is not None
    assert winner.mu > loser.mu and winner.matches == loser.matches == 1
    # Both entries are free: each may queue again.
    assert (await _queue(store, 1, now=now)).status is EntryStatus.SEARCHING
    (line,) = await store.match_lines(2, limit=5)
    assert line.won and line.opponent_name == "P1" and (line.games_won, line.games_lost) == (1, 0)


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_two_stores_pairing_two_hundred_at_once_pair_each_once(
    store: Store, migrated_postgres_url: str
) -> None:
    async with await Store.open(migrated_postgres_url) as other:
        stores = (store, other)
        # Two hundred join at once through both, each paired at once with anyone waiting
        # (as the core pairs a newcomer); then pairings of whoever is left race on both.
        entries = await asyncio.gather(
            *(_queue(stores[n % 2], 100 + n, mu=25.0 + n % 7, paired=True) for n in range(200))
        )
        ids = [e.id for e in entries if e.status is EntryStatus.SEARCHING]
        rng = random.Random(49)

        async def pairing(mine: Store, seed: int) -> int:
            made = 0
            chosen = random.Random(seed)
            for _ in range(400 if len(ids) > 1 else 0):
                a, b = chosen.sample(ids, 2)
                if await mine.pair_entries(a, b, now=1.0) is not None:
                    made += 1
            return made

        counts = await asyncio.gather(
            *(pairing(stores[n % 2], rng.randrange(10**6)) for n in range(8))
        )
    rows = await store.db.fetch(
        "SELECT id, entry_a, entry_b, player_a, player_b FROM ranked_matches"
    )
    assert len(rows) > 90 and len(rows) >= sum(counts)
    seen: set[int] = set()
    for _, a, b, pa, pb in rows:
        assert pa != pb
        assert a not in seen and b not in seen, "an entry in two matches"
        seen |= {a, b}
    players = [p for row in rows for p in (row[3], row[4])]
    assert len(players) == len(set(players)), "a player in two matches"
    matched = await store.db.fetch(
        "SELECT id, match_id FROM ranked_entries WHERE status = 'matched'"
    )
    by_match = {int(r[0]): (int(r[1]), int(r[2])) for r in rows}
    assert len(matched) == 2 * len(rows)
    for entry_id, match_id in matched:
        assert entry_id in by_match[int(match_id)]


async def test_a_block_of_a_deleted_player_keeps_their_id_keyed_alike_after_a_restart(
    target: str | Path,
) -> None:
    """Bea blocked Al, and Al had his data deleted: her block names a former player and keeps
    his id only as its keyed hash, under the secret the first deletion made; the store opened
    again (a restart, or another process) knows him by it still, and a later deletion, with
    another fresh secret at hand, keeps the same secret."""
    al, bea, cy = 987_654_321_012_345_678, 2, 3
    first, second = "ab" * 32, "cd" * 32
    async with await Store.open(target) as store:
        await known(store, al, cy)  # (whom Bea met, and so may block)
        await store.block_player(bea, al, "Al", now=1.0)
        await store.block_player(bea, cy, "Cy", now=1.0)
        await forget(store, al, -(2**52) - 1, first)
        rows = await store.db.fetch(
            "SELECT blocked_id, name, blocked_key FROM ranked_blocks WHERE blocked_key IS NOT NULL"
        )
        [(former, name, key)] = [tuple(r) for r in rows]
        assert (former, name) == (-(2**52) - 1, FORMER_NAME)
        assert key == keyed_id(first, al) and str(al) not in key
        assert await store.blocks_among([al]) == {(bea, al)}
    async with await Store.open(target) as store:
        assert await store.blocks_among([al, cy]) == {(bea, al), (bea, cy)}
        await forget(store, cy, -(2**52) - 2, second)
        keys = {r[0] for r in await store.db.fetch("SELECT blocked_key FROM ranked_blocks")}
        assert keys == {keyed_id(first, al), keyed_id(first, cy)} != {keyed_id(second, cy)}
        assert await store.blocks_among([al, cy, 4]) == {(bea, al), (bea, cy)}
        assert await store.blocks_among([4]) == set()


async def test_a_card_sent_before_its_player_had_their_data_deleted_is_not_written_after(
    store: Store,
) -> None:
    """Al's card was sent, and its record (his place's id, his search's token) is written a
    moment later, with Bea's, by the ledger's write-behind, after his data was deleted
    meanwhile: his is not kept, nor a post of it noted as about to be made; Bea's is."""
    al, bea = await _queue(store, 1), await _queue(store, 2)
    mine, hers = Owner.ranked(al.id), Owner.ranked(bea.id)
    await store.set_messages([(mine, _card(al, 0, 1)), (hers, _card(bea, 0, 1))])
    await forget(store, 1)
    assert await _kept(store, "messages") == {str(hers)}
    await store.set_messages([(mine, _card(al, 501, 2)), (hers, _card(bea, 502, 2))])
    await store.set_pending(mine, PendingPost(CARD, al.channel_id, 3.0))
    await store.set_pending(hers, PendingPost(CARD, bea.channel_id, 3.0))
    assert await _kept(store, "messages") == {str(hers)}
    assert await _kept(store, "pending_posts") == {str(hers)}
    assert (await store.messages(hers))[CARD].message_id == 502


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_card_s_write_on_its_way_as_its_player_s_data_goes_is_not_kept(
    store: Store, migrated_postgres_url: str
) -> None:
    """Another process (the one that sends) writes Al's card's record while his data is being
    deleted, its write begun once the deletion deleted his cards' records and before it
    commits: the record is not kept. (Before bee9a42e, the write waited on the row the
    deletion deleted, then inserted it again, his place's id and token with it; now the
    record names his search and him as the write read them, which the deletion renamed by
    the time it commits: it finds nothing to refer to, reads again, and keeps nothing.)"""
    al = await _queue(store, 1)
    mine = Owner.ranked(al.id)
    await store.set_messages([(mine, _card(al, 0, 1))])
    # A game Cy opened that Al sat at, over (his deletion moves it on, once his cards' records
    # went).
    game = await store.create_game(
        NewGame(5, 10, SeatRecord(0, 3, "Cy"), Options(2, 121)),
        now=1.0,
        fill=lambda lobby: (*lobby.seats, SeatRecord(1, 1, "P1")),
    )
    await store.db.execute(
        "UPDATE games SET status = 'cancelled', version = version + 1 WHERE id = ?", (game.id,)
    )
    async with await Store.open(migrated_postgres_url) as sender:
        async with store.db.transaction() as hold:
            # The deletion stops, uncommitted, where it moves on the games he sat at (his
            # row moved to a former player's id, his cards' records deleted): this
            # transaction holds the game's row.
            await hold.fetch("SELECT id FROM games WHERE id = ? FOR UPDATE", (game.id,))
            deletion = asyncio.create_task(forget(store, 1))
            await locks_waited_on(store, 1)
            write = asyncio.create_task(sender.set_messages([(mine, _card(al, 501, 2))]))
            await locks_waited_on(store, 2)
        await deletion
        await write
    assert str(mine) not in await _kept(store, "messages")


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_card_about_to_be_posted_is_noted_only_by_the_sender(store: Store) -> None:
    """A ranked card's post is noted as about to be made only while the process making it
    holds the sender's lease (as a game's message's is), and a former player's is not noted
    whoever holds it: the sender may post it (nothing of theirs is kept)."""
    al, bea = await _queue(store, 1), await _queue(store, 2)
    mine, hers = Owner.ranked(al.id), Owner.ranked(bea.id)
    assert await store.hold_lease(SENDER_LEASE, "one", 60.0)
    assert not await store.set_pending(hers, PendingPost(CARD, bea.channel_id, 3.0), held_as="two")
    assert await _kept(store, "pending_posts") == set()
    assert await store.set_pending(hers, PendingPost(CARD, bea.channel_id, 3.0), held_as="one")
    await forget(store, 1)
    assert await store.set_pending(mine, PendingPost(CARD, al.channel_id, 3.0), held_as="one")
    assert await _kept(store, "pending_posts") == {str(hers)}
