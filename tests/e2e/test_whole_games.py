"""Whole games from `/cribbage new` to the result, through Discord as players see it.

Every step is checked by the driver: the DM or ephemeral controls against the engine's hand,
the channel's lines against the engine's events, the database moving by one action, and no card
reaching anyone who may not see it (players and a spectator, every message over the whole game).
"""

from __future__ import annotations

import random
import sqlite3

import pytest

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import TableDriver, World


def _results(world: World, game_id: int) -> list[tuple[int, int, int]]:
    with sqlite3.connect(world.db_path) as db:
        return db.execute(
            "SELECT seat, won, game_points FROM results WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()


@pytest.mark.parametrize(
    ("players", "target", "seed"),
    [(2, 121, 1), (3, 61, 2), (4, 61, 3)],
    ids=["2-players-to-121", "3-players-to-61", "4-players-to-61"],
)
async def test_whole_game_through_discord(
    world: World, bot: BotProcess, players: int, target: int, seed: int
) -> None:
    driver = TableDriver(
        world.fd,
        world.general,
        world.players[:players],
        world.db_path,
        random.Random(seed),
        spectators=[world.spectator],
    )
    await driver.open(target=target)
    final = await driver.play_out()
    assert final.status == "finished"
    assert final.game is not None and final.game.result is not None
    result = final.game.result
    assert max(result.scores) >= target
    assert final.actions == driver.actions_done
    rows = _results(world, driver.game_id)
    assert [seat for seat, _, _ in rows] == list(range(players))
    for seat, won, points in rows:
        assert bool(won) == (final.game.side_of(seat) == result.winner)
        assert points == result.game_points
    assert driver.cards_seen > 50 * players, "the hidden-card check looked at the hands"
    # The last line of the channel is the result.
    assert "game point" in driver.channel_lines[-1]
