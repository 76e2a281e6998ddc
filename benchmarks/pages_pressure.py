"""The game pages under pressure (issue 33, item 4): many live pages at a low open-file limit
while games are played.

The bot runs as its own process (``python -m bot``, against fakediscord, on SQLite) with its
soft open-file limit set to ``--soft`` (1,024 by default: systemd's default) before it starts,
the hard one left as it is (``--hard`` lowers it too, so the bot cannot raise its soft limit:
then its own share decides). ``--games`` two-player games are played by people who think
``--pace`` seconds a move. The run has three parts of ``--phase`` seconds each:

1. **no pages**: the games alone;
2. **pages**: ``--streams`` live pages (server-sent events) are opened at once, spread over the
   games' pages (their links read from the table messages), and held open; a game's page is
   also fetched every second;
3. **after**: the live pages closed, the games go on.

It prints how many live pages were served (200), refused with a clear status (503 with
Retry-After) or neither (no answer in 10 s, or the connection dropped), the page fetches
answered, the clicks made in each part and how many were answered well (the click's message
updated), wrongly (anything else) or not at all, the bot's log lines per second in each part
(and its errors and tracebacks), and the time from a move to the next player's controls in
each part with the ratio of the pages' part to the part without (the same games, one run).

    .venv/bin/python -m benchmarks.pages_pressure                  # 40 games, 1,100 pages
    .venv/bin/python -m benchmarks.pages_pressure --hard 1024      # the limit cannot be raised
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks import bot_load, web
from benchmarks.bot_load import LoadDiscord, _game, _page_link
from benchmarks.load_figures import Figures
from benchmarks.timing import percentile
from fakediscord import Limits, Message
from fakediscord.runner import BotProcess, free_port

#: How long a live page or a fetch may wait for its answer before it counts as unanswered.
ANSWER_WITHIN = 10.0
#: The three parts of the run.
PARTS = ("no pages", "pages", "after")


class PressureDiscord(LoadDiscord):
    """fakediscord that notes when each move's next controls came (to split them by part)."""

    def __init__(self, limits: Limits) -> None:
        super().__init__(limits)
        #: (when the move was made, seconds to the next player's controls)
        self.moves: list[tuple[float, float]] = []

    def _seen(self, message: Message) -> None:
        figures = self.figures
        before = len(figures.move_latencies) if figures is not None else 0
        super()._seen(message)
        if figures is not None and len(figures.move_latencies) > before:
            took = figures.move_latencies[-1]
            self.moves.append((self.clock.now() - took, took))


@dataclass
class Streams:
    """What the live pages got."""

    served: int = 0
    refused: int = 0
    refused_clearly: int = 0
    unanswered: int = 0
    other: dict[str, int] = field(default_factory=dict)
    writers: list[asyncio.StreamWriter] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)


async def _drain(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(OSError):
        while await reader.read(65536):
            pass


async def _open_stream(port: int, path: str, streams: Streams) -> None:
    """Open one live page; count what it was answered."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), ANSWER_WITHIN
        )
    except (OSError, TimeoutError):
        streams.unanswered += 1
        return
    writer.write(f"GET {path} HTTP/1.1\r\nHost: pressure\r\n\r\n".encode())
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), ANSWER_WITHIN)
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        streams.unanswered += 1
        writer.close()
        return
    status = head.split(b" ", 2)[1].decode()
    if status == "200":
        streams.served += 1
        streams.writers.append(writer)
        streams.readers.append(asyncio.create_task(_drain(reader)))
        return
    if status == "503":
        streams.refused += 1
        if b"retry-after:" in head.lower():
            streams.refused_clearly += 1
    else:
        streams.other[status] = streams.other.get(status, 0) + 1
    writer.close()


async def _fetch(port: int, path: str) -> float | None:
    """Seconds to a page's whole answer (None: none within :data:`ANSWER_WITHIN`)."""
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), ANSWER_WITHIN
        )
        writer.write(f"GET {path} HTTP/1.1\r\nHost: pressure\r\nConnection: close\r\n\r\n".encode())
        answer = await asyncio.wait_for(reader.read(), ANSWER_WITHIN)
        writer.close()
    except (OSError, TimeoutError):
        return None
    return time.perf_counter() - started if answer.startswith(b"HTTP/1.1 200") else None


def _spread(seconds: list[float]) -> str:
    if not seconds:
        return "none"
    ms = [x * 1000 for x in seconds]
    p99 = percentile(ms, 0.99)
    return f"median {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms (n={len(ms)})"


