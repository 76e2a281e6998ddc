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
against 1 s (within a deal, and at a deal's end: the last card to each player's next crib select),
the time from an
action to the first change of its game's table in the channel (how far the table trails the game),
the bot's CPU time and peak memory (VmHWM), the errors, and whether every game finished and was
recorded. It also prints what the games cost against Discord's limits: the requests made with the
bot's token per player action (interaction callbacks and webhook requests counted apart: they do not
count toward the global limit), new channel messages and edits per deal, new DMs per player per
deal, and the 429s the bot received. fakediscord enforces Discord's global and per-channel limits in
these runs unless ``--no-limits``.
Once the games are played it waits for the bot to catch up, and counts the deals whose final
table is missing or behind (read against the game replayed from its shuffles and action log:
``tests.helpers.final_tables``). ``--hints``: each player asks for a *Hint* before every decision;
``--at-once N``: the games are played N at a time, each as soon as one ends.
docs/performance.md has the latest figures; docs/performance-history.md what was changed to
reach them.

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
    .venv/bin/python -m benchmarks.bot_load --games 20 --at-once 1 --computer easy --hints
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
import contextlib
import functools
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import fakediscord
from benchmarks import web
from benchmarks.load_figures import (
    Figures,
    LoadGame,
    cpu_seconds,
    has_controls,
    memory_kib,
    move_buttons,
    recorded_counts,
    report,
    report_budget,
    report_processes,
    report_tables,
    report_unfinished,
    tables_wrong,
)
from fakediscord import Channel, FakeDiscord, Interaction, Limits, Message, User
from fakediscord.latency import Latency
from fakediscord.runner import BotProcess, free_port
from tests.helpers.bot_db import Database
from tests.helpers.postgres import PostgresServer

