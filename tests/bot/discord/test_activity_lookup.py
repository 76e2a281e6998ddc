"""What the Activity's server is told when Discord's answers are not the ones expected (issue 46).

The bot's real discord.py HTTP client asks a stand-in for Discord on this machine (an aiohttp
server answering exactly what a test says) where an Activity instance runs, and the OAuth2
calls: JSON with a charset in its ``Content-Type`` (discord.py reads only
``application/json`` exactly as JSON, and hands anything else back as text), Cloudflare's HTML,
Discord's 5xx, a 429 without ``Via``, an answer of the wrong shape, no answer at all. Each
ends as an :class:`ActivityRefused` whose sentence says what happened and what helps, and one
line in the log, never a traceback; JSON with a charset is read as the JSON it is.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.discord.activity import DISCORD_TROUBLE, DiscordActivity
from bot.discord.traffic import count_traffic
from bot.ops.metrics import Metrics
from bot.web.activity.identity import ActivityPlace, ActivityRefused

APP = 4242
INSTANCE = "i-77-gc-1-2"
GUILD, CHANNEL, AL, BEA = 1, 2, 10, 11
FOUND = {
    "application_id": str(APP),
    "instance_id": INSTANCE,
    "launch_id": "77",
    "location": {
        "id": f"gc-{GUILD}-{CHANNEL}",
        "kind": "gc",
        "channel_id": str(CHANNEL),
        "guild_id": str(GUILD),
    },
    "users": [str(AL), str(BEA)],
}
CLOUDFLARE_PAGE = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head>"
    "<body>Checking your browser before accessing discord.com.</body></html>"
)
#: A handler of the stand-in's instance route.
Answer = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _text(body: str, status: int, content_type: str) -> web.Response:
    return web.Response(body=body.encode(), status=status, headers={"Content-Type": content_type})


def _serving(body: str, status: int = 200, content_type: str = "application/json") -> Answer:
    """An answer of the stand-in: ``body`` as it is, with that status and ``Content-Type``."""

    async def answer(request: web.Request) -> web.Response:
        return _text(body, status, content_type)

    return answer


@dataclass
class Standin:
    """Discord on this machine: ``answer`` is what the instance route (and the OAuth2 token
    route) answers next; ``/users/@me`` answers the bot, for discord.py's login."""

    answer: Answer
    asked: list[str] = field(default_factory=list)

    def app(self) -> web.Application:
        async def me(request: web.Request) -> web.Response:
            bot = {"id": "99", "username": "crib", "discriminator": "0", "avatar": None}
            return web.json_response(bot)

        async def asked(request: web.Request) -> web.StreamResponse:
            self.asked.append(request.path)
            return await self.answer(request)

        app = web.Application()
        app.router.add_get("/api/v10/users/@me", me)
        app.router.add_get("/api/v10/applications/{app}/activity-instances/{instance}", asked)
        app.router.add_post("/api/v10/oauth2/token", asked)
        app.router.add_get("/api/v10/guilds/{guild}/members/{user}", asked)
        app.router.add_get("/api/v10/users/{user:\\d+}", asked)
        return app


@pytest.fixture
async def standin(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Standin]:
    found = Standin(_serving(json.dumps(FOUND)))
    server = TestServer(found.app())
    await server.start_server()
    monkeypatch.setattr(discord.http.Route, "BASE", str(server.make_url("/api/v10")))
    try:
        yield found
    finally:
        await server.close()


