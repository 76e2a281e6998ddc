"""What a test pays for its own database: a new one migrated from nothing, against a copy of
one migrated once (tests.helpers.migrated, what the `store` fixture and the end-to-end `world`
use), on SQLite and on PostgreSQL; and what each query to the tests' PostgreSQL server costs,
through TCP and through the server's Unix socket (what the tests' URLs name:
tests.helpers.postgres.PostgresServer.url).

    .venv/bin/python -m benchmarks.fixture_databases [--rounds 20] [--queries 3000]

Each round makes one database each way on each backend and opens it as a test does
(``Store.open``, then closes it); prints the median and the slowest seconds of each. Then the
server's CPU for a test's whole database (copied from the template, opened, closed, dropped),
for each way PostgreSQL copies one (``STRATEGY``: through the write-ahead log, its default,
and file by file, what tests.helpers.postgres.PostgresServer.create_database asks). Then, for
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


#: The ways PostgreSQL copies a database (``CREATE DATABASE ... STRATEGY``).
STRATEGIES = ("WAL_LOG", "FILE_COPY")


async def _server_cpu(server: PostgresServer, template: str, strategy: str, rounds: int) -> float:
    """The server's CPU (seconds) for one test's database copied ``strategy``, opened,
    closed and dropped, on average over ``rounds``."""
    before = server.cpu() or 0.0
    for n in range(rounds):
        name = f"{strategy.lower()}{n}"
        await (await Store.open(server.create_database(name, template, strategy))).close()
        server.drop_database(name)
    # The connections' own processes end just after they close: their CPU is counted once
    # the server has reaped them.
    await asyncio.sleep(0.5)
    return ((server.cpu() or 0.0) - before) / rounds


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
        print(
            f"The server's CPU for a test's database (copy, open, close, drop), {rounds} each way:"
        )
        for _ in range(2):
            for strategy in STRATEGIES:
                spent = await _server_cpu(server, template, strategy, rounds)
                print(f"{strategy:<10} {spent * 1000:5.1f} ms a database")
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
