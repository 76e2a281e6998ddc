"""The gateway WebSocket: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME with replay.

Frames are plain JSON TEXT frames: discord.py asks for zlib-stream compression but only
decompresses BINARY frames. Every dispatch is numbered and kept per session, so a client that
RESUMEs after a dropped connection gets exactly the events it missed.

A bot may connect several times with `shard: [id, count]` in its IDENTIFY (as a discord.py
`AutoShardedClient` does, or several processes each with its shard ids): an event about a guild
goes to the shard `shards.shard_for` names, an event without a guild to shard 0. IDENTIFY is
limited as Discord limits it (`shards.SessionStarts`): too soon after another is answered with
op 9, one more than the day allows resets the bot token and closes every session with 4004.

The faults a test puts it through are the gateway's as Discord documents them (README,
"The internet's faults"): a connection dropped (and Discord out of reach for a while: new
connections get no HELLO until it is back), a session invalidated (op 9, the events meanwhile
lost), a zombied connection (nothing reaches the client, not even a heartbeat's ACK, until it
closes the connection and resumes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from fakediscord import payloads
from fakediscord.latency import Outbox
from fakediscord.shards import GUILDS_PER_SHARD, SessionStarts, guild_of, shard_for

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
# Close codes Discord uses.
AUTHENTICATION_FAILED, INVALID_SHARD, SHARDING_REQUIRED = 4004, 4010, 4011
REPLAY_BUFFER = 5000


@dataclass(eq=False)
class Session:
    """One identified gateway session: its shard, its numbered dispatches, its socket."""

    id: str
    intents: int
    shard_id: int = 0
    shard_count: int = 1
    seq: int = 0
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    invalid: bool = False

    def covers(self, guild_id: int | None) -> bool:
        """Whether events about `guild_id` (None: no guild) belong to this session's shard."""
        return shard_for(guild_id, self.shard_count) == self.shard_id