#: The game page's link in a table message (with --pages).
PAGE_LINK = re.compile(r"<(http://127\.0\.0\.1:\d+/g/\d+/[\w-]+)>")
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
#: Once the games are played, a table still owed when the bot has made no request for this
#: long is counted as missing (a channel's window is 5 s).
TABLES_QUIET = 8.0


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
        if figures is not None and table is not None and list(message.selects()):
            # A crib select after a card: the next deal's, for this player (each timed once).
            player = (
                message.channel.id if message.ephemeral_for is None else message.ephemeral_for.id
            )
            if table.play_at is not None and player not in table.dealt_to:
                table.dealt_to.add(player)
                figures.deal_end_latencies.append(self.clock.now() - table.play_at)
        if figures is not None and table is not None and has_controls(message):
            if table.cause is not None:
                # The first prompt after an action: how long the game waited for it.
                figures.prompt_latencies.append(self.clock.now() - table.cause)
                figures.prompt_times.append(self.clock.now())
                table.cause = None
            if table.move_cause is not None:
                # The first controls after a move: the next player's (the mover's own again
                # after a "Go"), whichever way they came (the click's answer, a webhook, the
                # bot). A card followed by a crib select ended its deal.
                took = self.clock.now() - table.move_cause
                figures.move_latencies.append(took)
                if not (table.move_kind == "play" and list(message.selects())):
                    figures.within_latencies.append(took)  # (a deal's end: timed above)
                table.move_cause = None
        if figures is not None and game is not None and game.table_cause is not None:
            # The first change of the channel's messages after an action: how long the table
            # trailed the game.
            figures.table_latencies.append(self.clock.now() - game.table_cause)
            game.table_cause = None
        event = self.events.get(message.channel.id)
        if event is not None:
            event.set()


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
            if has_controls(candidate) and (candidate.id, len(candidate.history)) not in done:
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
        if figures.hints:
            # A Hint before each decision (answered to the player alone, changing nothing).
            hint = next((b for b in prompt.buttons() if ":hint:" in b["custom_id"]), None)
            if hint is not None and not hint.get("disabled"):
                asked = await fd.click(user, prompt, hint["custom_id"], wait=False)
                await _answered(figures, asked, "hint")
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
            button = rng.choice(move_buttons(prompt))
            if figures.by_commands and ":play:" in button["custom_id"]:
                code = button["custom_id"].rsplit(":", 1)[1]
                line = f"/cribbage play card:{code}"
                interaction = await fd.slash(user, table.channel, line, wait=False)
            else:
                interaction = await fd.click(user, prompt, button["custom_id"], wait=False)
            kind = "play"
        table.cause = table.table_cause = table.move_cause = interaction.created_at
        table.move_kind = kind
        if kind == "play":
            # (Kept over the next deal's discards: a player who threw at once does not stop
            # the other's new hand from being timed.)
            table.play_at, table.dealt_to = interaction.created_at, set()
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
    hints: bool = False,
    at_once: int | None = None,
) -> tuple[int, Figures]:
    """Play ``games`` games at once (at ``pace``, for ``duration`` seconds, if given; against
    the ``computer`` at that level, if given); print the figures; return 0 if every check
    passed, with what was measured (for a script that compares runs:
    ``benchmarks/pages_load.py``). With ``limits`` (the default), fakediscord enforces
    Discord's rate limits (global and per channel); without, none of its limits. ``database``
    is ``sqlite`` or ``postgres``; with ``procs`` above 1 the bot is that many processes, one
    shard each, on PostgreSQL. ``pages``: the bot serves the game pages, and that many games'
    live pages stay open. With ``latency``, every request and gateway event takes the
    internet's time (fakediscord.latency: a round trip of 40-250 ms, drawn from ``seed``).
    ``hints``: players ask for a *Hint* before each decision; ``at_once``: the games are played
    that many at a time (None: all at once)."""
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
        figures = Figures(
            started=time.perf_counter(), pace=pace, by_commands=by_commands, hints=hints
        )
        fd.figures = figures
        turns = asyncio.Semaphore(at_once or len(tables))

        async def in_turn(table: LoadGame) -> None:
            async with turns:
                await _game(fd, table, target, figures, rng, computer)

        playing = asyncio.gather(*(in_turn(t) for t in tables))
        # The paced run stops on time; its games need not be over. An unpaced one stops when no
        # game has moved for a while (one that waits for ever on a message that never comes).
        with contextlib.suppress(TimeoutError):
            if duration is None:
                await _until_stalled(playing, tables)
            else:
                await asyncio.wait_for(playing, timeout=duration)
        figures.finished = time.perf_counter()
        await asyncio.sleep(0.5)  # let the last channel lines and saves land
        await _tables_caught_up(fd, tables, where, figures)
        watching.set()
        if pages:
            print(f"game pages: {pages} live pages open, {updates[0]} updates received")
        peaks = [memory_kib(pid) for pid in pids]
        cpu = [cpu_seconds(pid) for pid in pids]
        figures.bot_cpu = sum(c for c in cpu if c is not None)
        for bot in bots:
            await bot.stop()
        finished, recorded, logged = recorded_counts(where)
        peak = max((p for p in peaks if p is not None), default=None)
        code = report(fd, bots, tables, figures, peak, finished, recorded, logged, target)
        report_tables(figures)
        if pace is None:
            report_unfinished(fd, tables, where)
        report_processes(bots, cpu, tables, database)
        return max(code, report_budget(fd, tables, where, figures)), figures


async def _tables_caught_up(
    fd: LoadDiscord, tables: list[LoadGame], where: Database, figures: Figures
) -> None:
    """Once the games are played: wait until every deal's final table is in its channel, or
    the bot has made no request for :data:`TABLES_QUIET` seconds (more than a channel's
    window: a table it still owes would have gone), then count those missing or behind."""
    while True:
        checked, wrong = tables_wrong(fd, tables, where)
        last = max((r.at for r in fd.requests), default=fd.clock.now())
        if not wrong or fd.clock.now() - last > TABLES_QUIET:
            figures.tables_checked, figures.tables_wrong = checked, wrong
            return
        await asyncio.sleep(0.5)


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
    parser.add_argument(
        "--hints",
        action="store_true",
        help="each player asks for a Hint before every decision (as fast as answered)",
    )
    parser.add_argument(
        "--at-once",
        type=int,
        metavar="N",
        help="play the games N at a time, each as soon as one ends (default: all at once)",
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
            args.hints,
            args.at_once,
        )
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
