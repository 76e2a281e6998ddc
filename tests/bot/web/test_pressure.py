"""The pages' server under pressure (issue 33, item 4): the open-file limit raised and the
pages' share of it sized, live pages beyond it refused with a clear status and one warning,
connections beyond it closed, slow and idle connections closed, malformed requests logged as
one line at most, and every answer dressed (the pages' headers, no ``Server``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
from collections.abc import AsyncIterator

import pytest
from aiohttp.http_exceptions import HttpProcessingError

from bot.core.services import Services
from bot.store import Store
from bot.web import capacity as capacities
from bot.web import server as web_server
from bot.web.capacity import RESERVED, Capacity, capacity, raise_open_files
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.helpers.service_driver import AL, BEA, open_table

LINKS = PageLinks("one secret that is long enough")
#: The pages' security headers, on every answer.
DRESS = ("X-Content-Type-Options", "Referrer-Policy", "X-Robots-Tag", "Content-Security-Policy")
#: How long a test waits for what it waits for before calling it lost (never a measure).
PATIENCE = 20.0

#: On SQLite alone: the database plays no part here.
SQLITE = pytest.mark.parametrize("store", ["sqlite"], indirect=True)


@contextlib.asynccontextmanager
async def _served(
    service: Services, store: Store, limits: Capacity | None
) -> AsyncIterator[WebServer]:
    """The pages' server, started, with ``limits``; stopped after."""
    server = WebServer(service.pages, service.feed, LINKS, limits=limits)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def live_game(service: Services) -> int:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    return game_id


async def _exchange(port: int, data: bytes) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    try:
        return await asyncio.wait_for(reader.read(), PATIENCE)
    finally:
        writer.close()


def _head(answer: bytes) -> tuple[int, dict[str, str]]:
    """The status and headers (names lower-cased) of an HTTP answer."""
    lines = answer.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


def _get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: pages\r\nConnection: close\r\n\r\n".encode()


def test_the_soft_open_file_limit_is_raised_to_the_hard_one() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(1024, hard // 2)
    if low >= hard:
        pytest.skip("the hard limit leaves no room to lower the soft one")
    resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))
    try:
        assert raise_open_files() == (hard, hard)
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_pages_share_is_what_the_limit_leaves_with_a_margin() -> None:
    at_1024 = capacity(soft=1024, in_use=40)
    # Room for Discord and the database is kept whatever the pages hold.
    assert at_1024.connections + 40 + RESERVED <= 1024
    assert 0 < at_1024.live_pages < at_1024.connections
    assert capacity(soft=4096, in_use=40).live_pages > at_1024.live_pages
    # However high the limit, no more than the pages' own ceiling; none when nothing is left.
    assert capacity(soft=1 << 20, in_use=40).live_pages == capacities.MAX_LIVE_PAGES
    assert capacity(soft=RESERVED, in_use=10) == Capacity(0, 0)


@SQLITE
async def test_the_server_sizes_its_share_from_the_open_file_limit(
    service: Services, store: Store
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 1024:
        pytest.skip("a hard limit under 1,024")
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    try:
        async with _served(service, store, None) as server:
            limits = server.admission.limits
            assert limits is not None
            assert 0 < limits.live_pages < limits.connections <= 1024 - RESERVED
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@SQLITE
async def test_a_live_page_beyond_the_share_gets_503_and_one_warning(
    service: Services, store: Store, live_game: int, caplog: pytest.LogCaptureFixture
) -> None:
    live = LINKS.path(live_game) + "/live"
    async with _served(service, store, Capacity(connections=50, live_pages=1)) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(f"GET {live} HTTP/1.1\r\nHost: pages\r\n\r\n".encode())
        assert (await asyncio.wait_for(reader.readline(), PATIENCE)).startswith(b"HTTP/1.1 200")
        with caplog.at_level(logging.INFO, logger="bot.web"):
            answers = [await _exchange(server.port, _get(live)) for _ in range(3)]
        for answer in answers:
            status, headers = _head(answer)
            assert status == 503 and headers["retry-after"].isdecimal()
            assert headers["connection"] == "close"
            assert all(name.lower() in headers for name in DRESS)
        warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warned) == 1 and "refusing more" in warned[0].getMessage()
        writer.close()


