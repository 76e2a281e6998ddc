"""The bot's housekeeping at scale (issue 10, items 13 and 14): how long the event loop is held
while one pass ends 20,000 idle games, and while one pass prunes 20,000 finished games past the
retention period. Discord gives a bot 3 s to answer an interaction, and every server's
interactions wait while the loop is held, so the figure that matters is the longest stall.

    nice -n 10 .venv/bin/python -m benchmarks.housekeeping [--games 20000]

Builds the games through the service (a few real two-player games, dealt and played for some
moves, so their snapshots and action logs are the size real ones are), copies them in SQL to
``--games`` games in as many channels, then runs the pass under a watcher: a task that asks to
wake every millisecond and records how late it woke. Prints the pass's total time, the longest
stall and the 99th percentile, and, for pruning, the database's size before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA
from tests.helpers.core_build import build_core
from tests.helpers.service_driver import Clock, drive, make_service, open_table

#: Distinct games played through the service, then copied.
TEMPLATES = 8
#: The loop must never be held this long (Discord's deadline for an interaction is 3 s).
STALL_TARGET_MS = 100.0


async def _templates(service: Services, *, moves: int | None) -> None:
    """``TEMPLATES`` games in channels 1..TEMPLATES, played ``moves`` moves (None: to the end)."""
    for channel in range(1, TEMPLATES + 1):
        table = await open_table(service, [AL, BEA], channel=channel)
        await drive(service, table, [AL, BEA], stop_after=moves)


def _copy(path: Path, games: int, *, updated_at: float) -> None:
    """Copy the template games (ids 1..TEMPLATES) to ``games`` games, one channel each, all
    last changed at ``updated_at``."""
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    others = [c for c in columns if c not in ("id", "channel_id", "updated_at")]
    listed = ", ".join(others)
    for game_id in range(TEMPLATES + 1, games + 1):
        source = (game_id - 1) % TEMPLATES + 1
        db.execute(
            f"INSERT INTO games (id, channel_id, updated_at, {listed})"
            f" SELECT ?, ?, ?, {listed} FROM games WHERE id = ?",
            (game_id, 10_000 + game_id, updated_at, source),
        )
        db.execute(
            "INSERT INTO messages (owner, key, channel_id, message_id, digest, token, token_at,"
            " token_original, shown_version, unconfirmed_since) SELECT 'game:' || ?, key,"
            " channel_id, message_id, digest, token, token_at, token_original, shown_version,"
            " unconfirmed_since FROM messages WHERE owner = 'game:' || ?",
            (game_id, source),
        )
        for table in ("seats", "actions", "results", "rating_changes"):
            cols = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            rest = ", ".join(c for c in cols if c != "game_id")
            db.execute(
                f"INSERT INTO {table} (game_id, {rest}) SELECT ?, {rest} FROM {table}"
                " WHERE game_id = ?",
                (game_id, source),
            )
    db.execute("UPDATE games SET updated_at = ?", (updated_at,))
    db.commit()
    db.close()


async def _watched(work: Callable[[], Awaitable[Any]]) -> tuple[float, list[float], Any]:
    """Run ``work`` while a watcher measures how late the loop lets it wake each millisecond:
    the seconds it took, the stalls (ms), and what it returned."""
    loop = asyncio.get_running_loop()
    stalls: list[float] = []
    done = asyncio.Event()

    async def watch() -> None:
        while not done.is_set():
            asked = loop.time()
            await asyncio.sleep(0.001)
            stalls.append((loop.time() - asked - 0.001) * 1000)

    watcher = asyncio.create_task(watch())
    await asyncio.sleep(0.01)
    started = time.perf_counter()
    try:
        result = await work()
    finally:
        took = time.perf_counter() - started
        done.set()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher
    return took, stalls, result


def _report(name: str, took: float, stalls: list[float], count: int) -> bool:
    longest = max(stalls, default=0.0)
    p99 = statistics.quantiles(stalls, n=100)[98] if len(stalls) > 1 else longest
    ok = longest < STALL_TARGET_MS
    print(
        f"{name:<34} {count:>6,} games in {took:6.1f} s; longest stall {longest:7.1f} ms,"
        f" p99 {p99:5.1f} ms  {'ok' if ok else 'OVER TARGET'}"
    )
    return ok


async def expiry(scratch: Path, games: int) -> bool:
    """One expiry pass over ``games`` idle games (dealt, a few moves in)."""
    path = scratch / "expiry.db"
    clock = Clock()
    async with await Store.open(path) as store:
        await _templates(make_service(store, clock), moves=6)
    _copy(path, games, updated_at=clock().timestamp())
    clock.advance(days=8)
    async with await Store.open(path) as store:
        service = make_service(store, clock)
        took, stalls, outcomes = await _watched(service.housekeeping.expire_idle)
    return _report("expiry: idle games ended", took, stalls, len(outcomes))


async def pruning(scratch: Path, games: int) -> bool:
    """One retention pass over ``games`` finished games past the retention period."""
    path = scratch / "pruning.db"
    clock = Clock()
    async with await Store.open(path) as store:
        await _templates(make_service(store, clock), moves=None)
    _copy(path, games, updated_at=clock().timestamp())
    before = path.stat().st_size
    clock.advance(days=400)
    async with await Store.open(path) as store:
        service = build_core(
            store,
            rng_factory=lambda key: random.Random(key),
            clock=clock,
            idle_expiry=timedelta(days=7),
            retention=timedelta(days=30),
        )
        took, stalls, pruned = await _watched(service.housekeeping.prune)
    ok = _report("pruning: finished games archived", took, stalls, pruned)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    after = path.stat().st_size
    print(
        f"{'':<34} database {before / 1e6:6.1f} MB before, {after / 1e6:6.1f} MB after"
        f" ({before / games / 1000:.1f} KB a game before, {after / games / 1000:.1f} KB after)"
    )
    return ok


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--only", choices=("expiry", "pruning"))
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        if args.only in (None, "expiry"):
            ok &= await expiry(Path(scratch), args.games)
        if args.only in (None, "pruning"):
            ok &= await pruning(Path(scratch), args.games)
    print(
        f"\nall within target (no stall over {STALL_TARGET_MS:.0f} ms)"
        if ok
        else "\nSOME OVER TARGET"
    )


if __name__ == "__main__":
    asyncio.run(main())