class Gateway:
    """All gateway sessions of one emulator and the controls tests use to disturb them."""

    def __init__(self, owner: FakeDiscord, starts: SessionStarts) -> None:
        self.owner = owner
        self.starts = starts
        self.sessions: dict[str, Session] = {}
        #: The session each shard id's events go to: the latest to identify or resume.
        self.shards: dict[int, Session] = {}
        #: The latest session to identify or resume (the only one for an unsharded bot).
        self.session: Session | None = None
        self.heartbeat_interval_ms = 41250
        #: Seconds before a heartbeat is acknowledged: Discord's ACK crosses a network (a round
        #: trip of some 0.1-0.3 s). discord.py notes when it sent a heartbeat only once its
        #: keep-alive thread wakes from the send; an ACK read before that counts the whole
        #: interval as latency and logs "Can't keep up, shard ID 0 websocket is 41.3s behind".
        #: A quarter second leaves that thread room to wake on a busy machine (20 ms did not),
        #: and nothing waits on an ACK.
        self.heartbeat_ack_delay = 0.25
        self.identify_count = 0  # sessions started
        self.identify_refused = 0  # IDENTIFYs answered with op 9 (too soon after another)
        self.resume_count = 0
        self.heartbeats = 0
        self.sockets: set[web.WebSocketResponse] = set()
        #: Each connection's frames on the wire, while the emulator has latency.
        self._outboxes: dict[web.WebSocketResponse, Outbox] = {}
        self.ready = asyncio.Event()  # set once READY and every GUILD_CREATE went out
        #: Connections gone zombie: nothing is sent on them (a heartbeat goes unacknowledged,
        #: an event is kept for a RESUME), as on a connection dead on the way back.
        self.zombies: set[web.WebSocketResponse] = set()
        #: Cleared while Discord's gateway is out of reach: a new connection is opened but
        #: gets no HELLO until it is set again (see :meth:`down`).
        self.up = asyncio.Event()
        self.up.set()

    @property
    def connected(self) -> bool:
        """Whether a bot holds an open, identified connection."""
        return any(s.ws is not None for s in self.shards.values())

    def route(self, guild_id: int | None) -> Session | None:
        """The session that gets events about `guild_id` (None: DMs), if one exists."""
        for session in self.shards.values():
            if session.covers(guild_id) and not session.invalid:
                return session
        return None

    def identified(self, guild_id: int | None) -> bool:
        """Whether a bot identified on the shard of `guild_id` (None: DMs), even if Discord
        has invalidated that session since (its events are lost until it identifies again)."""
        return any(session.covers(guild_id) for session in self.shards.values())

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """Serve one WebSocket connection until it closes."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.sockets.add(ws)
        session: Session | None = None
        acks: set[asyncio.Task[None]] = set()
        try:
            # (Discord out of reach: the connection is open, and nothing comes.)
            await self.up.wait()
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
                    ack = asyncio.create_task(self._ack(ws))
                    acks.add(ack)
                    ack.add_done_callback(acks.discard)
                elif op == IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == RESUME:
                    session = await self._resume(ws, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, data)
        finally:
            for pending in list(acks):
                pending.cancel()
            outbox = self._outboxes.pop(ws, None)
            if outbox is not None:
                outbox.close()
            self.sockets.discard(ws)
            self.zombies.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
        return ws

    async def _ack(self, ws: web.WebSocketResponse) -> None:
        await asyncio.sleep(self.heartbeat_ack_delay)
        if not ws.closed and ws not in self.zombies:
            with contextlib.suppress(ConnectionError):
                await self._send(ws, {"op": HEARTBEAT_ACK})

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        owner = self.owner
        if data.get("token", "").removeprefix("Bot ") != owner.bot_token:
            await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return None
        shard_id, shard_count = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shard_count:
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        if len(owner.world.guilds) > GUILDS_PER_SHARD * shard_count:
            await ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return None
        if owner.limits.identify:
            if self.starts.too_soon(shard_id):
                # Discord answers an IDENTIFY beyond max_concurrency per 5 s with op 9.
                self.identify_refused += 1
                await self._send(ws, {"op": INVALID_SESSION, "d": False})
                return None
            if not self.starts.start(shard_id):
                await owner.reset_token()
                return None
        else:
            self.starts.start(shard_id)
        self.identify_count += 1
        self.ready.clear()
        session = Session(
            id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            shard_id=shard_id,
            shard_count=shard_count,
        )
        self.sessions[session.id] = session
        self.shards[shard_id] = session
        self.session = session
        session.ws = ws
        guilds = [
            g
            for g in owner.world.guilds.values()
            if session.covers(g.id) and g.member(owner.bot_user) is not None
        ]
        ready = {
            "v": 10,
            "user": payloads.user(owner.bot_user) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": owner.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(owner.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["fakediscord"],
        }
        await self.dispatch("READY", ready, session=session)
        for guild in guilds:
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
        self.shards[session.shard_id] = session
        self.session = session
        self.owner._notify()
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.owner.world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [payloads.member(m) for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        }
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk, session=session)

    async def dispatch(
        self, event: str, data: dict[str, Any], *, session: Session | None = None
    ) -> None:
        """Number `event`, keep it for replay, and send it if its session is connected.

        Without `session`, the event goes to the shard of the guild it is about (shard 0 when
        it is about none); nowhere if no session holds that shard.
        """
        target = session or self.route(guild_of(event, data))
        if target is None:
            return
        async with target.lock:
            target.seq += 1
            target.events.append((target.seq, event, data))
            if len(target.events) > REPLAY_BUFFER:
                del target.events[: len(target.events) - REPLAY_BUFFER]
            if target.ws is not None and not target.ws.closed and target.ws not in self.zombies:
                try:
                    await self._send(
                        target.ws, {"op": DISPATCH, "s": target.seq, "t": event, "d": data}
                    )
                except ConnectionError:
                    # The socket died under us; the event stays buffered for a RESUME.
                    log.debug("dispatch of %s lost with the socket; kept for replay", event)

    def _targets(self, shard: int | None) -> list[Session]:
        sessions = list(self.shards.values())
        return [s for s in sessions if shard is None or s.shard_id == shard]

    async def drop(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close the bot's connections (or one shard's) as a network fault would."""
        for session in self._targets(shard):
            if session.ws is not None:
                ws, session.ws = session.ws, None
                await ws.close(code=code)

    def zombie(self, *, shard: int | None = None) -> None:
        """The bot's connections (or one shard's) go zombie: open, but nothing reaches the bot
        on them any more, not a heartbeat's ACK nor an event (kept for a RESUME), until it
        closes them and resumes (Discord, Gateway, "Sending Heartbeats")."""
        for session in self._targets(shard):
            if session.ws is not None:
                self.zombies.add(session.ws)

    def down(self) -> None:
        """Discord's gateway is out of reach from now on: a new connection gets no HELLO (the
        events meanwhile are kept for the sessions' RESUME) until :meth:`back`."""
        self.up.clear()

    def back(self) -> None:
        """Discord's gateway is within reach again: the connections waiting get their HELLO."""
        self.up.set()

    async def request_reconnect(self, *, shard: int | None = None) -> None:
        """Send op 7 RECONNECT: the client reconnects and resumes."""
        for session in self._targets(shard):
            if session.ws is not None:
                await self._send(session.ws, {"op": RECONNECT, "d": None})

    async def invalidate(self, *, resumable: bool = False, shard: int | None = None) -> None:
        """Send op 9 INVALID_SESSION; with `resumable=False` the client identifies again."""
        for session in self._targets(shard):
            if session.ws is not None:
                if not resumable:
                    session.invalid = True
                self.ready.clear()
                await self._send(session.ws, {"op": INVALID_SESSION, "d": resumable})

    async def end_all_sessions(self, code: int = AUTHENTICATION_FAILED) -> None:
        """End every session for good (the bot token was reset): close with `code`."""
        for session in self.sessions.values():
            session.invalid = True
        self.shards.clear()
        self.session = None
        self.ready.clear()
        for ws in list(self.sockets):
            await ws.close(code=code, message=b"Authentication failed.")

    async def close_all(self) -> None:
        """Close every socket (emulator shutdown)."""
        self.up.set()
        for ws in list(self.sockets):
            await ws.close(code=1001)

    async def _send(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        frame.setdefault("s", None)
        frame.setdefault("t", None)
        frame.setdefault("d", None)
        text = json.dumps(frame)  # as it is now: later changes of its data are not sent
        outbox = self._outboxes.get(ws)
        latency = self.owner.latency
        if outbox is None and latency is not None and not ws.closed:
            outbox = self._outboxes[ws] = Outbox(ws, latency)
        if outbox is not None:
            # On the wire for half a round trip, after what was sent before it (once a
            # connection has had latency, its frames keep their order on it).
            outbox.send(text)
            return
        await ws.send_str(text)
