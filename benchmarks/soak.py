"""Soak: the bot's memory over thousands of games (issue 33, item 7).

The bot runs as its own process (``python -m bot``, SQLite file) against fakediscord in this
process, with Discord's limits on. ``--channels`` channels each play game after game, every
game with a new player (a new Discord user, so a new DM, new interaction tokens, new coach
settings) against the computer, until ``--games`` games have finished after the warm-up
(``--warm-up`` games, and at least ``--warm-up-seconds``: 330 s, past the longest while
anything is kept for, discord.py's rate-limit buckets' 300 s; see ``WARM_UP_SECONDS``). The
bot's resident memory (VmRSS) is read every ``--every`` games;
the run prints it against the games finished, and the verdict: the largest RSS after the
warm-up against the RSS at its end (goal: within 10%).

Every map the bot keeps per game, channel, player or interaction token must be bounded or
freed when its game ends (tests/bot/core/games/test_memory_bounds.py holds each); this run is
the whole bot's figure. Before the fix the issue measured RSS 68 -> 232 MB over 608 games, about
111 MB per 1,000 games and still rising.

    .venv/bin/python -m benchmarks.soak                          # 150 channels, 300 + 2,000 games
    .venv/bin/python -m benchmarks.soak --short                  # each resigned after a discard
    .venv/bin/python -m benchmarks.soak --channels 50 --games 500 --warm-up 100

Whole games are paced by Discord's limits (the bot keeps to 50 requests a second), about 0.4
games a second here; with ``--short`` each game ends after its first discard (the player
resigns), with every per-game thing a whole game makes (a new player, their DM and coach
setting, interaction tokens, the game's records and messages), about 12 games a second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bot_load import RESULT_MARK, LoadDiscord, _answered, _game
from benchmarks.load_figures import Figures, LoadGame, memory_kib
from fakediscord import Guild, Limits, Message, User
from fakediscord.runner import BotProcess

#: Goal: the RSS after the warm-up stays within this share of the RSS at its end.
FLAT_WITHIN = 0.10
#: The warm-up lasts at least this long as well as its games: what is kept for a while rather
#: than up to a count must have had its while, or its filling reads as growth. The longest is
#: discord.py's own: a rate-limit bucket per route and channel or token, forgotten 300 s after
#: its last request (``discord.http.Ratelimit.is_inactive``); the bot's are shorter (a pacer's
#: bucket goes when its window is empty, a turn reminder within a minute).
WARM_UP_SECONDS = 330.0


class Soak:
    """Game after game in each channel, each with a new player, counting the games."""

    def __init__(
        self, fd: LoadDiscord, guild: Guild, target: int, level: str, seed: int, short: bool
    ) -> None:
        self.fd, self.guild, self.target, self.level = fd, guild, target, level
        #: Each game ends after its first discard: the player resigns (a whole game's
        #: per-game state for a fraction of its requests, so thousands fit in minutes).
        self.short = short
        self.rng = random.Random(seed)
        self.figures = Figures()
        self.finished = 0
        self.failed: list[str] = []
        self.wanted = 0
        self.done = asyncio.Event()
        self._players = itertools.count()

    async def channel(self, number: int) -> None:
        """Play games in one channel until enough have finished."""
        channel = self.guild.add_text_channel(f"soak-{number}")
        while self.finished < self.wanted:
            user = self.fd.add_user(f"s{next(self._players)}")
            self.guild.add_member(user)
            table = LoadGame(channel, [user], seen=len(channel.messages))
            self.fd.follow(table)
            if self.short:
                await self._short_game(table, user)
            else:
                await _game(self.fd, table, self.target, self.figures, self.rng, self.level)
            if table.error is not None:
                self.failed.append(f"#{channel.name}: {table.error}")
                if len(self.failed) > 20:
                    self.done.set()
                    return
            self.fd.tables.pop(self.fd.dm_channel(user).id, None)
            self.finished += 1
            if self.finished >= self.wanted:
                self.done.set()

    async def _short_game(self, table: LoadGame, user: User) -> None:
        """Open a game against the computer, throw two cards to the crib from the hand's DM,
        then resign (Yes on the question): the result is posted and recorded as any game's."""
        fd = self.fd
        try:
            line = f"/cribbage new target:{self.target} vs_computer:True difficulty:{self.level}"
            await _answered(
                self.figures, await fd.slash(user, table.channel, line, wait=False), "new"
            )
            dm = fd.dm_channel(user)
            inbox = fd.event_for(dm)

            def hand() -> Message | None:
                return next((m for m in dm.messages if list(m.selects())), None)

            while (found := hand()) is None:
                inbox.clear()
                await asyncio.wait_for(inbox.wait(), timeout=60)
            menu = next(iter(found.selects()))
            values = [o["value"] for o in menu["options"]][: int(menu["min_values"])]
            chosen = await fd.select(user, found, menu["custom_id"], values, wait=False)
            await _answered(self.figures, chosen, "discard", click=True)
            asked = await fd.slash(user, table.channel, "/cribbage resign")
            assert asked.original is not None, asked.words()
            await fd.click(user, asked.original, label="Yes, resign")
            channel = fd.event_for(table.channel)
            while not any(
                RESULT_MARK in m.words() and not m.ephemeral
                for m in table.channel.messages[table.seen :]
            ):
                channel.clear()
                await asyncio.wait_for(channel.wait(), timeout=60)
            table.over = True
        except Exception as error:  # a benchmark reports failures instead of stopping
            table.error = f"{type(error).__name__}: {error}"
            table.over = True


