"""Freezes of the sender under load: two bot processes on PostgreSQL, the sender stopped
(SIGSTOP) for longer than its lease again and again while games are played (issue 32).

Two processes share a throwaway PostgreSQL database, one shard each, as the bot runs sharded
(shard 0's process answers every DM and leaves sending to the other while it can). Games are
played on both shards by players who press their hands' controls as soon as they come, a new
game starting in a channel as soon as one ends. Every ``--gap`` seconds the process that sends
is frozen for ``--freeze`` seconds (longer than the 1.5 s lease, so the other takes over), then
woken. fakediscord enforces Discord's limits throughout.

Each request fakediscord receives is put down to the process that made it (by its TCP port,
looked up in /proc while the connection is open), and each process's role over time is read
from what it logs ("is now the sender", "no longer the sender"). It prints:

- late sends: posts, edits and deletes (bot token or an interaction's webhook; interaction
  callbacks and the request completing a deferred answer, which the process that got the
  interaction makes whether it sends or not, apart) that reached Discord from a process while
  the other held the lease, each with when it arrived against that process's freeze, how its
  interaction was answered, and what both processes said of their roles around it;
- regressed messages: a message edited back to an earlier deal, or out of "the game is over";
- doubled messages: a DM holding two messages with live controls of one game, and orphans:
  such a message that is not the game's newest in that DM (checked once the run is over and
  the bot has caught up); and a deal's table posted twice in its channel, or deleted;
- takeover times: from each freeze to the other process saying it sends, and to it having
  brought the games up to date;
- 429s the bot received, and whether every game recorded is whole;
- the errors the processes logged, and the tracebacks they printed (each with the line that
  carried it and the exception it ends with).

    .venv/bin/python -m benchmarks.freezes [--freezes 80] [--freeze 2.5] [--gap 2.0]
        [--targeted]

With ``--targeted`` each freeze waits for the sender's next follow-up (a new deal's hand by
DM) and stops it the moment Discord has made that message, before the answer goes back: the
sender stops between posting a hand and keeping its id, which a freeze at a random instant
hits now and then (issue 46: 3 doubled hands in 160 freezes and 13,942 moves).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import signal
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from benchmarks.bot_load import CLUSTER_READY, LoadDiscord, _game, _player
from benchmarks.load_figures import Figures, LoadGame, has_controls
from fakediscord import Limits, Message
from fakediscord.interactions import Interaction
from fakediscord.runner import BotProcess
from tests.helpers.postgres import PostgresServer

#: What a process logs when its role changes (bot/store/cluster.py).
BECOMES = re.compile(r"this process (is the sender|is now the sender)")
STOPS = re.compile(r"this process (does not send|is no longer the sender)")
RECONCILED = re.compile(r"reconciling \d+ games")
#: Requests that send (change what Discord shows), as fakediscord names their routes.
SENDS = re.compile(r"^(POST|PATCH|DELETE) /(channels/\d+/messages|webhooks/)")
CALLBACK = re.compile(r"^POST /interactions/\d+/([^/?]+)/callback")
WEBHOOK = re.compile(r"^\w+ /webhooks/\d+/([^/?]+)")
DEAL = re.compile(r"deal (\d+)", re.IGNORECASE)
#: A deal's table names it at the start of a line (the first deal's after the cut for deal).
HEADER = re.compile(r"^\*\*Deal (\d+)\*\* —", re.MULTILINE)
#: How a game's lobby begins (the answer to /cribbage new), before its tables.
LOBBY = "**Cribbage** —"
OVER = "game is over"


class Stamped:
    """The lines a process prints, each with when it arrived (``time.monotonic``)."""

    def __init__(self, bot: BotProcess) -> None:
        self.bot = bot
        self.lines: list[tuple[float, str]] = []
        self._task = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        seen = 0
        while True:
            output = self.bot.output
            now = time.monotonic()
            while seen < len(output):
                self.lines.append((now, output[seen]))
                seen += 1
            await asyncio.sleep(0.002)

    def close(self) -> None:
        self._task.cancel()

    def roles(self) -> list[tuple[float, bool]]:
        """When the process began or stopped sending, by its own words."""
        changes = []
        for at, line in self.lines:
            if BECOMES.search(line):
                changes.append((at, True))
            elif STOPS.search(line):
                changes.append((at, False))
        return changes


def _sockets(pid: int) -> set[str]:
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
    return inodes


def _ports() -> dict[str, int]:
    """Socket inode -> local port, of every TCP socket on the machine."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            next(lines)
            for line in lines:
                parts = line.split()
                found[parts[9]] = int(parts[1].rsplit(":", 1)[1], 16)
    return found


