"""How fast the emulator round trip is: deliver an interaction, receive the bot's callback.

The tiny test bot runs as a separate process (as `python -m bot` would) and answers
`/tiny echo` with a plain message. Prints the median and p99 latency of sequential
interactions (delivery to callback, measured inside the emulator) and the interactions per
second, sequentially and with several in flight at once.

    nice -n 10 .venv/bin/python benchmarks/emulator.py [--count 300] [--concurrency 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fakediscord import FakeDiscord, Interaction  # noqa: E402
from fakediscord.runner import BotProcess  # noqa: E402

TINYBOT = ROOT / "tests" / "helpers" / "tinybot.py"


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def answered(sent: list[Interaction]) -> bool:
    """Whether the bot has answered every one of `sent`."""
    return all(r.response is not None for r in sent)


async def measure(count: int, concurrency: int) -> None:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Bench")
        channel = guild.add_text_channel("general")
        user = fd.add_user("Al")
        guild.add_member(user)
        bot = BotProcess(fd, [str(TINYBOT)], dev_guild=guild.id, env={"TINYBOT_LOG": "WARNING"})
        await bot.start()
        try:
            for _ in range(20):  # warm up the bot's caches and the connection
                await fd.slash(user, channel, "/tiny echo text:warm")

            latencies = []
            started = time.perf_counter()
            for _ in range(count):
                r = await fd.slash(user, channel, "/tiny echo text:x")
                assert r.latency is not None
                latencies.append(r.latency)
            sequential = count / (time.perf_counter() - started)

            started = time.perf_counter()
            done = 0
            while done < count:
                batch = min(concurrency, count - done)
                sent = [
                    await fd.slash(user, channel, "/tiny echo text:y", wait=False)
                    for _ in range(batch)
                ]
                await fd.wait_for(partial(answered, sent), timeout=30)
                done += batch
            parallel = count / (time.perf_counter() - started)
            fd.check_health()
        finally:
            await bot.stop()

    print(f"interactions: {count} sequential, then {count} with {concurrency} in flight")
    print(f"latency median: {statistics.median(latencies) * 1000:.2f} ms")
    print(f"latency p99:    {percentile(latencies, 0.99) * 1000:.2f} ms")
    print(f"throughput sequential: {sequential:.0f} interactions/s")
    print(f"throughput {concurrency} in flight: {parallel:.0f} interactions/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(measure(args.count, args.concurrency))


if __name__ == "__main__":
    main()
