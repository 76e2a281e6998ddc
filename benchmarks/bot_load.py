"""Load test: many simultaneous games against the bot running as its own process.

The bot is started as ``python -m bot`` with a real database file, pointed at fakediscord in
this process. Every game has its own channel and players; each player acts as fast as the bot
answers: the creator opens the game, the others press Join, the creator presses Start, and then
every player chooses from the select menu or presses a card button on their hand message (one
DM per deal, updated in place) whenever it offers live controls, until the result is called in
the channel. With ``--computer LEVEL`` each game is one person against the computer.

Prints actions per second, the median and p99 time from an interaction to the bot's first response
(also by kind of interaction, and for the first tenth of the run against the rest), the time from an
action to the next DM prompt in its game (what the next player waits: the bot answers first and
sends channel lines and DMs afterwards, so this keeps the first figure honest), the same from a move
alone (a discard or a card played, not the start) to the next player's controls, with its p99
against 1 s, the time from an
action to the first change of its game's table in the channel (how far the table trails the game),
the bot's CPU time and peak memory (VmHWM), the errors, and whether every game finished and was
recorded. It also prints what the games cost against Discord's limits: the requests made with the
bot's token per player action (interaction callbacks and webhook requests counted apart: they do not
count toward the global limit), new channel messages and edits per deal, new DMs per player per
deal, and the 429s the bot received. fakediscord enforces Discord's global and per-channel limits in
these runs unless ``--no-limits``.
docs/performance.md has the figures and what was changed to reach them.

With ``--pace LO-HI`` the players act like people instead: each thinks LO to HI seconds
(uniformly) before every action, the games open spread over the first minute, and the run
stops after ``--duration`` seconds whether or not the games are over (they need not finish);
the figures are the same, over what was played. This is the load a bot really carries: its
event loop is idle most of the time, and what matters is how fast each action is answered.

fakediscord enforces Discord's limits (50 requests per second for the bot token, 5 new
messages and 5 edits per 5 s in a channel, ...) unless ``--no-limits``. The 429s the bot
received are printed by scope.

    .venv/bin/python -m benchmarks.bot_load                 # 100 two-player games to 121
    .venv/bin/python -m benchmarks.bot_load --games 20 --players 3 --target 61
    .venv/bin/python -m benchmarks.bot_load --games 200 --pace 3-12 --duration 180
    .venv/bin/python -m benchmarks.bot_load --games 100 --computer hard --pace 3-12 --duration 180
    .venv/bin/python -m benchmarks.bot_load --database postgres --procs 2 --duration 60
    .venv/bin/python -m benchmarks.bot_load --games 200 --pace 3-12 --duration 180 --pages 50

With ``--pages N`` the bot serves the game pages and N games' live pages stay open all run
(the issue asks that they cost the games' first responses at most 10% at the p99).

With ``--database postgres`` the bot runs on a throwaway PostgreSQL server (started for the
run, as the tests do), and with ``--procs N`` as N processes sharing it, process ``i`` running
shard ``i`` of N: the games are spread over N servers, one per shard (their slash commands
reach that shard's process; every DM, so every click, reaches shard 0's). One process sends
every game's messages for the whole bot. Besides the figures above it prints each process's CPU
time and the database round trips per player action (each process counts the awaited calls to
its driver and logs the total when it stops).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import functools
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import fakediscord
from benchmarks import web
from benchmarks.timing import percentile
from fakediscord import Channel, FakeDiscord, Interaction, Limits, Message, User
from fakediscord.latency import Latency
from fakediscord.runner import BotProcess, free_port
from tests.helpers.bot_db import Database, rows
from tests.helpers.delivery_checks import shown_again
from tests.helpers.postgres import PostgresServer

#: The game page's link in a table message (with --pages).
PAGE_LINK = re.compile(r"<(http://127\.0\.0\.1:\d+/g/\d+/[\w-]+)>")
#: What a bot process logs when it stops: its database round trips.
ROUND_TRIPS = re.compile(r"database round trips: (\d+)")
#: What a bot process logs once its store is open (whether it sends, with several processes).
CLUSTER_READY = r"this process (is the sender|does not send)"

#: In the paced mode, games open spread over this many seconds: people start their games over
#: a while, not all in the same few seconds (each start costs a DM per player; 200 starts at
#: once would spend the bot's global request budget on them alone for a minute).
OPENING_SPREAD = 60.0

#: The channel line that ends a game: the result ("🏆 Al wins 121-84 — …"; the lobby's words
#: name game points too, so they cannot be the mark).
RESULT_MARK = "🏆"
#: An unpaced run gives up once no game has moved for this long (a game the bot left waiting).
STALLED = 60.0


class LoadDiscord(FakeDiscord):
    """fakediscord that wakes only the player a new message concerns.

    Polling every player on every request would make this process, not the bot, the
    bottleneck with hundreds of players; so each stored message sets its channel's event.
    """

    def __init__(self, limits: Limits, latency: Latency | None = None) -> None:
        super().__init__(limits=limits, latency=latency)
        self.events: dict[int, asyncio.Event] = {}
        #: The table each DM channel's player sits at (for timing the prompts), and each game
        #: by its channel (for timing the table).
        self.tables: dict[int, LoadGame] = {}
        self.games: dict[int, LoadGame] = {}
        self.figures: Figures | None = None

    def seat(self, guild: fakediscord.Guild, number: int, players: int) -> LoadGame:
        """Table ``number``: a channel of its own in ``guild`` and ``players`` new members at
        it, followed (:meth:`follow`)."""
        channel = guild.add_text_channel(f"table-{number}")
        seated = [self.add_user(f"p{number}-{seat}") for seat in range(players)]
        for user in seated:
            guild.add_member(user)
        table = LoadGame(channel, seated)
        self.follow(table)
        return table

    def follow(self, game: LoadGame) -> None:
        """Time ``game`` from now on: the messages of its channel and of its players' DMs."""
        self.games[game.channel.id] = game
        for user in game.players:
            self.tables[self.dm_channel(user).id] = game

    def event_for(self, channel: Channel) -> asyncio.Event:
        """The event set whenever a message is stored in ``channel``."""
        return self.events.setdefault(channel.id, asyncio.Event())

    def _store(self, message: Message) -> None:
        super()._store(message)
        self._seen(message)

    def _edit_message(
        self, message: Message, body: dict[str, Any], files: list[Any], *, way: str
    ) -> None:
        super()._edit_message(message, body, files, way=way)
        self._seen(message)

    def _seen(self, message: Message) -> None:
        """A message was posted or edited: time the game's next prompt, wake its reader."""
        game = self.games.get(message.channel.id)
        table = self.tables.get(message.channel.id)
        if table is None and game is not None and message.ephemeral:
            # A player's private copy of their hand where they typed their move (by command).
            table = game
        figures = self.figures
        if figures is not None and table is not None and _has_controls(message):
            if table.cause is not None:
                # The first prompt after an action: how long the game waited for it.
                figures.prompt_latencies.append(self.clock.now() - table.cause)
                figures.prompt_times.append(self.clock.now())
                table.cause = None
            if table.move_cause is not None:
                # The first controls after a move: the next player's (the mover's own again
                # after a "Go"), whichever way they came (the click's answer, a webhook, the
                # bot).
                figures.move_latencies.append(self.clock.now() - table.move_cause)
                table.move_cause = None
        if figures is not None and game is not None and game.table_cause is not None:
            # The first change of the channel's messages after an action: how long the table
            # trailed the game.
            figures.table_latencies.append(self.clock.now() - game.table_cause)
            game.table_cause = None
        event = self.events.get(message.channel.id)
        if event is not None:
            event.set()