async def measure(
    channels: int,
    games: int,
    warm_up: int,
    warm_up_seconds: float,
    every: int,
    target: int,
    level: str,
    seed: int,
    short: bool = False,
) -> int:
    """Run the soak; print the RSS series and the verdict; 0 if memory stayed flat."""
    fd = LoadDiscord(Limits())
    async with fd, contextlib.AsyncExitStack() as stack:
        guild = fd.add_guild("Soak")
        scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="bot-soak-"))
        bot = BotProcess(
            fd,
            ("-m", "bot"),
            database=Path(scratch) / "soak.db",
            dev_guild=guild.id,
            ready_timeout=60,
        )
        await bot.start()
        assert bot.proc is not None
        pid = bot.proc.pid
        soak = Soak(fd, guild, target, level, seed, short)
        # Until the warm-up has had its games and its seconds, games go on without an end.
        soak.wanted = sys.maxsize
        warmed: int | None = None
        started = time.perf_counter()
        print(
            f"soak: {channels} channels, a warm-up of {warm_up} games and {warm_up_seconds:.0f} s"
            f" then {games} games; each game"
            f" one new player against the computer ({level}) to {target}"
            + (", resigned after the first discard" if short else ", played out")
            + "; limits on"
        )
        print("  games  RSS (MB)  elapsed")
        series: list[tuple[int, int]] = []
        tasks = [asyncio.ensure_future(soak.channel(n)) for n in range(channels)]
        mark = 0
        while not soak.done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(soak.done.wait(), timeout=1.0)
            took = time.perf_counter() - started
            if warmed is None and soak.finished >= warm_up and took >= warm_up_seconds:
                warmed = soak.finished
                soak.wanted = warmed + games
                mark = 0  # a reading now: the base the rest is held to
            if soak.finished >= mark or soak.done.is_set():
                rss = memory_kib(pid, "VmRSS")
                if rss is None:
                    print("the bot stopped")
                    break
                series.append((soak.finished, rss))
                print(f"  {soak.finished:5}  {rss / 1024:8.1f}  {took:6.0f} s", flush=True)
                mark = soak.finished + every
        # The games under way end (no new one starts), so the bot stops with nothing owed.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=600)
        await bot.stop()
    errors = [line for line in bot.output if " ERROR " in line]
    longest = max(bot.output, key=len, default="")
    if len(longest) > 10_000:
        print(f"the bot printed a line of {len(longest):,} characters: {longest[:300]}")
    if soak.failed or errors:
        print(f"failures: {len(soak.failed)} games, {len(errors)} errors logged")
        for line in (soak.failed + errors)[:10]:
            print(f"  {line}")
        return 1
    if warmed is None:
        print("the warm-up did not end")
        return 1
    after = [rss for done, rss in series if done >= warmed]
    if len(after) < 2:
        print("too few samples after the warm-up")
        return 1
    base, top = after[0], max(after)
    grew = top / base - 1
    per_thousand = (after[-1] - base) / 1024 / max(1, series[-1][0] - warmed) * 1000
    print(
        f"after the warm-up ({warmed} games): RSS {base / 1024:.1f} MB; over the next"
        f" {series[-1][0] - warmed} games at most {top / 1024:.1f} MB (+{grew:.1%}),"
        f" at the end {after[-1] / 1024:.1f} MB ({per_thousand:+.1f} MB per 1,000 games)"
    )
    flat = grew <= FLAT_WITHIN
    print(f"goal: flat within {FLAT_WITHIN:.0%}: {'met' if flat else 'NOT met'}")
    return 0 if flat else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--channels", type=int, default=150, help="channels playing (150)")
    parser.add_argument("--games", type=int, default=2000, help="games after the warm-up")
    parser.add_argument("--warm-up", type=int, default=300, help="games before measuring")
    parser.add_argument(
        "--warm-up-seconds",
        type=float,
        default=WARM_UP_SECONDS,
        help=f"and seconds before measuring ({WARM_UP_SECONDS:.0f}; 0 for games alone)",
    )
    parser.add_argument("--every", type=int, default=100, help="games between readings")
    parser.add_argument("--target", type=int, choices=(61, 121), default=61)
    parser.add_argument("--level", default="easy", help="the computer's level (easy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--short",
        action="store_true",
        help="each game ends after its first discard (the player resigns): many more games",
    )
    args = parser.parse_args(argv)
    return asyncio.run(
        measure(
            args.channels,
            args.games,
            args.warm_up,
            args.warm_up_seconds,
            args.every,
            args.target,
            args.level,
            args.seed,
            args.short,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
