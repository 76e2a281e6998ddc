"""The game pages' HTTP server (aiohttp, which discord.py already brings).

| route | what it serves |
| --- | --- |
| ``/g/<id>/<signature>`` | the game's page: live while it is played, the replay once over |
| ``/l/<club>/<signature>`` | a club's league page: this season's table, the last's, the champions |
| ``…/board.png?v=<version>`` | the board as the pegs stand (``?step=<n>``: after a replay's step) |
| ``…/live`` | server-sent events: the page's live part, each time the game changes |
| ``/page.js`` | the pages' one script |
| ``/favicon.ico`` | the pages' icon |
| ``/activity/…`` | the game as an Activity inside Discord, once on (:mod:`bot.web.activity`) |
| ``/healthz``, ``/readyz`` | alive, and ready or not, and nothing more (:mod:`bot.ops.server`) |
| ``/privacy``, ``/terms`` | the privacy policy and the terms of service (:mod:`bot.web.policy`) |

A link whose signature is not the game's (or whose number is not written as the bot writes
it: ``/g/01/…`` is not game 1's) gets the same short 404 page as a game that does not exist,
so a link tells nothing about games it was not made for; there is no list of games.

Under pressure the server stays within what :mod:`bot.web.capacity` gives it (from the open-file
limit, less what Discord and the database need): a live page beyond its share is refused with
503 and ``Retry-After`` (the page's script waits and tries again, saying so), a connection
beyond it is closed at once, and the first refusal of a spell is logged as one warning. A
connection that has not sent a whole request within :data:`IDLE_SECONDS` (headers sent slowly,
or nothing) is closed, and so is a live page that takes no data for :data:`SEND_SECONDS`. A
malformed request is logged as one line at most (no traceback), and not more than once a
minute. Every answer, aiohttp's own 400 and 405 included, carries the pages' security headers
and no ``Server`` header.

Live updates come from the change feed, not from the database: a change of a game somebody
watches is drawn once and handed to every page open on it (:mod:`bot.web.live`).
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import hdrs, web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler
from PIL import Image, ImageDraw

from bot.core.base.feed import ChangeFeed
from bot.core.base.recent import Newest, Recent
from bot.core.base.views import MessageView
from bot.core.games.records import GameRecord
from bot.core.messages.boards import draw_board
from bot.core.messages.spectator import TableSeen
from bot.core.review.replay import GameReplay
from bot.ops.health import Readiness
from bot.ops.server import add_health_routes
from bot.web.activity.http import api_refusal
from bot.web.activity.server import ActivityServer
from bot.web.capacity import Admission, Capacity, no_room
from bot.web.links import PageLinks
from bot.web.live import LivePages, people_of
from bot.web.pages import (
    SCRIPT,
    home_page,
    league_page,
    message_html,
    not_found_page,
    replay_page,
    spectator_page,
    with_league,
)
from bot.web.policy import PolicyFacts, privacy_page, terms_page

__all__ = ["BAD_LINK", "GONE", "ReviewSource", "WebServer", "review_source"]

log = logging.getLogger(__name__)

#: What a page says for a link that is not one of the bot's.
BAD_LINK = (
    "This link is not a game's page: check that it was copied whole, from the game's table message."
)
#: What it says for a game that is not kept (any more).
GONE = "There is no such game (an old one may no longer be kept)."
#: A connection that has not sent a whole request within this many seconds is closed (headers
#: trickled in, or nothing sent), and so is one kept alive this long after its last answer
#: (aiohttp's keep-alive timer starts when the connection is made, and again after each answer).
IDLE_SECONDS = 15.0
#: Malformed requests are logged at most once in this many seconds (each time saying how many
#: came since): anyone can send them.
BAD_REQUEST_LOG_SECONDS = 60.0
#: Drawn boards kept (by game and version or step), and replays kept (by game).
PICTURES_KEPT = 128
REPLAYS_KEPT = 16

_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "Content-Security-Policy": (
        "default-src 'none'; img-src 'self'; script-src 'self'; style-src 'unsafe-inline';"
        " connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
}


#: What gives a finished game's review for its page, as HTML (None: the game has none): the
#: review of every decision (issue 23, item 1) is shown under the replay through this.
ReviewSource = Callable[[GameRecord], Awaitable[str | None]]
#: What an ended game's page is drawn from, as far as memory may keep it drawn.
_Edition = tuple[int, tuple[str, ...]]


def _edition(record: GameRecord) -> _Edition:
    """``record``'s version and its seats' names: a page of it kept in memory (its replay,
    its boards' pictures) is drawn again when either changes (a player's data deleted renames
    their seat and changes no version, in whichever process it was deleted)."""
    return record.version, tuple(seat.name for seat in record.seats)


#: The review pages' lines about paging on Discord (the web page shows every page at once).
_PAGING = re.compile(r"^(Use \*\*(Next|Previous)\*\*.*|Page \d+ of \d+)$")


def review_source(pages: Pages) -> ReviewSource:
    """The reviews of every seat of a finished game, every page of each, as the Discord review
    shows them to someone who did not play (:meth:`GamePages.review_pages
    <bot.core.pages.GamePages.review_pages>`), each an article of the page, without the lines
    about paging on Discord."""

    async def source(record: GameRecord) -> str | None:
        people = people_of(record)
        parts = []
        for content in await pages.review_pages(record):
            kept = "\n".join(
                line for line in content.split("\n") if not _PAGING.match(line.strip())
            )
            parts.append(
                f'<article class="msg">{message_html(MessageView(kept), people)}</article>'
            )
        return "".join(parts) or None

    return source


@functools.cache
def favicon() -> bytes:
    """The pages' icon (a browser asks for ``/favicon.ico`` with every page): a board's green
    with two rows of peg holes and a red peg, as an ICO of 16, 32 and 48 pixels."""
    size = 48
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((2, 8, size - 3, size - 9), radius=8, fill=(21, 101, 52, 255))
    for row, y in enumerate((19, 29)):
        for hole in range(5):
            x = 10 + hole * 7
            peg = row == 0 and hole == 3
            colour = (220, 38, 38, 255) if peg else (240, 230, 200, 255)
            radius = 3 if peg else 2
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
    out = io.BytesIO()
    image.save(out, format="ICO", sizes=[(16, 16), (32, 32), (48, 48)])
    return out.getvalue()


def _dressed(response: web.StreamResponse) -> None:
    """The pages' headers on an answer (where it has none of its own: the Activity's page
    sets its own content policy), and no ``Server`` header (it tells what to attack)."""
    for name, value in _HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.popall(hdrs.SERVER, None)


async def _dress(request: web.Request, response: web.StreamResponse) -> None:
    """Every routed answer (the router's 404 and 405 too) goes out dressed."""
    _dressed(response)


class _Request(web.Request):
    """A request whose answer goes out dressed even when no route saw it (aiohttp's own 400
    for a request it could not read)."""

    async def _prepare_hook(self, response: web.StreamResponse) -> None:
        # (Called by aiohttp after it set the answer's headers and before it writes them.)
        _dressed(response)
        await super()._prepare_hook(response)


class _BadRequests(logging.Filter):
    """aiohttp's server log, with a malformed request one line (no traceback) at most once a
    :data:`BAD_REQUEST_LOG_SECONDS`, saying how many came since the last; anything else
    (a fault in a handler) logged as aiohttp logs it."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        self._last: float | None = None
        self._unsaid = 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        self._unsaid += 1
        now = self._clock()
        if self._last is not None and now - self._last < BAD_REQUEST_LOG_SECONDS:
            return False
        self._last = now
        count, self._unsaid = self._unsaid, 0
        said = " ".join(str(error.message or type(error).__name__).split())[:120]
        record.msg = "malformed requests to the game pages: %d since the last said (%s: %s)"
        record.args = (count, type(error).__name__, said)
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        return True


#: aiohttp's server log for the pages (see :class:`_BadRequests`).
_server_log = logging.getLogger(f"{__name__}.requests")
_server_log.addFilter(_BadRequests())


class _Closed(asyncio.Protocol):
    """A connection beyond the server's share of open files: closed as soon as it is made."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.close()


class LeagueLine(Protocol):
    """One player's line of a club's league table, as the page reads it."""

    @property
    def name(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def nights(self) -> int: ...
    @property
    def won(self) -> int: ...
    @property
    def game_points(self) -> int: ...


class League(Protocol):
    """A club's league, as its page reads it (the core's ``LeagueBoard``)."""

    @property
    def name(self) -> str: ...
    @property
    def seasons(self) -> tuple[tuple[str, int, tuple[LeagueLine, ...]], ...]: ...
    @property
    def champions(self) -> tuple[tuple[str, str, int], ...]: ...


class Pages(Protocol):
    """What the pages read of the games (the core's ``services.pages``,
    :class:`bot.core.pages.GamePages`)."""

    async def league(self, club_id: int) -> League | None:
        """A club's league (None: no such league)."""
        ...

    async def league_of(self, record: GameRecord) -> tuple[int, str] | None:
        """The club (and the words naming the night) a game was played for, if a night's."""
        ...

    async def record(self, game_id: int) -> GameRecord | None:
        """The game as it is now (None: no such game)."""
        ...

    async def seen(self, record: GameRecord) -> TableSeen:
        """The game as its channel shows it now."""
        ...

    async def replay(self, record: GameRecord) -> GameReplay | None:
        """The ended game told again (None: while it is played, or when it cannot be)."""
        ...

    async def review_pages(self, record: GameRecord) -> list[str]:
        """Every page of the review of each seat of a finished game."""
        ...


class WebServer:
    """Serves the game pages on ``host``:``port`` (0: a free port, :attr:`port` says which)."""

    def __init__(
        self,
        pages: Pages,
        feed: ChangeFeed,
        links: PageLinks,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        reviews: ReviewSource | None = None,
        limits: Capacity | None = None,
        activity: ActivityServer | None = None,
        health: Readiness | None = None,
        policy: PolicyFacts | None = None,
    ) -> None:
        """``reviews``: where a finished game's review comes from, once there are reviews;
        ``limits``: what the server may hold (by default worked out at start from the
        open-file limit, :func:`bot.web.capacity.capacity`); ``activity``: the Activity's
        routes, served here too (its live pages count with the game pages'); ``health``: the
        process's readiness, answered at ``/healthz`` and ``/readyz`` as a public port
        answers them, alive and ready or not alone (:mod:`bot.ops.server`);
        ``policy``: what the privacy policy and the terms state (without it, neither is
        served)."""
        self._health = health
        self._policy = policy
        self._pages = pages
        self._reviews = reviews
        self.links = links
        self._host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        #: The live pages open on each game.
        self.live = LivePages(pages, feed, self._board_src)
        self._pictures: Recent[tuple[int, str], bytes] = Recent(PICTURES_KEPT)
        # game id -> its replay and the edition it was made of, at the game's version.
        self._replays: Newest[int, tuple[_Edition, GameReplay | None]] = Newest(REPLAYS_KEPT)
        #: What the server lets in within its share of open files.
        self.admission = Admission(limits)
        self.activity = activity
        if activity is not None:
            activity.room = self._room
        self._server: asyncio.Server | None = None

    @property
    def address(self) -> str:
        """Where the server listens, as a URL."""
        return f"http://{self._host}:{self.port}"

    @property
    def watching(self) -> int:
        """How many live pages are open (the Activity's too)."""
        pages = self.live.watching
        return pages + (self.activity.watching if self.activity is not None else 0)

    def _room(self) -> bool:
        """Whether another live page (a game's page or the Activity's) may open now."""
        return self.admission.live_page(self.watching)

    def app(self) -> web.Application:
        """The aiohttp application (its routes)."""
        app = web.Application()
        app.router.add_get("/", self._home)
        app.router.add_get("/page.js", self._script)
        app.router.add_get("/favicon.ico", self._favicon)
        if self._policy is not None:
            app.router.add_get("/privacy", self._privacy)
            app.router.add_get("/terms", self._terms)
        app.router.add_get("/g/{game}/{signature}", self._page)
        app.router.add_get("/g/{game}/{signature}/board.png", self._board)
        app.router.add_get("/g/{game}/{signature}/live", self._live)
        app.router.add_get("/l/{club}/{signature}", self._league)
        if self.activity is not None:
            self.activity.add_routes(app)
        if self._health is not None:
            add_health_routes(app, self._health, public=True)
        app.middlewares.append(self._errors)
        app.on_response_prepare.append(_dress)
        return app

    def runner(self) -> web.AppRunner:
        """The aiohttp runner of :meth:`app`, as :meth:`start` runs it: idle connections
        closed after :data:`IDLE_SECONDS`, aiohttp's log of bad requests kept short
        (:class:`_BadRequests`), no access log."""
        return web.AppRunner(
            self.app(),
            access_log=None,
            handle_signals=False,
            keepalive_timeout=IDLE_SECONDS,
            logger=_server_log,
        )

    async def start(self) -> None:
        """Listen, and follow the change feed."""
        limits = self.admission.start()
        self._runner = self.runner()
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        app = self._runner.app

        def request(
            message: Any, payload: Any, protocol: Any, writer: Any, task: Any
        ) -> web.Request:
            # Every request is a _Request, so every answer goes out dressed.
            return app._make_request(message, payload, protocol, writer, task, _cls=_Request)

        server.request_factory = request
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._connection, self._host, self.port)
        self.port = int(self._server.sockets[0].getsockname()[1])
        self.live.follow()
        if self.activity is not None:
            self.activity.start()
        log.info(
            "game pages at %s (up to %d live pages, %d connections)",
            self.address,
            limits.live_pages,
            limits.connections,
        )

    def _connection(self) -> asyncio.BaseProtocol:
        """A new connection's protocol: aiohttp's, or, beyond the server's share of open
        files, one that closes it at once."""
        runner = self._runner
        server = None if runner is None else runner.server
        if server is None or not self.admission.connection(len(server.connections)):
            return _Closed()
        return server()

    async def stop(self) -> None:
        """Stop following the feed, end the open live pages and stop listening."""
        self.live.stop()
        if self.activity is not None:
            self.activity.stop()
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- what a page shows --------------------------------------------------------------------
    async def _replay(self, record: GameRecord) -> GameReplay | None:
        """The replay of an ended game, made once (on a worker thread: a whole game)."""
        kept = self._replays.get(record.id)
        if kept is not None and kept[0] == _edition(record):
            return kept[1]
        told = await self._pages.replay(record)
        # (Made of an older version than one made meanwhile, it is not kept over it.)
        self._replays.keep(record.id, record.version, (_edition(record), told))
        return told

    def _board_src(self, seen: TableSeen) -> str:
        return f"{self.links.path(seen.game_id)}/board.png?v={seen.version}"

    async def _record(self, request: web.Request) -> GameRecord:
        """The game a request's link names; a 404 page for a link that is not one of ours or a
        game that is not kept."""
        text, signature = request.match_info["game"], request.match_info["signature"]
        # One address per game: the number as the bot writes it (no leading zero, no other
        # digits than 0-9), so a changed link finds nothing.
        canonical = text.isascii() and text.isdecimal() and text == str(int(text))
        if not canonical or len(text) > 18 or not self.links.check(int(text), signature):
            raise _not_found(BAD_LINK)
        record = await self._pages.record(int(text))
        if record is None:
            raise _not_found(GONE)
        return record

    # -- routes -------------------------------------------------------------------------------
    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """An unknown address gets the 404 page, or under the Activity's API the API's own
        refusal, as a wrong method there does (every answer is dressed as it goes out:
        :func:`_dress`)."""
        try:
            return await handler(request)
        except web.HTTPException as error:
            refused = None if self.activity is None else api_refusal(request, error)
            if refused is not None:
                return refused
            if not isinstance(error, web.HTTPNotFound) or error.content_type == "text/html":
                raise
            return _html(not_found_page(BAD_LINK), status=404)

    async def _home(self, request: web.Request) -> web.Response:
        return _html(home_page(policy=self._policy is not None))

    async def _privacy(self, request: web.Request) -> web.Response:
        assert self._policy is not None  # (served only with one)
        return _html(privacy_page(self._policy))

    async def _terms(self, request: web.Request) -> web.Response:
        assert self._policy is not None
        return _html(terms_page(self._policy))

    async def _script(self, request: web.Request) -> web.Response:
        return web.Response(
            text=SCRIPT,
            content_type="text/javascript",
            headers={"Cache-Control": "max-age=3600"},
        )

    async def _favicon(self, request: web.Request) -> web.Response:
        return web.Response(
            body=favicon(), content_type="image/x-icon", headers={"Cache-Control": "max-age=86400"}
        )

    async def _page(self, request: web.Request) -> web.Response:
        record = await self._record(request)
        path = self.links.path(record.id)
        seen = await self._pages.seen(record)
        people = people_of(record)
        if not seen.over:
            page = spectator_page(seen, path, people)
        else:
            step_text = request.query.get("step", "")
            step = int(step_text) if step_text.isdecimal() and len(step_text) < 7 else None
            told = await self._replay(record)
            review = None if self._reviews is None else await self._reviews(record)
            page = replay_page(seen, told, path, people, step=step, review=review)
        night = await self._pages.league_of(record)
        if night is not None:
            club_id, named = night
            page = with_league(page, named, self.links.league_path(club_id))
        return _html(page)

    async def _league(self, request: web.Request) -> web.Response:
        """A club's league page (the same short 404 for a link not ours, or no league)."""
        text, signature = request.match_info["club"], request.match_info["signature"]
        canonical = text.isascii() and text.isdecimal() and text == str(int(text))
        if (
            not canonical
            or len(text) > 18
            or not self.links.check(int(text), signature, kind="league")
        ):
            raise _not_found(BAD_LINK)
        board = await self._pages.league(int(text))
        if board is None:
            raise _not_found(GONE)
        seasons = [
            (name, played, [(x.name, x.points, x.nights, x.won, x.game_points) for x in lines])
            for name, played, lines in board.seasons
        ]
        return _html(league_page(board.name, seasons, board.champions))

    async def _board(self, request: web.Request) -> web.Response:
        record = await self._record(request)
        step_text = request.query.get("step")
        if step_text is not None:
            # A replay's step: only once the game is over (one still going has no replay).
            told = await self._replay(record) if not record.is_open else None
            if told is None or not step_text.isdecimal() or len(step_text) > 6 or not told.steps:
                raise _not_found(GONE)
            step = min(int(step_text), len(told.steps) - 1)
            key = (record.id, f"s{step}:{_edition(record)!r}")
            board = told.board(int(step_text))
        else:
            seen = await self._pages.seen(record)
            if seen.board is None:
                raise _not_found(GONE)
            # (By its seats' names too: a deletion renames a seat and changes no version.)
            key = (record.id, f"v{_edition(record)!r}")
            board = seen.board
        png = self._pictures.get(key)
        if png is None:
            png = (await asyncio.to_thread(draw_board, board)).png
            self._pictures.keep(key, png)
        # A replay's step never changes; the board of a version is kept a minute (asked for
        # at once, it is that version's), and without one it is the board now.
        if step_text is not None:
            cache = "max-age=86400"
        elif "v" in request.query:
            cache = "max-age=60"
        else:
            cache = "no-store"
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})

    async def _live(self, request: web.Request) -> web.StreamResponse:
        record = await self._record(request)
        if not self._room():
            # The page keeps what it shows; its script says so and tries again later.
            return no_room()
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
                **_HEADERS,
            }
        )
        try:
            # (The headers go at once: a reader gone while the game was read, as a loaded
            # server hears late, leaves a closing connection. Leaving is no error.)
            await response.prepare(request)
        except ConnectionResetError:
            return response
        await self.live.serve(request, response, record)
        return response


def _html(text: str, *, status: int = 200) -> web.Response:
    return web.Response(
        text=text,
        status=status,
        content_type="text/html",
        charset="utf-8",
        headers={"Cache-Control": "no-store"},
    )


def _not_found(reason: str) -> web.HTTPNotFound:
    return web.HTTPNotFound(
        text=not_found_page(reason),
        content_type="text/html",
        headers={"Cache-Control": "no-store", **_HEADERS},
    )
