"""What migration 029 (the ranked games recorded with the engine's game points, mended) costs
on a large database: the time the upgrade's transaction takes, and that
``python -m bot ratings --check`` reproduces every stored number after it.

    nice -n 19 .venv/bin/python -m benchmarks.ranked_mend [--games 50000] [--ranked 10000]
        [--postgres]

Builds a database at the schema before 029 (SQLite in a scratch folder; with ``--postgres``,
PostgreSQL on a server of its own too): ``--games`` finished games on ten servers and
``--ranked`` ranked games, among 2,000 people, a third of each won by a lurch (the ranked ones
recorded so as the releases before 235e575c did); rates them all with the store's own
rebuild, as the store had when they were recorded; then applies 029 (timed) and checks the
ratings.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.store import Dialect, Store
from bot.store.database import Database
from bot.tools.ratings import differences
from tests.helpers.migrated import migrations_before
from tests.helpers.postgres import PostgresServer

MENDING = 29
PEOPLE = 2_000


def game_rows(
    count: int, *, ranked: bool, first_id: int = 1, seed: int = 2
) -> tuple[list[Any], list[Any]]:
    """``count`` finished two-player games (ids from ``first_id``) among :data:`PEOPLE`
    people, their games and results rows: ``ranked``, played apart (a channel below zero,
    outside servers), a third of them won by a lurch as the engine said it and recorded so,
    as before 235e575c; else on one of ten servers, a third won by a lurch, which stays."""
    rng = random.Random(seed)
    games, results = [], []
    for n in range(count):
        game_id = first_id + n
        a, b = rng.sample(range(1, PEOPLE + 1), 2)
        lurch = n % 3 == 0
        loser_score = rng.randint(20, 60) if lurch else rng.randint(61, 120)
        now = 1_700_000_000.0 + game_id * 60
        guild = None if ranked else 1_000 + game_id % 10
        channel = -game_id if ranked else 100_000 + game_id % 1_000
        games.append((game_id, guild, channel, a, now, now))
        for seat, user in enumerate((a, b)):
            won = seat == 0
            results.append(
                (
                    game_id,
                    guild,
                    seat,
                    user,
                    f"Player {user}",
                    int(won),
                    2 if lurch else 1,
                    int(lurch and won),
                    int(lurch and not won),
                    121 if won else loser_score,
                    f"121-{loser_score}",
                    now,
                    game_id,
                )
            )
    return games, results


async def _fill(db: Database, count: int, *, ranked: bool, first_id: int = 1) -> None:
    games, results = game_rows(count, ranked=ranked, first_id=first_id)
    async with db.transaction() as tx:
        await tx.executemany(
            "INSERT INTO games (id, guild_id, channel_id, status, creator_id, num_players,"
            " target, vs_computer, version, created_at, updated_at)"
            " VALUES (?, ?, ?, 'finished', ?, 2, 121, 0, 100, ?, ?)",
            games,
        )
        await tx.executemany(
            "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, is_computer,"
            " vs_computer, won, game_points, skunk_given, skunk_taken, score, final_scores,"
            " reason, finished_at, rated_order, scoring)"
            " VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, 'target', ?, ?, 'lurch')",
            results,
        )


async def run(target: str | Path, scratch: Path, games: int, ranked: int) -> bool:
    """Build, migrate (timed) and check ``target`` (a SQLite file, or an empty PostgreSQL
    database's URL); whether the check passed."""
    dialect = Dialect.POSTGRES if isinstance(target, str) else Dialect.SQLITE
    before = migrations_before(dialect, MENDING, scratch / f"migrations-{dialect.value}")
    start = time.perf_counter()
    async with await Store.open(target, migrations_dir=before) as store:
        await _fill(store.db, games, ranked=False)
        await _fill(store.db, ranked, ranked=True, first_id=games + 1)
        await store.rebuild_ratings()
    built = time.perf_counter() - start
    print(
        f"{dialect.value}: {games:,} server games and {ranked:,} ranked games written and"
        f" rated in {built:.1f} s"
    )
    # Up to 029 alone: the migrations after it are timed by nobody here.
    through = migrations_before(dialect, MENDING + 1, scratch / f"through-{dialect.value}")
    start = time.perf_counter()
    async with await Store.open(target, migrations_dir=through) as store:
        took = time.perf_counter() - start
        assert store.migrated == ["029_ranked_game_points"], store.migrated
        print(f"migration 029: {took * 1000:.0f} ms (the whole start-up's migrating)")
        mended = await store.db.fetch(
            "SELECT COUNT(*) FROM results WHERE game_id > ? AND game_points = 1",
            (games,),
        )
        print(f"ranked results at 1 game point after it: {mended[0][0]:,} of {2 * ranked:,}")
        differ = differences(await store.stored_ratings(), await store.replay_ratings())
        print("ratings --check:", "reproduced exactly" if not differ else differ[:5])
    start = time.perf_counter()
    async with await Store.open(target, migrations_dir=through) as store:
        print(f"opening it again, nothing to apply: {(time.perf_counter() - start) * 1000:.0f} ms")
    return not differ


async def _all(games: int, ranked: int, postgres: bool) -> bool:
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        ok = await run(scratch / "mend.db", scratch, games, ranked)
        if postgres:
            with PostgresServer.start() as server:
                ok &= await run(server.create_database("mend"), scratch, games, ranked)
        return ok


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--ranked", type=int, default=10_000)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too")
    args = parser.parse_args()
    raise SystemExit(0 if asyncio.run(_all(args.games, args.ranked, args.postgres)) else 1)


if __name__ == "__main__":
    main()
