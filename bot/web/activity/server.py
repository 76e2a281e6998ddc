"""The Activity's routes on the game pages' server: its page, who each page belongs to, the
channel's game live, and moves made from it. Under ``/activity/``:

- ``GET /activity/``: the page (Discord's proxy serves it at the Activity's root), with its
  built front end, ``app.js`` and ``app.css`` (:mod:`bot.web.activity`);
- ``POST api/token``: ``{code, instance_id}``: the code exchanged, the person and the instance
  looked up with Discord (:mod:`bot.web.activity.identity`); answers the person's bearer token
  (for the SDK's ``authenticate``) and a session;
- ``GET api/state``: the channel's game as the session's person sees it;
- ``GET api/live``: a WebSocket whose first message is ``{"session": ...}``; then the game as
  this person sees it, each time it changes;
- ``POST api/act``, ``POST api/new``, ``GET api/review``: what a reader does at the table (a
  move, a hint, a lobby action, *Deal everyone in*, a result's *Rematch*, a new game with
  ``/cribbage new``'s choices, the finished game's review: :mod:`bot.web.activity.acts`), on
  the session this server resolved.

Every call but the token's shows its session (``Authorization: Bearer``); a missing, changed or
ended one is 401 and the page asks Discord again. A page sees only its session's channel. Who
has the table open is Discord's to say, not the page's: *Deal everyone in* seats only the
people Discord lists in the session's instance, by the names Discord gives the bot
(:mod:`bot.web.activity.gathering`).

Acts go through the core's own services, the very calls a click on a hand message or the lobby
makes, then :meth:`Sequels.answered` (here), as the Discord layer does: each answer is told to
the page with the game as it is now (bodies and refusals as HTTP: :mod:`bot.web.activity.http`).
A move made here reaches the channel and the DMs through the change feed and the keeper, and
a move made there reaches the pages here the same way. Live pages follow the feed by channel: a
change is drawn once for each reader whose view differs (each player, and everyone else once)
and handed to every page of theirs, each keeping only the newest look not yet sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.core.base.feed import Change
from bot.core.base.patrol import Patrol
from bot.core.faces import WebFace
from bot.core.games.records import GameRecord
from bot.web.activity.acts import ActivityActs, ReviewHtml, Told
from bot.web.activity.gathering import NOT_IN_ACTIVITY
from bot.web.activity.http import (
    HEADERS,
    MAX_BODY,
    answer_json,
    body_of,
    parsed,
    refuse,
    text_of,
)
from bot.web.activity.identity import ActivityDiscord, ActivityRefused, avatar_url
from bot.web.activity.page import ActivityPage
from bot.web.activity.sessions import Session, Sessions
from bot.web.activity.tables import TableGames
from bot.web.capacity import SEND_SECONDS, no_room
from bot.web.pages import markdown_html

__all__ = ["BUSY", "NOT_A_SOCKET", "ActivityServer"]

log = logging.getLogger(__name__)

#: A live page must show its session this soon after connecting.
HELLO_SECONDS = 10.0
#: How often a live socket is pinged (proxies close quiet connections).
PING_SECONDS = 25.0
#: Code exchanges taken per minute for the whole server (each costs requests to Discord).
EXCHANGES_PER_MINUTE = 120

#: A code exchange past :data:`EXCHANGES_PER_MINUTE`.
BUSY = "Too many people are opening the table at once; try again in a minute."
#: ``api/live`` asked for as anything but a WebSocket.
NOT_A_SOCKET = "The live table opens only as a WebSocket."


@dataclass(frozen=True, slots=True)
class _Look:
    """A look drawn for a page (its JSON), and what it shows: the game of channel ``channel_id``
    at ``version`` (``game_id`` 0: the channel has had no game yet). A channel's games are
    numbered in the order they were opened, so of two looks of one channel's game the one of
    the later game, or the later version, is the newer."""

    text: str
    channel_id: int
    game_id: int = 0
    version: int = 0

    @classmethod
    def of(cls, text: str, record: GameRecord | None, channel_id: int) -> _Look:
        """The look ``text`` drawn of ``record`` (None: ``channel_id`` has no game)."""
        if record is None:
            return cls(text, channel_id)
        return cls(text, record.channel_id, record.id, record.version)

    def older_than(self, other: _Look) -> bool:
        """Whether this look shows an earlier moment of the game ``other`` shows (never of
        another channel's: the reader's ranked game and their channel's are not ordered)."""
        return self.channel_id == other.channel_id and (self.game_id, self.version) < (
            other.game_id,
            other.version,
        )


@dataclass(eq=False, slots=True)
class _Page:
    """One live page: whose it is, the newest look not yet sent to it, and the newest it was
    given (a look older than that, read before it, is never given after it)."""

    session: Session
    waiting: asyncio.Event = field(default_factory=asyncio.Event)
    latest: str | None = None
    sent: str | None = None
    newest: _Look | None = None

    def give(self, look: _Look) -> None:
        if self.newest is not None and look.older_than(self.newest):
            return
        self.newest = look
        if look.text == self.sent or look.text == self.latest:
            return
        self.latest = look.text
        self.waiting.set()


def _state_json(state: dict[str, Any]) -> str:
    """A reader's table as the live page's message."""
    return json.dumps({"type": "state", "state": state}, separators=(",", ":"))


class ActivityServer:
    """The Activity's routes and live pages (mounted on :class:`bot.web.server.WebServer`)."""

    def __init__(
        self,
        services: WebFace,
        discord: ActivityDiscord,
        sessions: Sessions,
        *,
        reviews: ReviewHtml | None = None,
        pages: Callable[[int], str | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``pages``: a game's page in the browser (None: the pages have no public address),
        which a finished game's *Share* names."""
        self._services = services
        self._discord = discord
        self._sessions = sessions
        self._game_page = pages
        self._clock = clock
        self._pages: dict[int, set[_Page]] = {}
        self._tables = TableGames(services, discord)
        self._acts = ActivityActs(services, discord, self._tables, reviews)
        #: The avatars' addresses of the people who opened the Activity, by user id.
        self._avatars: dict[int, str] = {}
        self._exchanges: list[float] = []
        self._patrol = Patrol(
            services.feed, self._changed, self._draw, clock=time.time, name="crib-activity"
        )
        self._closing = asyncio.Event()
        #: Whether another live page may open (the server's share of connections decides:
        #: set by :class:`bot.web.server.WebServer`).
        self.room: Callable[[], bool] = lambda: True
        self._page = ActivityPage(lambda: discord.application_id, HEADERS)

    @property
    def watching(self) -> int:
        """How many live pages are open."""
        return sum(len(pages) for pages in self._pages.values())

    def add_routes(self, app: web.Application) -> None:
        """Put the Activity's routes on ``app``."""
        self._page.add_routes(app)
        app.router.add_post("/activity/api/token", self._token)
        app.router.add_get("/activity/api/state", self._state)
        app.router.add_get("/activity/api/live", self._live)
        app.router.add_post("/activity/api/act", self._act)
        app.router.add_post("/activity/api/new", self._new)
        app.router.add_get("/activity/api/review", self._review)

    def start(self) -> None:
        """Follow the change feed."""
        self._patrol.follow()

    def stop(self) -> None:
        """Stop following the feed and end the live pages."""
        self._closing.set()
        self._patrol.stop()
        for pages in self._pages.values():
            for page in pages:
                page.waiting.set()

    # -- who the page belongs to --------------------------------------------------------------
    def _session(self, request: web.Request) -> Session:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        session = self._sessions.read(token) if scheme == "Bearer" else None
        if session is None:
            raise web.HTTPUnauthorized(
                text=json.dumps({"ok": False, "said": "Your session ended: opening again."}),
                content_type="application/json",
                headers=HEADERS,
            )
        return session

    def _exchange_taken(self) -> bool:
        now = self._clock()
        self._exchanges = [t for t in self._exchanges if now - t < 60.0]
        if len(self._exchanges) >= EXCHANGES_PER_MINUTE:
            return False
        self._exchanges.append(now)
        return True

    async def _token(self, request: web.Request) -> web.Response:
        body = await body_of(request)
        code, instance = text_of(body, "code", limit=200), text_of(body, "instance_id", limit=200)
        if not self._exchange_taken():
            return refuse(BUSY, 429)
        try:
            access = await self._discord.exchange(code)
            person = await self._discord.person(access)
            place = await self._discord.place(instance)
        except ActivityRefused as refused:
            return refuse(str(refused), refused.status)
        if place is None or person.id not in place.users:
            return refuse(NOT_IN_ACTIVITY, 403)
        avatar = avatar_url(person.id, person.avatar)
        if avatar is not None:
            self._avatars[person.id] = avatar
        session = self._sessions.new(
            person.id, person.name, person.avatar, place.channel_id, place.guild_id, instance
        )
        return answer_json(
            {
                "ok": True,
                "access_token": access,
                "session": self._sessions.sign(session),
                "you": {"id": str(person.id), "name": person.name},
            }
        )

    # -- the channel's game -------------------------------------------------------------------
    async def _drawn(
        self, channel_id: int, readers: set[int], guild_id: int | None
    ) -> tuple[GameRecord | None, dict[int | None, _Look]]:
        """The channel's game as each reader sees it: by seated player (their user id), and
        everyone else once (None); a reader playing a ranked game from this channel sees it
        (by their user id)."""
        pages = self._services.pages
        drawn: dict[int | None, _Look] = {}
        bots_dm = await self._tables.bots_dm(channel_id, guild_id, min(readers, default=0))
        for reader in sorted(readers):
            ranked = await self._tables.ranked_game(channel_id, reader)
            if ranked is not None:
                states = await pages.activity(
                    ranked,
                    [reader],
                    html=markdown_html,
                    avatars=self._avatars,
                    can_open=False,
                    bots_dm=bots_dm,
                    shareable=False,
                )
                drawn[reader] = _Look.of(_state_json(states[reader]), ranked, channel_id)
        readers = readers - {r for r in drawn if r is not None}
        record = await self._tables.channel_game(channel_id)
        seated = sorted(r for r in readers if record is not None and record.seat_of(r) is not None)
        page = None if record is None or self._game_page is None else self._game_page(record.id)
        # (Everyone not seated sees the game alike: drawn once, for nobody's seat.)
        watchers = [*seated, 0] if readers - set(seated) else seated
        states = await pages.activity(
            record,
            watchers,
            html=markdown_html,
            avatars=self._avatars,
            can_open=self._discord.bot_in(guild_id),
            bots_dm=bots_dm,
            page=page,
        )
        for watcher, state in states.items():
            if drawn:
                # Those at the table who see their ranked game instead watch nothing here.
                state["elsewhere"] = [str(r) for r in sorted(r for r in drawn if r is not None)]
            drawn[watcher or None] = _Look.of(_state_json(state), record, channel_id)
        return record, drawn

    async def _look_of(self, session: Session) -> _Look:
        _, drawn = await self._drawn(session.channel_id, {session.user_id}, session.guild_id)
        return next(iter(drawn.values()))

    async def _state_of(self, session: Session) -> str:
        return (await self._look_of(session)).text

    async def _state(self, request: web.Request) -> web.Response:
        session = self._session(request)
        text = await self._state_of(session)
        return web.Response(text=text, content_type="application/json", headers=HEADERS)

    # -- live pages ---------------------------------------------------------------------------
    def _changed(self, change: Change) -> None:
        game_id = change.game_id
        if game_id is None:
            return
        for channel_id in self._tables.watched_from(game_id):
            # (A ranked game, watched from its players' places.)
            if channel_id in self._pages:
                self._patrol.ask(channel_id)
        if change.channel_id not in self._pages:
            return
        self._tables.changed(change.channel_id, game_id)
        self._patrol.ask(change.channel_id)

    async def _draw(self, channel_id: int) -> float | None:
        """Draw the channel's game once for each reader of its live pages."""
        try:
            pages = self._pages.get(channel_id)
            if not pages:
                return None
            readers = {p.session.user_id for p in pages}
            guild = next(iter(pages)).session.guild_id
            _, drawn = await self._drawn(channel_id, readers, guild)
            for page in tuple(pages):
                if page.session.user_id not in readers:
                    # (Opened while this was drawn: its first look, read since, is its own.)
                    continue
                # (A reader seated at the game drawn for them, or anyone else at the channel's.)
                look = drawn.get(page.session.user_id, drawn.get(None))
                if look is not None:
                    page.give(look)
        except Exception:
            log.exception("could not draw the Activity of channel %d", channel_id)
        return None

    async def _live(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(heartbeat=PING_SECONDS, max_msg_size=MAX_BODY)
        if not socket.can_prepare(request):
            # (aiohttp's own 400 is two lines of its handshake's words, as plain text.)
            return refuse(NOT_A_SOCKET)
        if not self.room():
            # The page keeps what it shows and tries again later (as the game pages do).
            return no_room()
        await socket.prepare(request)
        try:
            hello = await socket.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            await socket.close(code=4001, message=b"no session")
            return socket
        shown = parsed(hello.data) if hello.type is WSMsgType.TEXT else None
        session = None
        if isinstance(shown, dict):
            session = self._sessions.read(str(shown.get("session", "")))
        if session is None:
            await socket.close(code=4001, message=b"session")
            return socket
        page = _Page(session)
        pages = self._pages.setdefault(session.channel_id, set())
        pages.add(page)
        reading = asyncio.ensure_future(self._read(socket))
        waiting: asyncio.Task[Any] | None = None
        try:
            # (A look drawn for a change heard meanwhile may have been given first: the first
            # look, read before it, is older, and the page keeps the newer.)
            page.give(await self._look_of(session))
            while not self._closing.is_set() and not reading.done():
                waiting = asyncio.ensure_future(page.waiting.wait())
                await asyncio.wait({waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                if reading.done() or self._closing.is_set():
                    break
                page.waiting.clear()
                text, page.latest = page.latest, None
                if text is None:
                    continue
                if session.expires <= time.time():
                    await socket.close(code=4001, message=b"session")
                    break
                await asyncio.wait_for(socket.send_str(text), SEND_SECONDS)
                page.sent = text
        except (ConnectionResetError, TimeoutError):
            pass
        finally:
            reading.cancel()
            if waiting is not None:
                # Cancelled in the wait (as aiohttp's handler_cancellation does when the page
                # goes), this handler would leave the wait for news pending, and the loop logs
                # an error when it is destroyed ("Task was destroyed but it is pending!").
                waiting.cancel()
            pages.discard(page)
            if not pages:
                self._pages.pop(session.channel_id, None)
            if not socket.closed:
                await socket.close()
        return socket

    @staticmethod
    async def _read(socket: web.WebSocketResponse) -> None:
        """Read (and drop) what the page sends until it closes."""
        async for _message in socket:
            pass

    # -- acts ---------------------------------------------------------------------------------
    async def _act(self, request: web.Request) -> web.Response:
        session = self._session(request)
        return await self._told(session, await self._acts.act(session, await body_of(request)))

    async def _new(self, request: web.Request) -> web.Response:
        session = self._session(request)
        return await self._told(session, await self._acts.new(session, await body_of(request)))

    async def _review(self, request: web.Request) -> web.Response:
        return await self._acts.review(self._session(request))

    async def _told(self, session: Session, done: Told | web.Response) -> web.Response:
        """Hand an act's answer back to the core (as the Discord layer does once it is sent:
        the computer's reply follows), and tell the page what was said and the game now; a
        refusal as HTTP as it is."""
        if isinstance(done, web.Response):
            return done
        answer = done.answer
        await self._services.sequels.answered(answer, landed=True, shown=None)
        said = answer.note or answer.reply.text
        state = json.loads(await self._state_of(session))["state"]
        # (What the bot said is Discord's markdown, "press **Join**": for the page, as HTML.)
        html = markdown_html(said) if said else ""
        told = {"ok": answer.ok, "said": said, "said_html": html, "state": state}
        return answer_json({**told, "hint": True} if done.hint else told)
