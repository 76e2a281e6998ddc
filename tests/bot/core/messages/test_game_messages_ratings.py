"""A finished game's result ends with the ratings line, read once for the game's version: a
finished game is drawn again whenever a sweep or a click brings it up."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.base.owners import Owner
from bot.core.services import Services
from bot.store import Store
from tests.helpers.service_driver import Clock, finished_game, make_service


async def test_a_finished_games_ratings_line_is_read_once(
    service: Services, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, game_id = await finished_game(service)
    # A process started after the game ended (nothing of it kept yet).
    service = make_service(store, clock)
    reads: list[int] = []
    real = store.game_rating_changes

    async def counted(game: int) -> Any:
        reads.append(game)
        return await real(game)

    monkeypatch.setattr(store, "game_rating_changes", counted)
    owner = Owner.game(game_id)
    first = await service.ledger.owed(owner)
    again = await service.ledger.owed(owner)
    assert first is not None and again is not None
    result = next(o for o in first.owed if str(o.key) == "result")
    assert "Ratings — " in result.view.content
    assert [o.view.digest() for o in first.owed] == [o.view.digest() for o in again.owed]
    assert reads == [game_id]
