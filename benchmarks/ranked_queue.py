"""The ranked queue's speed: time to a match with few and with many waiting, and queue operations
per second, on SQLite and on PostgreSQL, through the core as the bot runs it.

- **Time to a match**: ``--waiting`` players (10, then 1,000) are already in the queue, each too
  far in skill from the others to be paired yet; then a newcomer joins, whose skill one of
  them fits: the core's call for ``/cribbage ranked play``, from its start to its answer (the
  newcomer paired at once, the card drawn), median and p99 over ``--rounds`` newcomers (each
  pair leaves the queue; the next newcomer fits the next waiting player).
- **The sweep**: one pass over ``--waiting`` players whose windows have all widened (the pairs
  the process that sends makes every 2 s): its seconds.
- **Queue operations per second**: ``--players`` players each join the queue and stop
  searching (two operations), ``--concurrency`` at a time; the operations per second.

    .venv/bin/python -m benchmarks.ranked_queue [--waiting 10 1000] [--rounds 50]

PostgreSQL is the throwaway server the tests use (started for the run, removed after).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.base.places import PlaceKind
from bot.core.base.replies import User
from bot.core.ranked.matching import ANYONE_AFTER, WINDOW_AT_FIRST
from bot.core.ranked.records import Search
from bot.core.services import Services
from bot.store import Store
from bot.store.queries import people_acting
from tests.helpers.core_build import build_core
from tests.helpers.postgres import PostgresServer

#: The skill of the i-th waiting player: each more than a window apart from the next.
SPREAD = WINDOW_AT_FIRST * 2.5
#: Newcomers whose times are not counted (the connections and caches warm up).
WARM_UP = 5


class _Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 10, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def _person(store: Store, user_id: int) -> None:
    """``user_id`` is a person the bot keeps (their row, as their first act makes it)."""
    acting = people_acting([user_id])
    assert acting is not None
    await store.db.execute(acting.sql, acting.params)


async def _join(service: Services, user: User, channel: int) -> bool:
    answer = await service.ranked.play(
        user, avatar=None, guild_id=None, channel_id=channel, place=PlaceKind.PRIVATE, token=None
    )
    return answer.ok


async def _waiting(store: Store, count: int, now: float, first_id: int) -> None:
    """``count`` players in the queue, each too far in skill from the others to meet yet."""
    for n in range(count):
        search = Search(
            first_id + n, f"W{n}", None, None, 10_000 + n, PlaceKind.PRIVATE, n * SPREAD, None
        )
        await store.queue_entry(search, now=now)


async def time_to_match(target: str | Path, waiting: int, rounds: int) -> list[float]:
    """Seconds from a newcomer's command to its answer, paired, with ``waiting`` in the queue."""
    clock = _Clock()
    async with await Store.open(target) as store:
        service = build_core(store, idle_expiry=timedelta(days=7), clock=clock)
        now = clock().timestamp()
        await _waiting(store, waiting + rounds + WARM_UP, now, 1_000_000)
        took: list[float] = []
        for n in range(rounds + WARM_UP):
            # The newcomer's skill is the n-th waiting player's: they fit, nobody else does.
            newcomer = User(2_000_000 + n, f"N{n}")
            # (Its rating decides its skill: a newcomer's is the model's, so write one, of
            # a person the bot keeps.)
            await _person(store, newcomer.id)
            await store.db.execute(
                "INSERT INTO ranked_ratings (season, user_id, name, mu, sigma, ordinal, matches,"
                " wins, updated_at) VALUES ('2026-03', ?, ?, ?, 3.0, 0, 1, 0, 0)",
                (newcomer.id, newcomer.name, (waiting + n) * SPREAD),
            )
            started = time.perf_counter()
            ok = await _join(service, newcomer, 20_000 + n)
            if n >= WARM_UP:  # (the first few warm the connections and the caches)
                took.append(time.perf_counter() - started)
            assert ok
            entry = await store.live_entry(newcomer.id)
            assert entry is not None and entry.match_id is not None, "paired at once"
        await service.ledger.writes.flush()
        return took


