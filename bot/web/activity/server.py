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
- ``POST api/act``: a move (discard, play, count, muggins, pass), a ``hint`` (the expert's
  choice in the person's place, for them alone), a lobby action, or a
  result's ``rematch``, by the session's person, on the channel's game; ``everyone`` (*Deal
  everyone in*) with the ids of the people the page lists at the table (``values``);
- ``POST api/new``: a new game in the channel with ``/cribbage new``'s choices (where the bot
  is a member, and not in a tournament match's thread); with ``everyone`` (the ids the page
  lists), everyone at the table seated at the table that seats them all, and dealt;
- ``GET api/review``: the finished game's review.

Every call but the token's shows its session (``Authorization: Bearer``); a missing, changed or
ended one is 401 and the page asks Discord again. A page sees only its session's channel. Who
has the table open is Discord's to say, not the page's: *Deal everyone in* seats only the
people Discord lists in the session's instance, by the names Discord gives the bot
(:mod:`bot.web.activity.gathering`).

Moves go through the core's own services, the very calls a click on a hand message or the lobby
makes (:meth:`Moves.click`, :meth:`Lobbies.click`, :meth:`Lobbies.new_game`), then
:meth:`Services.answered`, as the Discord layer does: a move made here reaches the channel and
the DMs through the change feed and the keeper, and a move made there reaches the pages here
the same way. Live pages follow the feed by channel: a change is drawn once for each reader
whose view differs (each player, and everyone else once) and handed to every page of theirs,
each keeping only the newest look not yet sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.core.base.feed import Change
from bot.core.base.patrol import Patrol
from bot.core.base.replies import Answer, Click, User
from bot.core.base.views import LOBBY_ACTIONS, TABLE_BUTTON
from bot.core.faces import WebFace
from bot.core.games.records import GameRecord, GameStatus
from bot.web.activity.gathering import NOT_IN_ACTIVITY, people_here
from bot.web.activity.identity import ActivityDiscord, ActivityRefused, avatar_url
from bot.web.activity.page import ActivityPage
from bot.web.activity.sessions import Session, Sessions
from bot.web.activity.tables import TableGames
from bot.web.capacity import SEND_SECONDS, no_room
from bot.web.pages import markdown_html
from engine.variants import FEWEST_AT_A_TABLE, STANDARD, UnknownVariant, named

__all__ = [
    "ACTIVITY_CSP",
    "NOBODY_ELSE",
    "NOT_A_SOCKET",
    "NOT_HERE",
    "NOT_IN_ACTIVITY",
    "ONLY_IN_THE_CHAT",
    "TOO_LONG",
    "ActivityServer",
    "ReviewHtml",
    "api_refusal",
]

log = logging.getLogger(__name__)

#: The Activity page's content policy: only its own origin (which is Discord's proxy in
#: Discord), avatars from Discord's CDN, and framed only by Discord's clients (or its own
#: origin: Discord's proxy serves the client's frame there in fakediscord).
ACTIVITY_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:"
    " https://cdn.discordapp.com; connect-src 'self'; base-uri 'none'; form-action 'none';"
    " frame-ancestors 'self' https://discord.com https://*.discord.com https://discordapp.com"
    " https://*.discordapp.com"
)
#: The largest request body taken (a move is a few dozen bytes).
MAX_BODY = 4096
#: Where the page's requests go (answered in JSON, refusals included).
API = "/activity/api/"
#: A live page must show its session this soon after connecting.
HELLO_SECONDS = 10.0
#: How often a live socket is pinged (proxies close quiet connections).
PING_SECONDS = 25.0
#: Code exchanges taken per minute for the whole server (each costs requests to Discord).
EXCHANGES_PER_MINUTE = 120

#: A new game from the Activity where the bot may not post its messages itself.
NOT_HERE = (
    "Here, the bot can only answer commands: open the game with {command} in the chat, and "
    "it shows up at this table."
)
#: *Deal everyone in* with no game open, where Discord lists nobody else at the table.
NOBODY_ELSE = (
    "Nobody else has the table open yet: open the game, and the people who come take seats."
)
#: A result's *Rematch* at the table where the bot may not post the rematch's lobby itself.
ONLY_IN_THE_CHAT = (
    "Here, the bot can only answer the chat's buttons: press **Rematch** on the result in the "
    "chat, and the rematch shows up at this table."
)
#: A request the server could not read.
NOT_UNDERSTOOD = "That request was not understood."
#: A request body longer than :data:`MAX_BODY`.
TOO_LONG = "That request is too long."
#: ``api/live`` asked for as anything but a WebSocket.
NOT_A_SOCKET = "The live table opens only as a WebSocket."
#: The lobby's buttons a page may press: the chat's lobby's, but *Your hand* and *Resign* (a
#: private table's) and *Play at the table* (this table); adding a computer is
#: ``computer:LEVEL``.
_LOBBY_ACTIONS = tuple(a for a in LOBBY_ACTIONS if a not in ("hand", "resign", TABLE_BUTTON))
BUSY = "Too many people are opening the table at once; try again in a minute."

