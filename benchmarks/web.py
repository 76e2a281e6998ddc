"""The game pages' costs (issue 23, item 2): time to first byte, live-update latency, memory.

    nice -n 10 .venv/bin/python -m benchmarks.web [--requests 200] [--pages 50] [--moves 60]

Runs the core on a scratch SQLite file and the pages' server (:mod:`bot.web.server`) in this
process, as the bot does, and plays two-player games through the core:

- **time to first byte**: ``--requests`` requests, one at a time, for a game's live page, a
  finished game's replay (drawn once, then kept) and a board picture, from the request sent to
  the response's first byte (median, p99);
- **live-update latency**: ``--pages`` live pages open on one game (server-sent events) while
  ``--moves`` moves are made: from just before a move is applied to the moment each page has
  the new look (median, p99 over every page and move);
- **memory per open page**: what the server holds for each of ``--pages`` × 4 open live pages
  (Python's allocations, traced; what the client sockets take is measured alone and taken off).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks.timing import percentile
from bot.core.services import Services
from bot.store import Store
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.helpers.service_driver import (
    AL,
    BEA,
    Clock,
    drive,
    make_service,
    open_table,
)

#: The secret the pages are signed with in these runs.
SECRET = "a benchmark's secret, long enough"
LINKS = PageLinks(SECRET)


def _spread(values: list[float]) -> str:
    p99 = percentile(values, 0.99)
    return f"median {statistics.median(values):.2f} ms, p99 {p99:.2f} ms (n={len(values)})"


async def _first_byte(port: int, path: str) -> float:
    """Milliseconds from sending a GET for ``path`` to the first byte of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.perf_counter()
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
    await reader.readexactly(1)
    took = (time.perf_counter() - started) * 1000
    while await reader.read(65536):
        pass
    writer.close()
    await writer.wait_closed()
    return took


class _Page:
    """One open live page: reads the event stream, noting when each version arrived."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.task: asyncio.Task[None] | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self, port: int, path: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer = writer
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        await writer.drain()
        self.task = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        marker = b'data-version="'
        while line := await reader.readline():
            at = line.find(marker)
            if at >= 0:
                end = line.index(b'"', at + len(marker))
                version = int(line[at + len(marker) : end])
                self.arrived.setdefault(version, time.perf_counter())

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


async def _game(service: Services, channel: int, *, moves: int | None) -> int:
    table = await open_table(
        service, [AL, BEA], target=61 if moves is None else 121, channel=channel
    )
    await drive(service, table, [AL, BEA], stop_after=moves)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    return game_id


async def _latency(service: Services, port: int, pages: int, moves: int) -> list[float]:
    table = await open_table(service, [AL, BEA], channel=50)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    opened = [_Page() for _ in range(pages)]
    for page in opened:
        await page.open(port, LINKS.path(game_id) + "/live")
    await asyncio.sleep(0.2)
    late: list[float] = []
    for _ in range(moves):
        started = time.perf_counter()
        await drive(service, table, [AL, BEA], stop_after=1)
        record = await service.games.record(game_id)
        assert record is not None
        version = record.version
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline and not all(version in p.arrived for p in opened):
            await asyncio.sleep(0.0005)
        late += [(p.arrived[version] - started) * 1000 for p in opened if version in p.arrived]
        if record.status.value != "active":
            break
    for page in opened:
        await page.close()
    return late


async def _held(port: int, path: str, count: int) -> int:
    """Bytes Python holds more with ``count`` connections open on ``path`` (to ``port``)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    opened = [_Page() for _ in range(count)]
    for page in opened:
        await page.open(port, path)
    await asyncio.sleep(0.5)
    held = tracemalloc.get_traced_memory()[0] - before
    for page in opened:
        await page.close()
    tracemalloc.stop()
    return held


async def _idle_server(count: int) -> int:
    """What ``count`` connections to a server that only holds them take (the clients' share)."""
    kept: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        kept.append(writer)
        await reader.read()

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    held = await _held(port, "/", count)
    server.close()
    for writer in kept:
        writer.close()
    return held


async def run(requests: int, pages: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        store = await Store.open(Path(scratch) / "bench.db")
        try:
            service = make_service(store, Clock())
            web = WebServer(service.pages, service.feed, LINKS, port=0)
            await web.start()
            live = await _game(service, 1, moves=9)
            over = await _game(service, 2, moves=None)
            print(f"game pages, {requests} requests each, one at a time (time to first byte):")
            for name, path in (
                ("live page", LINKS.path(live)),
                ("replay page", LINKS.path(over)),
                ("replay page, a step", LINKS.path(over) + "?step=20"),
                ("board picture", LINKS.path(live) + "/board.png?v=1"),
            ):
                await _first_byte(web.port, path)  # the first is drawn; the rest are kept
                took = [await _first_byte(web.port, path) for _ in range(requests)]
                print(f"  {name}: {_spread(took)}")
            late = await _latency(service, web.port, pages, moves)
            print(f"live update, move to page, {pages} pages open: {_spread(late)}")
            many = pages * 4
            server_side = await _held(web.port, LINKS.path(live) + "/live", many)
            clients = await _idle_server(many)
            each = max(0, server_side - clients) / many
            print(
                f"memory per open live page: {each / 1024:.1f} KiB "
                f"({many} pages: {server_side / 1024:.0f} KiB, of which the clients' sockets "
                f"{clients / 1024:.0f} KiB)"
            )
            await web.stop()
        finally:
            await store.close()


async def _watch(
    port: int, link: Callable[[], str | None], stop: asyncio.Event, updates: list[int]
) -> None:
    """Once ``link`` gives a game's page (its table message carries it), keep the page's live
    stream open until ``stop``, counting the updates it gets in ``updates[0]``."""
    found = link()
    while found is None:
        await asyncio.sleep(0.5)
        found = link()
    path = urlsplit(found).path + "/live"
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: load\r\n\r\n".encode())
        while line := await reader.readline():
            if line.startswith(b"event: table"):
                updates[0] += 1
    finally:
        writer.close()


def watch_pages(
    port: int, links: Sequence[Callable[[], str | None]], stop: asyncio.Event
) -> list[int]:
    """Open each game's live page on the bot's pages at ``port`` as soon as its ``links``
    entry gives it (read from the game's table message, as a person would follow it), until
    ``stop``; returns ``[updates received]``, kept up to date (for ``benchmarks/bot_load.py
    --pages``)."""
    updates = [0]
    tasks = [asyncio.create_task(_watch(port, link, stop, updates)) for link in links]

    async def close() -> None:
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    _closers.append(asyncio.create_task(close()))
    return updates


_closers: list[asyncio.Task[None]] = []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(run(args.requests, args.pages, args.moves))


if __name__ == "__main__":
    main()
