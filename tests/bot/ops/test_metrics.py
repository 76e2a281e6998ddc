"""The bot's metrics (issue 54, items 8 and 9): every move counted once, the computer's
discards made as a game against it opens included."""

from __future__ import annotations

import pytest

from bot.ops.metrics import Metrics
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import Clock, Transcript, drive, make_service


def _moves(metrics: Metrics) -> float:
    return metrics.registry.get_sample_value("cribbage_moves_total") or 0.0


async def _logged(store: Store) -> int:
    [(count,)] = await store.db.fetch("SELECT COUNT(*) FROM actions")
    return int(count)


@pytest.mark.parametrize("players", [2, 3])
async def test_every_move_is_counted_once_the_computers_first_discards_too(
    store: Store, clock: Clock, players: int
) -> None:
    """A game against the computer opens dealt, the computer seats' discards in its log (one
    each): counted as they are saved, like every move after them, so the count is the log's
    length at every step (it was one short a computer seat)."""
    metrics = Metrics()
    service = make_service(store, clock, computer=True, meters=metrics)
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, players=players, vs_computer=True, difficulty="easy"
    )
    await table.record(AL.id, opened)
    assert opened.ok, opened.reply.text
    assert await _logged(store) == players - 1 == _moves(metrics)
    for stop in range(1, 6):
        await drive(service, table, (AL,), stop_after=1)
        assert await _logged(store) == _moves(metrics), f"after move {stop}"
    await service.ledger.flush()

