"""The app's Activity as Discord runs it: the OAuth2 code grant (token exchange, the user
lookup), activity instances, LAUNCH_ACTIVITY, the Entry Point command's rules, and the proxy."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from aiohttp import web

from fakediscord import FakeDiscord
from fakediscord.activities import CODE_LIFETIME
from fakediscord.activity_client import DISCORD_CSP
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld

TOKEN_FORM = {"Content-Type": "application/x-www-form-urlencoded"}


async def _exchange(
    fd: FakeDiscord,
    form: dict[str, str],
    *,
    basic: tuple[str, str] | None = None,
    json: bool = False,
) -> tuple[int, dict[str, Any]]:
    headers: dict[str, str] = {}
    if basic is not None:
        pair = base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
        headers["Authorization"] = f"Basic {pair}"
    async with aiohttp.ClientSession() as session:
        url = f"{fd.api_base}/oauth2/token"
        send = (
            session.post(url, json=form, headers=headers)
            if json
            else session.post(url, data=form, headers=headers)
        )
        async with send as response:
            return response.status, await response.json()


async def _get(fd: FakeDiscord, path: str, authorization: str | None) -> tuple[int, Any]:
    headers = {} if authorization is None else {"Authorization": authorization}
    async with (
        aiohttp.ClientSession() as session,
        session.get(fd.api_base + path, headers=headers) as response,
    ):
        return response.status, await response.json()


def _form(fd: FakeDiscord, code: str) -> dict[str, str]:
    return {
        "client_id": str(fd.application_id),
        "client_secret": fd.activities.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }


async def test_a_code_is_exchanged_once_for_a_token_that_names_its_user(
    fake_discord: FakeDiscord,
) -> None:
    fd = fake_discord
    fd.activities.enable("127.0.0.1:9/activity")
    al = fd.add_user("Al")
    code = fd.activities.authorize(al, str(fd.application_id), ["identify"])

    status, token = await _exchange(fd, _form(fd, code))
    assert status == 200 and token["token_type"] == "Bearer" and token["scope"] == "identify"
    assert token["expires_in"] == 604800 and token["refresh_token"]
    bearer = f"Bearer {token['access_token']}"
    status, me = await _get(fd, "/users/@me", bearer)
    assert status == 200 and me["id"] == str(al.id) and me["username"] == "Al"
    status, info = await _get(fd, "/oauth2/@me", bearer)
    assert status == 200 and info["scopes"] == ["identify"] and info["user"]["id"] == str(al.id)
    assert info["application"]["id"] == str(fd.application_id)

    # A second exchange of the code is refused, and what the first gave is revoked (RFC 6749).
    status, again = await _exchange(fd, _form(fd, code))
    assert (status, again["error"]) == (400, "invalid_grant")
    assert (await _get(fd, "/users/@me", bearer))[0] == 401


async def test_the_token_endpoint_refuses_what_discord_refuses(fake_discord: FakeDiscord) -> None:
    fd = fake_discord
    fd.activities.enable("127.0.0.1:9/activity")
    al = fd.add_user("Al")
    app = str(fd.application_id)

    def code() -> str:
        return fd.activities.authorize(al, app, ["identify"])

    wrong_secret = _form(fd, code()) | {"client_secret": "not it"}
    assert await _exchange(fd, wrong_secret) == (401, {"error": "invalid_client"})
    other_app = _form(fd, code()) | {"client_id": "1234"}
    assert (await _exchange(fd, other_app))[0] == 401
    status, body = await _exchange(fd, _form(fd, "made-up"))
    assert (status, body["error"]) == (400, "invalid_grant")
    status, body = await _exchange(fd, _form(fd, code()) | {"grant_type": "password"})
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    # JSON is not taken: the token URL reads a form only.
    status, body = await _exchange(fd, _form(fd, code()), json=True)
    assert (status, body["error"]) == (400, "invalid_request")
    # A code is short-lived.
    late = code()
    fd.clock.advance(CODE_LIFETIME + 1)
    status, body = await _exchange(fd, _form(fd, late))
    assert (status, body["error"]) == (400, "invalid_grant")

    # HTTP Basic authentication of the client works as the form's fields do, and a refresh
    # token gives a new access token (the old one stops working).
    fields = {"grant_type": "authorization_code", "code": code()}
    status, token = await _exchange(fd, fields, basic=(app, fd.activities.client_secret))
    assert status == 200
    refresh = {"grant_type": "refresh_token", "refresh_token": token["refresh_token"]}
    status, fresh = await _exchange(fd, refresh, basic=(app, fd.activities.client_secret))
    assert status == 200 and fresh["access_token"] != token["access_token"]
    assert (await _get(fd, "/users/@me", f"Bearer {token['access_token']}"))[0] == 401
    assert (await _get(fd, "/users/@me", f"Bearer {fresh['access_token']}"))[0] == 200


async def test_the_user_lookup_needs_a_live_token_with_identify(fake_discord: FakeDiscord) -> None:
    fd = fake_discord
    fd.activities.enable("127.0.0.1:9/activity")
    al = fd.add_user("Al")
    assert await _get(fd, "/users/@me", "Bearer nothing") == (
        401,
        {"message": "401: Unauthorized", "code": 0},
    )
    assert (await _get(fd, "/oauth2/@me", None))[0] == 401
    guilds_only = fd.activities.authorize(al, str(fd.application_id), ["guilds"])
    _, token = await _exchange(fd, _form(fd, guilds_only))
    bearer = f"Bearer {token['access_token']}"
    assert (await _get(fd, "/users/@me", bearer))[0] == 401
    status, info = await _get(fd, "/oauth2/@me", bearer)
    assert status == 200 and "user" not in info
    fd.clock.advance(604800 + 1)
    assert (await _get(fd, "/oauth2/@me", bearer))[0] == 401


async def test_launch_activity_opens_an_instance_only_for_an_app_with_an_activity(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    refused = await fd.slash(table.al, table.general, "/tinyplay")
    assert refused.content == "refused 400/50035" and refused.activity_instance is None

    fd.activities.enable("127.0.0.1:9/activity")
    r = await fd.slash(table.al, table.general, "/tinyplay")
    assert r.response is not None and r.response.type == 12 and r.original is None
    instance = r.activity_instance
    assert instance is not None and instance.users == [table.al]
    joined = fd.activities.join(table.bea, table.general)
    assert joined is instance and instance.users == [table.al, table.bea]

    path = f"applications/{fd.application_id}/activity-instances/{instance.id}"
    async with http.get(path) as response:
        assert response.status == 200
        found = await response.json()
    assert found["location"] == {
        "id": f"gc-{table.guild.id}-{table.general.id}",
        "kind": "gc",
        "channel_id": str(table.general.id),
        "guild_id": str(table.guild.id),
    }
    assert found["users"] == [str(table.al.id), str(table.bea.id)]
    async with http.get(f"applications/{fd.application_id}/activity-instances/i-1") as response:
        assert response.status == 404
        assert await response.json() == {"message": "404: Not Found", "code": 0}
    # The route takes the bot's token only.
    async with aiohttp.ClientSession() as anyone, anyone.get(f"{fd.api_base}/{path}") as answer:
        assert answer.status == 401
    # The instance ends with the last person to leave.
    fd.activities.leave(table.al, instance)
    fd.activities.leave(table.bea, instance)
    async with http.get(path) as response:
        assert response.status == 404


async def test_an_entry_point_command_only_as_discord_takes_it(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fd = fake_discord
    guild = fd.add_guild("Table")
    app = f"applications/{fd.application_id}"
    launch = {"name": "launch", "description": "Play", "type": 4, "handler": 1}

    async def put(path: str, commands: list[dict[str, Any]]) -> int:
        async with http.put(path, json=commands) as response:
            return response.status

    assert await put(f"{app}/commands", [launch]) == 400  # no Activity yet
    fd.activities.enable("127.0.0.1:9/activity")
    # Enabling the Activity made the default one: "launch", handled by Discord.
    assert fd.commands.entry_point() is not None
    assert fd.commands.entry_point()["handler"] == 2  # type: ignore[index]
    assert await put(f"{app}/guilds/{guild.id}/commands", [launch]) == 400  # global only
    assert await put(f"{app}/commands", [launch, launch | {"name": "other"}]) == 400
    assert await put(f"{app}/commands", [launch | {"handler": 3}]) == 400
    with_option = launch | {"options": [{"type": 3, "name": "x", "description": "x"}]}
    assert await put(f"{app}/commands", [with_option]) == 400
    slash = {"name": "game", "description": "A game", "type": 1, "handler": 1}
    assert await put(f"{app}/commands", [slash]) == 400  # a handler on a slash command
    assert await put(f"{app}/commands", [launch]) == 200
    assert fd.commands.entry_point()["handler"] == 1  # type: ignore[index]


@asynccontextmanager
async def _mapped_to(
    fd: FakeDiscord, route: str, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> AsyncIterator[None]:
    """A server of the Activity's own on a free local port, answering GET ``route`` with
    ``handler``, and fakediscord's Activity proxy mapped to its ``/activity``."""
    upstream = web.Application()
    upstream.router.add_get(route, handler)
    runner = web.AppRunner(upstream)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        await fd.enable_activity(f"127.0.0.1:{port}/activity")
        yield
    finally:
        await runner.cleanup()