@dataclass
class LoadGame:
    """One game: its channel, its players and what happened to it."""

    channel: Channel
    players: list[User]
    over: bool = False
    actions: int = 0
    error: str | None = None
    seen: int = 0  # channel messages already read
    #: When the game's latest interaction was sent, until the next DM prompt arrives, and
    #: until the channel's table changes.
    cause: float | None = None
    table_cause: float | None = None
    #: When the game's latest move (a discard or a card played) was sent, until the next
    #: player's controls arrive.
    move_cause: float | None = None


@dataclass
class Figures:
    """Everything measured."""

    latencies: list[float] = field(default_factory=list)
    #: Per answered interaction: (what it was, when it was sent, its latency).
    timeline: list[tuple[str, float, float]] = field(default_factory=list)
    #: Seconds from an action to the next DM prompt (with controls) in its game.
    prompt_latencies: list[float] = field(default_factory=list)
    #: When each of those prompts arrived (to tell the opening burst from the rest).
    prompt_times: list[float] = field(default_factory=list)
    #: Seconds from a move (a discard or a card played) to the next player's controls.
    move_latencies: list[float] = field(default_factory=list)
    #: Seconds from an action to the first change of its game's table in the channel.
    table_latencies: list[float] = field(default_factory=list)
    kinds: list[int] = field(default_factory=list)  # callback type of each answer
    refused: list[str] = field(default_factory=list)
    #: Seconds each player thinks before an action (None: act at once).
    pace: tuple[float, float] | None = None
    #: Players move by typing /cribbage discard and /cribbage play in the channel (reading
    #: their hand from its DM), not by its controls.
    by_commands: bool = False
    started: float = 0.0
    finished: float = 0.0
    bot_cpu: float | None = None


def _has_controls(message: Message) -> bool:
    if list(message.selects()):
        return True
    return any(not b.get("disabled") for b in message.buttons())


async def _answered(
    figures: Figures, interaction: Interaction, kind: str, *, click: bool = False
) -> Interaction:
    try:
        await asyncio.wait_for(interaction.answered.wait(), timeout=10)
    except TimeoutError:
        raise TimeoutError(
            f"{kind} not answered within 10 s: {interaction!r} (late: {interaction.late})"
        ) from None
    if interaction.latency is not None:
        figures.latencies.append(interaction.latency)
        figures.timeline.append((kind, interaction.created_at, interaction.latency))
    response = interaction.response
    figures.kinds.append(response.type if response else 0)
    if click and (response is None or response.type not in (6, 7)):
        # Players here only make legal moves, and a move updates its message (type 7, or 6 and
        # an edit when the bot deferred): any other answer is a refusal, something went wrong.
        figures.refused.append(response.words() if response else "no response")
    return interaction