class FreezeDiscord(LoadDiscord):
    """fakediscord that knows which bot process each request came from, and when it arrived
    on the wall clock the role lines are stamped with (``time.monotonic``)."""

    def __init__(self, limits: Limits) -> None:
        super().__init__(limits)
        self.pids: dict[int, str] = {}  # pid -> process name
        self.port_of: dict[int, str] = {}  # client port -> process name
        #: (arrived, process, route, status) of every request that is not part of an answer.
        self.log: list[tuple[float, str, str, int]] = []
        #: The interactions' tokens whose deferred answer was already completed.
        self._completed: set[str] = set()
        #: The process that answered each interaction's callback, by the interaction's token.
        self._called_back: dict[str, str] = {}

    def _interaction(self, route: str) -> Interaction | None:
        """The interaction whose token a webhook route uses, if any."""
        found = WEBHOOK.search(route)
        return None if found is None else self._by_token.get(found[1])

    def _answers(self, route: str, sender: str) -> bool:
        """Whether the request completes an interaction's deferred answer: after a deferred
        update (type 6), the first edit of the message clicked (its original response) or the
        first follow-up (an answer that is a reply, not an update of that message); after
        "thinking" (type 5), the first follow-up or edit of the placeholder; each from the
        process that deferred it (``sender`` made the request). It is the answer of the process
        that got the interaction, whether or not it sends: interactions are answered by whoever
        receives them, lease or not. An edit through that token from the other process (the
        keeper's, through the freshest token that reaches the message) is a send."""
        interaction = self._interaction(route)
        if interaction is None or interaction.response is None:
            return False
        if interaction.token in self._completed:
            return False
        deferred_by = self._called_back.get(interaction.token)
        if deferred_by is not None and deferred_by != sender:
            return False
        kind = interaction.response.type
        edits_original = route.startswith("PATCH") and route.endswith("@original")
        posts = route.startswith("POST")
        first = kind in (5, 6) and (edits_original or posts)
        if first:
            self._completed.add(interaction.token)
        return first

    def described(self, route: str, arrived: float) -> str:
        """For a late send through an interaction's token: how that interaction was answered
        and how old it was when the request arrived (monotonic ``arrived``)."""
        interaction = self._interaction(route)
        if interaction is None:
            return "the bot's token"
        age = self.clock.now() - interaction.created_at - (time.monotonic() - arrived)
        kind = interaction.response.type if interaction.response is not None else None
        return f"its interaction answered by type {kind}, {age:.1f} s old"

    def _owner_of(self, port: int | None, *, fresh: bool = False) -> str:
        """The process whose connection comes from ``port``; ``fresh``: looked up now, not
        from what was seen before (a port one process closed may be the other's next)."""
        if port is None:
            return "?"
        if fresh or port not in self.port_of:
            ports = _ports()
            for pid, name in self.pids.items():
                for inode in _sockets(pid):
                    if inode in ports:
                        self.port_of[ports[inode]] = name
        return self.port_of.get(port, "?")

    def _answered(self, route: str, template: str, response: Any, **kwargs: Any) -> Any:
        answered = super()._answered(route, template, response, **kwargs)
        record = self.requests[-1]
        # (A send is put down to the process that holds its connection now: while the request
        # is handled, its socket is open.)
        sender = self._owner_of(record.peer, fresh=SENDS.search(route) is not None)
        callback = CALLBACK.search(route)
        if callback is not None:
            self._called_back.setdefault(callback[1], sender)
        if self._answers(route, sender):
            return answered
        # The request's arrival, moved from the emulator's clock to time.monotonic.
        arrived = time.monotonic() - (self.clock.now() - record.arrived)
        self.log.append((arrived, sender, route, response.status))
        return answered