async def test_the_proxy_serves_the_mapping_with_discords_content_policy(
    fake_discord: FakeDiscord,
) -> None:
    fd = fake_discord
    seen: list[str] = []

    async def page(request: web.Request) -> web.Response:
        seen.append(request.path_qs)
        return web.Response(text="<p>hello</p>", content_type="text/html")

    async with _mapped_to(fd, "/activity/{tail:.*}", page):
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{fd.activity_host.origin}/api/x?y=1") as response,
        ):
            assert response.status == 200 and await response.text() == "<p>hello</p>"
            assert response.headers.getall("Content-Security-Policy") == [DISCORD_CSP]
        assert seen == ["/activity/api/x?y=1"]


async def test_the_proxy_relays_a_sockets_close_with_a_code_a_close_frame_may_carry(
    fake_discord: FakeDiscord,
) -> None:
    # The target's own code is relayed; a target gone without a Close (seen as 1006, which
    # no Close frame may carry: RFC 6455, 7.4.1) is said as 1001, Going Away.
    fd = fake_discord

    async def live(request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        said = await socket.receive_str()
        if said == "die":
            assert request.transport is not None
            request.transport.abort()
        else:
            await socket.close(code=int(said))
        return socket

    async with _mapped_to(fd, "/activity/api/live", live):
        codes = []
        async with aiohttp.ClientSession() as session:
            for said in ("4001", "1000", "die"):
                async with session.ws_connect(f"{fd.activity_host.origin}/api/live") as socket:
                    await socket.send_str(said)
                    closed = await socket.receive()
                    assert closed.type is aiohttp.WSMsgType.CLOSE, closed
                    codes.append(closed.data)
        assert codes == [4001, 1000, 1001]