def _watch_channel(table: LoadGame) -> None:
    messages = table.channel.messages
    for message in messages[table.seen :]:
        if RESULT_MARK in message.words() and not message.ephemeral:
            table.over = True
    table.seen = len(messages)


async def _player(
    fd: LoadDiscord, table: LoadGame, user: User, figures: Figures, rng: random.Random
) -> None:
    dm = fd.dm_channel(user)
    inbox = fd.event_for(dm)
    typed = fd.event_for(table.channel)
    # Each hand message is used once per version of it: (message id, edits so far).
    done: set[tuple[int, int]] = set()
    while not table.over:
        prompt = None
        candidates = list(dm.messages)
        if figures.by_commands:
            # Their private copies of the hand where they type (a move's answer shows it).
            mine = [m for m in table.channel.messages if m.ephemeral_for is user]
            candidates = sorted(
                [*candidates, *mine], key=lambda m: m.edited_timestamp or m.timestamp
            )
        for candidate in reversed(candidates):
            if _has_controls(candidate) and (candidate.id, len(candidate.history)) not in done:
                prompt = candidate
                break
        if prompt is None:
            inbox.clear()
            typed.clear()
            _watch_channel(table)
            if table.over:
                return
            # The result lands in the channel, not the DM: look again now and then.
            waits = [asyncio.ensure_future(inbox.wait()), asyncio.ensure_future(typed.wait())]
            await asyncio.wait(waits, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
            for wait in waits:
                wait.cancel()
            continue
        done.add((prompt.id, len(prompt.history)))
        await _think(figures, rng)
        if table.over:
            return
        menus = list(prompt.selects())
        if menus:
            menu = menus[0]
            options = [o["value"] for o in menu["options"]]
            values = rng.sample(options, int(menu["min_values"]))
            if figures.by_commands:
                line = f"/cribbage discard cards:{' '.join(values)}"
                interaction = await fd.slash(user, table.channel, line, wait=False)
            else:
                interaction = await fd.select(user, prompt, menu["custom_id"], values, wait=False)
            kind = "discard"
        else:
            enabled = [b for b in prompt.buttons() if not b.get("disabled")]
            button = rng.choice(enabled)
            if figures.by_commands and ":play:" in button["custom_id"]:
                code = button["custom_id"].rsplit(":", 1)[1]
                line = f"/cribbage play card:{code}"
                interaction = await fd.slash(user, table.channel, line, wait=False)
            else:
                interaction = await fd.click(user, prompt, button["custom_id"], wait=False)
            kind = "play"
        table.cause = table.table_cause = table.move_cause = interaction.created_at
        await _answered(figures, interaction, kind, click=not figures.by_commands)
        table.actions += 1


async def _think(figures: Figures, rng: random.Random) -> None:
    """A person's pause before acting, in the paced mode."""
    if figures.pace is not None:
        await asyncio.sleep(rng.uniform(*figures.pace))


async def _game(
    fd: LoadDiscord,
    table: LoadGame,
    target: int,
    figures: Figures,
    rng: random.Random,
    computer: str | None = None,
) -> None:
    creator = table.players[0]
    if figures.pace is not None:
        # People open their games over a while, not all in the same millisecond.
        await asyncio.sleep(rng.uniform(0, OPENING_SPREAD))
    try:
        if computer is not None:
            line = f"/cribbage new target:{target} vs_computer:True difficulty:{computer}"
            opened = await fd.slash(creator, table.channel, line, wait=False)
            table.cause = opened.created_at
            await _answered(figures, opened, "new")
            table.actions += 1
            await _player(fd, table, creator, figures, rng)
            return
        line = f"/cribbage new players:{len(table.players)} target:{target}"
        await _answered(figures, await fd.slash(creator, table.channel, line, wait=False), "new")
        event = fd.event_for(table.channel)

        def lobby() -> Message | None:
            for message in table.channel.messages:
                if any(b.get("label") == "Join" for b in message.buttons()):
                    return message
            return None

        while (found := lobby()) is None:
            event.clear()
            await asyncio.wait_for(event.wait(), timeout=10)
        for user in table.players[1:]:
            await _think(figures, rng)
            joined = await fd.click(user, found, label="Join", wait=False)
            await _answered(figures, joined, "join", click=True)
        await _think(figures, rng)
        started = await fd.click(creator, found, label="Start", wait=False)
        table.cause = started.created_at
        await _answered(figures, started, "start", click=True)
        table.actions += len(table.players) + 1
        await asyncio.gather(*(_player(fd, table, u, figures, rng) for u in table.players))
    except Exception as error:  # a benchmark reports failures instead of stopping
        table.error = f"{type(error).__name__}: {error}"
        table.over = True


def _page_link(fd: FakeDiscord, channel: Channel) -> str | None:
    """The game page's link in ``channel``'s table message, once there is one."""
    for message in fd.messages(channel):
        found = PAGE_LINK.search(message.words())
        if found:
            return found.group(1)
    return None


def _stat(path: Path) -> list[str] | None:
    try:
        return path.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time the process has used so far, with that of its live child
    processes (the worker where the expert thinks, see bot.core.worker.thinking)."""
    fields = _stat(Path(f"/proc/{pid}/stat"))
    if fields is None:
        return None
    ticks = int(fields[11]) + int(fields[12])
    for stat in Path("/proc").glob("[0-9]*/stat"):
        child = _stat(stat)
        if child is not None and child[1] == str(pid):
            ticks += int(child[11]) + int(child[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def memory_kib(pid: int, field: str = "VmHWM") -> int | None:
    """A process's memory in KiB as its ``/proc`` status says it: by default its peak resident
    memory (``VmRSS``: its resident memory now)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return None


def _recorded(database: Database) -> tuple[int, int, int]:
    [(finished, results, actions)] = rows(
        database,
        "SELECT (SELECT COUNT(*) FROM games WHERE status = 'finished'),"
        " (SELECT COUNT(DISTINCT game_id) FROM results), (SELECT COUNT(*) FROM actions)",
    )
    return int(finished), int(results), int(actions)


def _spread(ms: list[float]) -> str:
    """The median, p99 and longest of some latencies in milliseconds, and how many."""
    return (
        f"median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms,"
        f" max {max(ms):.1f} ms (n={len(ms)})"
    )


def _first_tenth_and_rest(timed: list[tuple[float, float]]) -> None:
    """Latencies (seconds, each with when it began) in the first tenth of the run, when every
    game opens at once, against the rest."""
    start, end = min(at for at, _ in timed), max(at for at, _ in timed)
    cut = start + (end - start) / 10
    for label, part in (
        ("first tenth of the run", [x for at, x in timed if at < cut]),
        ("the rest", [x for at, x in timed if at >= cut]),
    ):
        if part:
            ms = [x * 1000 for x in part]
            print(
                f"  {label}: median {statistics.median(ms):.1f} ms,"
                f" p99 {percentile(ms, 0.99):.1f} ms"
            )


async def measure(
    games: int,
    players: int,
    target: int,
    seed: int,
    profile: str | None = None,
    pace: tuple[float, float] | None = None,
    duration: float | None = None,
    limits: bool = True,
    computer: str | None = None,
    database: str = "sqlite",
    procs: int = 1,
    pages: int = 0,
    by_commands: bool = False,
    latency: bool = False,
) -> tuple[int, Figures]:
    """Play ``games`` games at once (at ``pace``, for ``duration`` seconds, if given; against
    the ``computer`` at that level, if given); print the figures; return 0 if every check
    passed, with what was measured (for a script that compares runs:
    ``benchmarks/pages_load.py``). With ``limits`` (the default), fakediscord enforces
    Discord's rate limits (global and per channel); without, none of its limits. ``database``
    is ``sqlite`` or ``postgres``; with ``procs`` above 1 the bot is that many processes, one
    shard each, on PostgreSQL. ``pages``: the bot serves the game pages, and that many games'
    live pages stay open. With ``latency``, every request and gateway event takes the
    internet's time (fakediscord.latency: a round trip of 40-250 ms, drawn from ``seed``)."""
    rng = random.Random(seed)
    if computer is not None:
        players = 1
    wire = Latency(seed=seed) if latency else None
    fd = LoadDiscord(Limits() if limits else Limits.none(), wire)
    async with fd, contextlib.AsyncExitStack() as stack:
        guilds = [
            fd.add_guild(f"Load {n}", shard=(n, procs) if procs > 1 else None) for n in range(procs)
        ]
        tables = [fd.seat(guilds[number % procs], number, players) for number in range(games)]
        scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="bot-load-"))
        web_port = free_port()
        where: Database = Path(scratch) / "load.db"
        if database == "postgres":
            server = stack.enter_context(PostgresServer.start())
            where = server.create_database("load")
        args = ("-m", "bot") if profile is None else ("-m", "cProfile", "-o", profile, "-m", "bot")
        bots = []
        # The last shard's process starts first: it takes sending (shard 0's answers the DMs).
        for shard in reversed(range(procs)):
            env = {"SHARD_COUNT": str(procs), "SHARD_IDS": str(shard)} if procs > 1 else {}
            if pages:
                env |= {
                    "WEB_PORT": str(web_port + shard),
                    "WEB_SECRET": web.SECRET,
                    "PUBLIC_URL": f"http://127.0.0.1:{web_port + shard}",
                }
            bot = BotProcess(
                fd,
                args,
                database=where,
                # One server syncs its commands at once; several take the global commands.
                dev_guild=guilds[0].id if procs == 1 else None,
                env=env,
                ready_timeout=60,
                ready_text=CLUSTER_READY if database == "postgres" else None,
            )
            await bot.start()
            bots.append(bot)
        pids = [bot.proc.pid for bot in bots if bot.proc is not None]
        watching = asyncio.Event()
        links = [functools.partial(_page_link, fd, t.channel) for t in tables[:pages]]
        updates = web.watch_pages(web_port, links, watching)
        figures = Figures(started=time.perf_counter(), pace=pace, by_commands=by_commands)
        fd.figures = figures
        playing = asyncio.gather(*(_game(fd, t, target, figures, rng, computer) for t in tables))
        # The paced run stops on time; its games need not be over. An unpaced one stops when no
        # game has moved for a while (one that waits for ever on a message that never comes).
        with contextlib.suppress(TimeoutError):
            if duration is None:
                await _until_stalled(playing, tables)
            else:
                await asyncio.wait_for(playing, timeout=duration)
        figures.finished = time.perf_counter()
        await asyncio.sleep(0.5)  # let the last channel lines and saves land
        watching.set()
        if pages:
            print(f"game pages: {pages} live pages open, {updates[0]} updates received")
        peaks = [memory_kib(pid) for pid in pids]
        cpu = [_cpu_seconds(pid) for pid in pids]
        figures.bot_cpu = sum(c for c in cpu if c is not None)
        for bot in bots:
            await bot.stop()
        finished, recorded, logged = _recorded(where)
        peak = max((p for p in peaks if p is not None), default=None)
        code = _report(fd, bots, tables, figures, peak, finished, recorded, logged, target)
        if pace is None:
            _report_unfinished(fd, tables, where)
        _report_processes(bots, cpu, tables, database)
        return max(code, _report_budget(fd, tables, where, figures)), figures