@dataclass
class Freeze:
    process: str
    at: float
    woken: float = 0.0
    took_over: float | None = None
    reconciled: float | None = None


@dataclass
class Run:
    freezes: list[Freeze] = field(default_factory=list)
    games: int = 0
    #: Freezes made the moment the sender had posted a follow-up (``--targeted``).
    targeted: int = 0
    #: Clicks never answered (their process frozen past Discord's window), made again.
    clicked_again: int = 0


def _sender(stamped: dict[str, Stamped]) -> str | None:
    """The process that last said it sends (and has not since said it does not)."""
    latest: tuple[float, str] | None = None
    for name, s in stamped.items():
        roles = s.roles()
        if roles and roles[-1][1] and (latest is None or roles[-1][0] > latest[0]):
            latest = (roles[-1][0], name)
    return None if latest is None else latest[1]


#: A follow-up (a new deal's hand posted through the player's latest DM click's token).
FOLLOW_UP = r"^POST /webhooks/\d+/[^/]+$"
#: How long a targeted freeze waits for the sender's next follow-up before it freezes anyway.
TARGET_WAIT = 10.0


class Target:
    """Freezes the sender the moment Discord has made a follow-up it posted, before the answer
    (the message's id) goes back to it: the sender stops between posting a hand and keeping
    its id, where a pending post is all that says it was made (``--targeted``)."""

    def __init__(self, fd: FreezeDiscord, bots: dict[str, BotProcess]) -> None:
        self.fd = fd
        self.bots = bots
        self.armed: str | None = None
        self.struck = asyncio.Event()
        fd.after_request(FOLLOW_UP, self._posted, times=10**9)

    def _posted(self, _route: str) -> None:
        if self.armed is None:
            return
        record = self.fd.requests[-1]
        if self.fd._owner_of(record.peer) != self.armed:
            return
        proc = self.bots[self.armed].proc
        assert proc is not None
        proc.send_signal(signal.SIGSTOP)
        self.armed = None
        self.struck.set()

    async def strike(self, name: str) -> bool:
        """Freeze ``name`` at its next follow-up (within :data:`TARGET_WAIT`); whether it was
        frozen so (else the caller freezes it at once)."""
        self.struck.clear()
        self.armed = name
        try:
            await asyncio.wait_for(self.struck.wait(), timeout=TARGET_WAIT)
        except TimeoutError:
            self.armed = None
            return False
        return True


async def _freezer(
    bots: dict[str, BotProcess],
    stamped: dict[str, Stamped],
    run: Run,
    count: int,
    length: float,
    gap: float,
    target: Target | None = None,
) -> None:
    for number in range(count):
        await asyncio.sleep(gap)
        name = _sender(stamped)
        if name is None:
            continue
        proc = bots[name].proc
        assert proc is not None
        other = next(n for n in bots if n != name)
        mark = len(stamped[other].lines)
        if target is not None and await target.strike(name):
            run.targeted += 1
        else:
            proc.send_signal(signal.SIGSTOP)
        freeze = Freeze(name, time.monotonic())
        await asyncio.sleep(length)
        proc.send_signal(signal.SIGCONT)
        freeze.woken = time.monotonic()
        run.freezes.append(freeze)
        # The other's takeover, as it said it (it may come after the wake: looked at later).
        freeze.took_over = -float(mark)  # (filled in by _takeovers from the line index)
        print(f"freeze {number + 1}/{count} of {name}", flush=True)


def _takeovers(run: Run, stamped: dict[str, Stamped]) -> None:
    for freeze in run.freezes:
        other = next(n for n in stamped if n != freeze.process)
        lines = stamped[other].lines[int(-(freeze.took_over or 0)) :]
        freeze.took_over = None
        for at, line in lines:
            if at < freeze.at:
                continue
            if freeze.took_over is None and BECOMES.search(line):
                freeze.took_over = at
            elif freeze.took_over is not None and RECONCILED.search(line):
                freeze.reconciled = at
                break