#: What gives a finished game's review as HTML (None: none to show).
ReviewHtml = Callable[[GameRecord], Any]

_HEADERS = {
    "Content-Security-Policy": ACTIVITY_CSP,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


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


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers=_HEADERS)


async def _seat_refusal(services: WebFace, session: Session) -> str | None:
    """Why the reader may not open or join a game here: where their ranked match is played, or
    their search waits (as ``/cribbage new`` and ``join`` there say)."""
    return await services.which.seat_refusal(session.channel_id, session.guild_id, session.user_id)


async def _rematch(services: WebFace, session: Session, game_id: int, user: User) -> Answer:
    """A result's *Rematch* (*Play again*) tapped at the table, where the bot is a member: the
    rematch opened (its lobby posted in the chat by the keeper, and the table goes to it), or
    the reader's seat taken in it; refused where ``/cribbage new`` would be for them."""
    refusal = await _seat_refusal(services, session)
    if refusal is not None:
        return Answer.refuse(refusal)
    guild_id, channel_id = session.guild_id, session.channel_id
    return await services.rematches.press(game_id, user, guild_id=guild_id, channel_id=channel_id)


def _refuse(text: str, status: int = 400) -> web.Response:
    return _json({"ok": False, "said": text}, status)


async def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (a 400 for anything else)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise _too_long(request.content_length)
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise _too_long(len(raw))
    body = _parsed(raw or b"null")
    if not isinstance(body, dict):
        raise _bad()
    return body