async def _until_stalled(playing: asyncio.Future[Any], tables: list[LoadGame]) -> None:
    """Wait until every game is played out, or until none has moved for :data:`STALLED`
    seconds (then the games still waiting are given up: the report names them)."""
    moved, since = -1, time.perf_counter()
    while not playing.done():
        actions = sum(t.actions for t in tables)
        if actions != moved:
            moved, since = actions, time.perf_counter()
        elif time.perf_counter() - since > STALLED:
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await playing
            return
        await asyncio.wait([playing], timeout=1.0)
    await playing


def _report_processes(
    bots: list[BotProcess], cpu: list[float | None], tables: list[LoadGame], database: str
) -> None:
    """Each process's CPU time, and the database's round trips per player action."""
    actions = max(1, sum(t.actions for t in tables))
    print(f"database: {database}; bot processes: {len(bots)}")
    trips = 0
    for bot, seconds in zip(bots, cpu, strict=True):
        said = [m for line in bot.output if (m := ROUND_TRIPS.search(line))]
        mine = int(said[-1][1]) if said else 0
        trips += mine
        shards = bot.extra_env.get("SHARD_IDS", "all")
        role = "sends" if any("is the sender" in line for line in bot.output) else "answers"
        busy = f"{seconds:.1f} s CPU" if seconds is not None else "CPU n/a"
        print(f"  shard {shards}: {busy}, {mine} database round trips ({role})")
    print(f"database round trips per player action: {trips / actions:.2f}")


