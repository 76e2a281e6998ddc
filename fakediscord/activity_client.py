"""A stand-in for the Discord client that hosts the app's Activity, on the app's own origin.

On Discord the Activity runs in an iframe at ``https://<app id>.discordsays.com``, a proxy that
forwards every request to the app's URL mappings, and the client around it answers the
Embedded App SDK's messages (``postMessage``). This server is both, on a port of its own:

- ``/.fakediscord/client?session=...`` is the client's page for one person in one instance
  (:meth:`Activities.client_session`): it puts the Activity in an iframe (``/?instance_id=...
  &frame_id=...&platform=...``) and answers the SDK as its own source says the client does
  (``client.js``: the handshake, ``READY``, ``AUTHORIZE``, ``AUTHENTICATE``, subscriptions,
  ``CAPTURE_LOG``, ``CLOSE``);
- ``/.fakediscord/authorize`` and ``/.fakediscord/authenticate`` are what that page asks of
  Discord for the SDK's ``authorize`` (a code for the person) and ``authenticate`` (the token
  checked, the person and the app);
- every other path goes to the root mapping's target, HTTP and WebSocket alike, with a
  content security policy that lets the Activity reach only its own origin and the hosts
  Discord's documentation lists as exceptions.

The page and the Activity share this origin (the SDK takes messages from its own origin, and
from Discord's); :meth:`ActivityHost.drop_connections` cuts every proxied WebSocket, as a
network that drops does.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
from importlib import resources
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from fakediscord.activities import Instance, OAuthError
from fakediscord.activity_rpc import INVALID_COMMAND, INVALID_EVENT, PARTICIPANTS_UPDATE
from fakediscord.errors import Refusal

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

__all__ = ["DISCORD_CSP", "ActivityHost"]

#: What Discord's proxy lets an Activity reach: its own origin, and the exceptions "Local
#: Development" lists (discord.com's API and the CDN's attachments, avatars and icons).
DISCORD_CSP = (
    "default-src 'self' https://discord.com/api/ https://canary.discord.com/api/"
    " https://ptb.discord.com/api/ https://cdn.discordapp.com/attachments/"
    " https://cdn.discordapp.com/avatars/ https://cdn.discordapp.com/icons/"
    " https://media.discordapp.net/attachments/ https://media.discordapp.net/avatars/"
    " https://media.discordapp.net/icons/ data: blob:;"
    " script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'"
)
#: Request headers not passed on (hop by hop, or the proxy's own).
_HOP = frozenset(
    {
        "host",
        "connection",
        "keep-alive",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "content-length",
        "accept-encoding",
    }
)
_PREFIX = "/.fakediscord/"


def _client_page(config: dict[str, Any]) -> str:
    data = html.escape(json.dumps(config), quote=True)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        # No icon to fetch (the stand-in client has none; a browser asks for /favicon.ico).
        "<link rel='icon' href='data:,'>"
        "<title>Discord (fakediscord)</title><style>"
        "html,body{margin:0;height:100%;background:#1e1f22}"
        "body{display:flex;flex-direction:column}"
        "iframe{border:0;width:100%;flex:1 1 auto;min-height:0;display:block}"
        # What the Discord client would show around the Activity (the playground's): the
        # person's status, the dialog an Activity opened, the link shared.
        "#discord{flex:none;max-height:35%;overflow:auto;padding:6px 10px;color:#dbdee1;"
        "font:13px/1.4 system-ui,sans-serif;border-top:1px solid #3f4147;background:#2b2d31}"
        "#discord p{margin:2px 0}#discord .dialog{padding:6px 8px;margin-top:4px;"
        "border-radius:6px;background:#383a40;overflow-wrap:anywhere}"
        "#discord button{margin-left:8px}</style></head>"
        f"<body data-client='{data}'><script src='/.fakediscord/client.js'></script>"
        "</body></html>"
    )


class ActivityHost:
    """The app's ``discordsays.com`` origin: the stand-in client and the proxy (started by
    :meth:`FakeDiscord.start` once the app has an Activity, or by :meth:`start`)."""

    def __init__(self, fd: FakeDiscord) -> None:
        self._fd = fd
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self.port = 0
        self._sockets: set[web.WebSocketResponse] = set()
        #: Each instance's stand-in clients listening for its events.
        self._listening: dict[str, set[web.WebSocketResponse]] = {}
        self._pushing: set[asyncio.Task[None]] = set()
        fd.activities.on_participants.append(self._participants_changed)
        #: While set, the proxy refuses new WebSockets (the network is down).
        self.refusing = False
        #: What each stand-in client was told by its Activity with ``CLOSE`` (for tests).
        self.closed: list[dict[str, Any]] = []
        #: Whether the stand-in client shows, under the Activity, what the Discord client
        #: would around it: the person's status as the app set it, the invite or share dialog
        #: the Activity opened, the link shared (the playground's, so that a newcomer sees game
        #: night work; off for the tests, whose pages are the Activity's size alone).
        self.shows_discord = False

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``: the Activity's origin."""
        return f"http://{self._fd.host}:{self.port}"

    def client_url(self, session: str, *, platform: str = "desktop") -> str:
        """The stand-in client's page for a session (``platform``: ``desktop`` or ``mobile``)."""
        return f"{self.origin}{_PREFIX}client?session={session}&platform={platform}"

    async def start(self) -> None:
        """Serve the origin (a free port)."""
        if self._runner is not None:
            return
        app = web.Application()
        app.router.add_get(_PREFIX + "client", self._client)
        app.router.add_get(_PREFIX + "client.js", self._script)
        app.router.add_post(_PREFIX + "authorize", self._authorize)
        app.router.add_post(_PREFIX + "authenticate", self._authenticate)
        app.router.add_post(_PREFIX + "closed", self._closed)
        app.router.add_post(_PREFIX + "command", self._command)
        app.router.add_get(_PREFIX + "events", self._events)
        app.router.add_route("*", "/{tail:.*}", self._proxy)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._fd.host, 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self._session = aiohttp.ClientSession(auto_decompress=False)

    async def close(self) -> None:
        """Stop serving; close every proxied connection and every client's events."""
        await self.drop_connections()
        for listening in self._listening.values():
            for socket in tuple(listening):
                with contextlib.suppress(Exception):
                    await socket.close()
        self._listening.clear()
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def drop_connections(self, *, refuse: bool = False) -> None:
        """Cut every WebSocket the proxy carries (the Activity's side sees the connection
        drop, code 1006, as over a network that failed); ``refuse``: and refuse new ones
        until :meth:`reconnect` (the network stays down)."""
        self.refusing = refuse
        for socket in list(self._sockets):
            with contextlib.suppress(Exception):
                transport = socket._req.transport if socket._req is not None else None
                if transport is not None:
                    transport.abort()
        self._sockets.clear()

    def reconnect(self) -> None:
        """Take new WebSockets again (the network is back)."""
        self.refusing = False

    # -- the client ----------------------------------------------------------------------------
    def _session_of(self, request: web.Request, session: str) -> Any:
        found = self._fd.activities.client_of(session)
        if found is None:
            raise web.HTTPUnauthorized(text="no such client session")
        return found

    async def _client(self, request: web.Request) -> web.Response:
        session = request.query.get("session", "")
        user, instance = self._session_of(request, session)
        platform = request.query.get("platform", "desktop")
        if platform not in ("desktop", "mobile"):
            raise web.HTTPBadRequest(text="platform is desktop or mobile")
        frame_id = secrets.token_hex(8)
        config = {
            "session": session,
            "client_id": str(self._fd.application_id),
            "frame_id": frame_id,
            "query": self._fd.activities.frame_query(instance, frame_id, platform),
            "user": {"id": str(user.id), "username": user.name, "discriminator": "0"},
            "shows": self.shows_discord,
        }
        return web.Response(text=_client_page(config), content_type="text/html")

    async def _script(self, request: web.Request) -> web.Response:
        text = resources.files("fakediscord").joinpath("client.js").read_text()
        return web.Response(text=text, content_type="text/javascript")

    async def _authorize(self, request: web.Request) -> web.Response:
        body = await request.json()
        user, _instance = self._session_of(request, str(body.get("session", "")))
        scopes = body.get("scope") or []
        try:
            code = self._fd.activities.authorize(
                user, str(body.get("client_id", "")), [str(s) for s in scopes]
            )
        except OAuthError as error:
            # (Answered 200: a refusal is the client's to relay, not the browser's to log as a
            # resource that failed to load.)
            return web.json_response({"refused": error.body()})
        return web.json_response({"code": code})

    async def _authenticate(self, request: web.Request) -> web.Response:
        body = await request.json()
        self._session_of(request, str(body.get("session", "")))
        token = str(body.get("access_token", ""))
        access = self._fd.activities.bearer(f"Bearer {token}")
        if access is None:
            refused = Refusal.UNAUTHORIZED
            return web.json_response(refused.error().body(), status=refused.status)
        info = self._fd.activities.authorization_info(access)
        user = info.get("user") or {}
        return web.json_response(
            {
                "access_token": token,
                "user": {
                    "id": user.get("id", str(access.user.id)),
                    "username": user.get("username", access.user.name),
                    "discriminator": "0",
                    "global_name": user.get("global_name"),
                    "avatar": None,
                    "public_flags": 0,
                },
                "scopes": info["scopes"],
                "expires": info["expires"],
                "application": {
                    "id": info["application"]["id"],
                    "name": info["application"]["name"],
                    "description": "",
                    "icon": None,
                },
            }
        )

    async def _command(self, request: web.Request) -> web.Response:
        """A command of the SDK's beyond the sign-in, from ``session``'s client, authenticated
        with ``token`` (none yet: null): :meth:`ActivityCommands.answer`, or 4002 for one this
        client does not support."""
        body = await request.json()
        session = str(body.get("session", ""))
        user, instance = self._session_of(request, session)
        cmd, args = str(body.get("cmd", "")), body.get("args")
        subscribed = args.get("evt") if cmd == "SUBSCRIBE" and isinstance(args, dict) else None
        commands = self._fd.activities.commands
        if cmd in self._fd.activities.unsupported(session):
            return web.json_response(
                {"error": {"code": INVALID_COMMAND, "message": f"Invalid command: {cmd}"}}
            )
        if subscribed is not None and subscribed in self._fd.activities.unsupported(session):
            message = f"Invalid event: {subscribed}"
            return web.json_response({"error": {"code": INVALID_EVENT, "message": message}})
        token = body.get("token")
        access = (
            None if not isinstance(token, str) else self._fd.activities.bearer(f"Bearer {token}")
        )
        return web.json_response(commands.answer(user, instance, cmd, args, access))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The events of ``session``'s instance, as they happen (the client dispatches those
        its Activity subscribed to)."""
        _user, instance = self._session_of(request, request.query.get("session", ""))
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        listening = self._listening.setdefault(instance.id, set())
        listening.add(socket)
        try:
            async for _message in socket:
                pass
        finally:
            listening.discard(socket)
        return socket

    def listening(self, instance: Instance) -> int:
        """How many stand-in clients of ``instance`` listen for its events."""
        return len(self._listening.get(instance.id, ()))

    def _participants_changed(self, instance: Instance) -> None:
        """Tell ``instance``'s clients who is connected now."""
        event = {
            "evt": PARTICIPANTS_UPDATE,
            "data": {"participants": self._fd.activities.commands.participants(instance)},
        }
        for socket in tuple(self._listening.get(instance.id, ())):
            pushed = asyncio.ensure_future(socket.send_json(event))
            self._pushing.add(pushed)
            pushed.add_done_callback(self._pushing.discard)

    async def _closed(self, request: web.Request) -> web.Response:
        self.closed.append(await request.json())
        self._fd._notify()
        return web.Response(status=204)

    # -- the proxy -----------------------------------------------------------------------------
    def _target(self, request: web.Request) -> str:
        target = self._fd.activities.target
        if target is None:
            raise web.HTTPNotFound(text="the app has no URL mapping for /")
        return f"{target}{request.rel_url.path}" + (
            f"?{request.rel_url.query_string}" if request.rel_url.query_string else ""
        )

    async def _proxy(self, request: web.Request) -> web.StreamResponse:
        target = self._target(request)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            if self.refusing:
                return web.Response(status=503, text="the network is down")
            return await self._proxy_socket(request, f"ws://{target}", headers)
        assert self._session is not None
        body = await request.read()
        try:
            upstream = await self._session.request(
                request.method,
                f"http://{target}",
                headers=headers,
                data=body or None,
                allow_redirects=False,
            )
        except aiohttp.ClientError:
            return web.Response(status=502, text="the URL mapping's target is out of reach")
        async with upstream:
            response = web.StreamResponse(status=upstream.status)
            for key, value in upstream.headers.items():
                if key.lower() not in _HOP:
                    response.headers.add(key, value)
            # Discord's policy is added to the app's own (a browser enforces every one sent).
            response.headers.add("Content-Security-Policy", DISCORD_CSP)
            await response.prepare(request)
            async for chunk in upstream.content.iter_any():
                await response.write(chunk)
            await response.write_eof()
            return response

    async def _proxy_socket(
        self, request: web.Request, target: str, headers: dict[str, str]
    ) -> web.StreamResponse:
        assert self._session is not None
        kept = {k: v for k, v in headers.items() if not k.lower().startswith("sec-websocket")}
        try:
            upstream = await self._session.ws_connect(target, headers=kept, autoping=True)
        except aiohttp.ClientError:
            return web.Response(status=502, text="the URL mapping's target is out of reach")
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        self._sockets.add(socket)

        async def down() -> None:
            async for message in upstream:
                if message.type is aiohttp.WSMsgType.TEXT:
                    await socket.send_str(message.data)
                elif message.type is aiohttp.WSMsgType.BINARY:
                    await socket.send_bytes(message.data)
            await socket.close(code=_relayed(upstream.close_code))

        pumping = asyncio.ensure_future(down())
        try:
            async for message in socket:
                if message.type is aiohttp.WSMsgType.TEXT:
                    await upstream.send_str(message.data)
                elif message.type is aiohttp.WSMsgType.BINARY:
                    await upstream.send_bytes(message.data)
        finally:
            self._sockets.discard(socket)
            pumping.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await pumping
            await upstream.close()
        return socket


#: The close codes a Close frame may never carry (RFC 6455, 7.4.1: 1005 and 1006 "MUST NOT be
#: set as a status code in a Close control frame by an endpoint", nor 1015; 1004 and 1016 to
#: 2999 are reserved): what an endpoint reports when none was sent, such as 1006 for a peer
#: gone without a Close (the URL mapping's target killed).
_NEVER_SENT = (1004, 1005, 1006, 1015)


def _relayed(code: int | None) -> int:
    """The code the proxy closes the page's socket with once its target's closed with
    ``code``: the target's own, unless a Close frame may not carry it (see
    :data:`_NEVER_SENT`; none at all: 1000), where the target went away (1001, Going Away),
    since a browser refuses a frame with a reserved code as broken."""
    if code is None:
        return 1000
    if code in _NEVER_SENT or 1016 <= code < 3000 or code >= 5000:
        return 1001
    return code
