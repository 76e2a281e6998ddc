"""The Activity's server in this process (issue 36): what each person is sent of a game, who a
page is, moves and bad input, and the live socket following the change feed."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.base.replies import Answer, TableAsked, User
from bot.core.games.games import Loaded
from bot.core.messages.lesson import COACH_FIGURES
from bot.core.services import Services
from bot.discord.game_commands import PLAYERS as _PLAYERS
from bot.discord.options import TARGET_CHOICES, VARIANT_CHOICES
from bot.store import Store
from bot.web.activity.gathering import NOT_IN_ACTIVITY
from bot.web.activity.http import NOT_UNDERSTOOD, TOO_LONG
from bot.web.activity.identity import ActivityPerson, ActivityPlace, ActivityRefused
from bot.web.activity.server import NOT_A_SOCKET, ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer
from engine.cards import Card
from engine.phase import Phase
from tests.helpers.activity_states import activity_state
from tests.helpers.card_leaks import cards_named, revealed_by
from tests.helpers.held import held
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    DEE,
    GUILD,
    Transcript,
    drive,
    open_table,
)

SECRET = "one secret that is long enough"
OTHER_CHANNEL = CHANNEL + 1


class FakeDiscordSide:
    """Discord as the Activity's server asks it: codes are ``code-<user id>``, and everyone is
    in the one instance, ``i-1``, in the test channel (``bot_in``: the bot is in the server)."""

    application_id = 424242

    def __init__(self, *, bot_in: bool = True) -> None:
        self.people = {u.id: u for u in (AL, BEA, CY)}
        self.member = bot_in
        #: The bot's DM with the people here, if the instance runs in one (None: not).
        self.dm: int | None = None
        #: The instance's server (None: a DM or group DM).
        self.guild: int | None = GUILD
        #: Who Discord lists in the instance.
        self.present = frozenset({AL.id, BEA.id})

    async def exchange(self, code: str) -> str:
        if not code.startswith("code-"):
            raise ActivityRefused("That sign-in expired.")
        return "token-" + code.removeprefix("code-")

    async def person(self, access_token: str) -> ActivityPerson:
        user = self.people[int(access_token.removeprefix("token-"))]
        return ActivityPerson(user.id, user.name, None)

    async def place(self, instance_id: str) -> ActivityPlace | None:
        if instance_id == "i-trouble":
            raise ActivityRefused("Discord is in trouble.", status=502)
        if instance_id != "i-1":
            return None
        return ActivityPlace(CHANNEL, self.guild, self.present)

    def bot_in(self, guild_id: int | None) -> bool:
        return self.member and guild_id == GUILD

    async def bots_dm(self, channel_id: int, user_id: int) -> bool:
        return self.dm is not None and channel_id == self.dm

    async def names(self, user_ids: Sequence[int], guild_id: int | None) -> dict[int, str]:
        known = {u.id: u.name for u in (AL, BEA, CY, DEE)}
        return {i: known[i] for i in user_ids if i in known}


def _known(loaded: Loaded, seat: int | None) -> set[Card]:
    """What ``seat`` (None: someone else) may know now: their own cards of this deal, and what
    the deal made public."""
    game, log = loaded.game, loaded.log
    view = game.public_view()
    known = revealed_by(log.events(view.deal_number))
    known |= {c for played in view.played for c in played}
    if view.starter is not None:
        known.add(view.starter)
    if view.count_turn is not None:
        known |= set(view.count_turn.cards)
    if seat is not None:
        mine = game.view(seat)
        known |= set(mine.hand) | set(mine.kept) | set(mine.discards)
    return known


async def test_each_person_is_sent_only_what_they_may_see(service: Services) -> None:
    table = await open_table(service, [AL, BEA], target=61, counting="manual")
    looks = {"cards": 0, "coach": 0, "hands": 0, "explained": 0}

    async def check(answer: Answer, user: User) -> None:
        record = await service.games.record(answer.game_id or 0)
        assert record is not None
        loaded = service.games.loaded.load(record)
        for reader, seat in ((AL, 0), (BEA, 1), (CY, None)):
            state = activity_state(record, loaded, reader.id)
            if loaded.game.state.phase is Phase.OVER:
                continue  # (over: every hand may be shown)
            # The coach's line names the reader's own cards of the deal before, and a show of
            # the deal before what it made public: left to the end-to-end test's history.
            text = json.dumps({k: v for k, v in state.items() if k not in ("coach", "show")})
            named = cards_named(text)
            looks["cards"] += len(named)
            leaked = named - _known(loaded, seat)
            assert not leaked, f"{reader.name} was sent {leaked}: {state}"
            if seat is None:
                assert "hand" not in state and "act" not in state and "coach" not in state
            else:
                looks["hands"] += bool(state["hand"])
                looks["coach"] += bool(state.get("coach"))
                looks["explained"] += COACH_FIGURES in (state.get("coach") or "")

    await drive(service, table, [AL, BEA], check=check)
    assert looks["cards"] > 500 and looks["hands"] > 50 and looks["coach"] > 0, looks
    # (Between people, nobody's table is a learner's: the coach's line alone.)
    assert looks["explained"] == 0, looks


async def test_a_learners_coach_line_at_the_table_says_what_its_figures_mean(
    service: Services,
) -> None:
    # One person against the easy computer alone: the table inside Discord shows the coach's
    # line as the hand message does, with what its figures mean under it.
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(vs_computer=True, level="easy", target=61)
    )
    await table.record(AL.id, opened)
    lines: list[str] = []

    async def check(answer: Answer, user: User) -> None:
        record = await service.games.record(answer.game_id or 0)
        assert record is not None
        said = activity_state(record, service.games.loaded.load(record), AL.id).get("coach")
        if said:
            lines.append(said)

    await drive(service, table, [AL], check=check)
    assert lines and all(line.endswith(f"\n{COACH_FIGURES}") for line in lines), lines


@pytest.fixture
async def client(service: Services, store: Store) -> AsyncIterator[TestClient[Any, Any]]:
    activity = ActivityServer(service, FakeDiscordSide(), Sessions(SECRET))
    limits = Capacity(connections=100, live_pages=10)
    links = PageLinks(SECRET)
    server = WebServer(service.pages, service.feed, links, activity=activity, limits=limits)
    activity.start()
    async with TestClient(TestServer(server.app())) as test_client:
        yield test_client
    activity.stop()


async def _session(client: TestClient[Any, Any], user: User) -> str:
    response = await client.post(
        "/activity/api/token", json={"code": f"code-{user.id}", "instance_id": "i-1"}
    )
    answer = await response.json()
    assert response.status == 200, answer
    assert answer["access_token"] == f"token-{user.id}"
    return str(answer["session"])


async def _signed(client: TestClient[Any, Any], user: User) -> dict[str, str]:
    """The headers of ``user``'s requests: a session the page was given for them."""
    return {"Authorization": "Bearer " + await _session(client, user)}


