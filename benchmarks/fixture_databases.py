"""What a test pays for its own database: a new one migrated from nothing, against a copy of
one migrated once (tests.helpers.migrated, what the `store` fixture and the end-to-end `world`
use), on SQLite and on PostgreSQL; and what each query to the tests' PostgreSQL server costs,
through TCP and through the server's Unix socket (what the tests' URLs name:
tests.helpers.postgres.PostgresServer.url).

    .venv/bin/python -m benchmarks.fixture_databases [--rounds 20] [--queries 3000]

Each round makes one database each way on each backend and opens it as a test does
(``Store.open``, then closes it); prints the median and the slowest seconds of each. Then, for
each way of reaching the server, twice in turn, a pool of two connections (as the store keeps)
asks a one-row query ``--queries`` times; prints the CPU a query cost this process and the
server's processes, and its time. Starts a throwaway PostgreSQL server of its own (a few
seconds, not counted; in memory where the tests' would have it:
tests.helpers.postgres.cluster_folder).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import asyncpg

from bot.store import Store
from tests.helpers.migrated import copy_migrated_sqlite, migrated_template
from tests.helpers.postgres import PostgresServer, running

#: The ways a test's database is made, as the benchmark names them.
WAYS = (
    "SQLite, migrated from nothing",
    "SQLite, a copy of a migrated file",
    "PostgreSQL, migrated from nothing",
    "PostgreSQL, a copy of the migrated template",
)


def _make(way: str, n: int, folder: Path, server: PostgresServer, template: str) -> str | Path:
    """The ``n``-th new database made ``way`` (a SQLite path or a PostgreSQL URL)."""
    if way == WAYS[0]:
        return folder / f"fresh{n}.db"
    if way == WAYS[1]:
        return copy_migrated_sqlite(folder, folder / f"copy{n}.db")
    if way == WAYS[2]:
        return server.create_database(f"fresh{n}")
    return server.create_database(f"copy{n}", template)


async def _queries(url: str, server: PostgresServer, queries: int) -> tuple[float, float, float]:
    """CPU of this process and of the server per query, and time per query (microseconds),
    for ``queries`` one-row reads through a pool of two connections to ``url``."""
    pool = await asyncpg.create_pool(url, min_size=2, max_size=2)
    try:
        await pool.execute("CREATE TABLE IF NOT EXISTS probe (id int PRIMARY KEY, said text)")
        own, theirs, began = time.process_time(), (server.cpu() or 0.0), time.perf_counter()
        for n in range(queries):
            await pool.fetch("SELECT id, said FROM probe WHERE id = $1", n)
        spent = (
            time.process_time() - own,
            (server.cpu() or 0.0) - theirs,
            time.perf_counter() - began,
        )
    finally:
        await pool.close()
    return spent[0] * 1e6 / queries, spent[1] * 1e6 / queries, spent[2] * 1e6 / queries


async def main(rounds: int, queries: int) -> None:
    with tempfile.TemporaryDirectory() as folder, running() as server:
        where = Path(folder)
        template = migrated_template(server, where)
        timings: dict[str, list[float]] = {way: [] for way in WAYS}
        for n in range(rounds):
            for way in WAYS:
                began = time.perf_counter()
                await (await Store.open(_make(way, n, where, server, template))).close()
                timings[way].append(time.perf_counter() - began)
        print(f"{rounds} databases each way (make, open, close):")
        for way, seconds in timings.items():
            median, slowest = statistics.median(seconds), max(seconds)
            print(f"{way:<44} median {median:.3f} s   slowest {slowest:.3f} s")
        server.create_database("probe")
        ways = {"TCP": server.tcp_url("probe"), "Unix socket": server.url("probe")}
        print(f"{queries} one-row queries each way, twice in turn (microseconds a query):")
        for _ in range(2):
            for way, url in ways.items():
                own, theirs, took = await _queries(url, server, queries)
                print(f"{way:<12} this process {own:5.0f}  server {theirs:5.0f}  time {took:5.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--queries", type=int, default=3000)
    given = parser.parse_args()
    asyncio.run(main(given.rounds, given.queries))