def _report(
    fd: FakeDiscord,
    bots: list[BotProcess],
    tables: list[LoadGame],
    figures: Figures,
    peak_kib: int | None,
    finished: int,
    recorded: int,
    logged: int,
    target: int,
) -> int:
    elapsed = figures.finished - figures.started
    actions = sum(t.actions for t in tables)
    lat = [x * 1000 for x in figures.latencies]
    # With several processes, the one that sends edits a message whose click's answer another
    # process may still be sending only through that answer's own token: Discord says 404 /
    # 10015 until the answer has landed, and it looks again (by design; with one process the
    # bot knows its own answers landed and never asks early, so there it is a failure).
    probes = [
        r
        for r in fd.requests
        if len(bots) > 1 and r.status == 404 and r.code == 10015 and "/webhooks/" in r.route
    ]
    failed_requests = [r for r in fd.requests if r.status >= 400 and r not in probes]
    game_errors = [t.error for t in tables if t.error]
    bot_errors = [e for bot in bots for e in bot.errors]
    games = len(tables)
    print(f"games: {games} x {len(tables[0].players)} players to {target}, bot as a process")
    enforced = "on" if fd.limits.global_requests else "off (--no-limits)"
    print(f"Discord's limits in fakediscord: {enforced}")
    wire = fd.latency
    if wire is not None:
        mean = wire.seconds / max(wire.requests, 1) * 1000
        print(
            f"latency: each request a round trip of {wire.low * 1000:.0f}-{wire.high * 1000:.0f}"
            f" ms (mean {mean:.0f} ms over {wire.requests}), each gateway event half of one"
        )
    if figures.pace is not None:
        lo, hi = figures.pace
        print(f"paced: each player thinks {lo:g}-{hi:g} s before every action")
    print(f"wall time: {elapsed:.1f} s")
    print(
        f"actions: {actions} ({logged} engine actions logged) -> {actions / elapsed:.0f} actions/s"
    )
    print(f"interactions answered: {len(lat)}")
    # Requests grouped by route, ids left out ("POST /channels/{id}/messages").
    routes = collections.Counter(
        re.sub(
            r"/interactions/\{id\}/[^/]+/",
            "/interactions/{id}/{token}/",
            re.sub(r"\d{5,}", "{id}", r.route),
        )
        for r in fd.requests
    )
    per_action = len(fd.requests) / max(actions, 1)
    print(f"REST requests by the bot: {len(fd.requests)} ({per_action:.1f} per action)")
    for route, count in routes.most_common(4):
        print(f"  {count:6d} {route}")
    if lat:
        print(f"latency interaction -> first response: {_spread(lat)}")
    if figures.timeline:
        _report_latencies(figures, wire=wire is not None)
    behind = [x * 1000 for x in figures.table_latencies]
    if behind:
        print(f"latency action -> its table updated in the channel: {_spread(behind)}")
    if figures.bot_cpu is not None and actions:
        per = figures.bot_cpu / actions * 1000
        print(f"bot CPU time: {figures.bot_cpu:.1f} s ({per:.2f} ms per action)")
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(f"this process (emulator + players) CPU time: {own.ru_utime + own.ru_stime:.1f} s")
    load = os.getloadavg()[0]
    print(f"machine load average (1 min) at the end: {load:.1f} on {os.cpu_count()} CPUs")
    print(f"bot peak memory (VmHWM): {peak_kib / 1024:.1f} MiB" if peak_kib else "peak: n/a")
    print(f"errors logged by the bot: {len(bot_errors)}")
    print(f"refused moves: {len(figures.refused)}; HTTP errors: {len(failed_requests)}")
    stale = _stale_looks(fd, tables)
    print(f"hands that showed a used control again (an older look over a newer): {len(stale)}")
    for line in stale[:3]:
        print(f"  {line}")
    if len(bots) > 1:
        print(f"edits through a click's token before its answer had landed (404): {len(probes)}")
    print(f"429s by scope: {dict(fd.counters.rate_limited) or 'none'}")
    deferred = sum(1 for t in figures.kinds if t in (5, 6))
    print(f"answers deferred (slow service call): {deferred}")
    print(f"games that failed in the driver: {len(game_errors)}")
    failures = [f"HTTP {r.status} ({r.code}) {r.template or r.route}" for r in failed_requests]
    for error in [*bot_errors[:3], *figures.refused[:3], *game_errors[:3], *failures[:3]]:
        print(f"  {error[:200]}")
        last = [line for line in error.splitlines() if line.strip()][-1:]
        if last and last[0] not in error[:200]:
            print(f"    ... {last[0][:300]}")  # (a traceback's last line says what it was)
    print(f"finished in the database: {finished}/{games}; with results: {recorded}/{games}")
    clean = (
        not bot_errors
        and not figures.refused
        and not failed_requests
        and not game_errors
        and not stale
    )
    p99 = percentile(lat, 0.99) if lat else float("inf")
    if figures.pace is None:
        # Over in the channel too: its result posted (a game the store ended whose result never
        # came would leave its players waiting).
        posted = sum(t.over for t in tables)
        print(f"results posted in the channels: {posted}/{games}")
        ok = clean and finished == recorded == posted == games
        print(f"every game finished, posted and recorded, no errors: {'yes' if ok else 'NO'}")
    else:
        # Games stopped by the clock are not over; every one that finished has its results.
        ok = clean and finished == recorded
        print(f"no errors, every finished game recorded: {'yes' if ok else 'NO'}")
    if wire is None:
        print(f"p99 under 100 ms: {'yes' if p99 < 100 else 'NO'}")
    else:
        # The command's way to the bot and its answer's way back are the wire's: what is left
        # is the bot's own, and the moves' figure below is the one that counts.
        print(f"p99 under 100 ms: (not judged with latency: {p99:.0f} ms with the wire)")
    return 0 if ok else 1