async def _dealt_for_two(
    client: TestClient[Any, Any],
) -> tuple[dict[str, str], int, dict[str, Any]]:
    """A new game with /cribbage new's choices (two players, to 61) opened by Al; Bea takes a
    seat; Al deals: Al's headers, the game's id and the answer to the deal."""
    al, bea = await _signed(client, AL), await _signed(client, BEA)
    opened = await client.post("/activity/api/new", json={"players": 2, "target": 61}, headers=al)
    state = (await opened.json())["state"]
    assert state["status"] == "lobby" and state["lobby"]["creator"]
    game = state["game"]
    joined = await (
        await client.post("/activity/api/act", json={"action": "join", "game": game}, headers=bea)
    ).json()
    assert joined["ok"] and joined["state"]["lobby"]["seated"]
    dealt = await (
        await client.post("/activity/api/act", json={"action": "start", "game": game}, headers=al)
    ).json()
    assert dealt["ok"], dealt
    return al, game, dealt


async def test_a_page_is_who_discord_says_it_is_and_no_one_else(
    client: TestClient[Any, Any],
) -> None:
    token = "/activity/api/token"
    refused = await client.post(token, json={"code": "stolen", "instance_id": "i-1"})
    assert refused.status == 403 and (await refused.json())["said"] == "That sign-in expired."
    elsewhere = await client.post(token, json={"code": f"code-{AL.id}", "instance_id": "i-9"})
    assert elsewhere.status == 403 and (await elsewhere.json())["said"] == NOT_IN_ACTIVITY
    # Discord's trouble (tests/bot/discord/test_activity_lookup.py) is said with its status.
    trouble = await client.post(token, json={"code": f"code-{AL.id}", "instance_id": "i-trouble"})
    assert trouble.status == 502 and (await trouble.json())["said"] == "Discord is in trouble."
    # Cy is not in the Activity Discord lists: no session for him.
    outsider = await client.post(token, json={"code": f"code-{CY.id}", "instance_id": "i-1"})
    assert outsider.status == 403
    for junk in (b"", b"[]", b'{"code": 5}', b"\xff" * 10, b'{"code": "x"}'):
        answer = await client.post(token, data=junk)
        assert answer.status == 400, junk
    session = await _session(client, AL)
    state = await client.get("/activity/api/state", headers={"Authorization": "Bearer " + session})
    assert state.status == 200 and (await state.json())["state"]["status"] == "none"
    for wrong in ("", "Bearer ", "Bearer " + session[:-3] + "abc", session):
        answer = await client.get("/activity/api/state", headers={"Authorization": wrong})
        assert answer.status == 401
    page = await client.get("/activity/")
    assert page.status == 200 and 'data-client-id="424242"' in await page.text()
    assert "frame-ancestors 'self' https://discord.com" in page.headers["Content-Security-Policy"]


