"""The load benchmarks' figures: what one game and the whole run measured
(:class:`LoadGame`, :class:`Figures`), the bot process's CPU time and memory read from
``/proc``, what the database recorded, and the report :mod:`benchmarks.bot_load` prints of them
(latencies, the requests' budget against Discord's limits, the games left unfinished, the hands
that showed an older look).
"""

from __future__ import annotations

import collections
import os
import re
import resource
import statistics
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.timing import percentile
from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.runner import BotProcess
from tests.helpers.bot_db import Database, rows
from tests.helpers.delivery_checks import shown_again
from tests.helpers.final_tables import recorded_deals, table_problems

#: What a bot process logs when it stops: its database round trips.
ROUND_TRIPS = re.compile(r"database round trips: (\d+)")


def move_buttons(message: Message) -> list[dict[str, Any]]:
    """The buttons of ``message`` that make a move: enabled, and not a hand's *Hint* (which
    answers its asker alone and moves nothing: the load's players never ask for one) nor
    the *Rematch* of a finished game's last hand (a game of the load is played once)."""
    return [
        b
        for b in message.buttons()
        if not b.get("disabled")
        and not any(kind in str(b.get("custom_id", "")) for kind in (":hint:", ":rematch:"))
    ]


def has_controls(message: Message) -> bool:
    """Whether ``message`` offers a move (a menu, or a button that makes one)."""
    return bool(list(message.selects())) or bool(move_buttons(message))


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
    #: player's controls arrive; and which it was (``play`` or ``discard``).
    move_cause: float | None = None
    move_kind: str = ""
    #: When the latest card was played (kept over the next deal's discards), and the players
    #: (by the place their hand is: a DM's id, or their id for a copy where they type) whose
    #: next crib select has come since: a card that ended a deal, each player's hand timed.
    play_at: float | None = None
    dealt_to: set[int] = field(default_factory=set)


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
    #: The same, split: a card that ended a deal to each player's crib select of the next
    #: deal (every player's, not only the first: the old table's last edits and the new
    #: table's post are the channel's to pace meanwhile, each hand its own), and every other
    #: move to the next player's controls (within a deal).
    deal_end_latencies: list[float] = field(default_factory=list)
    within_latencies: list[float] = field(default_factory=list)
    #: Deals whose final table was checked once the run was over, and those missing or behind.
    tables_checked: int = 0
    tables_wrong: list[str] = field(default_factory=list)
    #: Players ask for a *Hint* before each decision (the issue 67 way of playing fast).
    hints: bool = False
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


def _stat(path: Path) -> list[str] | None:
    try:
        return path.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float | None:
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


def recorded_counts(database: Database) -> tuple[int, int, int]:
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


def report_processes(
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


def report(
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
        report_latencies(figures, wire=wire is not None)
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
    stale = stale_looks(fd, tables)
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


def tables_wrong(
    fd: FakeDiscord, tables: list[LoadGame], database: Database
) -> tuple[int, list[str]]:
    """Every deal whose table is final (each deal before its game's current one, and the last
    of a game over): how many, and one line for each whose table in its channel is missing,
    doubled or behind the game's own record (its calls and its show:
    :mod:`tests.helpers.final_tables`)."""
    checked, wrong = 0, []
    for table in tables:
        found = rows(database, "SELECT id FROM games WHERE channel_id = ?", (table.channel.id,))
        for (game_id,) in found:
            try:
                recorded = recorded_deals(database, int(game_id))
            except (AssertionError, TypeError, ValueError):
                continue  # (not dealt)
            checked += len(recorded.finished())
            problems = table_problems(fd, table.channel, recorded)
            wrong += [f"{table.channel.name}: {p}" for p in problems]
    return checked, wrong


def report_tables(figures: Figures) -> None:
    """The deals whose final table was missing or behind once the bot had caught up."""
    if not figures.tables_checked:
        return
    print(
        f"deals whose final table is missing or behind: {len(figures.tables_wrong)}"
        f" of {figures.tables_checked}"
    )
    for line in figures.tables_wrong[:3]:
        print(f"  {line[:200]}")


def stale_looks(fd: FakeDiscord, tables: list[LoadGame]) -> list[str]:
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


def report_unfinished(
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
                controls = "controls" if has_controls(message) else "no controls"
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


def report_budget(
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
    for route, count in _bot_routes(fd).most_common():
        print(f"  {count:7d} ({count / max(actions, 1):.3f} per action) {route}")
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
            # (Not the answers to their clicks: a Hint is answered to its asker alone.)
            posted = [m for m in fd.dm_channel(user).messages if not m.ephemeral]
            dms.append(len(posted) / played)
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


def _bot_routes(fd: FakeDiscord) -> collections.Counter[str]:
    """The bot-token requests by route template, a channel's told apart as a DM's or a
    server channel's (where the budget goes)."""
    routes: collections.Counter[str] = collections.Counter()
    for r in fd.requests:
        if _request_kind(r.route) != "bot":
            continue
        route = r.template or r.route
        parts = r.route.split(" ", 1)[1].strip("/").split("/")
        if parts[0] == "channels" and len(parts) > 1 and parts[1].isdigit():
            channel = fd.world.channels.get(int(parts[1]))
            where = "a DM" if channel is not None and channel.recipient is not None else "a channel"
            route = f"{route} (in {where})"
        routes[route] += 1
    return routes


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


def report_latencies(figures: Figures, wire: bool = False) -> None:
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
        for label, part in (
            (
                "at a deal's end (last card -> each player's next crib select)",
                figures.deal_end_latencies,
            ),
            ("within a deal", figures.within_latencies),
        ):
            if part:
                print(f"  {label}: {_spread([x * 1000 for x in part])}")
        slow = sum(1 for x in moves if x > 1000)
        print(f"moves whose next player's controls took over 1 s: {slow} of {len(moves)}")
        under = percentile(moves, 0.99) < 1000
        print(f"p99 move -> next player's controls under 1 s: {'yes' if under else 'NO'}")
        if wire:
            # On the internet: one request's time and a little (issue 46).
            under = percentile(moves, 0.99) < 400
            print(f"p99 move -> next player's controls under 400 ms: {'yes' if under else 'NO'}")
