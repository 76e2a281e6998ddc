"""Game night at the Activity's server (issue 57): the presence each reader's status shows, the
lobby as the chat's (its buttons in its words, per person), *Deal everyone in* seating only the
people Discord lists in the session's instance by the names Discord gives, a finished game's
Share, and what the bot said as HTML."""

from __future__ import annotations

import doctest
import json
from collections.abc import AsyncIterator, Sequence
from types import SimpleNamespace
from typing import Any, cast

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.base import refusals
from bot.core.base.replies import User
from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord
from bot.core.messages import presence
from bot.core.services import Services
from bot.store import Store
from bot.web.activity.acts import NOBODY_ELSE
from bot.web.activity.gathering import MOST_NAMED, NOT_IN_ACTIVITY
from bot.web.activity.identity import ActivityPlace
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.bot.web.test_activity_server import SECRET, FakeDiscordSide, _session
from tests.helpers.activity_states import activity_state
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    DEE,
    GUILD,
    open_table,
    search_ranked,
)

PAGES = "https://crib.example"


class InTheCall(FakeDiscordSide):
    """Discord with Al, Bea and Cy in the instance ``i-1`` (who is in it may change), each
    named by the server as the bot sees them (their display name there), not as they signed
    in; Dee is a member Discord lists nowhere."""

    def __init__(self) -> None:
        super().__init__()
        self.here = {AL.id, BEA.id, CY.id}
        self.asked: list[list[int]] = []

    async def place(self, instance_id: str) -> ActivityPlace | None:
        if instance_id != "i-1":
            return None
        return ActivityPlace(CHANNEL, GUILD, frozenset(self.here))

    async def names(self, user_ids: Sequence[int], guild_id: int | None) -> dict[int, str]:
        self.asked.append(list(user_ids))
        known = {u.id: f"{u.name} (server)" for u in (AL, BEA, CY, DEE)}
        return {i: known[i] for i in user_ids if i in known}


@pytest.fixture
def side() -> InTheCall:
    return InTheCall()


@pytest.fixture
async def client(
    service: Services, store: Store, side: InTheCall
) -> AsyncIterator[TestClient[Any, Any]]:
    links = PageLinks(SECRET, PAGES)
    activity = ActivityServer(service, side, Sessions(SECRET), pages=links.url)
    server = WebServer(service.pages, service.feed, links, activity=activity)
    activity.start()
    async with TestClient(TestServer(server.app())) as test_client:
        yield test_client
    activity.stop()


async def _headers(client: TestClient[Any, Any], *people: User) -> dict[int, dict[str, str]]:
    return {p.id: {"Authorization": "Bearer " + await _session(client, p)} for p in people}


async def _game(service: Services) -> GameRecord:
    """The test channel's last game."""
    found = await service.games.store.last_game_in_channel(CHANNEL)
    assert found is not None
    return found


def test_the_presence_modules_examples_hold() -> None:
    assert doctest.testmod(presence).failed == 0


async def test_each_readers_status_says_the_game_and_where_it_stands(service: Services) -> None:
    await open_table(service, [AL, BEA, CY], target=61)
    record = await _game(service)
    assert record is not None
    loaded = service.games.loaded.load(record)
    al, bea = (activity_state(record, loaded, p.id)["presence"] for p in (AL, BEA))
    eve = activity_state(record, loaded, 0)["presence"]
    assert al["details"] == "Cribbage · deal 1 · 0–0–0" and al["state"] == "Playing"
    assert al["party"] == {"id": f"cribbage-{record.id}", "size": [3, 3]}
    assert al["timestamps"] == {"start": int(record.created_at * 1000)}
    assert (al["type"], eve["type"], eve["state"]) == (0, 3, "Watching")
    assert bea["party"] == al["party"]
    # Nothing private: no card, no name.
    for shown in (al, bea, eve):
        text = json.dumps(shown, ensure_ascii=False)
        assert not any(p.name in text for p in (AL, BEA, CY)), text
    # The reader's own side first: Bea's 9 before Al's 4 and Cy's 7, for her.
    view = loaded.game.public_view()
    pegged = SimpleNamespace(num_sides=3, sides=view.sides, scores=(4, 9, 7), deal_number=2)
    stub = cast(Loaded, SimpleNamespace(game=SimpleNamespace(public_view=lambda: pegged)))
    said = {p.name: presence.presence_of(record, stub, p.id) for p in (AL, BEA)}
    assert said["Al"]["details"] == "Cribbage · deal 2 · 4–9–7"  # type: ignore[index]
    assert said["Bea"]["details"] == "Cribbage · deal 2 · 9–4–7"  # type: ignore[index]
    assert presence.presence_of(record, stub, 0)["details"].endswith("4–9–7")  # type: ignore[index]
    # Over (resigned): no game open at the table, no status.
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    record = await _game(service)
    assert activity_state(record, service.games.loaded.load(record), AL.id)["presence"] is None


