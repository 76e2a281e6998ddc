"""One game of a person's in a place, decided by the store (both databases): a seat at a game
in a place where the person searches for a ranked match, or plays one, is refused, and so is a
search from a place where they sit at a game; whichever of the two is written first, and
when both are asked at the same instant by two stores on one database, as two processes are
(issue 54: a ranked search and a lobby's Join took different locks, and seated a player in
both). The key of ``presence`` refuses the second (issue 66), where the place's lock and a read
of the other kind of write did."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path

import pytest

from bot.core.base.places import RANKED_HERE, SEARCHING_HERE, SEATED_HERE, PlaceKind
from bot.core.base.store_errors import RankedHere, SeatedHere, StoreError
from bot.core.games.records import NewGame, Options, SeatRecord
from bot.core.ranked.records import EntryRecord, EntryStatus, Search
from bot.store import Store
from tests.helpers.forgetting import known

AL, BEA, CY = SeatRecord(0, 1, "Al"), SeatRecord(1, 2, "Bea"), SeatRecord(0, 3, "Cy")
#: Al taking the second seat at Cy's lobby.
AL_JOINS = SeatRecord(1, 1, "Al")
COMPUTER = SeatRecord(1, None, "Computer (hard)", True, "hard")
SERVER = 5


def _search(user: SeatRecord, channel_id: int) -> Search:
    assert user.user_id is not None
    return Search(user.user_id, user.name, None, SERVER, channel_id, PlaceKind.SERVER, 25.0, None)


async def _queue(store: Store, user: SeatRecord, channel_id: int) -> EntryRecord:
    entry, _, _ = await store.queue_entry(_search(user, channel_id), now=1.0)
    return entry


async def _lobby(store: Store, channel_id: int, creator: SeatRecord = CY) -> tuple[int, int]:
    """A lobby for two in ``channel_id``, opened by ``creator``: its id and version."""
    record = await store.create_game(NewGame(SERVER, channel_id, creator, Options(2, 121)), now=1.0)
    return record.id, record.version


async def _seated(store: Store, user: SeatRecord, channel_id: int) -> bool:
    record = await store.open_game_in_channel(channel_id)
    return record is not None and record.seat_of(user.user_id or 0) is not None


async def test_no_seat_where_the_person_searches_or_plays_ranked(store: Store) -> None:
    entry = await _queue(store, AL, 10)
    # Not as the opener of a game there, nor at someone's lobby there (by Join).
    with pytest.raises(RankedHere) as opening:
        await _lobby(store, 10, AL)
    assert str(opening.value) == SEARCHING_HERE
    game_id, version = await _lobby(store, 10)
    with pytest.raises(RankedHere):
        await store.set_seats(game_id, version, [CY, AL_JOINS], now=2.0)
    assert not await _seated(store, AL, 10)
    # A computer taking the seat, or Al elsewhere, is no matter of his search.
    version = await store.set_seats(game_id, version, [CY, COMPUTER], now=2.0)
    assert (await _lobby(store, 11, AL))[0]
    # Matched, his match is played there: the same, in its words.
    bea = await _queue(store, BEA, 20)
    assert await store.pair_entries(entry.id, bea.id, now=3.0) is not None
    with pytest.raises(RankedHere) as joining:
        await store.set_seats(game_id, version, [CY, AL_JOINS], now=4.0)
    assert str(joining.value) == RANKED_HERE


async def test_no_search_where_the_person_sits_at_a_game(store: Store) -> None:
    await _lobby(store, 10, AL)
    with pytest.raises(SeatedHere) as refused:
        await _queue(store, AL, 10)
    assert str(refused.value) == SEATED_HERE
    assert await store.live_entry(AL.user_id or 0) is None
    # From elsewhere he may; and at a game over there, he sits no more.
    assert (await _queue(store, AL, 11)).status is EntryStatus.SEARCHING


async def test_a_seat_is_not_refused_for_what_was_before_it(store: Store) -> None:
    # Someone already seated where (before this check was the store's) their search was made
    # may still leave, or be joined: the seat is the one present there, as migration 041
    # found them (their seats first, then what of their searches fits beside them).
    game_id, version = await _lobby(store, 10, AL)
    async with store.db.transaction() as tx:
        await tx.execute("DELETE FROM presence WHERE user_id = ?", (AL.user_id,))
        await tx.execute(
            "INSERT INTO ranked_entries (user_id, name, guild_id, channel_id, place, mu,"
            " queued_at, version) VALUES (?, 'Al', ?, 10, 'server', 25.0, 1.0, 1)",
            (AL.user_id, SERVER),
        )
        await tx.execute("DELETE FROM presence WHERE user_id = ?", (AL.user_id,))
        await tx.execute(
            "INSERT INTO presence (channel_id, user_id, game_id) VALUES (10, ?, ?)",
            (AL.user_id, game_id),
        )
    await known(store, BEA.user_id or 0)
    version = await store.set_seats(game_id, version, [AL, BEA], now=2.0)
    assert await store.set_seats(game_id, version, [AL], now=3.0)


async def _outcome(call: Awaitable[object]) -> str:
    try:
        await call
    except StoreError as refused:
        return str(refused)
    return "done"


@pytest.fixture(params=["sqlite", "postgres"])
async def two(request: pytest.FixtureRequest, tmp_path: Path) -> object:
    """Two stores on one database, as two processes have (a pair of them)."""
    if request.param == "postgres":
        target: str | Path = request.getfixturevalue("migrated_postgres_url")
    else:
        target = request.getfixturevalue("migrated_sqlite_path")
    first, second = await Store.open(target), await Store.open(target)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_a_search_and_a_seat_at_the_same_instant_never_both_hold(
    two: tuple[Store, Store],
) -> None:
    searching, seating = two
    outcomes: set[tuple[str, str]] = set()
    for round_ in range(30):
        channel = 100 + round_
        game_id, version = await _lobby(seating, channel)
        search = searching.queue_entry(_search(AL, channel), now=1.0)
        seat = seating.set_seats(game_id, version, [CY, AL_JOINS], now=2.0)
        # Each asked first in turn, then both at once.
        calls = (search, seat) if round_ % 2 else (seat, search)
        searched, seated = await asyncio.gather(*map(_outcome, calls))
        if round_ % 2 == 0:
            searched, seated = seated, searched
        outcomes.add((searched, seated))
        entry = await searching.live_entry(AL.user_id or 0)
        from_here = entry is not None and entry.channel_id == channel
        assert not (from_here and await _seated(searching, AL, channel)), (round_, outcomes)
        assert (searched == "done") != (seated == "done"), (searched, seated)
        if entry is not None:
            await searching.end_search(entry.id, EntryStatus.STOPPED, now=3.0)
    assert outcomes <= {("done", SEARCHING_HERE), (SEATED_HERE, "done")}, outcomes
    assert RANKED_HERE not in {said for pair in outcomes for said in pair}


async def test_a_seat_kept_for_a_rematch_is_no_seat_until_it_is_taken(store: Store) -> None:
    # A rematch keeps Al's seat at Cy's table; Al searches from there meanwhile (he sits at
    # no game there), and then may not take the seat kept for him.
    game_id, version = await _lobby(store, 10)
    await known(store, AL.user_id or 0)  # (he played the game before: the bot keeps him)
    kept = SeatRecord(1, AL.user_id, "Al", held_until=1e12)
    version = await store.set_seats(game_id, version, [CY, kept], now=2.0)
    assert (await _queue(store, AL, 10)).status is EntryStatus.SEARCHING
    with pytest.raises(RankedHere):
        await store.set_seats(game_id, version, [CY, AL_JOINS], now=3.0)
    assert not await _seated(store, AL, 10)