def _late_sends(fd: FreezeDiscord, stamped: dict[str, Stamped]) -> list[tuple[float, str, str]]:
    """Sends that reached Discord from a process while the other one held the lease."""
    # Who held the lease when: the latest of the two processes' "now the sender".
    changes = sorted((at, name) for name, s in stamped.items() for at, sends in s.roles() if sends)
    late = []
    for arrived, name, route, status in fd.log:
        if not SENDS.search(route) or CALLBACK.search(route) or name == "?":
            continue
        holder = None
        for at, who in changes:
            if at > arrived:
                break
            holder = who
        if holder is not None and holder != name and 200 <= status < 300:
            late.append((arrived, name, route))
    return late


def _when(arrived: float, name: str, run: Run) -> str:
    """When a late send reached Discord, against its process's latest freeze before it: while
    that process was stopped (so written before the freeze: it lingered on the way, and the
    other's wait for what may still land was too short) or after its wake (written after the
    fence said it might: a hole in the fence)."""
    frozen = [f for f in run.freezes if f.process == name and f.at <= arrived]
    if not frozen:
        return "before any freeze of it"
    last = frozen[-1]
    if arrived < last.woken:
        return f"{arrived - last.at:.2f} s into its freeze"
    return f"{arrived - last.woken:.2f} s after its wake"


def _roles_around(arrived: float, stamped: dict[str, Stamped]) -> str:
    """What each process said of its role in the 4 s before a late send and the 2 s after,
    in seconds from its arrival (as the lines were read: a little after they were said)."""
    said = [
        (at - arrived, name, "sends" if sends else "stops")
        for name, s in stamped.items()
        for at, sends in s.roles()
        if -4.0 <= at - arrived <= 2.0
    ]
    return ", ".join(f"{name} {what} {at:+.2f} s" for at, name, what in sorted(said)) or "-"


def _regressed(messages: list[Message]) -> list[str]:
    """Messages edited back to an earlier deal, or out of the game's end."""
    found = []
    for message in messages:
        deals: list[int] = []
        over = False
        for version in [*message.history, message.version()]:
            words = version.words()
            if over and OVER not in words:
                found.append(f"{message.id}: out of the game's end: {words[:80]!r}")
                break
            over = over or OVER in words
            deal = DEAL.search(words)
            if deal:
                number = int(deal[1])
                if deals and number < deals[-1]:
                    found.append(f"{message.id}: deal {deals[-1]} -> {number}")
                    break
                deals.append(number)
    return found


def _game_of(message: Message) -> str | None:
    for component in [*message.selects(), *message.buttons()]:
        custom = str(component.get("custom_id", ""))
        if custom.startswith("crib:"):
            return custom.split(":")[1]
    return None


def _tracebacks(stamped: dict[str, Stamped]) -> list[str]:
    """Every traceback a process printed: the line that carried it, and its exception."""
    found = []
    for name, s in stamped.items():
        lines = [line for _, line in s.lines]
        for index, line in enumerate(lines):
            if not line.startswith("Traceback (most recent call last)"):
                continue
            said = lines[index - 1] if index else ""
            ending = next(
                (x for x in lines[index + 1 :] if x and not x.startswith((" ", "\t"))), "?"
            )
            found.append(f"{name}: {said[:120]} -> {ending[:120]}")
    return found


def _doubled_and_orphans(fd: FreezeDiscord) -> tuple[list[str], list[str]]:
    doubled, orphans = [], []
    for channel in fd.world.channels.values():
        if not channel.is_dm:
            continue
        newest: dict[str, int] = {}
        live: dict[str, list[int]] = defaultdict(list)
        for message in channel.messages:
            game = _game_of(message)
            if game is None:
                continue
            newest[game] = message.id
            if has_controls(message):
                live[game].append(message.id)
        for game, ids in live.items():
            if len(ids) > 1:
                doubled.append(f"DM {channel.id}, game {game}: {len(ids)} live hands")
            orphans += [f"DM {channel.id}, game {game}: {i}" for i in ids if i != newest[game]]
    return doubled, orphans