@pytest.fixture
async def activity(standin: Standin) -> AsyncIterator[DiscordActivity]:
    """The bot's Discord side of the Activity, on a real discord.py HTTP client logged in to
    the stand-in (no gateway: none is needed to ask REST questions)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login("a-token")
    # (The bot is in the server GUILD: it has its GUILD_CREATE.)
    guilds = {GUILD: object()}
    client: Any = SimpleNamespace(http=http, application_id=APP, get_guild=guilds.get)
    # A lookup that takes longer than this is given up (Discord's 5xx are retried meanwhile).
    found = DiscordActivity(client, "secret", lookup_within=1.0)
    try:
        yield found
    finally:
        await found.close()
        await http.close()


def _refusal_logged(caplog: pytest.LogCaptureFixture) -> str:
    """The one line logged for a refusal (no traceback with it)."""
    lines = [r for r in caplog.records if r.name == "bot.discord.activity"]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None
    return lines[0].getMessage()


async def test_an_instance_answered_as_json_with_a_charset_is_read_as_json(
    standin: Standin, activity: DiscordActivity
) -> None:
    """Before the fix: ``AttributeError: 'str' object has no attribute 'get'`` (discord.py
    hands the body back as text), and ``api/token`` answered 500."""
    standin.answer = _serving(json.dumps(FOUND), 200, "application/json; charset=utf-8")
    place = await activity.place(INSTANCE)
    assert place == ActivityPlace(CHANNEL, GUILD, frozenset({AL, BEA}))


async def _refused(asked: Awaitable[object], caplog: pytest.LogCaptureFixture) -> str:
    """What ``asked`` (a question to Discord: an instance's place, a code exchanged) ends in:
    a refusal for Discord's trouble (502), and one line logged for it; that line."""
    caplog.set_level(logging.WARNING, logger="bot.discord.activity")
    with pytest.raises(ActivityRefused) as refused:
        await asked
    assert str(refused.value) == DISCORD_TROUBLE
    assert refused.value.status == 502
    return _refusal_logged(caplog)


@pytest.mark.parametrize(
    ("status", "content_type", "body", "said"),
    [
        (200, "text/html; charset=UTF-8", CLOUDFLARE_PAGE, "<!DOCTYPE html>"),
        (403, "text/html", CLOUDFLARE_PAGE, "403"),
        (503, "application/json", '{"message": "503: Service Unavailable", "code": 0}', "503"),
        (429, "text/plain", "error code: 1015", "429"),
        (200, "application/json", '{"message": "no location", "code": 0}', "location"),
        (200, "application/json", '{"location": {"channel_id": "not a number"}}', "location"),
        (200, "application/json; charset=utf-8", "[1, 2, 3]", "location"),
        (200, "application/json; charset=utf-8", "{not json", "{not json"),
    ],
    ids=[
        "html-200",
        "cloudflare-403",
        "json-503",
        "cloudflare-429",
        "error-body-200",
        "bad-channel-200",
        "list-200",
        "broken-json-200",
    ],
)
async def test_an_answer_that_is_not_the_instance_is_a_clear_refusal_and_one_line(
    standin: Standin,
    activity: DiscordActivity,
    caplog: pytest.LogCaptureFixture,
    status: int,
    content_type: str,
    body: str,
    said: str,
) -> None:
    standin.answer = _serving(body, status, content_type)
    line = await _refused(activity.place(INSTANCE), caplog)
    assert said in line, line


async def test_a_5xx_retried_past_the_time_the_page_waits_is_a_refusal(
    standin: Standin, activity: DiscordActivity, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py retries a 500 for some 25 s (five tries, sleeping between): the page is
    answered within the lookup's own time instead."""
    error = '{"message": "500: Internal Server Error", "code": 0}'
    standin.answer = _serving(error, 500, "application/json")
    line = await _refused(activity.place(INSTANCE), caplog)
    assert "in time" in line and len(standin.asked) >= 1


async def test_no_answer_at_all_is_a_refusal_in_time(
    standin: Standin, activity: DiscordActivity, caplog: pytest.LogCaptureFixture
) -> None:
    async def hang(request: web.Request) -> web.Response:
        await asyncio.sleep(30)
        return _text(json.dumps(FOUND), 200, "application/json")

    standin.answer = hang
    line = await _refused(activity.place(INSTANCE), caplog)
    assert "in time" in line


async def test_an_instance_discord_does_not_know_is_none(
    standin: Standin, activity: DiscordActivity
) -> None:
    standin.answer = _serving('{"message": "404: Not Found", "code": 0}', 404)
    assert await activity.place(INSTANCE) is None


@pytest.mark.parametrize(
    ("status", "content_type", "body"),
    [
        (502, "text/html", "<html><body>502 Bad Gateway</body></html>"),
        (503, "application/json", '{"message": "503: Service Unavailable", "code": 0}'),
        (429, "application/json", '{"message": "You are being rate limited.", "global": false}'),
        (200, "text/html", CLOUDFLARE_PAGE),
    ],
    ids=["html-502", "json-503", "json-429", "html-200"],
)
async def test_the_code_exchange_tells_discords_trouble_from_an_expired_sign_in(
    standin: Standin,
    activity: DiscordActivity,
    caplog: pytest.LogCaptureFixture,
    status: int,
    content_type: str,
    body: str,
) -> None:
    """Discord's own trouble at its token endpoint is not the player's sign-in expiring."""
    standin.answer = _serving(body, status, content_type)
    await _refused(activity.exchange("a-code"), caplog)


def _person(
    user: int, *, nick: str | None = None, global_name: str | None = None
) -> dict[str, Any]:
    found = {"id": str(user), "username": f"user{user}", "discriminator": "0", "avatar": None}
    found["global_name"] = global_name
    return {"user": found, "nick": nick, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00"}


async def test_the_people_dealt_in_are_named_as_discord_names_them_to_the_bot(
    standin: Standin, activity: DiscordActivity, caplog: pytest.LogCaptureFixture
) -> None:
    """*Deal everyone in* seats people by the names the chat would (a member's nickname in the
    server, else their global name, else their username), asked with the bot's token; one
    Discord does not know is left out; Discord's trouble is a refusal and one line."""
    people = {AL: _person(AL, nick="Big Al"), BEA: _person(BEA, global_name="Bea")}

    async def members(request: web.Request) -> web.Response:
        found = people.get(int(request.match_info["user"]))
        if found is None:
            return web.json_response({"message": "Unknown Member", "code": 10007}, status=404)
        if "/users/" in request.path and "/members/" not in request.path:
            return web.json_response(found["user"])
        return web.json_response(found)

    standin.answer = members
    named = await activity.names([AL, 12, BEA], GUILD)
    assert named == {AL: "Big Al", BEA: "Bea"}
    assert standin.asked[0] == f"/api/v10/guilds/{GUILD}/members/{AL}"
    # Outside a server the bot is in (a DM, a group DM): the person, without a nickname.
    assert await activity.names([AL], None) == {AL: f"user{AL}"}
    assert standin.asked[-1] == f"/api/v10/users/{AL}"
    standin.answer = _serving('{"message": "503: Service Unavailable", "code": 0}', 503)
    line = await _refused(activity.names([AL], GUILD), caplog)
    assert "name lookup" in line and "503" in line


async def test_the_oauth2_calls_are_counted_with_every_request_to_discord(
    standin: Standin,
) -> None:
    """The code exchange and the person's lookup go through an HTTP session of their own:
    ``cribbage_discord_requests_total`` counts them by route and status, as it counts the
    bot's (it left them out)."""
    metrics = Metrics()
    trace = aiohttp.TraceConfig()
    count_traffic(trace, lambda: metrics)
    client: Any = SimpleNamespace(application_id=APP)
    counted = DiscordActivity(client, "secret", lookup_within=1.0, trace=trace)
    standin.answer = _serving('{"access_token": "t", "token_type": "Bearer"}')
    try:
        assert await counted.exchange("a code") == "t"
        await counted.person("t")
    finally:
        await counted.close()
    sample = metrics.registry.get_sample_value
    token = {"method": "POST", "route": "/oauth2/token", "status": "200"}
    assert sample("cribbage_discord_requests_total", token) == 1
    me = {"method": "GET", "route": "/users/@me", "status": "200"}
    assert sample("cribbage_discord_requests_total", me) == 1
