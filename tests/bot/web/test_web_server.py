"""The pages' server in this process: a finished game's page with and without a review."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.core.base.replies import TableAsked
from bot.core.games.records import GameRecord
from bot.core.privacy.players import FORMER_NAME
from bot.core.services import Services
from bot.store import Store
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer, review_source
from tests.helpers.held import held
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    GUILD,
    Clock,
    Transcript,
    drive,
    finished_game,
    make_service,
    open_table,
    ranked_game,
    search_ranked,
)

LINKS = PageLinks("one secret that is long enough")


async def test_the_review_shows_under_the_replay_when_there_is_one(
    service: Services, store: Store
) -> None:
    _, game_id = await finished_game(service)
    asked: list[int] = []

    async def reviews(record: GameRecord) -> str | None:
        asked.append(record.id)
        return "<p>Both sides, decision by decision.</p>"

    server = WebServer(service.pages, service.feed, LINKS, reviews=reviews)
    async with TestClient(TestServer(server.app())) as client:
        response = await client.get(LINKS.path(game_id))
        page = await response.text()
    assert response.status == 200 and asked == [game_id]
    assert '<h2 id="review">Review</h2><p>Both sides, decision by decision.</p>' in page
    assert page.index('class="deal"') < page.index('id="review"') < page.index('id="channel"')


async def test_a_game_against_the_computer_shows_its_persons_review_alone(
    store: Store, clock: Clock
) -> None:
    """The page of a game against the computer shows the person's review, not the computer's:
    ``/cribbage review`` names people alone and the reviews made as games end leave the
    computer out, where the page had the worker review the computer's seat too ("Review of
    game 1 — Easy bot") the first time it was opened."""
    service = make_service(store, clock, sealing=True, computer=True)
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(target=61, vs_computer=True, level="easy")
    )
    await table.record(AL.id, opened)
    await drive(service, table, [AL])
    game_id = opened.game_id or 0
    server = WebServer(service.pages, service.feed, LINKS, reviews=review_source(service.pages))
    async with TestClient(TestServer(server.app())) as client:
        page = await (await client.get(LINKS.path(game_id))).text()
    review = page[page.index('id="review"') : page.index('id="channel"')]
    assert f"Review of game {game_id} — Al" in review
    assert f"Review of game {game_id} — Easy bot" not in review
    assert await store.review(game_id, 1) is None, "the computer's seat was not reviewed"


async def test_without_reviews_the_page_has_no_review_section(
    service: Services, store: Store
) -> None:
    _, game_id = await finished_game(service)
    server = WebServer(service.pages, service.feed, LINKS)
    async with TestClient(TestServer(server.app())) as client:
        response = await client.get(LINKS.path(game_id))
        page = await response.text()
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "noindex" in response.headers["X-Robots-Tag"]
        script = await client.get("/page.js")
        assert script.status == 200 and "EventSource" in await script.text()
    assert response.status == 200 and 'id="review"' not in page and 'class="deal"' in page


async def test_the_reviews_of_both_sides_are_on_a_finished_games_page(
    service: Services, store: Store
) -> None:
    _, game_id = await finished_game(service)
    server = WebServer(service.pages, service.feed, LINKS, reviews=review_source(service.pages))
    async with TestClient(TestServer(server.app())) as client:
        response = await client.get(LINKS.path(game_id))
        page = await response.text()
    assert response.status == 200
    review = page[page.index('id="review"') : page.index('id="channel"')]
    # Each player's review, every page of it, as the Discord review shows it (less its paging).
    assert review.count("<strong>Review of game") >= 2
    assert "— Al</strong>" in review and "— Bea</strong>" in review and "Accuracy" in review
    assert "Page 1 of" not in review and "Next" not in review


async def test_a_ranked_games_page_shows_no_review_its_players_alone_may_see(
    service: Services, store: Store
) -> None:
    # A ranked game's review is its two players' alone (anyone else asking on Discord is told
    # it is someone else's ranked game), but its page, linked from the table everyone at each
    # place sees, showed both players' reviews to whoever opened it.
    await search_ranked(service, AL, 7001, guild_id=1)
    await search_ranked(service, BEA, 7002)
    record = await ranked_game(service, store, AL)
    assert (await service.moves.resign(record.channel_id, BEA)).ok
    service.ranked_play.stop()
    server = WebServer(service.pages, service.feed, LINKS, reviews=review_source(service.pages))
    async with TestClient(TestServer(server.app())) as client:
        response = await client.get(LINKS.path(record.id))
        page = await response.text()
    assert response.status == 200 and "Bea resigned" in page
    assert 'id="review"' not in page and "Review of game" not in page
    await service.ledger.writes.flush()


async def test_a_game_has_one_address_and_the_pages_an_icon(
    service: Services, store: Store
) -> None:
    """``/g/01/<signature>`` is not game 1's page (a changed link finds nothing), and the
    icon every browser asks for is there."""
    _, game_id = await finished_game(service)
    server = WebServer(service.pages, service.feed, LINKS)
    path = LINKS.path(game_id)
    signature = path.rsplit("/", 1)[1]
    async with TestClient(TestServer(server.app())) as client:
        assert (await client.get(path)).status == 200
        for changed in (f"/g/0{game_id}/{signature}", f"/g/{game_id}٠/{signature}"):
            assert (await client.get(changed)).status == 404, changed
        icon = await client.get("/favicon.ico")
        body = await icon.read()
    assert icon.status == 200 and icon.content_type == "image/x-icon"
    assert "max-age" in icon.headers["Cache-Control"]
    with Image.open(io.BytesIO(body)) as read:
        assert read.format == "ICO" and read.size == (48, 48)


