"""The Activity at a ranked player's place: opened in the channel a player queued from, it shows
their ranked game (their hand, the table; never the opponent's cards), takes their moves, and
follows the game live; anyone else there sees the channel's own game. Where a player's search
waits, their table opens and joins no other game (issue 54)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.base.places import SEARCHING_HERE
from bot.core.games.records import GameRecord
from bot.core.services import Services
from bot.store import Store
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.bot.web.test_activity_server import SECRET, FakeDiscordSide, _session
from tests.helpers.card_leaks import cards_named
from tests.helpers.service_driver import AL, BEA, CHANNEL, CY, GUILD, ranked_game, search_ranked

#: Bea plays from a DM of her own, far from the channel the Activity runs in.
BEA_DM = 777_001


@pytest.fixture
async def client(service: Services, store: Store) -> AsyncIterator[TestClient[Any, Any]]:
    activity = ActivityServer(service, FakeDiscordSide(), Sessions(SECRET))
    server = WebServer(
        service.pages,
        service.feed,
        PageLinks(SECRET),
        activity=activity,
        limits=Capacity(connections=100, live_pages=10),
    )
    activity.start()
    async with TestClient(TestServer(server.app())) as test_client:
        yield test_client
    activity.stop()
    service.ranked_play.stop()
    await service.ledger.writes.flush()


async def _matched(service: Services, store: Store) -> GameRecord:
    """Bea (from her DM) and Al (from the Activity's channel) search and are matched: their
    first game, dealt."""
    await search_ranked(service, BEA, BEA_DM)
    await search_ranked(service, AL, CHANNEL, guild_id=GUILD)
    return await ranked_game(service, store, AL)


async def test_the_activity_at_a_players_place_shows_their_ranked_game(
    client: TestClient[Any, Any], service: Services, store: Store
) -> None:
    record = await _matched(service, store)
    loaded = service.games.loaded.load(record)
    al_seat = record.seat_of(AL.id)
    assert al_seat is not None
    bea_cards = set(loaded.game.hand(1 - al_seat))
    al = {"Authorization": "Bearer " + await _session(client, AL)}
    seen = await (await client.get("/activity/api/state", headers=al)).json()
    state = seen["state"]
    assert state["game"] == record.id, state
    assert state["hand"], "Al's own hand is at his table"
    text = json.dumps(state)
    assert not cards_named(text) & bea_cards, "none of Bea's cards"
    # His status says what is played and where it stands, and nothing of who or where from.
    status = json.dumps(state["presence"], ensure_ascii=False)
    assert state["presence"]["details"] == "Cribbage · deal 1 · 0–0", status
    assert "Bea" not in status and "Al" not in status and "ranked" not in status.lower()
    # Al throws from the Activity: the move is the game's (as from his hand at his place).
    codes = [card.code for card in loaded.game.hand(al_seat)[:2]]
    moved = await client.post(
        "/activity/api/act",
        json={"action": "discard", "game": record.id, "stamp": 1, "values": codes},
        headers=al,
    )
    answer = await moved.json()
    assert moved.status == 200 and answer["ok"], answer
    after = await store.get_game(record.id)
    assert after is not None and after.version > record.version
    # Bea, were she in this channel's Activity, is at no game of it: her ranked game is played
    # from her DM, and this channel has none of its own.
    bea = {"Authorization": "Bearer " + await _session(client, BEA)}
    elsewhere = await (await client.get("/activity/api/state", headers=bea)).json()
    assert elsewhere["state"]["status"] == "none", elsewhere


async def test_where_a_players_search_waits_their_table_opens_or_joins_no_other_game(
    client: TestClient[Any, Any], service: Services, store: Store
) -> None:
    await search_ranked(service, AL, CHANNEL, guild_id=GUILD)
    al = {"Authorization": "Bearer " + await _session(client, AL)}
    opened = await client.post("/activity/api/new", json={"vs_computer": True}, headers=al)
    answer = await opened.json()
    assert not answer["ok"] and answer["said"] == SEARCHING_HERE, answer
    assert await store.open_game_in_channel(CHANNEL) is None
    # Cy opens a game there: Al's table does not seat him at it.
    lobby = await service.lobbies.new_game(GUILD, CHANNEL, CY)
    assert lobby.game_id is not None
    joined = await client.post(
        "/activity/api/act", json={"action": "join", "game": lobby.game_id}, headers=al
    )
    answer = await joined.json()
    assert not answer["ok"] and answer["said"] == SEARCHING_HERE, answer
    record = await store.get_game(lobby.game_id)
    assert record is not None and record.seat_of(AL.id) is None


async def test_between_two_games_of_the_match_the_activity_shows_the_one_just_over(
    client: TestClient[Any, Any], service: Services, store: Store
) -> None:
    # Game 1 over (Bea resigned it), game 2 not dealt yet: Al's table shows his match's game
    # just over, not the channel's (none, with a new game offered that he may not open).
    record = await _matched(service, store)
    service.ranked_play.referee.stop()
    assert (await service.moves.resign(record.channel_id, BEA)).ok
    al = {"Authorization": "Bearer " + await _session(client, AL)}
    seen = await (await client.get("/activity/api/state", headers=al)).json()
    assert seen["state"]["game"] == record.id, seen
    assert seen["state"]["status"] != "none", seen


async def test_nobody_at_the_table_is_named_watching_a_ranked_game_played_apart(
    client: TestClient[Any, Any], service: Services, store: Store
) -> None:
    # Al plays his ranked game from the channel; Cy's lobby is the channel's own game, which
    # Bea's page shows. His page names nobody as watching his game (Bea sees Cy's lobby), and
    # hers is told he sees his own game, so he is not named as watching the lobby either.
    record = await _matched(service, store)
    lobby = await service.lobbies.new_game(GUILD, CHANNEL, CY)
    assert lobby.game_id is not None
    async with (
        client.ws_connect("/activity/api/live") as al,
        client.ws_connect("/activity/api/live") as bea,
    ):
        await al.send_str(json.dumps({"session": await _session(client, AL)}))
        mine = json.loads(await al.receive_str(timeout=10))["state"]
        assert mine["game"] == record.id and mine["apart"] is True, mine
        await bea.send_str(json.dumps({"session": await _session(client, BEA)}))
        first = json.loads(await bea.receive_str(timeout=10))["state"]
        assert first["game"] == lobby.game_id and "apart" not in first, first
        # A change at the channel is drawn for both pages at once: hers says who is elsewhere.
        await service.lobbies.click(lobby.game_id, "computer:easy", CY, None, guild_id=GUILD)
        while True:
            seen = json.loads(await bea.receive_str(timeout=10))["state"]
            if seen["version"] > first["version"]:
                break
        assert seen.get("elsewhere") == [str(AL.id)], seen.get("elsewhere")
