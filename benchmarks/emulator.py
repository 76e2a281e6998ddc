"""How fast the emulator round trip is, and what Discord's limits cost it per request.

The tiny test bot runs as a separate process (as `python -m bot` would) and answers
`/tiny echo` with a plain message. Prints the median and p99 latency of sequential
interactions (delivery to callback, measured inside the emulator) and the interactions per
second, sequentially and with several in flight at once.

Then the rate limiter's cost: the median time of one `RateLimiter.check` (a new message in a
channel: the global window and the channel's bucket; another route: the global window and the
route's bucket), and the median time of one request over HTTP with every limit on and with
none (the clock moves 1/50 s per request, so the global limit is reached but never passed).

    nice -n 10 .venv/bin/python -m benchmarks.emulator [--count 300] [--concurrency 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from functools import partial
from pathlib import Path

import aiohttp

from fakediscord import Clock, FakeDiscord, Interaction, Limits
from fakediscord.ratelimits import RateLimiter
from fakediscord.runner import BotProcess

ROOT = Path(__file__).resolve().parent.parent
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


def check_cost(template: str, params: dict[str, str], rounds: int = 20, size: int = 5000) -> float:
    """Median microseconds of one `RateLimiter.check` of `template`, never refused."""
    clock = Clock()
    clock.freeze()
    limiter = RateLimiter(Limits(), clock)
    per_call = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(size):
            limiter.check("token", template, params)
            clock.advance(5.0)  # a fresh window each time: every call takes the allowed path
        per_call.append((time.perf_counter() - started) / size * 1e6)
    return statistics.median(per_call)


async def request_cost(limits: Limits, count: int) -> float:
    """Median microseconds of one `GET /channels/{id}` over HTTP with `limits`."""
    async with FakeDiscord(limits=limits) as fd:
        channel = fd.add_guild("Bench").add_text_channel("general")
        fd.clock.freeze()
        headers = {"Authorization": f"Bot {fd.bot_token}"}
        url = f"{fd.api_base}/channels/{channel.id}"
        times = []
        async with aiohttp.ClientSession(headers=headers) as http:
            for _ in range(count):
                started = time.perf_counter()
                async with http.get(url) as response:
                    await response.read()
                    assert response.status == 200, response.status
                times.append(time.perf_counter() - started)
                fd.clock.advance(1 / 50)  # 50 a second: the global limit reached, not passed
        return statistics.median(times) * 1e6


async def measure_limiter(count: int) -> None:
    post = check_cost("POST /channels/{id}/messages", {"channel": "1"})
    other = check_cost("GET /users/@me", {})
    print(f"limiter check, new channel message: {post:.1f} us; another route: {other:.1f} us")
    on, off = [], []
    for _ in range(3):  # interleaved, so that the machine's load falls on both alike
        on.append(await request_cost(Limits(), count))
        off.append(await request_cost(Limits.none(), count))
    lim_on, lim_off = statistics.median(on), statistics.median(off)
    print(
        f"request over HTTP (median of {count} x 3): limits on {lim_on:.0f} us,"
        f" off {lim_off:.0f} us, difference {lim_on - lim_off:+.0f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000, help="per limiter HTTP round")
    args = parser.parse_args()
    asyncio.run(measure(args.count, args.concurrency))
    asyncio.run(measure_limiter(args.requests))


if __name__ == "__main__":
    main()