def _stale_looks(fd: FakeDiscord, tables: list[LoadGame]) -> list[str]:
    """Each hand message (a DM, or a player's private copy) on which a control came back after
    a later look had taken it away (:func:`tests.helpers.delivery_checks.shown_again`)."""
    hands = [
        m
        for table in tables
        for m in [
            *(m for m in table.channel.messages if m.ephemeral),
            *(m for u in table.players for m in fd.dms(u)),
        ]
    ]
    return shown_again(hands)


def _report_unfinished(
    fd: FakeDiscord, tables: list[LoadGame], database: Database, most: int = 3
) -> None:
    """For a few games that did not finish (a run not stopped by the clock): where the store
    says they stand, what it says their messages show, and what each player's DMs show."""
    stuck = [t for t in tables if not t.over][:most]
    for table in stuck:
        found = rows(
            database,
            "SELECT id, version, status FROM games WHERE channel_id = ?",
            (table.channel.id,),
        )
        print(f"unfinished: channel {table.channel.id}, game (id, version, status) {found}")
        for game_id, *_ in found:
            kept = rows(
                database,
                "SELECT key, message_id, substr(digest, 1, 8), shown_version, unconfirmed_since"
                " FROM messages WHERE owner = ? ORDER BY key",
                (f"game:{game_id}",),
            )
            for row in kept:
                print(f"  kept {row}")
        for user in table.players:
            for message in fd.dms(user)[-2:]:
                controls = "controls" if _has_controls(message) else "no controls"
                words = " ".join(message.words().split())
                when = message.edited_timestamp or message.timestamp
                print(
                    f"  {user.name}: {message.id} v{len(message.history)} at {when} {controls}:"
                    f" {words[:60]} … {words[-90:]}"
                )
                # Each earlier look, oldest first: when it was made, and what it said last.
                for look in message.history:
                    print(f"    was at {look.at}: {' '.join(look.words().split())[-90:]}")
                if message.history and message.edited_timestamp:
                    # The requests answered about when its last look was made (which request
                    # made it): the emulator's clock is monotonic, the timestamps wall-clock.
                    edited = datetime.fromisoformat(message.edited_timestamp).timestamp()
                    then = edited - (time.time() - fd.clock.now())
                    near = [r for r in fd.requests if abs(r.at - then) < 0.015]
                    for r in near:
                        print(f"    request {r.at - then:+.4f} s: {r.status} {r.route[:150]}")


