"""The game pages' routes asked for with any link at all (property-based: Hypothesis writes
the links), on the pages' server as the bot starts it, over games in several states
(tests.helpers.web_fuzz's places: a lobby, a cancelled one, five-card at the discard, three
players at the play, a show counted by hand, seven-card's second deal, a game against the
computer, a finished and a resigned game, and a number no game has): the page, its board's
picture and its live part (``/g/<game>/<signature>``, ``…/board.png``, ``…/live``) with the
game's number written otherwise (a leading zero, a sign, other digits, too many), its
signature changed, cut short, lengthened or another game's, an address one step off, and any
query string (``step`` and ``v`` of any value, repeated, keys that mean nothing).

After every request: no 5xx and nothing logged as an error (no traceback); a link that is not
exactly the game's (its number as the bot writes it, its own signature) gets the short 404
page saying so, and an exact one of a game kept its page; nothing stored changed; a game still
played shows nobody a card still hidden (the page and its live part are the channel's, for
anyone: only what the deals made public), and its board has no replay's step; every answer
stays within a size that no input can grow."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import quote

import aiohttp
import pytest
from hypothesis import event, example, given, note
from hypothesis import strategies as st
from yarl import URL

from bot.core.services import Services
from bot.store import Store
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import BAD_LINK, GONE, WebServer, review_source
from tests.helpers.web_fuzz import (
    FUZZ,
    NAMES,
    PATIENCE,
    Knowledge,
    Place,
    Places,
    ShownByName,
    assert_quiet,
    page_cards,
    weighted,
)

LINKS = PageLinks("one secret that is long enough")
#: A number no game has (the place without a game links to it).
NO_GAME = 999_999
#: The most a page, its board's picture, the 404 page and a live event may be: bounds no input
#: may push an answer past (a finished game's page, replay and reviews, is about 50 KB).
PAGE_BYTES = 256 * 1024
NOT_FOUND_BYTES = 4096
EVENT_BYTES = 64 * 1024
#: Where a link leads: the page, its board, its live part, or an address one step off.
ROUTES = {
    "page": "",
    "board": "/board.png",
    "live": "/live",
    "slash": "/",
    "deeper": "/board.png/x",
    "BOARD": "/BOARD.PNG",
}


@dataclass(frozen=True, slots=True)
class Link:
    """A link to the place's game: ``game`` its number as written (``ID`` standing for the
    game's number as the bot writes it; ``arabic`` and ``wide``: in other digits), and
    ``signature``: ``right`` (the number's own), ``other`` (another game's), ``changed`` (one
    character changed, at ``n``), ``cut`` (cut short by ``n``), ``longer`` (a character
    added), ``upper`` (in capitals), or any text; then the route and the query string."""

    game: str = "ID"
    signature: str = "right"
    n: int = 0
    route: str = "page"
    query: tuple[tuple[str, str], ...] = ()


GAME_TEXTS = ("ID", "0ID", "+ID", "-ID", " ID", "ID ", "ID.0", "IDe0", "1ID", "arabic", "wide")
SIGNATURES = ("right", "other", "changed", "cut", "longer", "upper")
QUERY_KEYS = ("step", "v", "x", "STEP", "step ", "")
QUERY_VALUES = (
    "0",
    "1",
    "5",
    "40",
    "999999",
    "1000000",
    "9" * 40,
    "-1",
    "",
    "١",
    "٣٣",
    "1.5",
    "0x1",
    " 1",
    "1e3",
    "NaN",
    "%00",
)
#: Mostly the game's own link (and so its page, with any query string), else one written
#: otherwise, and anything at all.
links = st.builds(
    Link,
    weighted(
        (5, st.just("ID")),
        (2, st.sampled_from(GAME_TEXTS)),
        (1, st.text(max_size=24).filter(lambda t: t and "/" not in t)),
    ),
    weighted(
        (5, st.just("right")),
        (2, st.sampled_from(SIGNATURES)),
        (1, st.text(max_size=30).filter(lambda t: "/" not in t)),
    ),
    st.integers(0, 40),
    weighted((3, st.sampled_from(["page", "board", "live"])), (1, st.sampled_from(list(ROUTES)))),
    st.lists(
        st.tuples(
            weighted((3, st.sampled_from(QUERY_KEYS)), (1, st.text(max_size=8))),
            weighted((3, st.sampled_from(QUERY_VALUES)), (1, st.text(max_size=12))),
        ),
        max_size=3,
    ).map(tuple),
)


def _digits(text: str, zero: str) -> str:
    """``text``'s digits written from ``zero`` on (Arabic-Indic, fullwidth)."""
    return "".join(chr(ord(zero) + int(c)) if c.isdigit() else c for c in text)