async def sweep_time(target: str | Path, waiting: int) -> tuple[float, int]:
    """Seconds one sweep takes over ``waiting`` players who have all waited long enough to
    meet anyone, and the matches it made."""
    clock = _Clock()
    async with await Store.open(target) as store:
        service = build_core(store, idle_expiry=timedelta(days=7), clock=clock)
        await _waiting(store, waiting, clock().timestamp(), 3_000_000)
        clock.now += timedelta(seconds=ANYONE_AFTER)
        started = time.perf_counter()
        made = await service.ranked_play.queue.sweep()
        return time.perf_counter() - started, len(made)


async def operations(target: str | Path, players: int, concurrency: int) -> float:
    """Queue operations (a join, then a stop) per second, ``concurrency`` players at a time."""
    clock = _Clock()
    async with await Store.open(target) as store:
        service = build_core(store, idle_expiry=timedelta(days=7), clock=clock)
        # Everyone far apart, so joining pairs nobody and each then stops.
        for n in range(players):
            await _person(store, 4_000_000 + n)
            await store.db.execute(
                "INSERT INTO ranked_ratings (season, user_id, name, mu, sigma, ordinal, matches,"
                " wins, updated_at) VALUES ('2026-03', ?, ?, ?, 3.0, 0, 1, 0, 0)",
                (4_000_000 + n, f"Q{n}", n * SPREAD),
            )
        gate = asyncio.Semaphore(concurrency)

        async def one(n: int) -> None:
            async with gate:
                user = User(4_000_000 + n, f"Q{n}")
                assert await _join(service, user, 30_000 + n)
                entry = await store.live_entry(user.id)
                assert entry is not None
                stopped = await service.ranked.stop(entry.id, user, None)
                assert stopped.ok, stopped.reply.text

        started = time.perf_counter()
        await asyncio.gather(*(one(n) for n in range(players)))
        elapsed = time.perf_counter() - started
        await service.ledger.writes.flush()
        return 2 * players / elapsed


async def _run(args: argparse.Namespace) -> None:
    with PostgresServer.start() as server, tempfile.TemporaryDirectory() as folder:
        targets: list[tuple[str, str | Path]] = []
        for n, waiting in enumerate(args.waiting):
            targets.append((f"sqlite, {waiting} waiting", Path(folder) / f"m{n}.db"))
            targets.append((f"postgres, {waiting} waiting", server.create_database(f"m{n}")))
        print("time to a match (a newcomer's command to its answer, paired at once):")
        for (label, target), waiting in zip(
            targets, [w for w in args.waiting for _ in (0, 1)], strict=True
        ):
            took = await time_to_match(target, waiting, args.rounds)
            print(
                f"  {label:28} median {statistics.median(took) * 1000:6.1f} ms,"
                f" p99 {_percentile(took, 0.99) * 1000:6.1f} ms ({len(took)} newcomers)"
            )
        print(f"one sweep of the queue, {max(args.waiting)} waiting and all free to meet:")
        for label, target in (
            ("sqlite", Path(folder) / "s.db"),
            ("postgres", server.create_database("s")),
        ):
            seconds, made = await sweep_time(target, max(args.waiting))
            print(f"  {label:28} {seconds * 1000:6.1f} ms, {made} matches made")
        print(
            f"queue operations per second ({args.players} players each join and stop,"
            f" {args.concurrency} at a time):"
        )
        for label, target in (
            ("sqlite", Path(folder) / "o.db"),
            ("postgres", server.create_database("o")),
        ):
            rate = await operations(target, args.players, args.concurrency)
            print(f"  {label:28} {rate:7.0f} operations/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=20)
    asyncio.run(_run(parser.parse_args()))


if __name__ == "__main__":
    main()
