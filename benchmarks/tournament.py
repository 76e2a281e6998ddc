"""What a tournament costs: the Discord requests of one 16-player Swiss round, and the time a
Swiss pairing takes for 256 players.

The first part runs the bot as its own process (``python -m bot``, a database file) against
fakediscord with Discord's limits on: a moderator opens a Swiss tournament, 16 players join
with the button, it starts, and round 1 is dealt (a message, a thread and a dealt game per
pairing); every game then ends by a resignation, and round 2 is paired and dealt. It prints
the requests made with the bot's token for each (by route), per pairing, how close each came
to Discord's per-channel limits (the most posts and edits in any 5 s in the tournament's
channel, the most posts in 5 s in one thread), how long each took, and the 429s.

The second part pairs 8 Swiss rounds of 256 players (random results, a fixed seed) with
:func:`engine.tournament.swiss_round` and prints the median and slowest pairing time.

    .venv/bin/python -m benchmarks.tournament
    .venv/bin/python -m benchmarks.tournament --players 32 --pairing-players 1024
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import re
import statistics
import tempfile
import time
from pathlib import Path

from engine.tournament import MatchResult, standings, swiss_round
from fakediscord import Channel, FakeDiscord, Limits, Message
from fakediscord.runner import BotProcess
from tests.helpers.table_driver import resign

_PAIRING = re.compile(r"Round (\d+) · (.+) vs (.+)")


def pairing_times(players: int, rounds: int, seed: int) -> list[float]:
    """Seconds each of ``rounds`` Swiss pairings of ``players`` took (random results)."""
    rng = random.Random(seed)
    everyone = list(range(1, players + 1))
    done: list[MatchResult] = []
    times = []
    for _ in range(rounds):
        table = standings(everyone, done)
        played = {frozenset((r.a, r.b)) for r in done if r.b is not None}
        byes = {r.a for r in done if r.b is None}
        started = time.perf_counter()
        paired = swiss_round(
            [s.player for s in table],
            points={s.player: s.points for s in table},
            played=played,
            byes=byes,
        )
        times.append(time.perf_counter() - started)
        for a, b in paired.pairs:
            done.append(
                MatchResult(a, b, rng.choice((a, b)), rng.random() < 0.2, rng.randint(1, 60))
            )
        if paired.bye is not None:
            done.append(MatchResult(paired.bye, None, paired.bye))
    return times


def _routes(fd: FakeDiscord) -> collections.Counter[str]:
    return collections.Counter(fd.counters.rest)


def _threads(general: Channel, round_: int) -> list[Channel]:
    guild = general.guild
    assert guild is not None
    return [
        c
        for c in guild.channels.values()
        if c.is_thread and c.parent is general and c.name.startswith(f"Round {round_} ·")
    ]


def _board(general: Channel) -> Message | None:
    for message in general.messages:
        if message.author.bot and "tournament**" in message.words():
            return message
    return None


def _dealt(thread: Channel) -> bool:
    return any(m.author.bot and "Deal 1" in m.words() for m in thread.messages)


async def _round_dealt(fd: FakeDiscord, general: Channel, round_: int, tables: int) -> None:
    """Wait until round ``round_`` has a thread for each of its ``tables``, each dealt, and the
    requests that follow have settled."""
    await fd.wait_for(
        lambda: len(t := _threads(general, round_)) == tables and all(map(_dealt, t)),
        timeout=120,
        stall=15,
    )
    await fd.quiet(2.0)


def _print_phase(title: str, routes: collections.Counter[str], pairings: int) -> None:
    total = sum(routes.values())
    print(f"{title}: {total} bot-token requests ({total / pairings:.1f} per pairing)")
    for route, count in routes.most_common():
        print(f"  {count:4d}  {route}")


def _most_in_a_window(times: list[float], window: float = 5.0) -> int:
    """The most of ``times`` (seconds) within any ``window`` seconds."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= window:
            first += 1
        most = max(most, last - first + 1)
    return most


