"""The Activity where it meets other features: a tournament match's thread (its game at the
table, no rematch, and no game of one's own that the tournament would end)."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient

from bot.core.base.refusals import MATCH_THREAD
from bot.core.services import Services
from bot.store import Store
from tests.bot.web.test_activity_server import _signed, client
from tests.helpers.service_driver import AL, BEA, CHANNEL, GUILD

__all__ = ["client"]


async def test_a_tournament_threads_table_offers_no_game_of_ones_own(
    client: TestClient[Any, Any], service: Services, store: Store
) -> None:
    # The thread's game, as the director opens it (both seated and dealt), then conceded
    # between two games of a best of three, before the director deals the next.
    record = await service.lobbies.open_seated(
        GUILD, CHANNEL, (AL, BEA), target=121, scoring="lurch", occasion="Round 1 of the tournament"
    )
    al, bea = await _signed(client, AL), await _signed(client, BEA)
    state = (await (await client.get("/activity/api/state", headers=al)).json())["state"]
    assert state["game"] == record.id and state["status"] == "active", state
    assert state["open"]["here"] is False and "variants" not in state["open"], state["open"]
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    for headers in (al, bea):
        state = (await (await client.get("/activity/api/state", headers=headers)).json())["state"]
        assert state["status"] == "finished" and state["game"] == record.id, state
        assert state["rematch"] is None, state["rematch"]
        # No new game's choices: the page says why, and a new game asked anyway is refused.
        assert state["open"] == {**state["open"], "here": False, "match": MATCH_THREAD}
        assert "variants" not in state["open"], state["open"]
        opened = await client.post(
            "/activity/api/new", json={"players": 2, "target": 61}, headers=headers
        )
        answer = await opened.json()
        assert opened.status == 409 and answer == {"ok": False, "said": MATCH_THREAD}, answer
    assert await store.open_game_in_channel(CHANNEL) is None