def _tables_doubled(channels: list[Any]) -> list[str]:
    """Each deal whose table was posted more than once in its game, or deleted (a process
    taking over that took one table for another: issue 67). A channel plays game after game:
    each game's tables follow its lobby."""
    found = []
    for channel in channels:
        if channel.is_dm:
            continue
        for number, game in enumerate(_games_of(channel), start=1):
            for deal, messages in game.items():
                kept = [m for m in messages if not m.deleted]
                where = f"#{channel.name}, game {number}, deal {deal}"
                if len(kept) != 1:
                    found.append(f"{where}: {len(kept)} tables")
                found += [f"{where}: table {m.id} deleted" for m in messages if m.deleted]
    return found


def _games_of(channel: Any) -> list[dict[int, list[Message]]]:
    """A channel's games, each its tables by deal as each was first posted (deleted ones too):
    a game's tables are those after its lobby."""
    games: list[dict[int, list[Message]]] = []
    for message in channel.messages:
        if message.ephemeral:
            continue
        first = (message.history[0] if message.history else message.version()).words()
        if first.startswith(LOBBY):
            games.append(defaultdict(list))
            continue
        named = HEADER.search(first)
        if named is not None and games:
            games[-1][int(named[1])].append(message)
    return games


async def _channel_games(
    fd: FreezeDiscord,
    table: LoadGame,
    figures: Figures,
    rng: random.Random,
    stop: asyncio.Event,
    run: Run,
) -> None:
    while not stop.is_set():
        game = LoadGame(table.channel, table.players, seen=len(table.channel.messages))
        fd.follow(game)
        await _game(fd, game, 61, figures, rng)
        dealt = len(game.players) + 1  # (the lobby's joins and its start)
        while game.error and game.error.startswith("TimeoutError") and game.actions >= dealt:
            # A click never answered: its process was frozen past Discord's window, and
            # Discord told the player it failed. They click again, as a person does.
            run.clicked_again += 1
            game.error, game.over = None, False
            await _play_on(fd, game, figures, rng)
        if game.error:
            print(f"game in {table.channel.name} failed: {game.error}", flush=True)
            return
        run.games += 1


async def _play_on(fd: FreezeDiscord, game: LoadGame, figures: Figures, rng: random.Random) -> None:
    """The players of a dealt game go on from the controls they have (a click that failed is
    made again: each player's hand message is new to them)."""
    try:
        await asyncio.gather(*(_player(fd, game, user, figures, rng) for user in game.players))
    except Exception as error:  # (reported as _game reports it)
        game.error = f"{type(error).__name__}: {error}"
        game.over = True


