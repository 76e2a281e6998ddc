"""A person is a row (issue 66, migration 040): their acts make it, what is made from what is kept
of them never does, their deletion moves it to a former player's id, and a write of theirs that
comes after finds nobody, even once they have come back (both databases); a release before 040
running beside it (PostgreSQL, an upgrade) still writes a newcomer's rows."""

from __future__ import annotations

import asyncpg
import pytest

from bot.core.base.owners import Owner
from bot.core.base.places import PlaceKind
from bot.core.base.views import MessageRecord
from bot.core.games.records import NewGame, Options, SeatRecord, is_former
from bot.core.ledger.records import DmLink
from bot.core.nights.records import ClubPlan
from bot.core.nights.when import Repeat
from bot.core.ranked.cards import CARD
from bot.core.ranked.records import Search
from bot.core.review.records import ReviewRow
from bot.core.tournaments.records import Format, TournamentPlan
from bot.store import Store
from engine.outcome import Scoring
from tests.helpers.forgetting import forget

AL, BEA = 1, 2


async def _person(store: Store, user_id: int) -> list[int]:
    """``user_id``'s row, with its version ([] for none)."""
    rows = await store.db.fetch("SELECT version FROM people WHERE id = ?", (user_id,))
    return [int(r[0]) for r in rows]


async def test_a_persons_acts_make_their_row_and_what_is_made_from_them_does_not(
    store: Store,
) -> None:
    # Nothing kept of Al yet: what a click of his would make is not kept.
    await store.set_dm_link(DmLink(AL, 31, "token", 1.0))
    await store.saw_member(5, AL, 1.0)
    assert await _person(store, AL) == []
    assert await store.dm_link(AL) is None and await store.member_seen(5, AL) is None
    # His first game makes it; a setting of his moves it on.
    await store.create_game(NewGame(5, 10, SeatRecord(0, AL, "Al"), Options(2, 121)), now=1.0)
    assert await _person(store, AL) == [0]
    await store.set_coach(AL, False, now=2.0)
    assert await _person(store, AL) == [1]
    await store.set_dm_link(DmLink(AL, 31, "token", 3.0))
    assert await store.dm_link(AL) is not None


async def test_a_club_and_a_night_s_interest_are_their_people_s_acts(store: Store) -> None:
    """Scheduling a club night is its organiser's act, and marking (or unmarking) a night
    Interested is its person's: each makes the row of a person the bot kept nothing of, so the
    club and the night's people are kept (a newcomer's first act may be taking back an
    interest Discord told of while the bot was away: nothing to enter them in, still theirs)."""
    club, night = await store.open_club(
        ClubPlan(5, 40, AL, "Fridays", Repeat.WEEKLY, "UTC", "swiss", 121, "lurch", 24.0),
        TournamentPlan(5, 40, AL, Format.SWISS, 121, Scoring.LURCH, 24.0),
        starts_at=100.0,
        now=1.0,
    )
    assert await _person(store, AL) == [0]
    assert not await store.interest(night, BEA, "Bea", False)
    assert await _person(store, BEA) == [0]
    assert [p.user_id for p in await store.night_people(night.id)] == [BEA]
    assert (await store.club_in_channel(40)) == club


async def test_what_was_made_before_a_deletion_finds_nobody_after_even_once_they_are_back(
    store: Store,
) -> None:
    """Al played a game and searched for a ranked match; a review of his seat and his card's
    record are made from what was read then, and written after his data was deleted and he
    came back (a new game, a new search): neither is kept, though he is a person again; what he
    does now is his."""
    game = await store.create_game(
        NewGame(5, 10, SeatRecord(0, AL, "Al"), Options(2, 121)), now=1.0
    )
    search = Search(AL, "Al", None, 5, 20, PlaceKind.SERVER, 25.0, None)
    entry, _, _ = await store.queue_entry(search, now=1.0)
    await forget(store, AL)
    assert await _person(store, AL) == []
    [(former,)] = [tuple(r) for r in await store.db.fetch("SELECT user_id FROM seats")]
    assert is_former(int(former)) and await _person(store, int(former)) == [1]
    # He comes back: a new row of his.
    await store.create_game(NewGame(5, 11, SeatRecord(0, AL, "Al"), Options(2, 121)), now=2.0)
    again, _, _ = await store.queue_entry(search, now=2.0)
    assert await _person(store, AL) == [0]
    # What was made from his old seat and search, written only now, finds nothing.
    await store.save_review(ReviewRow(game.id, 0, AL, 5, 3, True, 12, 10, 4.5, "{}", 3.0))
    old_card = MessageRecord(CARD, 20, 501, "d", "an old token", 1.0, True, 2)
    await store.set_messages([(Owner.ranked(entry.id), old_card)])
    assert await store.db.fetch("SELECT 1 FROM reviews") == []
    assert await store.messages(Owner.ranked(entry.id)) == {}
    # His new search's card is kept, under his new row.
    new_card = MessageRecord(CARD, 20, 502, "d", "a token", 2.0, True, 2)
    await store.set_messages([(Owner.ranked(again.id), new_card)])
    assert (await store.messages(Owner.ranked(again.id)))[CARD].message_id == 502


async def test_a_deletion_moves_the_row_and_every_row_naming_them_follows(store: Store) -> None:
    await store.create_game(NewGame(5, 10, SeatRecord(0, AL, "Al"), Options(2, 121)), now=1.0)
    await store.queue_entry(Search(AL, "Al", None, 5, 20, PlaceKind.SERVER, 25.0, None), now=1.0)
    former = -(2**52) - 11
    await forget(store, AL, former)
    for table, column in (
        ("games", "creator_id"),
        ("seats", "user_id"),
        ("ranked_entries", "user_id"),
        ("presence", "user_id"),
    ):
        rows = await store.db.fetch(f"SELECT {column} FROM {table}")
        assert {int(r[0]) for r in rows} <= {former}, table
    assert await _person(store, AL) == [] and await _person(store, former) == [1]


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_release_before_people_still_writes_a_newcomers_rows_beside_it(
    store: Store, migrated_postgres_url: str
) -> None:
    """A process of the release before 040 (its connection says nothing of people) seats a
    newcomer and blocks a player: its writes are kept, the people's rows made for them; the
    same write by this release's store of someone it keeps nothing of is not."""
    older = await asyncpg.connect(migrated_postgres_url)
    try:
        async with older.transaction():
            game = await older.fetchval(
                "INSERT INTO games (guild_id, channel_id, creator_id, num_players, target,"
                " created_at, updated_at) VALUES (5, 10, $1, 2, 121, 1.0, 1.0) RETURNING id",
                AL,
            )
            await older.execute(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES ($1, 0, $2, 'Al')",
                game,
                AL,
            )
            await older.execute(
                "INSERT INTO ranked_blocks (user_id, blocked_id, name, at)"
                " VALUES ($1, $2, 'Bea', 1.0)",
                AL,
                BEA,
            )
    finally:
        await older.close()
    assert await _person(store, AL) == [0] and await _person(store, BEA) == [0]
    await store.set_dm_link(DmLink(3, 31, "token", 1.0))
    assert await store.dm_link(3) is None