def _deals(database: Database) -> dict[int, int]:
    """Channel id -> how many deals its game got to (the first seat's discards: the table
    messages the store keeps are not a count, since a settled deal's may be forgotten)."""
    found = rows(
        database,
        "SELECT g.channel_id, COUNT(*) FROM actions a JOIN games g ON a.game_id = g.id"
        """ WHERE a.action LIKE '%"type": "discard"%' AND a.action LIKE '%"seat": 0,%'"""
        " GROUP BY g.channel_id",
    )
    return {int(channel): int(count) for channel, count in found}


def _report_budget(
    fd: FakeDiscord, tables: list[LoadGame], database: Database, figures: Figures
) -> int:
    """What the games cost against Discord's limits; 1 if a target was missed."""
    actions = sum(t.actions for t in tables)
    kinds = collections.Counter(_request_kind(r.route) for r in fd.requests)
    limited = sum(1 for r in fd.requests if r.status == 429)
    per_action = kinds["bot"] / max(actions, 1)
    print(
        f"bot-token requests: {kinds['bot']} ({per_action:.2f} per player action); "
        f"interaction callbacks: {kinds['callback']}; webhook requests: {kinds['webhook']}"
    )
    deals = _deals(database)
    channel_posts: list[float] = []
    channel_edits: list[float] = []
    dms: list[float] = []
    for table in tables:
        played = deals.get(table.channel.id, 0)
        if not played:
            continue
        mine = [m for m in table.channel.messages if not m.ephemeral]
        # The lobby and the final result are a game's own, not a deal's.
        extra = 1 + sum(1 for m in mine if m.words().startswith("🏆") or "resigned —" in m.words())
        channel_posts.append((len(mine) - extra) / played)
        channel_edits.append(sum(len(m.history) for m in mine) / played)
        for user in table.players:
            dms.append(len(fd.dm_channel(user).messages) / played)
    if channel_posts:
        print(
            f"new channel messages per deal: median {statistics.median(channel_posts):.2f},"
            f" max {max(channel_posts):.2f}; channel edits per deal: median"
            f" {statistics.median(channel_edits):.1f}"
        )
        print(
            f"new DMs per player per deal: median {statistics.median(dms):.2f},"
            f" max {max(dms):.2f} (over {sum(deals.values())} deals)"
        )
    moves = len(figures.move_latencies)
    dm_edits = 0.0
    if moves:
        dm_channels = {fd.dm_channel(u).id for t in tables for u in t.players}
        by_bot = sum(
            1
            for r in fd.requests
            if r.route.startswith("PATCH /channels/")
            and int(r.route.split("/")[2]) in dm_channels
            and r.status < 300
        )
        through = 0
        for r in fd.requests:
            if not r.route.startswith("PATCH /webhooks/") or r.status >= 300:
                continue
            found = fd._by_token.get(r.route.split("/")[3])
            if found is not None and found.channel.id in dm_channels:
                through += 1
        dm_edits = (by_bot + through) / moves
        print(
            f"DM edits per move: {dm_edits:.2f} ({by_bot / moves:.2f} with the"
            f" bot's token, {through / moves:.2f} through interactions' tokens)"
        )
    print(f"429s received by the bot: {limited}")
    if limited:
        refused = collections.Counter(r.template or r.route for r in fd.requests if r.status == 429)
        print(f"  refused: {dict(refused)}")
    print(f"bot-token requests in the busiest second (as answered): {_busiest_second(fd)}")
    # A move edits the next player's hand (the mover's is the click's answer); a little more
    # where a deal ends or a hand is mended. Five a move was a hand edited again every second.
    ok = per_action <= 1.2 and limited == 0 and dm_edits <= 1.5
    if channel_posts:
        ok = ok and statistics.median(channel_posts) <= 2 and statistics.median(dms) <= 1.5
    latencies = figures.move_latencies
    if figures.pace is not None and latencies:
        ok = ok and percentile(latencies, 0.99) < 1.0
    if figures.pace is not None and figures.table_latencies:
        ok = ok and percentile(figures.table_latencies, 0.99) < 1.0
    print(
        "within the budget (<= 1.2 requests per action, no 429, <= 1.5 DM edits per move;"
        " paced: the next player's controls after a move and the table p99 under 1 s):"
        f" {'yes' if ok else 'NO'}"
    )
    return 0 if ok else 1


