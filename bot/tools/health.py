"""``python -m bot health``: whether the bot is well, for hosts that run it with no port.

Every process of the bot writes what it says of itself to the database every few seconds (its
heartbeat: connected to Discord's gateway or not, whether it sends), and removes it when it
stops cleanly. This command reads those, with the database's own answer, the migrations and
the sender's lease, prints them, and exits 0 when the bot is well, 1 when it is not (saying
why), 2 when the database cannot be used:

- the database answers, and has every migration of this release;
- at least one process was heard from in the last 30 s, and every one heard from is
  connected to the gateway, and says every part it runs in the background is well (the
  sender's clock, director, referee, reviews...: what ``/readyz`` says of them);
- one process holds the sender's lease (the one that sends every message).

``--here`` looks only at the processes of this machine (a container's health check, when
several share one database): then a process of this machine that still runs but has not
been heard from is unwell too (frozen), and one that no longer runs is left out.

    .venv/bin/python -m bot health [--database PATH_OR_URL] [--here]
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Sequence

from bot.ops.health import STALE_SECONDS
from bot.store import Store
from bot.store.database import migrations
from bot.store.ops_tables import ProcessRow
from bot.store.queries import SENDER_LEASE
from bot.tools import DONE, FAILED, counted, run_on_database, tool_parser

__all__ = ["main", "migrations_line", "run"]


def migrations_line(count: int | str, last: str) -> str:
    """What ``health`` says of a database with every migration of this release (``count`` of
    them, ``last`` the last): docs/running.md's example is drawn from it, with the figures
    that differ by release and database left as ``N`` and ``NNN_name``."""
    return f"Migrations: all {count} of this release applied ({last} the last)."


def _running(pid: int) -> bool:
    """Whether a process with ``pid`` runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # (someone else's: it runs)
    return True


def _line(row: ProcessRow, now: float) -> str:
    gateway = "connected" if row.gateway else "NOT connected to the gateway"
    role = "sends" if row.sender else "does not send"
    background = f", in the background {row.background}" if row.background else ""
    return (
        f"  {row.holder}: shards {row.shards}, {gateway}, {role}, seen {now - row.seen_at:.0f} s"
        f" ago, up {now - row.started_at:.0f} s, release {row.release}{background}"
    )


def _in_scope(rows: list[ProcessRow], here: bool) -> list[ProcessRow]:
    """The processes the verdict is about: every one, or (``here``) this machine's that still
    run, the newest row of each pid."""
    if not here:
        return rows
    host = socket.gethostname()
    newest: dict[int, ProcessRow] = {}
    for row in rows:
        if row.host == host and _running(row.pid) and row.pid not in newest:
            newest[row.pid] = row  # (rows come newest first)
    return list(newest.values())


async def run(database: str, *, here: bool = False) -> int:
    """Print the bot's health from ``database``; the exit status."""
    problems: list[str] = []
    async with await Store.open(database, upgrade=False) as store:
        started = time.perf_counter()
        await store.ping()
        print(f"Database: answers ({(time.perf_counter() - started) * 1000:.1f} ms).")
        applied = set(await store.applied_migrations())
        known = [m.name for m in migrations(store.db.dialect.migrations_dir)]
        pending = [name for name in known if name not in applied]
        if pending:
            problems.append(
                f"the database lacks {counted(len(pending), 'migration')} of this release"
                f" ({pending[-1]} the last): start the bot of this release, which applies them"
            )
        else:
            print(migrations_line(len(known), known[-1]))
        rows = await store.processes()
        shared = store.db.dialect.value == "postgres"
        lease = await store.lease_holder(SENDER_LEASE) if shared else None
    now = time.time()
    scope = _in_scope(rows, here)
    live = [row for row in scope if now - row.seen_at <= STALE_SECONDS]
    quiet = [row for row in scope if now - row.seen_at > STALE_SECONDS]
    where = "on this machine " if here else ""
    if live:
        print(f"Processes {where}heard from in the last {STALE_SECONDS:.0f} s:")
        for row in live:
            print(_line(row, now))
    else:
        problems.append(
            f"no process of the bot {where}has been heard from in the last"
            f" {STALE_SECONDS:.0f} s: check that it is running"
        )
    if quiet:
        print("Not heard from lately:" if not here else "Running, but not heard from lately:")
        for row in quiet:
            print(_line(row, now))
        if here:
            problems.append("a process of this machine runs but has stopped saying it is well")
    problems += [
        f"{row.holder} is not connected to Discord's gateway" for row in live if not row.gateway
    ]
    problems += [
        f"{row.holder} runs a part in the background that is not well ({row.background})"
        for row in live
        if row.background
    ]
    if shared:
        if lease is None:
            problems.append("no process holds the sender's lease: nothing is being sent")
        else:
            print(f"Sender: {lease[0]} holds the lease ({lease[1]:.1f} s left).")
    elif live and not any(row.sender for row in live):
        problems.append("the process does not say it sends")
    if problems:
        for problem in problems:
            print(f"Unwell: {problem}.")
        return FAILED
    print("Well.")
    return DONE


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = tool_parser("python -m bot health", __doc__)
    parser.add_argument(
        "--database",
        help="a SQLite file or a postgresql:// URL (default: DATABASE_URL or DATABASE_PATH)",
    )
    parser.add_argument(
        "--here", action="store_true", help="only the processes that run on this machine"
    )
    args = parser.parse_args(argv)
    return run_on_database(args.database, lambda database: run(database, here=args.here))