async def test_the_lobby_at_the_table_is_the_chats_for_each_person(
    client: TestClient[Any, Any],
) -> None:
    heads = await _headers(client, AL, BEA)
    opened = await client.post("/activity/api/new", json={"players": 2}, headers=heads[AL.id])
    state = (await opened.json())["state"]
    lobby = state["lobby"]
    assert lobby["buttons"] == [
        {"action": "leave", "label": "Leave"},
        {"action": "cancel", "label": "Cancel"},
    ]
    assert "Seated (1/2): Al" in lobby["html"] and "<strong>Join</strong>" in lobby["html"]
    assert lobby["everyone"]["4"] == "Cribbage, 4 players in two teams of two, to 121"
    page = await client.get("/activity/api/state", headers=heads[BEA.id])
    theirs = (await page.json())["state"]["lobby"]
    assert theirs["buttons"] == [{"action": "join", "label": "Join"}]
    assert theirs["everyone"] == {} and theirs["levels"] == []
    joined = await client.post(
        "/activity/api/act", json={"action": "join", "game": state["game"]}, headers=heads[BEA.id]
    )
    buttons = (await joined.json())["state"]["lobby"]["buttons"]
    assert [b["label"] for b in buttons] == ["Leave", "Start"]
    again = await client.post(
        "/activity/api/act",
        json={"action": "add_seat", "game": state["game"]},
        headers=heads[BEA.id],
    )
    refused = await again.json()
    assert not refused["ok"] and refused["said"] == refusals.ADD_SEAT_CREATOR
    grown = await client.post(
        "/activity/api/act",
        json={"action": "add_seat", "game": state["game"]},
        headers=heads[AL.id],
    )
    answer = await grown.json()
    assert answer["ok"] and "<strong>Join</strong>" in answer["said_html"]


async def test_everyone_is_dealt_in_as_discord_lists_and_names_them(
    client: TestClient[Any, Any], service: Services, side: InTheCall
) -> None:
    heads = await _headers(client, AL, BEA)
    opened = await client.post("/activity/api/new", json={"players": 2}, headers=heads[AL.id])
    game = (await opened.json())["state"]["game"]

    async def everyone(user: User, values: Any) -> Any:
        body = {"action": "everyone", "game": game, "values": values}
        return await client.post("/activity/api/act", json=body, headers=heads[user.id])

    # Malformed: 400, nothing asked of Discord.
    for junk in ("x", [1], ["-1"], ["１２"], [str(BEA.id)] * (MOST_NAMED + 1), None):
        assert (await everyone(AL, junk)).status == 400, junk
    assert side.asked == []
    # Not the opener: the lobby's own sentence.
    refused = await (await everyone(BEA, [str(BEA.id)])).json()
    assert not refused["ok"] and refused["said"] == refusals.EVERYONE_CREATOR
    # Dee is not in the call (whatever the page says) and 42 is nobody: left out.
    ids = [str(AL.id), str(DEE.id), str(BEA.id), "42", str(CY.id)]
    dealt = await (await everyone(AL, ids)).json()
    assert dealt["ok"], dealt
    assert side.asked[-1] == [AL.id, BEA.id, CY.id]
    record = await service.games.record(game)
    assert record is not None and record.status.value == "active"
    assert [s.name for s in record.seats] == ["Al", "Bea (server)", "Cy (server)"]
    # A person Discord no longer lists in the instance is refused (and seats nobody).
    side.here.discard(AL.id)
    gone = await everyone(AL, [str(BEA.id)])
    assert gone.status == 403 and (await gone.json())["said"] == NOT_IN_ACTIVITY


async def test_nobody_is_dealt_in_where_their_ranked_search_waits(
    client: TestClient[Any, Any], service: Services
) -> None:
    # Bea waits for a ranked match from this channel: as Join there is refused her, Deal
    # everyone in leaves her out (she watches).
    await search_ranked(service, BEA, CHANNEL, guild_id=GUILD)
    heads = await _headers(client, AL)
    ids = [str(AL.id), str(BEA.id), str(CY.id)]
    dealt = await client.post("/activity/api/new", json={"everyone": ids}, headers=heads[AL.id])
    answer = await dealt.json()
    assert answer["ok"], answer
    record = await _game(service)
    assert [s.name for s in record.seats] == ["Al", "Cy (server)"]
    service.ranked_play.stop()
    await service.ledger.writes.flush()


async def test_everyone_is_dealt_in_with_no_game_open(
    client: TestClient[Any, Any], service: Services, side: InTheCall
) -> None:
    heads = await _headers(client, AL)
    # The variant chosen seats two only: three at the table play the standard game.
    form = {"players": 2, "variant": "seven_card", "target": 181}
    side.here = {AL.id}
    alone = await client.post(
        "/activity/api/new", json={**form, "everyone": [str(BEA.id)]}, headers=heads[AL.id]
    )
    assert (await alone.json())["said"] == NOBODY_ELSE
    side.here = {AL.id, BEA.id, CY.id}
    ids = [str(BEA.id), str(AL.id), str(CY.id)]
    dealt = await client.post(
        "/activity/api/new", json={**form, "target": 121, "everyone": ids}, headers=heads[AL.id]
    )
    answer = await dealt.json()
    assert answer["ok"], answer
    record = await service.games.record(answer["state"]["game"])
    assert record is not None and record.status.value == "active"
    assert (record.options.variant, record.options.num_players, record.options.target) == (
        "standard",
        3,
        121,
    )
    assert [s.name for s in record.seats] == ["Al", "Bea (server)", "Cy (server)"]


async def test_a_finished_games_share_says_its_result_and_its_page(service: Services) -> None:
    await open_table(service, [AL, BEA], target=61)
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    record = await _game(service)
    assert record is not None
    loaded = service.games.loaded.load(record)
    page = f"{PAGES}/g/{record.id}/sig"
    shown = activity_state(record, loaded, AL.id, page=page)["result"]
    assert shown["share"] == f"{shown['said']}\n{page}" and "🏆" in shown["said"]
    assert "share" not in activity_state(record, loaded, AL.id, shareable=False)["result"]
    assert activity_state(record, loaded, AL.id)["result"]["share"] == shown["said"]