def _busiest_second(fd: FakeDiscord) -> int:
    """The most bot-token requests answered within any one second of the emulator's clock
    (what Discord's global limit of 50 counts)."""
    times = sorted(r.at for r in fd.requests if _request_kind(r.route) == "bot")
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


def _request_kind(route: str) -> str:
    """``callback`` (an interaction's answer), ``webhook`` (a follow-up or an edit through an
    interaction's token) or ``bot`` (the bot's own token, which the global limit counts)."""
    if "/callback" in route and "/interactions/" in route:
        return "callback"
    if "/webhooks/" in route:
        return "webhook"
    return "bot"


def _report_latencies(figures: Figures, wire: bool = False) -> None:
    """Latency by kind of interaction and by part of the run, and the prompt latency
    (``wire``: the emulator has the internet's latency, and the moves' p99 is judged against
    400 ms)."""
    by_kind: dict[str, list[float]] = collections.defaultdict(list)
    for kind, _, latency in figures.timeline:
        by_kind[kind].append(latency * 1000)
    for kind, values in sorted(by_kind.items()):
        print(
            f"  {kind:8s} n={len(values):6d} median {statistics.median(values):6.1f} ms,"
            f" p99 {percentile(values, 0.99):6.1f} ms, max {max(values):6.1f} ms"
        )
    _first_tenth_and_rest([(at, x) for _, at, x in figures.timeline])
    prompts = [x * 1000 for x in figures.prompt_latencies]
    if prompts:
        print(f"latency action -> next DM prompt in its game: {_spread(prompts)}")
    if figures.prompt_times:
        _first_tenth_and_rest(
            list(zip(figures.prompt_times, figures.prompt_latencies, strict=True))
        )
    moves = [x * 1000 for x in figures.move_latencies]
    if moves:
        print(f"latency move -> next player's controls: {_spread(moves)}")
        slow = sum(1 for x in moves if x > 1000)
        print(f"moves whose next player's controls took over 1 s: {slow} of {len(moves)}")
        under = percentile(moves, 0.99) < 1000
        print(f"p99 move -> next player's controls under 1 s: {'yes' if under else 'NO'}")
        if wire:
            # On the internet: one request's time and a little (issue 46).
            under = percentile(moves, 0.99) < 400
            print(f"p99 move -> next player's controls under 400 ms: {'yes' if under else 'NO'}")


def main(argv: list[str] | None = None) -> int:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="simultaneous games (100)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--seed", type=int, default=1, help="the players' choices")
    parser.add_argument("--profile", metavar="FILE", help="run the bot under cProfile into FILE")
    parser.add_argument(
        "--pace",
        metavar="LO-HI",
        help="seconds each player thinks before acting, e.g. 3-12 (default: none, act at once)",
    )
    parser.add_argument(
        "--duration", type=float, metavar="SECONDS", help="stop after this long (paced runs)"
    )
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="fakediscord enforces none of Discord's limits (50 requests/s, 5 messages/5 s a"
        " channel), which it does by default",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the bot's database (postgres: a throwaway server started for the run)",
    )
    parser.add_argument(
        "--procs",
        type=int,
        default=1,
        help="the bot as this many processes, one shard each (needs --database postgres)",
    )
    parser.add_argument(
        "--pages",
        type=int,
        default=0,
        help="serve the game pages and keep this many games' live pages open (e.g. 50)",
    )
    parser.add_argument(
        "--computer",
        metavar="LEVEL",
        help="each game one person against the computer at this level (e.g. hard)",
    )
    parser.add_argument(
        "--latency",
        action="store_true",
        help="the internet's latency between the bot and fakediscord: every request a round"
        " trip of 40-250 ms, every gateway event half of one (drawn from --seed)",
    )
    parser.add_argument(
        "--by",
        choices=("controls", "commands"),
        default="controls",
        help="players move with their hand's controls (the default) or by typing"
        " /cribbage discard and /cribbage play in the channel",
    )
    args: Any = parser.parse_args(argv)
    if args.procs > 1 and args.database != "postgres":
        parser.error("several processes share a PostgreSQL database: add --database postgres")
    pace = None
    if args.pace:
        lo, _, hi = args.pace.partition("-")
        pace = (float(lo), float(hi or lo))
    code, _ = asyncio.run(
        measure(
            args.games,
            args.players,
            args.target,
            args.seed,
            args.profile,
            pace,
            args.duration,
            not args.no_limits,
            args.computer,
            args.database,
            args.procs,
            args.pages,
            args.by == "commands",
            args.latency,
        )
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
