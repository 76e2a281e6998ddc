"""The reviews kept with the games: a review made while its player's data was deleted (a review
takes seconds, from the game as read before) is not kept, in this process or another."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.games.records import NewGame, Options, SeatRecord
from bot.core.review.records import ReviewRow
from bot.store import Store
from tests.helpers.forgetting import forget, known, locks_waited_on

AL, BEA = 1, 2


async def _game(store: Store) -> int:
    """A game of Al's (seat 0) and Bea's (seat 1)."""
    record = await store.create_game(
        NewGame(5, 10, SeatRecord(0, AL, "Al"), Options(2, 121)), now=100.0
    )
    await known(store, BEA)
    await store.db.execute(
        "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer)"
        " VALUES (?, 1, ?, 'Bea', 0)",
        (record.id, BEA),
    )
    return record.id


def _review(game_id: int, seat: int, user_id: int) -> ReviewRow:
    """The review of ``seat`` as made from the game read with ``user_id`` in it."""
    return ReviewRow(game_id, seat, user_id, 5, 3, True, 12, 10, 4.5, "{}", 200.0)


async def _reviewed(store: Store) -> set[tuple[int, int | None]]:
    """Each review kept: its seat and its player."""
    rows = await store.db.fetch("SELECT seat, user_id FROM reviews")
    return {(int(r[0]), None if r[1] is None else int(r[1])) for r in rows}


async def test_a_review_made_as_its_player_s_data_was_deleted_is_not_kept(store: Store) -> None:
    """The game is read with Al in it, his review made (seconds in the worker), and his data
    deleted meanwhile: his review is not kept (it would be his again, by his id); Bea's is."""
    game_id = await _game(store)
    await forget(store, AL)
    await store.save_review(_review(game_id, 0, AL))
    await store.save_review(_review(game_id, 1, BEA))
    assert await _reviewed(store) == {(1, BEA)}
    assert await store.review(game_id, 0) is None


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_review_written_by_another_process_as_the_deletion_runs_is_not_kept(
    store: Store, migrated_postgres_url: str
) -> None:
    """The process that sends (its automatic reviews) writes Al's review while another deletes
    his data, once the deletion deleted his reviews and before it commits: it is not kept.
    (Before, it was inserted then, under his id, and outlived the deletion.)"""
    game_id = await _game(store)
    async with await Store.open(migrated_postgres_url) as sender:
        async with store.db.transaction() as hold:
            # The deletion stops, uncommitted, where it puts a former player in his seat (his
            # reviews deleted): this transaction holds the seat's row.
            await hold.fetch(
                "SELECT seat FROM seats WHERE game_id = ? AND seat = 0 FOR UPDATE", (game_id,)
            )
            deletion = asyncio.create_task(forget(store, AL))
            await locks_waited_on(store, 1)
            write = asyncio.create_task(sender.save_review(_review(game_id, 0, AL)))
            await locks_waited_on(store, 2)
        await deletion
        await write
    assert await _reviewed(store) == set()
