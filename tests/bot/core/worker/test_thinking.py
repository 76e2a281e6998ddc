"""The expert's plays made in a worker process: the same card as on the loop, given the seed,
and a worker that died is replaced without losing the play."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.core.games.computer import THINKS_AT_LENGTH
from bot.core.worker.thinking import WorkerThinking
from engine.game import Game
from engine.players import make_player
from engine.views import SeatView


def _pegging_view(seed: int) -> SeatView:
    game, _ = Game.new(["a", "b"], target=121, rng=random.Random(seed))
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    assert game.state.turn is not None
    return game.view(game.state.turn)


@pytest.fixture
async def thinking() -> AsyncIterator[WorkerThinking]:
    worker = WorkerThinking(THINKS_AT_LENGTH)
    worker.start()
    yield worker
    worker.close()


async def test_a_play_from_the_worker_is_the_players_own(thinking: WorkerThinking) -> None:
    expert = make_player("expert")
    for seed in range(3):
        view = _pegging_view(seed)
        card = await thinking.choose_play("expert", view, seed)
        assert card == expert.choose_play(view, random.Random(seed))
        assert card in view.hand


async def test_a_dead_worker_is_replaced_and_the_play_still_made(
    thinking: WorkerThinking,
) -> None:
    view = _pegging_view(5)
    want = make_player("expert").choose_play(view, random.Random(5))
    assert await thinking.choose_play("expert", view, 5) == want
    pool = thinking._pool
    assert pool is not None
    for process in list(pool._processes.values()):  # the worker dies, as by the OOM killer
        process.kill()
        process.join()
    assert await thinking.choose_play("expert", view, 5) == want
    assert thinking._pool is not None and thinking._pool is not pool
    assert await thinking.choose_play("expert", view, 5) == want