@SQLITE
async def test_a_connection_beyond_the_share_is_closed_at_once(
    service: Services, store: Store
) -> None:
    async with _served(service, store, Capacity(connections=2, live_pages=1)) as server:
        held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(2)]
        # (Wait until the server holds both, then one more is closed without an answer.)
        runner = server._runner
        assert runner is not None and runner.server is not None
        while len(runner.server.connections) < 2:
            await asyncio.sleep(0.01)
        assert await _exchange(server.port, _get("/")) == b""
        for _, writer in held:
            writer.close()


@SQLITE
async def test_a_connection_that_sends_its_headers_slowly_is_closed(
    service: Services, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_server, "IDLE_SECONDS", 0.5)
    async with _served(service, store, Capacity(connections=50, live_pages=10)) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET / HTTP/1.1\r\nHost: pa")  # ... and the rest never comes
        # The server closes it (the read ends) rather than waiting for ever.
        assert await asyncio.wait_for(reader.read(), PATIENCE) == b""
        writer.close()


@SQLITE
async def test_malformed_requests_are_one_line_at_most(
    service: Services, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    bad = [
        b"GET / HTTP/1.1\r\nHost: pages\r\nno colon here\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: pages\r\nContent-Length: x\r\n\r\n",
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: pages\r\n\r\n",
    ] * 4
    async with _served(service, store, Capacity(connections=50, live_pages=10)) as server:
        # What the requests made it say (the server's start may be logged too, at INFO, when
        # a test before in the same process left the bot's loggers there).
        before = len(caplog.records)
        with caplog.at_level(logging.DEBUG):
            answers = [await _exchange(server.port, request) for request in bad]
        assert all(_head(answer)[0] == 400 for answer in answers)
        said = [r for r in caplog.records[before:] if r.levelno >= logging.INFO]
        assert len(said) <= 1
        assert all(r.exc_info is None and r.levelno == logging.WARNING for r in said)
        assert all("\n" not in r.getMessage() for r in said)


def test_malformed_requests_are_said_once_a_minute_with_how_many() -> None:
    now = [0.0]
    kept = web_server._BadRequests(lambda: now[0])
    error = HttpProcessingError(message="Bad header")

    def record() -> logging.LogRecord:
        return logging.LogRecord(
            "x",
            logging.ERROR,
            __file__,
            1,
            "Error handling request",
            (),
            (type(error), error, None),
        )

    first = record()
    assert kept.filter(first) and first.exc_info is None and first.levelno == logging.WARNING
    assert not any(kept.filter(record()) for _ in range(5))
    now[0] = web_server.BAD_REQUEST_LOG_SECONDS + 1
    later = record()
    assert kept.filter(later) and "6 since the last said" in later.getMessage()
    # A fault in a handler is logged as it was, traceback and all.
    fault = logging.LogRecord(
        "x", logging.ERROR, __file__, 1, "Error", (), (ValueError, ValueError("bug"), None)
    )
    assert kept.filter(fault) and fault.exc_info is not None


@SQLITE
async def test_every_answer_carries_the_pages_headers_and_no_server(
    service: Services, store: Store
) -> None:
    async with _served(service, store, Capacity(connections=50, live_pages=10)) as server:
        answers = {
            400: await _exchange(server.port, b"GET / HTTP/1.1\r\nHost: p\r\nbroken\r\n\r\n"),
            404: await _exchange(server.port, _get("/no/such/page")),
            405: await _exchange(
                server.port,
                b"POST /page.js HTTP/1.1\r\nHost: p\r\nContent-Length: 0\r\n"
                b"Connection: close\r\n\r\n",
            ),
            200: await _exchange(server.port, _get("/")),
        }
        for status, answer in answers.items():
            got, headers = _head(answer)
            assert got == status
            assert all(name.lower() in headers for name in DRESS), (status, headers)
            assert "server" not in headers, (status, headers)