async def measure(
    count: int, length: float, gap: float, games: int, seed: int, *, targeted: bool = False
) -> int:
    rng = random.Random(seed)
    fd = FreezeDiscord(Limits())
    run = Run()
    async with fd, contextlib.AsyncExitStack() as stack:
        guilds = [fd.add_guild(f"Freeze {n}", shard=(n, 2)) for n in range(2)]
        tables = []
        for number in range(games):
            guild = guilds[number % 2]
            channel = guild.add_text_channel(f"table-{number}")
            seated = [fd.add_user(f"p{number}-{seat}") for seat in range(2)]
            for user in seated:
                guild.add_member(user)
            tables.append(LoadGame(channel, seated))
        server = stack.enter_context(PostgresServer.start())
        url = server.create_database("freezes")
        bots: dict[str, BotProcess] = {}
        stamped: dict[str, Stamped] = {}
        # Shard 1's process starts first and sends; shard 0's answers the DMs.
        for shard in (1, 0):
            bot = BotProcess(
                fd,
                database=url,
                env={"SHARD_COUNT": "2", "SHARD_IDS": str(shard)},
                ready_timeout=60,
                ready_text=CLUSTER_READY,
            )
            name = f"shard {shard}"
            # Errors logged while frozen and woken are figures here, not failures.
            bot.watched = False
            bots[name] = bot
            await bot.start()
            assert bot.proc is not None
            fd.pids[bot.proc.pid] = name
            stamped[name] = Stamped(bot)
        figures = Figures(started=time.perf_counter())
        fd.figures = figures
        stop = asyncio.Event()
        playing = [
            asyncio.create_task(_channel_games(fd, t, figures, rng, stop, run)) for t in tables
        ]
        target = Target(fd, bots) if targeted else None
        await _freezer(bots, stamped, run, count, length, gap, target)
        stop.set()
        # The games in play finish (or the bot has caught up with them).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*playing), timeout=120)
        await asyncio.sleep(3.0)  # (a benchmark may wait: the last edits land)
        _takeovers(run, stamped)
        late = _late_sends(fd, stamped)
        channels = [*fd.world.channels.values()]
        channels += [c for g in fd.world.guilds.values() for c in g.channels.values()]
        every_message = [m for c in channels for m in c.messages]
        regressed = _regressed(every_message)
        doubled, orphans = _doubled_and_orphans(fd)
        twice = _tables_doubled(channels)
        errors = [line for s in stamped.values() for _, line in s.lines if " ERROR " in line]
        tracebacks = _tracebacks(stamped)
        for bot in bots.values():
            await bot.stop()
        for s in stamped.values():
            s.close()
    took = [f.took_over - f.at for f in run.freezes if f.took_over is not None]
    up = [f.reconciled - f.at for f in run.freezes if f.reconciled is not None]
    print(f"freezes: {len(run.freezes)} of {length:.1f} s; games finished: {run.games}")
    if targeted:
        print(f"frozen right after posting a follow-up, before its answer: {run.targeted}")
    print(f"moves answered: {len(figures.latencies)}")
    print(f"clicks never answered (frozen past Discord's window), made again: {run.clicked_again}")
    print(f"late sends (after the lease passed on): {len(late)}")
    for arrived, name, route in late[:10]:
        print(f"  {name}: {route}")
        print(f"    {_when(arrived, name, run)}; {fd.described(route, arrived)}")
        print(f"    roles: {_roles_around(arrived, stamped)}")
    print(f"regressed messages: {len(regressed)}")
    for line in regressed[:10]:
        print(f"  {line}")
    print(f"doubled messages: {len(doubled)}; orphan messages: {len(orphans)}")
    for line in (doubled + orphans)[:10]:
        print(f"  {line}")
    print(f"tables posted twice or deleted: {len(twice)}")
    for line in twice[:10]:
        print(f"  {line}")
    if took:
        print(
            f"takeover (freeze -> the other sends): median {statistics.median(took):.2f} s,"
            f" max {max(took):.2f} s (n={len(took)})"
        )
    if up:
        print(
            f"freeze -> the other has reconciled: median {statistics.median(up):.2f} s,"
            f" max {max(up):.2f} s (n={len(up)})"
        )
    print(f"429s received by the bot: {dict(fd.counters.rate_limited) or 'none'}")
    print(f"errors logged: {len(errors)}")
    for line in errors[:5]:
        print(f"  {line[:200]}")
    print(f"tracebacks printed: {len(tracebacks)}")
    for line in tracebacks[:10]:
        print(f"  {line}")
    bad = len(late) + len(regressed) + len(doubled) + len(orphans) + len(twice)
    bad += len(tracebacks)
    print(
        "no late send, regression, double, orphan, table twice or traceback:"
        f" {'yes' if not bad else 'NO'}"
    )
    return 0 if not bad else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--freezes", type=int, default=80)
    parser.add_argument("--freeze", type=float, default=2.5, help="seconds frozen (2.5)")
    parser.add_argument("--gap", type=float, default=2.0, help="seconds between freezes (2)")
    parser.add_argument("--games", type=int, default=4, help="channels playing at once (4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--targeted",
        action="store_true",
        help="freeze the sender the moment it has posted a follow-up (a new deal's hand), "
        "before Discord's answer reaches it (at most 10 s after the gap)",
    )
    args = parser.parse_args(argv)
    return asyncio.run(
        measure(args.freezes, args.freeze, args.gap, args.games, args.seed, targeted=args.targeted)
    )


if __name__ == "__main__":
    sys.exit(main())