def _print_pace(fd: FakeDiscord, general: Channel, since: int, began: float) -> None:
    """How the phase's requests since ``fd.requests[since]`` kept Discord's per-channel limits
    (5 posts and 5 edits in 5 s): the most in any 5 s in #general and in any one thread, and
    how long the phase took to its last table dealt."""
    made = [r for r in fd.requests[since:] if r.status < 400]
    posts = f"POST /channels/{general.id}/messages"
    edits = f"PATCH /channels/{general.id}/messages/"
    in_general = [r.at for r in made if r.route == posts]
    edited = [r.at for r in made if r.route.startswith(edits)]
    threads = {t.id for r in (1, 2) for t in _threads(general, r)}
    per_thread: dict[str, list[float]] = collections.defaultdict(list)
    for r in made:
        parts = r.route.split("/")
        if r.route.startswith("POST /channels/") and len(parts) == 4 and int(parts[2]) in threads:
            per_thread[parts[2]].append(r.at)
    dealt = max((r.at for r in made), default=began) - began
    print(
        f"  #general: {len(in_general)} posts, at most {_most_in_a_window(in_general)} in 5 s;"
        f" {len(edited)} edits, at most {_most_in_a_window(edited)} in 5 s; a thread: at most"
        f" {max((_most_in_a_window(t) for t in per_thread.values()), default=0)} posts in 5 s;"
        f" last request {dealt:.1f} s after the phase began"
    )


async def requests_per_round(players: int) -> int:
    """Run the 16-player round against the bot as a process; print what it cost."""
    fd = FakeDiscord(limits=Limits())
    async with fd:
        guild = fd.add_guild("Club")
        general = guild.add_text_channel("general")
        mo = fd.add_user("Mo")
        guild.add_member(mo, moderator=True)
        users = [fd.add_user(f"Player{n + 1}") for n in range(players)]
        for user in users:
            guild.add_member(user)
        by_name = {u.name: u for u in users}
        with tempfile.TemporaryDirectory(prefix="bench-tournament-") as scratch:
            bot = BotProcess(fd, database=Path(scratch) / "t.db", dev_guild=guild.id)
            await bot.start()
            try:
                await fd.slash(mo, general, "/cribbage tournament new format:swiss target:61")
                board = await fd.wait_for(lambda: _board(general), timeout=30)
                assert board is not None
                for user in users:
                    await fd.click(user, board, label="Join")
                await fd.wait_for(lambda: f"Entrants ({players})" in board.words(), timeout=30)
                await fd.quiet(1.0)
                tables = players // 2
                before, since, began = _routes(fd), len(fd.requests), fd.clock.now()
                await fd.slash(mo, general, "/cribbage tournament start")
                await _round_dealt(fd, general, 1, tables)
                first = _routes(fd) - before
                _print_phase(
                    f"round 1 of a {players}-player Swiss, from start to dealt", first, tables
                )
                _print_pace(fd, general, since, began)
                before, since, began = _routes(fd), len(fd.requests), fd.clock.now()
                for thread in _threads(general, 1):
                    found = _PAIRING.match(thread.name)
                    assert found is not None
                    await resign(fd, by_name[found.group(2)], thread)
                await _round_dealt(fd, general, 2, tables)
                turn = _routes(fd) - before
                _print_phase("every game resigned, then round 2 paired and dealt", turn, tables)
                _print_pace(fd, general, since, began)
                print(f"429s by scope: {dict(fd.counters.rate_limited) or 'none'}")
                print(f"bot errors: {len(bot.errors)}")
            finally:
                await bot.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=16, help="entrants of the Swiss run")
    parser.add_argument("--pairing-players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8, help="Swiss rounds paired in part 2")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    times = pairing_times(args.pairing_players, args.rounds, args.seed)
    ms = [t * 1000 for t in times]
    print(
        f"Swiss pairing of {args.pairing_players} players, {args.rounds} rounds:"
        f" median {statistics.median(ms):.1f} ms, slowest {max(ms):.1f} ms"
    )
    return asyncio.run(requests_per_round(args.players))


if __name__ == "__main__":
    raise SystemExit(main())