def _parsed(raw: bytes | str) -> Any:
    """``raw`` read as JSON; None where it is none: not JSON, not UTF-8, or nested deeper than
    Python's reader goes (a thousand ``[`` fit in a body: that raises RecursionError)."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _too_long(size: int) -> web.HTTPRequestEntityTooLarge:
    # (aiohttp's own text is not JSON and not for a person: it names the byte counts.)
    return web.HTTPRequestEntityTooLarge(
        MAX_BODY,
        size,
        text=json.dumps({"ok": False, "said": TOO_LONG}),
        content_type="application/json",
        headers=_HEADERS,
    )


def api_refusal(request: web.Request, error: web.HTTPException) -> web.Response | None:
    """The answer to the router's 404 or 405 for an address under ``/activity/api/``, in the
    API's own form (``{"ok": false, "said": ...}``, the Allow header kept), or None for any
    other address or error. The page reads every answer from there as JSON; aiohttp's are
    plain text ("405: Method Not Allowed")."""
    if not request.path.startswith(API) or error.status not in (404, 405):
        return None
    allow = {"Allow": error.headers["Allow"]} if "Allow" in error.headers else {}
    return web.json_response(
        {"ok": False, "said": NOT_UNDERSTOOD}, status=error.status, headers={**_HEADERS, **allow}
    )


@dataclass(frozen=True, slots=True)
class _Asked:
    """A new game's choices as the page sent them, ``/cribbage new``'s (None: left out, the
    variant's own: two players to 121)."""

    players: int | None
    target: int | None
    variant: str | None
    computer: bool
    difficulty: str
    scoring: str
    counting: str
    hints: bool = False

    @classmethod
    def of(cls, body: dict[str, Any]) -> _Asked:
        """The choices of a request's body (a 400 for what they cannot be)."""
        players = _int(body, "players") if body.get("players") is not None else None
        target = _int(body, "target") if body.get("target") is not None else None
        variant = body.get("variant")
        computer = body.get("vs_computer", False)
        difficulty = body.get("difficulty", "hard")
        scoring, counting = body.get("scoring", "lurch"), body.get("counting", "auto")
        hints = body.get("hints", False)
        if (
            not isinstance(computer, bool)
            or not isinstance(hints, bool)
            or not all(isinstance(v, str) and len(v) <= 20 for v in (difficulty, scoring, counting))
        ):
            raise _bad()
        if variant is not None and not (isinstance(variant, str) and 0 < len(variant) <= 40):
            raise _bad()
        return cls(players, target, variant, computer, difficulty, scoring, counting, hints)

    def command(self) -> str:
        """The ``/cribbage new`` line that asks for them, for where only a command may."""
        asked = [
            f"players:{self.players}" if self.players is not None else "",
            f"target:{self.target}" if self.target is not None else "",
            f"variant:{self.variant}" if self.variant not in (None, STANDARD.name) else "",
            "hints:True" if self.hints else "",
        ]
        return "`" + " ".join(["/cribbage new", *filter(None, asked)]) + "`"

    def for_everyone(self, players: int) -> _Asked:
        """The same for ``players`` people and no computer: the variant dropped unless it
        seats that many (an unknown name is ``/cribbage new``'s to refuse)."""
        variant = self.variant
        try:
            if variant is not None and players not in named(variant).seats:
                variant = None
        except UnknownVariant:
            pass
        return dataclasses.replace(self, players=players, variant=variant, computer=False)

    def options(self) -> dict[str, Any]:
        """As :meth:`Lobbies.new_game` takes them."""
        return {
            "players": self.players,
            "target": self.target,
            "vs_computer": self.computer,
            "difficulty": self.difficulty,
            "scoring": self.scoring,
            "counting": self.counting,
            "variant": self.variant,
            "hints": self.hints,
        }


async def _people(
    services: WebFace, discord: ActivityDiscord, session: Session, ids: Any
) -> list[User] | web.Response:
    """The people among ``ids`` Discord lists at the session's table
    (:func:`~bot.web.activity.gathering.people_here`) who may sit at a game there (not one
    whose ranked match is played, or whose search waits, there: as *Join* is refused them), or
    the refusal to answer."""
    try:
        found = await people_here(discord, session, ids)
    except ActivityRefused as refused:
        return _refuse(str(refused), refused.status)
    except ValueError:
        raise _bad() from None
    place = session.channel_id, session.guild_id
    return [p for p in found if await services.which.seat_refusal(*place, p.id) is None]


def _bad(text: str = NOT_UNDERSTOOD) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(
        text=json.dumps({"ok": False, "said": text}),
        content_type="application/json",
        headers=_HEADERS,
    )


def _int(body: dict[str, Any], name: str, *, default: int | None = None) -> int:
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise _bad()
    return value


def _text(body: dict[str, Any], name: str, *, limit: int = 100) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise _bad()
    return value


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
        self._reviews = reviews
        self._game_page = pages
        self._clock = clock
        self._pages: dict[int, set[_Page]] = {}
        self._tables = TableGames(services, discord)
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
        self._page = ActivityPage(lambda: discord.application_id, _HEADERS)

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
                headers=_HEADERS,
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
        body = await _body(request)
        code, instance = _text(body, "code", limit=200), _text(body, "instance_id", limit=200)
        if not self._exchange_taken():
            return _refuse(BUSY, 429)
        try:
            access = await self._discord.exchange(code)
            person = await self._discord.person(access)
            place = await self._discord.place(instance)
        except ActivityRefused as refused:
            return _refuse(str(refused), refused.status)
        if place is None or person.id not in place.users:
            return _refuse(NOT_IN_ACTIVITY, 403)
        avatar = avatar_url(person.id, person.avatar)
        if avatar is not None:
            self._avatars[person.id] = avatar
        session = self._sessions.new(
            person.id, person.name, person.avatar, place.channel_id, place.guild_id, instance
        )
        return _json(
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
        return web.Response(text=text, content_type="application/json", headers=_HEADERS)

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
            return _refuse(NOT_A_SOCKET)
        if not self.room():
            # The page keeps what it shows and tries again later (as the game pages do).
            return no_room()
        await socket.prepare(request)
        try:
            hello = await socket.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            await socket.close(code=4001, message=b"no session")
            return socket
        shown = _parsed(hello.data) if hello.type is WSMsgType.TEXT else None
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

    # -- moves --------------------------------------------------------------------------------
    async def _act(self, request: web.Request) -> web.Response:
        session = self._session(request)
        body = await _body(request)
        action = _text(body, "action", limit=30)
        game_id = _int(body, "game")
        user = User(session.user_id, session.name)
        record = await self._services.games.record(game_id)
        ranked = await self._tables.ranked_game(session.channel_id, session.user_id)
        here = record is not None and record.channel_id == session.channel_id
        if record is None or not (here or (ranked is not None and ranked.id == record.id)):
            return _refuse("That game is not at this table.")
        services = self._services
        if action in ("discard", "play", "count", "muggins", "pass"):
            values = body.get("values", [])
            if not isinstance(values, list) or len(values) > 6:
                raise _bad()
            if not all(isinstance(v, str) and 0 < len(v) <= 4 for v in values):
                raise _bad()
            click = Click(game_id, action, _int(body, "stamp"), tuple(values))  # type: ignore[arg-type]
            answer = await services.moves.click(click, user, None, guild_id=session.guild_id)
        elif action == "hint":
            # The expert's choice in the reader's place, for them alone (as a hand's Hint).
            click = Click(game_id, "hint", _int(body, "stamp"))
            answer = await services.hints.hint(click, user, guild_id=session.guild_id)
            if answer.ok:
                return await self._answer(session, answer, hint=True)
        elif action in _LOBBY_ACTIONS or action.startswith("computer:"):
            refusal = None if action != "join" else await _seat_refusal(services, session)
            if refusal is not None:
                return await self._answer(session, Answer.refuse(refusal))
            answer = await services.lobbies.click(
                game_id, action, user, None, guild_id=session.guild_id
            )
        elif action == "everyone":
            people = await _people(services, self._discord, session, body.get("values"))
            if isinstance(people, web.Response):
                return people
            answer = await services.dealing_in.deal_in(
                game_id, user, people, guild_id=session.guild_id
            )
        elif action == "rematch":
            if not self._discord.bot_in(session.guild_id):
                return _refuse(ONLY_IN_THE_CHAT, 409)
            answer = await _rematch(services, session, game_id, user)
        else:
            raise _bad()
        return await self._answer(session, answer)

    async def _answer(
        self, session: Session, answer: Answer, *, hint: bool = False
    ) -> web.Response:
        """Hand the answer back to the core (as the Discord layer does once it is sent: the
        computer's reply follows), and tell the page what was said and the game now
        (``hint``: what was said is a hint, shown under the hand until the game moves)."""
        await self._services.sequels.answered(answer, landed=True, shown=None)
        said = answer.note or answer.reply.text
        state = json.loads(await self._state_of(session))["state"]
        # (What the bot said is Discord's markdown, "press **Join**": for the page, as HTML.)
        html = markdown_html(said) if said else ""
        told = {"ok": answer.ok, "said": said, "said_html": html, "state": state}
        return _json({**told, "hint": True} if hint else told)

    async def _new(self, request: web.Request) -> web.Response:
        session = self._session(request)
        body = await _body(request)
        asked = _Asked.of(body)
        bots_dm = await self._tables.bots_dm(session.channel_id, session.guild_id, session.user_id)
        record = await self._tables.channel_game(session.channel_id)
        closed = self._services.pages.no_game_of_its_own(record, bots_dm=bots_dm)
        if closed is not None:
            return _refuse(closed, 409)
        if not self._discord.bot_in(session.guild_id):
            return _refuse(NOT_HERE.format(command=asked.command()), 409)
        refusal = await _seat_refusal(self._services, session)
        if refusal is not None:
            return await self._answer(session, Answer.refuse(refusal))
        user = User(session.user_id, session.name)
        people: list[User] | None = None
        if body.get("everyone") is not None:
            # Deal everyone in: as many players as Discord confirms are at the table, in the
            # variant chosen if it seats that many (else the one that does), no computer.
            found = await _people(self._services, self._discord, session, body["everyone"])
            if isinstance(found, web.Response):
                return found
            people = found
            players = len({user.id, *(p.id for p in people)})
            if players < FEWEST_AT_A_TABLE:
                return _refuse(NOBODY_ELSE)
            asked = asked.for_everyone(players)
        answer = await self._services.lobbies.new_game(
            session.guild_id, session.channel_id, user, **asked.options()
        )
        if answer.game_id is not None:
            self._tables.changed(session.channel_id, answer.game_id)
        if people is not None and answer.ok and answer.game_id is not None:
            await self._services.sequels.answered(answer, landed=True, shown=None)
            answer = await self._services.dealing_in.deal_in(
                answer.game_id, user, people, guild_id=session.guild_id
            )
        return await self._answer(session, answer)

    async def _review(self, request: web.Request) -> web.Response:
        session = self._session(request)
        record = await self._tables.reader_game(session.channel_id, session.user_id)
        if record is None or record.status is not GameStatus.FINISHED or self._reviews is None:
            return _refuse("There is no finished game here to review.", 404)
        html = await self._reviews(record)
        if not html:
            return _refuse("This game has no review.", 404)
        return _json({"ok": True, "html": html})
