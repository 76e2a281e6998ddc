"""A private table's start, with the internet's latency off and on: how long the table takes to
come, what it costs, and whether the lobby itself becomes the table.

The bot runs as ``python -m bot`` against fakediscord in this process, once without latency and
once with it (``fakediscord.latency``: every request a round trip of 40-250 ms, drawn from
``--seed``). Each start is a game in a conversation of its own that the bot is not in, reached
through the players' user installs, in turn a DM between two people and a group DM of three:
the creator runs ``/cribbage new``, the others press Join, and the creator presses Start the
moment the last Join shows on Discord (as a person does; on the internet that is often before
the bot hears that Join's answer land).

Prints, for each: the time from the Start click to the table on the lobby message (the
emulator's clock: median, p90, longest), the requests the bot made for the start (from the
click until a second after the table showed), those Discord refused (4xx), and the starts whose
table came as a second message below the lobby.

    .venv/bin/python -m benchmarks.private_start [--starts 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.latency import Latency
from fakediscord.runner import BotProcess
from tests.helpers.bot_db import latest_game_id

#: After the table shows, what the bot still sends for the start is counted this long.
TRAILING = 1.0
#: A start whose table has not come after this long is given up (and said).
GIVE_UP = 15.0


@dataclass
class Starts:
    """What the starts of one run measured."""

    seconds: list[float] = field(default_factory=list)
    requests: list[int] = field(default_factory=list)
    refused: int = 0
    second_tables: int = 0
    lost: int = 0


def _table(place: Channel) -> Message | None:
    """The message of ``place`` everyone sees that carries *Your hand* (the table), if any."""
    for message in place.messages:
        if not message.ephemeral and any(b["label"] == "Your hand" for b in message.buttons()):
            return message
    return None


async def _start(fd: FakeDiscord, people: list[User], database: Path, starts: Starts) -> None:
    """One game opened, joined and started in a new conversation of ``people``."""
    for user in people:
        fd.install_app(user)
    place = fd.private_channel(*people)
    creator = people[0]
    opened = await fd.slash(creator, place, f"/cribbage new players:{len(people)}")
    lobby = opened.original
    assert lobby is not None, opened.words()
    game = latest_game_id(database, place.id)
    for user in people[1:]:
        await fd.click(user, lobby, f"crib:{game}:lobby:join")
    since, clicked = len(fd.requests), fd.clock.now()
    await fd.click(creator, lobby, f"crib:{game}:lobby:start")
    waited = 0.0
    while (table := _table(place)) is None and waited < GIVE_UP:
        await asyncio.sleep(0.002)
        waited += 0.002
    if table is None:
        starts.lost += 1
        return
    starts.seconds.append(fd.clock.now() - clicked)
    await asyncio.sleep(TRAILING)
    made = fd.requests[since:]
    starts.requests.append(len(made))
    starts.refused += sum(1 for r in made if 400 <= r.status < 500)
    starts.second_tables += table is not lobby


async def _run(count: int, latency: Latency | None) -> Starts:
    """``count`` starts against one bot process, with ``latency`` (or none)."""
    starts = Starts()
    async with FakeDiscord(latency=latency) as fd:
        with tempfile.TemporaryDirectory(prefix="private-start-") as scratch:
            database = Path(scratch) / "bot.db"
            bot = BotProcess(fd, database=database)
            await bot.start()
            try:
                for number in range(count):
                    people = [fd.add_user(f"P{number}-{seat}") for seat in range(2 + number % 2)]
                    await _start(fd, people, database, starts)
            finally:
                await bot.stop()
    return starts


def _ms(values: list[float], share: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000:.0f}"


def _report(label: str, starts: Starts) -> None:
    seconds = starts.seconds
    median = f"{statistics.median(seconds) * 1000:.0f}" if seconds else "-"
    p90 = _ms(seconds, 0.9) if seconds else "-"
    longest = f"{max(seconds) * 1000:.0f}" if seconds else "-"
    mean = statistics.mean(starts.requests) if starts.requests else 0.0
    print(
        f"| {label} | {median} / {p90} / {longest} | {mean:.1f} "
        f"({min(starts.requests, default=0)}-{max(starts.requests, default=0)}) | "
        f"{starts.refused} | {starts.second_tables} | {starts.lost} |"
    )


async def run(count: int, seed: int) -> int:
    """Both runs; 0 when every start's lobby became its table with nothing refused."""
    print(f"{count} starts each (DMs and group DMs in turn)\n")
    print(
        "| latency | Start to table, ms (median / p90 / longest) | requests a start | 4xx "
        "| second tables | lost |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    off = await _run(count, None)
    _report("off", off)
    on = await _run(count, Latency(seed=seed))
    _report("40-250 ms", on)
    bad = sum(s.refused + s.second_tables + s.lost for s in (off, on))
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20, help="starts in each run (20)")
    parser.add_argument("--seed", type=int, default=1, help="the latency's draws (1)")
    args = parser.parse_args(argv)
    return asyncio.run(run(args.starts, args.seed))


if __name__ == "__main__":
    sys.exit(main())
