"""The Activity where it meets other features: a tournament match's thread (its game at the
table, no rematch, and no game of one's own that the tournament would end), and the bot's own
DM (where no game but a ranked match or a lesson is played) beside a DM between people."""

from __future__ import annotations

from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.core.base.places import GAMES_NOT_IN_MY_DMS
from bot.core.base.refusals import MATCH_THREAD
from bot.core.games.records import Options, Round
from bot.core.services import Services
from bot.store import Store
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.bot.web.test_activity_server import SECRET, FakeDiscordSide, _signed, client
from tests.helpers.service_driver import AL, BEA, CHANNEL, GUILD

__all__ = ["client"]


async def test_a_tournament_threads_table_offers_no_game_of_ones_own(
    client: TestClient[Any, Any], service: Services, store: Store
) -> None:
    # The thread's game, as the director opens it (both seated and dealt), then conceded
    # between two games of a best of three, before the director deals the next.
    record = await service.lobbies.open_seated(
        GUILD, CHANNEL, (AL, BEA), Options(2, 121), occasion=Round("Round 1 of the tournament")
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
        assert state["open"] == {**state["open"], "here": False, "closed": MATCH_THREAD}
        assert "variants" not in state["open"], state["open"]
        opened = await client.post(
            "/activity/api/new", json={"players": 2, "target": 61}, headers=headers
        )
        answer = await opened.json()
        assert opened.status == 409 and answer == {"ok": False, "said": MATCH_THREAD}, answer
    assert await store.open_game_in_channel(CHANNEL) is None


async def test_the_bots_dm_offers_no_game_of_ones_own_and_a_dm_between_people_the_command(
    service: Services, store: Store
) -> None:
    # (A lesson is played in the bot's DM; a ranked match from there too: after either, the
    # table offered /cribbage new's choices and its line, which the bot's DM refuses.)
    for bots_dm in (CHANNEL, None):
        discord = FakeDiscordSide()
        discord.guild, discord.dm = None, bots_dm
        activity = ActivityServer(service, discord, Sessions(SECRET))
        server = WebServer(service.pages, service.feed, PageLinks(SECRET), activity=activity)
        async with TestClient(TestServer(server.app())) as dm_client:
            al = await _signed(dm_client, AL)
            seen = await (await dm_client.get("/activity/api/state", headers=al)).json()
            opened = await dm_client.post("/activity/api/new", json={"players": 2}, headers=al)
            said = (await opened.json())["said"]
        state = seen["state"]
        assert state["open"]["here"] is False and opened.status == 409, said
        if bots_dm is None:
            # A DM between people: the choices, and the command that opens them there.
            assert state["open"]["variants"] and "closed" not in state["open"], state
            assert "`/cribbage new players:2`" in said, said
        else:
            assert state["open"]["closed"] == GAMES_NOT_IN_MY_DMS, state["open"]
            assert "variants" not in state["open"] and said == GAMES_NOT_IN_MY_DMS, said
    assert await store.open_game_in_channel(CHANNEL) is None