async def test_a_session_header_whose_bytes_are_not_utf8_is_no_session(
    client: TestClient[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """An ``Authorization`` header whose bytes are not UTF-8 (aiohttp hands them on as lone
    surrogates) is no session: 401 in a sentence, as any token not ours. It was a 500 and a
    traceback: the token's text could not be encoded to check its signature."""
    for header in (b"Bearer \xff\xfe.x", b"Bearer \xed\xa0\x80.x", b"Bearer e30.\xff"):
        reader, writer = await asyncio.open_connection(client.host, client.port)
        writer.write(
            b"GET /activity/api/state HTTP/1.1\r\nHost: table\r\nConnection: close\r\n"
            b"Authorization: " + header + b"\r\n\r\n"
        )
        answer = await asyncio.wait_for(reader.read(), 10)
        writer.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 401 "), (header, head)
        assert json.loads(body) == {"ok": False, "said": "Your session ended: opening again."}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_json_nested_deeper_than_python_reads_is_not_understood(
    client: TestClient[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """A body, or a live page's hello, of JSON nested a thousand deep or more (it fits in the
    4 KB taken) is refused as any other that is not a JSON object: 400 in a sentence, the
    socket closed with 4001. It was a 500 and a traceback: Python's JSON reader raises
    RecursionError there, not ValueError."""
    al = await _signed(client, AL)
    for deep in (b"[" * 2000 + b"]" * 2000, b'{"action":[' * 360):
        for route in ("act", "new", "token"):
            answer = await client.post(f"/activity/api/{route}", data=deep, headers=al)
            said = await answer.json()
            assert answer.status == 400 and said == {"ok": False, "said": NOT_UNDERSTOOD}
        async with client.ws_connect("/activity/api/live") as socket:
            await socket.send_str(deep.decode())
            closed = await socket.receive(timeout=10)
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4001
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_body_too_long_and_a_live_table_not_opened_as_a_socket_are_told_in_json(
    client: TestClient[Any, Any],
) -> None:
    """A body longer than the 4 KB taken is refused as every other request the page sends:
    ``{"ok": false, "said": ...}`` with a sentence (413), and so is ``api/live`` asked for as a
    plain page (400). They were aiohttp's plain text, which named byte counts or the
    handshake's headers over two lines."""
    al = await _signed(client, AL)
    for route in ("act", "new", "token"):
        answer = await client.post(f"/activity/api/{route}", data=b" " * 5000, headers=al)
        assert answer.status == 413 and answer.content_type == "application/json"
        assert await answer.json() == {"ok": False, "said": TOO_LONG}
    plain = await client.get("/activity/api/live", headers=al)
    assert plain.status == 400 and plain.content_type == "application/json"
    assert await plain.json() == {"ok": False, "said": NOT_A_SOCKET}


async def test_a_wrong_method_or_an_unknown_request_is_told_in_json(
    client: TestClient[Any, Any],
) -> None:
    """The API answers a method its address does not take (405, with Allow) and an address it
    does not have (404) as it answers every refusal, in JSON with a sentence; they were
    aiohttp's plain text. Pages outside the API keep the HTML 404."""
    al = await _signed(client, AL)
    wrong = await client.get("/activity/api/act", headers=al)
    assert wrong.status == 405 and wrong.content_type == "application/json"
    assert wrong.headers["Allow"] == "POST"
    assert await wrong.json() == {"ok": False, "said": NOT_UNDERSTOOD}
    also_wrong = await client.delete("/activity/api/state", headers=al)
    assert also_wrong.status == 405 and await also_wrong.json() == {
        "ok": False,
        "said": NOT_UNDERSTOOD,
    }
    unknown = await client.post("/activity/api/nothing", json={}, headers=al)
    assert unknown.status == 404 and await unknown.json() == {"ok": False, "said": NOT_UNDERSTOOD}
    page = await client.get("/activity/nothing")
    assert page.status == 404 and page.content_type == "text/html"


async def test_moves_from_the_table_go_through_the_core(
    service: Services, client: TestClient[Any, Any]
) -> None:
    # A new game with /cribbage new's choices; Bea takes a seat; Al deals.
    al, game, dealt = await _dealt_for_two(client)
    act = dealt["state"]["act"]
    assert dealt["ok"] and act["kind"] == "discard" and len(dealt["state"]["hand"]) == 6
    mine = [card["code"] for card in dealt["state"]["hand"]]
    # Bad input gets a short answer and changes nothing.
    for body in (
        {"action": "discard", "game": game, "stamp": act["stamp"], "values": mine[:1]},
        {"action": "discard", "game": game, "stamp": act["stamp"] + 1, "values": mine[:2]},
        {"action": "play", "game": game, "stamp": 0, "values": [mine[0]]},
    ):
        answer = await (await client.post("/activity/api/act", json=body, headers=al)).json()
        assert answer["ok"] is False and answer["said"], body
    for body in (
        {"action": "discard", "game": game, "stamp": "1", "values": mine[:2]},
        {"action": "discard", "game": game, "stamp": 1, "values": "5H JD"},
        {"action": "fold", "game": game},
        {"action": "play", "game": -1, "stamp": 1, "values": []},
    ):
        answer = await client.post("/activity/api/act", json=body, headers=al)
        assert answer.status == 400, body
    record = await service.games.record(game)
    assert record is not None and record.version == dealt["state"]["version"]
    # The move itself: the core applied it (the game's version moved on).
    body = {"action": "discard", "game": game, "stamp": act["stamp"], "values": mine[:2]}
    thrown = await (await client.post("/activity/api/act", json=body, headers=al)).json()
    assert thrown["ok"] and len(thrown["state"]["hand"]) == 4
    assert thrown["state"]["act"] is None and thrown["state"]["version"] > record.version


def _actions(lobby: dict[str, Any]) -> list[str]:
    """The lobby's buttons a page offers its person, by action."""
    return [button["action"] for button in lobby["buttons"]]


async def test_partners_are_named_and_changed_at_the_table_by_the_games_opener(
    service: Services, client: TestClient[Any, Any]
) -> None:
    people = {user.id: await _signed(client, user) for user in (AL, BEA)}

    async def act(user: User, action: str, game: int) -> dict[str, Any]:
        body = {"action": action, "game": game}
        answer = await client.post("/activity/api/act", json=body, headers=people[user.id])
        return dict(await answer.json())

    opened = await client.post(
        "/activity/api/new", json={"players": 4, "target": 121}, headers=people[AL.id]
    )
    game = (await opened.json())["state"]["game"]
    lobby = (await act(BEA, "join", game))["state"]["lobby"]
    await service.lobbies.join(CHANNEL, CY)  # in the chat
    # Not full yet: no teams to name, nothing to change.
    assert lobby["partners"] is None and "partners" not in _actions(lobby)
    refused = await act(AL, "partners", game)
    assert not refused["ok"] and "once every seat is taken" in refused["said"]
    await service.lobbies.join(CHANNEL, DEE)
    seen = {}
    for user in (AL, BEA):
        page = await client.get("/activity/api/state", headers=people[user.id])
        seen[user.id] = (await page.json())["state"]["lobby"]
    assert seen[AL.id]["partners"] == seen[BEA.id]["partners"] == "Al & Cy against Bea & Dee"
    assert "partners" in _actions(seen[AL.id]) and "partners" not in _actions(seen[BEA.id])
    # Only the game's opener may change them; a refusal changes nothing.
    before = await service.games.record(game)
    refused = await act(BEA, "partners", game)
    assert not refused["ok"] and "opened this game" in refused["said"]
    assert await service.games.record(game) == before
    changed = await act(AL, "partners", game)
    assert changed["ok"] and changed["said"].startswith("Partners now: Al & Dee against Cy & Bea.")
    assert changed["state"]["lobby"]["partners"] == "Al & Dee against Cy & Bea"
    record = await service.games.record(game)
    assert record is not None and [s.name for s in record.seats] == ["Al", "Cy", "Dee", "Bea"]


async def test_a_new_game_is_opened_here_only_where_the_bot_may_post(
    service: Services, store: Store
) -> None:
    activity = ActivityServer(service, FakeDiscordSide(bot_in=False), Sessions(SECRET))
    server = WebServer(service.pages, service.feed, PageLinks(SECRET), activity=activity)
    async with TestClient(TestServer(server.app())) as client:
        al = await _signed(client, AL)
        state = await (await client.get("/activity/api/state", headers=al)).json()
        assert state["state"]["open"]["here"] is False
        body = {"players": 3, "target": 61}
        answer = await client.post("/activity/api/new", json=body, headers=al)
        said = (await answer.json())["said"]
        assert answer.status == 409 and "`/cribbage new players:3 target:61`" in said
        pairs = {"players": 6, "target": 61, "variant": "six_hand_pairs"}
        answer = await client.post("/activity/api/new", json=pairs, headers=al)
        said = (await answer.json())["said"]
        line = "`/cribbage new players:6 target:61 variant:six_hand_pairs`"
        assert answer.status == 409 and line in said, said
    assert await service.games.store.open_game_in_channel(CHANNEL) is None


async def test_a_live_page_follows_moves_made_anywhere(
    service: Services, client: TestClient[Any, Any]
) -> None:
    table = await open_table(service, [AL, BEA], target=61)
    game = table.outcomes[0].game_id
    async with client.ws_connect("/activity/api/live") as socket:
        await socket.send_str(json.dumps({"session": await _session(client, BEA)}))
        first = json.loads(await socket.receive_str(timeout=10))["state"]
        assert first["game"] == game and first["act"]["kind"] == "discard"
        # Al throws in the chat (the core's command call): Bea's page is told.
        hand = [c.code for c in (await _hand(service, game or 0, 0))]
        moved = await service.moves.discard(CHANNEL, AL, " ".join(hand[:2]))
        assert moved.ok
        after = json.loads(await socket.receive_str(timeout=10))["state"]
        assert after["version"] > first["version"]
        assert [s["waiting"] for s in after["seats"]] == [False, True]
    # A socket that does not say whose it is is closed.
    async with client.ws_connect("/activity/api/live") as socket:
        await socket.send_str(json.dumps({"session": "forged.x"}))
        closed = await socket.receive(timeout=10)
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4001


@contextlib.asynccontextmanager
async def _live_table(
    service: Services, discord: FakeDiscordSide
) -> AsyncIterator[tuple[ActivityServer, TestClient[Any, Any], int]]:
    """The Activity following the feed behind the web server, and a game just dealt to Al and
    Bea in the test channel (its id)."""
    activity = ActivityServer(service, discord, Sessions(SECRET))
    limits = Capacity(connections=100, live_pages=10)
    server = WebServer(
        service.pages, service.feed, PageLinks(SECRET), activity=activity, limits=limits
    )
    table = await open_table(service, [AL, BEA], target=61)
    activity.start()
    try:
        async with TestClient(TestServer(server.app())) as client:
            yield activity, client, table.outcomes[0].game_id or 0
    finally:
        activity.stop()


async def test_a_move_made_while_a_live_page_opens_is_shown_on_it(
    service: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Al discards as Bea's live page reads its first look: the look drawn for the move is
    not overwritten by that first one, read before it, for good (it was, and Bea's page said
    it waited on Al until the next move, which was hers to make)."""
    async with _live_table(service, FakeDiscordSide()) as (activity, client, game):
        session = await _session(client, BEA)
        draws = service.pages.activity
        reached, go_on = held(monkeypatch, service.pages, "activity", answered=True)
        async with client.ws_connect("/activity/api/live") as socket:
            await socket.send_str(json.dumps({"session": session}))
            await reached.wait()
            monkeypatch.setattr(service.pages, "activity", draws)  # (the first look's alone)
            hand = [c.code for c in (await _hand(service, game, 0))]
            assert (await service.moves.discard(CHANNEL, AL, " ".join(hand[:2]))).ok
            await activity._patrol.idle()  # (the look drawn for the move was given)
            moved = await service.games.record(game)
            assert moved is not None
            go_on.set()
            # (The first look, read before the move, may come first: the move's comes.)
            look = json.loads(await socket.receive_str(timeout=10))["state"]
            if look["version"] < moved.version:
                look = json.loads(await socket.receive_str(timeout=10))["state"]
            assert look["version"] == moved.version
            assert [s["waiting"] for s in look["seats"]] == [False, True]


async def test_a_page_opened_while_the_table_is_drawn_for_others_keeps_its_own_look(
    service: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bea opens her live page while the table is drawn for a change for those watching
    already (Cy, who does not play): that draw, for readers she was not among, gives her
    nothing (it gave her the watchers' look, without her hand, over her own first look, until
    the next change)."""
    discord = FakeDiscordSide()
    discord.present |= {CY.id}
    async with _live_table(service, discord) as (activity, client, game):
        watching = await client.ws_connect("/activity/api/live")
        await watching.send_str(json.dumps({"session": await _session(client, CY)}))
        await watching.receive_str(timeout=10)
        session = await _session(client, BEA)
        draws = service.pages.activity
        reached, go_on = held(monkeypatch, service.pages, "activity", answered=True)
        hand = [c.code for c in (await _hand(service, game, 0))]
        assert (await service.moves.discard(CHANNEL, AL, " ".join(hand[:2]))).ok
        await reached.wait()  # (the table drawn for Cy, held)
        monkeypatch.setattr(service.pages, "activity", draws)
        async with client.ws_connect("/activity/api/live") as socket:
            await socket.send_str(json.dumps({"session": session}))
            first = json.loads(await socket.receive_str(timeout=10))["state"]
            assert first["act"]["kind"] == "discard", "her own look"
            go_on.set()
            await activity._patrol.idle()
            hand = [c.code for c in (await _hand(service, game, 1))]
            assert (await service.moves.discard(CHANNEL, BEA, " ".join(hand[:2]))).ok
            moved = await service.games.record(game)
            assert moved is not None
            look = json.loads(await socket.receive_str(timeout=10))["state"]
            assert look["version"] == moved.version, "the next look is the move's"
        await watching.close()


async def test_a_live_page_that_goes_leaves_no_task_behind(
    service: Services, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A live page closed by its reader ends its handler, cancelled in its wait (aiohttp's
    test server cancels a handler whose connection is lost), with nothing left pending: the
    wait for news was left behind, and the loop logged "Task was destroyed but it is
    pending!" as an error once it was collected."""
    activity = ActivityServer(service, FakeDiscordSide(), Sessions(SECRET))
    limits = Capacity(connections=100, live_pages=10)
    links = PageLinks(SECRET)
    server = WebServer(service.pages, service.feed, links, activity=activity, limits=limits)
    async with TestClient(TestServer(server.app())) as client:
        session = await _session(client, AL)
        before = asyncio.all_tasks()

        def pending() -> list[asyncio.Task[Any]]:
            """The tasks begun for the live pages that have not ended."""
            here = asyncio.current_task()
            return [t for t in asyncio.all_tasks() - before if t is not here and not t.done()]

        for _ in range(3):
            async with client.ws_connect("/activity/api/live") as socket:
                await socket.send_str(json.dumps({"session": session}))
                assert (await socket.receive(timeout=10)).type is aiohttp.WSMsgType.TEXT
        # Each step of the loop lets the handlers go on: wait until the pages have gone and
        # every task begun for them has ended (or ten seconds have passed).
        loop = asyncio.get_running_loop()
        ends = loop.time() + 10
        while (activity.watching or pending()) and loop.time() < ends:
            await asyncio.sleep(0)
        assert activity.watching == 0
        assert not pending(), pending()
        gc.collect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def _hand(service: Services, game_id: int, seat: int) -> tuple[Card, ...]:
    record = await service.games.record(game_id)
    assert record is not None
    return service.games.loaded.load(record).game.view(seat).hand


async def test_a_page_sees_only_its_own_channel(
    service: Services, client: TestClient[Any, Any]
) -> None:
    other = await service.lobbies.new_game(
        GUILD, OTHER_CHANNEL, CY, TableAsked(players=2, target=61)
    )
    assert other.ok and other.game_id is not None
    al = await _signed(client, AL)
    state = await (await client.get("/activity/api/state", headers=al)).json()
    assert state["state"]["game"] is None
    body = {"action": "join", "game": other.game_id}
    answer = await (await client.post("/activity/api/act", json=body, headers=al)).json()
    assert answer == {"ok": False, "said": "That game is not at this table."}


async def test_a_new_game_offers_and_opens_every_variant(
    service: Services, client: TestClient[Any, Any]
) -> None:
    """With no game at the table, the page is offered what ``/cribbage new`` offers: every
    variant with its players and lengths of game (and how six sit); a game opened in one is
    named at the table as its lobby in the chat names it; a combination the variant does not
    offer gets its one sentence and opens nothing."""
    al = await _signed(client, AL)
    state = (await (await client.get("/activity/api/state", headers=al)).json())["state"]
    offered = {v["name"]: v for v in state["open"]["variants"]}
    assert list(offered) == [v.value for v in VARIANT_CHOICES]
    assert {n for v in offered.values() for n in v["seats"]} == {c.value for c in _PLAYERS}
    assert {t for v in offered.values() for t in v["targets"]} == {c.value for c in TARGET_CHOICES}
    assert offered["seven_card"]["targets"] == [181] and not offered["seven_card"]["skunk"]
    assert offered["six_hand"]["teams"] == {"6": "two teams of three"}
    assert offered["six_hand_pairs"]["teams"] == {"6": "three teams of two"}
    for body, said in (
        ({"players": 3, "variant": "seven_card", "target": 181}, "is for 2 players"),
        ({"variant": "seven_card", "target": 121}, "is played to 181"),
        ({"variant": "chess"}, "chess"),
    ):
        answer = await (await client.post("/activity/api/new", json=body, headers=al)).json()
        assert answer["ok"] is False and said in answer["said"], (body, answer)
    assert await service.games.store.open_game_in_channel(CHANNEL) is None
    body = {"players": 6, "variant": "six_hand", "target": 61}
    opened = await (await client.post("/activity/api/new", json=body, headers=al)).json()
    state = opened["state"]
    assert opened["ok"] and state["status"] == "lobby", opened
    assert state["options"]["kind"] == "Six-hand cribbage, 6 players in two teams of three, to 61"
    assert state["options"]["title"] == "Six-hand cribbage"
    assert state["options"]["teams"] == "two teams of three"
    assert "variants" not in state["open"], "the choices are sent only where they are shown"
    record = await service.games.store.open_game_in_channel(CHANNEL)
    assert (
        record is not None and record.options.variant == "six_hand" and record.options.target == 61
    )


async def test_a_results_rematch_at_the_table_opens_it_where_the_bot_may_post(
    service: Services, store: Store, client: TestClient[Any, Any]
) -> None:
    # The table offers the chat's Rematch on the result; tapped, it opens the rematch (the
    # table goes to its lobby), and where the bot may not post it says to press it in the chat.
    table = await open_table(service, [AL, BEA])
    game = table.outcomes[0].game_id
    assert game is not None and (await service.moves.resign(CHANNEL, BEA)).ok
    al = await _signed(client, AL)
    state = (await (await client.get("/activity/api/state", headers=al)).json())["state"]
    assert state["rematch"] == {"label": "Rematch", "series": None}
    # Someone who watched is offered no button its press would only refuse them.
    record = await service.games.record(game)
    assert record is not None
    watching = activity_state(record, service.games.loaded.load(record), CY.id)
    assert watching["rematch"] == {"label": None, "series": None}
    body = {"action": "rematch", "game": game}
    elsewhere = ActivityServer(service, FakeDiscordSide(bot_in=False), Sessions(SECRET))
    server = WebServer(service.pages, service.feed, PageLinks(SECRET), activity=elsewhere)
    async with TestClient(TestServer(server.app())) as outside:
        headers = await _signed(outside, AL)
        answer = await outside.post("/activity/api/act", json=body, headers=headers)
        assert answer.status == 409 and "press **Rematch**" in (await answer.json())["said"]
    opened = await (await client.post("/activity/api/act", json=body, headers=al)).json()
    assert opened["ok"] and opened["state"]["status"] == "lobby", opened
    assert (
        opened["state"]["game"] != game
        and "Al leads the series" in opened["state"]["lobby"]["html"]
    )


async def test_a_hint_at_the_table_is_said_to_the_asker_alone_and_changes_nothing(
    service: Services, client: TestClient[Any, Any]
) -> None:
    # Two people at a table whose opener did not allow hints: no Hint, and asking is refused.
    al, game, dealt = await _dealt_for_two(client)
    act = dealt["state"]["act"]
    assert act["kind"] == "discard" and act["hint"] is False
    body = {"action": "hint", "game": game, "stamp": act["stamp"]}
    refused = await (await client.post("/activity/api/act", json=body, headers=al)).json()
    assert refused["ok"] is False and "hint" in refused["said"].lower()
    assert "hint" not in refused
    record = await service.games.record(game)
    assert record is not None and record.version == dealt["state"]["version"]


async def test_alone_against_the_computer_a_hint_at_the_table_says_the_experts_discard(
    client: TestClient[Any, Any],
) -> None:
    al = await _signed(client, AL)
    alone = await client.post(
        "/activity/api/new",
        json={"players": 2, "vs_computer": True, "difficulty": "easy"},
        headers=al,
    )
    state = (await alone.json())["state"]
    if state["status"] == "lobby":
        body = {"action": "start", "game": state["game"]}
        state = (await (await client.post("/activity/api/act", json=body, headers=al)).json())[
            "state"
        ]
    act = state["act"]
    assert act["kind"] == "discard" and act["hint"] is True
    body = {"action": "hint", "game": state["game"], "stamp": act["stamp"]}
    hinted = await (await client.post("/activity/api/act", json=body, headers=al)).json()
    assert hinted["ok"] and hinted["hint"] is True
    assert hinted["said"].startswith("💡 Hint: keep ")
    assert hinted["state"]["version"] == state["version"]
    assert cards_named(hinted["said"]) <= {Card.parse(c["code"]) for c in state["hand"]}