def _signature(link: Link, game_id: int) -> str:
    right = LINKS.signature(game_id)
    match link.signature:
        case "right":
            return right
        case "other":
            return LINKS.signature(game_id + 1)
        case "changed":
            at = link.n % len(right)
            return right[:at] + ("A" if right[at] != "A" else "B") + right[at + 1 :]
        case "cut":
            return right[: link.n % len(right)]
        case "longer":
            return right + "A"
        case "upper":
            return right.upper()
    return link.signature


def _address(link: Link, game_id: int) -> tuple[str, str, str]:
    """The link's number and signature as sent, and its path with its query string."""
    match link.game:
        case "arabic":
            number = _digits(str(game_id), "٠")
        case "wide":
            number = _digits(str(game_id), "０")
        case _:
            number = link.game.replace("ID", str(game_id))
    signature = _signature(link, game_id)
    path = f"/g/{quote(number, safe='')}/{quote(signature, safe='')}{ROUTES[link.route]}"
    query = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in link.query)
    return number, signature, path + (f"?{query}" if query else "")


@dataclass(repr=False, eq=False)
class Pages(ShownByName):
    """The pages' server as the bot starts it, a client of it, and the places it serves."""

    name = "pages"
    server: WebServer
    http: aiohttp.ClientSession
    places: Places
    caplog: pytest.LogCaptureFixture


