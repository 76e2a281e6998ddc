"""The standings rebuilt from the results (a server's, after its data went) while a game
finishes in another process: no result recorded meanwhile is left out of what is written."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.base.replies import User
from bot.core.games.records import GameChange, GameStatus, NewGame, Options, SeatRecord
from bot.store import Store
from tests.helpers.forgetting import locks_waited_on
from tests.helpers.results import result_row

GUILD = 5


async def _played(store: Store, channel: int, first: int, second: int) -> int:
    """A game of ``first`` and ``second`` in the server, its seats taken (version 1)."""
    record = await store.create_game(
        NewGame(GUILD, channel, SeatRecord(0, first, "P"), Options(2, 121)), now=100.0
    )
    await store.set_seats(
        record.id, 0, [SeatRecord(0, first, "P"), SeatRecord(1, second, "Q")], now=100.0
    )
    return record.id


def _won(first: int, second: int) -> GameChange:
    """The game finished, ``first`` (seat 0) the winner."""
    rows = [
        result_row(0, User(first, "P"), won=True, score=121),
        result_row(1, User(second, "Q"), won=False, score=100),
    ]
    return GameChange(GameStatus.FINISHED, results=rows)


@pytest.mark.parametrize("store", ["postgres"], indirect=True)
async def test_a_result_recorded_by_another_process_during_a_rebuild_is_kept(
    store: Store, migrated_postgres_url: str
) -> None:
    """The process that sends works a server's ratings out again (its data deleted, the games
    people played there through their own installs left) while another records Cy's win over
    Di there: what is stored is what the results replay to. (Before, the rebuild read the
    results before its transaction: it wrote them without Cy's game, and deleted its rating
    changes and head to head.)"""
    first = await _played(store, 10, 1, 2)
    await store.save(first, 1, _won(1, 2), now=200.0)
    second = await _played(store, 11, 3, 4)
    async with await Store.open(migrated_postgres_url) as sender:
        async with store.db.transaction() as hold:
            # The rebuild stops, uncommitted, where it deletes Al's standing.
            await hold.fetch("SELECT 1 FROM standings WHERE player_id = 1 FOR UPDATE")
            rebuild = asyncio.create_task(sender.rebuild_server_ratings(GUILD))
            await locks_waited_on(store, 1)
            finish = asyncio.create_task(store.save(second, 1, _won(3, 4), now=300.0))
            # Cy's result is recorded now (before), or waits for the rebuild (after).
            await locks_waited_on(store, 2, unless=finish)
        await rebuild
        await finish
    assert await store.stored_ratings() == await store.replay_ratings()
    assert {c.game_id for c in (await store.stored_ratings()).changes} == {first, second}
