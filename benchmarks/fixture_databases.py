"""What a test pays for its own database: a new one migrated from nothing, against a copy of
one migrated once (tests.helpers.migrated, what the `store` fixture and the end-to-end `world`
use), on SQLite and on PostgreSQL.

    .venv/bin/python -m benchmarks.fixture_databases [--rounds 20]

Each round makes one database each way on each backend and opens it as a test does
(``Store.open``, then closes it); prints the median and the slowest seconds of each. Starts a
throwaway PostgreSQL server of its own (a few seconds, not counted; in memory where the tests'
would have it: tests.helpers.postgres.cluster_folder).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

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


async def main(rounds: int) -> None:
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    asyncio.run(main(parser.parse_args().rounds))