@pytest.fixture
async def pages(
    service: Services, store: Store, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[Pages]:
    """The pages' server started as the bot starts it (its own runner: idle connections
    closed, bad requests logged short, every answer dressed), reviews on, with room for every
    live page the examples open."""
    limits = Capacity(connections=1000, live_pages=1000)
    server = WebServer(
        service.pages,
        service.feed,
        LINKS,
        reviews=review_source(service.pages),
        limits=limits,
    )
    await server.start()
    try:
        async with aiohttp.ClientSession(server.address) as http:
            yield Pages(server, http, Places(service, store), caplog)
    finally:
        await server.stop()


async def _knowledge(pages: Pages, game_id: int) -> Knowledge:
    """What anyone may know of the game now (the pages are the channel's, for anyone)."""
    places = pages.places
    record = await places.service.games.record(game_id)
    if record is None:
        return Knowledge(frozenset(), frozenset())
    loaded = await places.service.games.loaded.for_page(record, places.store)
    return Knowledge.of(loaded, None)


def _shown(link: Link) -> int:
    """The version a live page says it shows (its first ``v``, read as the server reads it:
    -1 for none, or for one that is no number)."""
    shown = next((value for key, value in link.query if key == "v"), "")
    return int(shown) if shown.isdecimal() and len(shown) < 12 else -1


async def _live_events(response: aiohttp.ClientResponse, wanted: bool) -> list[bytes]:
    """A live page's first events: its retry, and the table drawn for it when ``wanted``
    (or the game's end, which closes it)."""
    content = response.content
    events = [await asyncio.wait_for(content.readuntil(b"\n\n"), PATIENCE)]
    if wanted:
        events.append(await asyncio.wait_for(content.readuntil(b"\n\n"), PATIENCE))
    return events


@FUZZ
@given(name=st.sampled_from(NAMES), link=links)
# The exact link of each route, and its number and signature written otherwise.
@example(name="counted by hand", link=Link())
@example(name="counted by hand", link=Link(route="live"))
@example(name="seven-card, second deal", link=Link(route="live", query=(("v", "0"),)))
@example(name="seven-card, second deal", link=Link(route="live", query=(("v", "99999"),)))
@example(name="seven-card, second deal", link=Link(route="board", query=(("v", "1"),)))
@example(name="finished", link=Link(query=(("step", "999999"),)))
@example(name="finished", link=Link(route="board", query=(("step", "999999"),)))
@example(name="finished", link=Link(route="board", query=(("step", "٣"),)))
@example(name="finished", link=Link(route="live"))
@example(name="lobby", link=Link(route="board"))
@example(name="no game", link=Link())
@example(name="finished", link=Link(game="0ID"))
@example(name="finished", link=Link(game="arabic"))
@example(name="finished", link=Link(game="9" * 30))
@example(name="finished", link=Link(signature="other"))
@example(name="finished", link=Link(signature="cut", n=21))
@example(name="finished", link=Link(signature="longer", route="live"))
@example(name="finished", link=Link(route="slash"))
# A replay's step is no secret once the game is over; while it is played it is not served.
@example(name="three players, the play", link=Link(route="board", query=(("step", "0"),)))
@example(name="counted by hand", link=Link(query=(("step", "3"), ("step", "x"))))
async def test_any_link_to_a_game_page_is_its_page_or_a_short_404(
    pages: Pages, name: str, link: Link
) -> None:
    """``link`` at the place ``name``: checked as the module says."""
    place: Place = await pages.places.get(name)
    game_id = place.game_id or NO_GAME
    number, signature, path = _address(link, game_id)
    exact = number == str(game_id) and signature == LINKS.signature(game_id)
    record = await pages.places.service.games.record(game_id)
    known = await _knowledge(pages, game_id)
    before = await pages.places.stored(place)
    note(f"GET {path} at {name!r} (exact: {exact})")
    pages.caplog.clear()
    async with pages.http.get(URL(path, encoded=True)) as response:
        kind = response.content_type
        if response.status == 200 and kind == "text/event-stream":
            # Live: its retry, then a table drawn for it if the page shows an older version
            # than the game's (a newer one is drawn once the game gets past it), or the end
            # of a game over.
            wanted = record is None or not record.is_open or _shown(link) < record.version
            body = b"".join(await _live_events(response, wanted))
        else:
            body = await response.read()
    what = f"GET {path} at {name!r}"
    assert response.status < 500, (what, response.status, body[:300])
    assert_quiet(pages.caplog, what)
    event(f"{link.route}: {response.status} {kind}")
    assert await pages.places.stored(place) == before, f"{what} changed what is stored"
    if response.status == 404:
        # One page for every link that leads nowhere: a sentence, nothing about any game.
        text = body.decode()
        assert kind == "text/html" and len(body) <= NOT_FOUND_BYTES, (what, len(body))
        bad, gone = html.escape(BAD_LINK) in text, html.escape(GONE) in text
        assert bad != gone, (what, text)
        assert not gone or exact, f"{what}: a link not the game's said it is gone"
        return
    assert response.status == 200, (what, response.status, body[:300])
    assert exact and record is not None, f"{what}: a link not exactly the game's was served"
    assert link.route in ("page", "board", "live"), what
    if link.route == "board":
        assert kind == "image/png" and len(body) <= PAGE_BYTES, (what, kind, len(body))
        # A step of the replay shows every hand: never while the game is played.
        assert not record.is_open or "step" not in dict(link.query), what
        return
    assert len(body) <= PAGE_BYTES, (what, len(body))
    named = page_cards(body.decode())
    if not known.everything:
        leaked = named - known.now - known.before
        assert not leaked, f"{what} shows {sorted(map(str, leaked))}: {body.decode()[:2000]}"
    event(f"{link.route}: cards on it: {'some' if named and not known.everything else 0}")


def test_a_link_is_exact_only_as_the_bot_writes_it() -> None:
    """(The test's own reckoning.) Only the number as the bot writes it, with its own
    signature, is the game's link; every other way of writing either is not."""
    assert _address(Link(), 12)[:2] == ("12", LINKS.signature(12))
    for link in (Link(game=g) for g in GAME_TEXTS[1:]):
        assert _address(link, 12)[0] != "12", link
    for link in (Link(signature=s, n=3) for s in SIGNATURES[1:]):
        assert _address(link, 12)[1] != LINKS.signature(12), link