async def test_a_finished_games_page_drawn_before_a_deletion_is_not_shown_after(
    service: Services, store: Store
) -> None:
    """A finished game's replay, kept in memory by the game's version (a deletion changes no
    version), is drawn again once a player had their data deleted, so the page names them no
    more; it showed their name for as long as it was kept (in any process)."""
    _, game_id = await finished_game(service)
    server = WebServer(service.pages, service.feed, LINKS)
    async with TestClient(TestServer(server.app())) as client:
        before = await (await client.get(LINKS.path(game_id))).text()
        board = await (await client.get(f"{LINKS.path(game_id)}/board.png?step=1")).read()
        now = await (await client.get(f"{LINKS.path(game_id)}/board.png")).read()
        assert "Al" in before and FORMER_NAME not in before
        assert (await service.privacy.confirm_forget(AL.id, AL, True)).ok
        after = await (await client.get(LINKS.path(game_id))).text()
        again = await (await client.get(f"{LINKS.path(game_id)}/board.png?step=1")).read()
        now_again = await (await client.get(f"{LINKS.path(game_id)}/board.png")).read()
    assert FORMER_NAME in after and ">Al<" not in after and "Al " not in after
    assert again != board, "the board's picture names the sides: drawn again"
    # The board as the pegs stand (kept by the game's version), likewise.
    assert now_again != now, "the board now names the sides: drawn again"


async def test_a_move_made_while_a_live_page_connects_is_drawn_for_it(
    service: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Al discards as a game's page opens its live part (the game read, no page yet watching
    it when the change is heard): the page is drawn the move (it waited for the next change,
    and the game's last one, its end, never came)."""
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    record = await service.games.record(game_id)
    assert record is not None
    limits = Capacity(connections=100, live_pages=10)
    server = WebServer(service.pages, service.feed, LINKS, limits=limits)
    server.live.follow()  # (what start does, with the port of its own)
    reads = service.pages.record
    reached, go_on = held(monkeypatch, service.pages, "record", answered=True)
    try:
        async with TestClient(TestServer(server.app())) as client:
            live = asyncio.ensure_future(
                client.get(f"{LINKS.path(game_id)}/live?v={record.version}")
            )
            await reached.wait()
            monkeypatch.setattr(service.pages, "record", reads)  # (the live part's read alone)
            loaded = service.games.loaded.load(record)
            hand = " ".join(c.code for c in loaded.game.view(0).hand[:2])
            assert (await service.moves.discard(CHANNEL, AL, hand)).ok
            go_on.set()
            response = await live
            assert response.status == 200
            lines = [await asyncio.wait_for(response.content.readline(), 10)]
            while lines[-1] and not lines[-1].startswith(b"event:"):
                lines.append(await asyncio.wait_for(response.content.readline(), 10))
            assert lines[-1] == b"event: table\n", lines
            response.close()
    finally:
        server.live.stop()


async def test_a_live_pages_reader_who_goes_away_before_it_is_answered_is_no_error(
    service: Services, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 67, item 5: under load a live page's reader may be gone by the time its answer
    starts (its connection closed while the game was read): aiohttp then refuses to write to
    the closing transport (``ClientConnectionResetError``), and the server, run as the bot runs
    it (its handlers not cancelled when a reader leaves), logged an ERROR with its traceback.
    A reader leaving is not an error: nothing is logged at ERROR, no traceback, and nothing
    waits on it any more."""
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    limits = Capacity(connections=100, live_pages=10)
    server = WebServer(service.pages, service.feed, LINKS, limits=limits)
    live = server._live
    done = asyncio.Event()
    asked: list[web.Request] = []

    async def answered(request: web.Request) -> web.StreamResponse:
        asked.append(request)
        try:
            return await live(request)
        finally:
            done.set()

    def gone() -> bool:
        transport = asked[0].transport
        return transport is None or transport.is_closing()

    monkeypatch.setattr(server, "_live", answered)
    reached, go_on = held(monkeypatch, service.pages, "record", answered=True)
    caplog.set_level(logging.INFO)
    runner = server.runner()  # (as the bot runs it)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        async with aiohttp.ClientSession() as client:
            url = f"http://127.0.0.1:{port}{LINKS.path(game_id)}/live"
            reading = asyncio.ensure_future(client.get(url))
            await reached.wait()
            reading.cancel()  # the reader goes away: its connection closes
            with contextlib.suppress(asyncio.CancelledError):
                await reading
            while not gone():  # (until the server hears it, as a loaded one does late)
                await asyncio.sleep(0.001)
            go_on.set()
            await done.wait()
    finally:
        await runner.cleanup()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [r.getMessage() for r in errors]
    assert not server.live._viewers, "nothing waits on a reader gone"
