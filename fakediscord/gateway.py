"""The gateway WebSocket: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME with replay.

Frames are plain JSON TEXT frames: discord.py asks for zlib-stream compression but only
decompresses BINARY frames. Every dispatch is numbered and kept per session, so a client that
RESUMEs after a dropped connection gets exactly the events it missed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from fakediscord import payloads

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
REPLAY_BUFFER = 5000


@dataclass(eq=False)
class Session:
    """One identified gateway session: its numbered dispatches and its current socket."""

    id: str
    intents: int
    seq: int = 0
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    invalid: bool = False


class Gateway:
    """All gateway sessions of one emulator and the controls tests use to disturb them."""

    def __init__(self, owner: FakeDiscord) -> None:
        self.owner = owner
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None
        self.heartbeat_interval_ms = 41250
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeats = 0
        self.sockets: set[web.WebSocketResponse] = set()
        self.ready = asyncio.Event()  # set once READY and every GUILD_CREATE went out

    @property
    def connected(self) -> bool:
        """Whether a bot holds an open, identified connection."""
        return self.session is not None and self.session.ws is not None

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one WebSocket connection until it closes."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.sockets.add(ws)
        session: Session | None = None
        try:
            await self._send(
                ws, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    await self._send(ws, {"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == RESUME:
                    session = await self._resume(ws, data)
                elif op == REQUEST_MEMBERS:
                    await self._members_chunk(ws, data)
        finally:
            self.sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token", "").removeprefix("Bot ") != self.owner.bot_token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identify_count += 1
        self.ready.clear()
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents", 0)))
        self.sessions[session.id] = session
        self.session = session
        session.ws = ws
        owner = self.owner
        ready = {
            "v": 10,
            "user": payloads.user(owner.bot_user) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in owner.world.guilds.values()],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": owner.gateway_url,
            "shard": [0, 1],
            "application": {"id": str(owner.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fakediscord"],
        }
        await self.dispatch("READY", ready, session=session)
        for guild in list(owner.world.guilds.values()):
            await self.dispatch("GUILD_CREATE", payloads.guild_create(guild), session=session)
        self.ready.set()
        owner._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        token_ok = str(data.get("token", "")).removeprefix("Bot ") == self.owner.bot_token
        after = int(data.get("seq") or 0)
        # Events older than the replay buffer are gone: that session cannot be resumed.
        too_old = session is not None and session.events and after < session.events[0][0] - 1
        if session is None or session.invalid or not token_ok or too_old:
            await self._send(ws, {"op": INVALID_SESSION, "d": False})
            return None
        self.resume_count += 1
        async with session.lock:
            old = session.ws
            session.ws = ws
            if old is not None and old is not ws:
                await old.close(code=4000)
            for seq, event, payload in session.events:
                if seq > after:
                    await self._send(ws, {"op": DISPATCH, "s": seq, "t": event, "d": payload})
            session.seq += 1
            await self._send(ws, {"op": DISPATCH, "s": session.seq, "t": "RESUMED", "d": {}})
        self.session = session
        self.owner._notify()
        return session

    async def _members_chunk(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        guild = self.owner.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None or self.session is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [payloads.member(m) for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        }
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def dispatch(
        self, event: str, data: dict[str, Any], *, session: Session | None = None
    ) -> None:
        """Number `event`, keep it for replay, and send it if the session is connected."""
        target = session or self.session
        if target is None:
            return
        async with target.lock:
            target.seq += 1
            target.events.append((target.seq, event, data))
            if len(target.events) > REPLAY_BUFFER:
                del target.events[: len(target.events) - REPLAY_BUFFER]
            if target.ws is not None and not target.ws.closed:
                try:
                    await self._send(
                        target.ws, {"op": DISPATCH, "s": target.seq, "t": event, "d": data}
                    )
                except ConnectionError:
                    # The socket died under us; the event stays buffered for a RESUME.
                    log.debug("dispatch of %s lost with the socket; kept for replay", event)

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's connection as a network fault would; the client resumes."""
        if self.session is not None and self.session.ws is not None:
            ws = self.session.ws
            self.session.ws = None
            await ws.close(code=code)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client reconnects and resumes."""
        if self.session is not None and self.session.ws is not None:
            await self._send(self.session.ws, {"op": RECONNECT, "d": None})

    async def invalidate(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; with `resumable=False` the client identifies again."""
        if self.session is not None and self.session.ws is not None:
            if not resumable:
                self.session.invalid = True
            self.ready.clear()
            await self._send(self.session.ws, {"op": INVALID_SESSION, "d": resumable})

    async def close_all(self) -> None:
        """Close every socket (emulator shutdown)."""
        for ws in list(self.sockets):
            await ws.close(code=1001)

    @staticmethod
    async def _send(ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        frame.setdefault("s", None)
        frame.setdefault("t", None)
        frame.setdefault("d", None)
        await ws.send_str(json.dumps(frame))