def _limited(soft: int, hard: int | None) -> tuple[str, ...]:
    """``python -m bot`` with its open-file limit set first (as a service manager sets it)."""
    hard_text = "hard" if hard is None else str(hard)
    code = (
        "import resource, runpy\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        f"hard = {hard_text}\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, hard))\n"
        "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
    )
    return ("-c", code)


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    # People open their games over a few seconds here, not a minute.
    bot_load.OPENING_SPREAD = 5.0
    fd = PressureDiscord(Limits())
    async with fd, contextlib.AsyncExitStack() as stack:
        guild = fd.add_guild("Pressure")
        tables = [fd.seat(guild, number, 2) for number in range(args.games)]
        scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="pages-pressure-"))
        port = free_port()
        bot = BotProcess(
            fd,
            _limited(args.soft, args.hard),
            database=Path(scratch) / "pressure.db",
            dev_guild=guild.id,
            env={
                "WEB_PORT": str(port),
                "WEB_SECRET": web.SECRET,
                "PUBLIC_URL": f"http://127.0.0.1:{port}",
            },
            ready_timeout=60,
        )
        # The bot logging errors is measured here, not a reason to stop the run.
        bot.watched = False
        await bot.start()
        assert bot.proc is not None
        limits = Path(f"/proc/{bot.proc.pid}/limits").read_text()
        files = next((line for line in limits.splitlines() if "open files" in line), "?")
        print(f"bot process: {' '.join(files.split())}")
        figures = Figures(started=time.perf_counter(), pace=args.pace)
        fd.figures = figures
        playing = [asyncio.create_task(_game(fd, t, 121, figures, rng)) for t in tables]

        marks: list[float] = []
        lines: list[int] = []
        answered: list[int] = []
        refused: list[int] = []
        failed: list[int] = []

        def mark() -> None:
            marks.append(fd.clock.now())
            lines.append(len(bot.output))
            answered.append(len(figures.timeline))
            refused.append(len(figures.refused))
            failed.append(sum(1 for t in tables if t.error))

        links = [functools.partial(_page_link, fd, t.channel) for t in tables]
        # The games are dealt (their tables carry their links) before the first part.
        deadline = time.monotonic() + 60
        while sum(1 for link in links if link()) < len(links) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        paths = [urlsplit(found).path for link in links if (found := link())]
        print(f"{len(tables)} games, {len(paths)} with their page's link; {args.phase:g} s a part")
        mark()
        await asyncio.sleep(args.phase)
        mark()
        streams = Streams()
        opening = [
            _open_stream(port, paths[i % len(paths)] + "/live", streams)
            for i in range(args.streams)
        ]
        fetched: list[float | None] = []

        async def fetch_pages() -> None:
            i = 0
            while True:
                fetched.append(await _fetch(port, paths[i % len(paths)]))
                i += 1
                await asyncio.sleep(1.0)

        fetcher = asyncio.create_task(fetch_pages())
        await asyncio.gather(*opening)
        print(
            f"live pages: {args.streams} opened: {streams.served} served, {streams.refused} "
            f"refused with 503 ({streams.refused_clearly} of them with Retry-After), "
            f"{streams.unanswered} unanswered or dropped"
            + (f", other answers {streams.other}" if streams.other else "")
        )
        await asyncio.sleep(max(0.0, args.phase - (fd.clock.now() - marks[-1])))
        fetcher.cancel()
        await asyncio.gather(fetcher, return_exceptions=True)
        mark()
        for writer in streams.writers:
            writer.close()
        for task in streams.readers:
            task.cancel()
        await asyncio.gather(*streams.readers, return_exceptions=True)
        await asyncio.sleep(args.phase)
        mark()
        for table in tables:
            table.over = True
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        got = [x for x in fetched if x is not None]
        print(
            f"page fetches while the live pages were open: {len(got)} of {len(fetched)} "
            f"answered, {_spread(got)}"
        )
        by_part: list[list[float]] = []
        for n, part in enumerate(PARTS):
            start, end = marks[n], marks[n + 1]
            seconds = end - start
            said = bot.output[lines[n] : lines[n + 1]]
            errors = sum(1 for line in said if "ERROR" in line)
            tracebacks = sum(1 for line in said if line.startswith("Traceback"))
            clicks = [x for _, at, x in figures.timeline if start <= at < end]
            wrong = refused[n + 1] - refused[n]
            lost = failed[n + 1] - failed[n]
            moves = [took for at, took in fd.moves if start <= at < end]
            by_part.append(moves)
            print(
                f"{part}: {len(said) / seconds:.1f} log lines/s ({len(said)} lines, {errors} "
                f"ERROR, {tracebacks} tracebacks); clicks answered {len(clicks) - wrong}, "
                f"answered wrongly {wrong}, unanswered {lost}; move -> next player's "
                f"controls {_spread(moves)}"
            )
        base, loaded = by_part[0], by_part[1]
        if base and loaded:
            median = statistics.median(loaded) / statistics.median(base)
            p99s = [sorted(m)[min(len(m) - 1, int(0.99 * len(m)))] for m in (base, loaded)]
            print(
                f"move -> next controls, pages / no pages: median x{median:.2f}, "
                f"p99 x{p99s[1] / p99s[0]:.2f}"
            )
        stopped = [t.error for t in tables if t.error]
        if stopped:
            print(f"games stopped by an error: {len(stopped)} (first: {stopped[0]})")
        await bot.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games played (40)")
    parser.add_argument("--streams", type=int, default=1100, help="live pages opened (1,100)")
    parser.add_argument("--soft", type=int, default=1024, help="the bot's soft open-file limit")
    parser.add_argument("--hard", type=int, default=None, help="and its hard one (as it is)")
    parser.add_argument("--phase", type=float, default=30.0, help="seconds a part (30)")
    parser.add_argument("--pace", default="1-3", metavar="LO-HI", help="thinking time (1-3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    lo, _, hi = args.pace.partition("-")
    args.pace = (float(lo), float(hi or lo))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.streams + 512:
        # This process holds every page's connection, and fakediscord's.
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
