"""``python -m bot health`` (issue 50, item 1), on both databases, from the heartbeats the
bot's processes write: well with a process heard from lately, connected and sending; unwell
(exit 1, saying why) with none heard from, one off the gateway, one saying a part it runs in
the background is not well, or (``--here``) one of this
machine that runs but has gone quiet; 2 for a database that is not there."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.database import migrations
from bot.store.ops_tables import ProcessRow
from bot.store.postgres import out_of_reach
from bot.store.queries import SENDER_LEASE
from bot.tools import health


def _row(
    *, seen: float, gateway: bool = True, sender: bool = True, pid: int = 0, background: str = ""
) -> ProcessRow:
    return ProcessRow(
        holder=f"{socket.gethostname()}:{pid or os.getpid()}:ab12",
        host=socket.gethostname(),
        pid=pid or os.getpid(),
        shards="all",
        release="021_operations",
        started_at=seen - 100,
        seen_at=seen,
        gateway=gateway,
        sender=sender,
        background=background,
    )


async def _said(
    store: Store, capsys: pytest.CaptureFixture[str], **options: bool
) -> tuple[int, str]:
    status = await health.run(store.db.location, **options)
    return status, capsys.readouterr().out


async def test_well_and_unwell(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    shared = store.db.dialect.value == "postgres"
    status, said = await _said(store, capsys)
    assert status == 1 and "no process of the bot has been heard from" in said
    # Each reason is one sentence ("…is it running?." read badly).
    assert (
        "Unwell: no process of the bot has been heard from in the last 30 s: check that it is"
        " running."
    ) in said.splitlines()
    await store.heartbeat(_row(seen=time.time()))
    if shared:
        await store.hold_lease(SENDER_LEASE, _row(seen=0).holder, 30)
    status, said = await _said(store, capsys)
    assert status == 0 and said.rstrip().endswith("Well."), said
    assert "connected, sends" in said and "Migrations: all" in said
    # A part it runs in the background failing (the director's start, the database out of
    # reach), as /readyz would say.
    failing = "director: failing: OSError: no database"
    await store.heartbeat(_row(seen=time.time(), background=failing))
    status, said = await _said(store, capsys)
    assert status == 1 and f"in the background {failing}" in said
    assert f"runs a part in the background that is not well ({failing})." in said
    await store.heartbeat(_row(seen=time.time(), gateway=False))
    status, said = await _said(store, capsys)
    assert status == 1 and "is not connected to Discord's gateway" in said
    # This machine's process, still running (this test's own), not heard from for a minute.
    await store.heartbeat(_row(seen=time.time() - 60))
    status, said = await _said(store, capsys, here=True)
    assert status == 1 and "stopped saying it is well" in said
    if shared:
        await store.give_up_lease(SENDER_LEASE, _row(seen=0).holder)
        await store.heartbeat(_row(seen=time.time()))
        status, said = await _said(store, capsys)
        assert status == 1 and "no process holds the sender's lease" in said


def test_no_database_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert health.main(["--database", str(tmp_path / "none.db")]) == 2
    assert "No database at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_a_directory_is_no_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54: it said "No database at FOLDER", as if there were nothing there."""
    assert health.main(["--database", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"The database {tmp_path} cannot be used: it is a directory, not a file: give the path"
        f" of the database file, such as {tmp_path / 'cribbage.db'}.\n"
    )


async def test_the_migrations_line_is_the_one_running_md_shows(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 68, item 19: running.md's example named 25 migrations where the release prints
    33 (SQLite) and 28 (PostgreSQL). Its line is drawn from the code's, with the figures that
    differ by release and database left as they are named, so it cannot go stale as
    migrations are added."""
    await health.run(store.db.location)
    said = capsys.readouterr().out
    known = migrations(store.db.dialect.migrations_dir)
    assert health.migrations_line(len(known), known[-1].name) in said.splitlines(), said
    running = (Path(__file__).parents[2] / "docs" / "running.md").read_text(encoding="utf-8")
    example = running.split("$ .venv/bin/python -m bot health\n")[1].split("```")[0]
    assert health.migrations_line("N", "NNN_name") in example.splitlines(), example
    # No figure of a release is typed in the docs' words for it.
    assert not re.search(r"all \d+ of this release", running)
    assert not re.search(r"release \d{3}_\w+", example)


def test_an_unreachable_postgresql_is_one_sentence_wherever_it_stops_a_command(
    tmp_path: Path,
) -> None:
    """Issue 68, item 19: ``copy``, ``health`` and the bot's start-up each worded a PostgreSQL
    server out of reach their own way ("Cannot reach the PostgreSQL database (…)", "Cannot
    reach a database (…)", "DATABASE_URL (PostgreSQL): cannot connect (…)"): one sentence,
    from one place (bot.store.postgres.out_of_reach)."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # (closed again: nothing listens there)
    url = f"postgresql://crib:secret@127.0.0.1:{port}/crib"
    source = tmp_path / "bot.db"
    sqlite3.connect(source).close()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_"))}
    env["PYTHONPATH"] = str(Path(__file__).parents[2])
    runs = {
        "health": ["health", "--database", url],
        "copy": ["copy", str(source), url],
        "start": [],
    }
    lines = {}
    for name, args in runs.items():
        extra = {"DISCORD_TOKEN": "not-used", "DATABASE_URL": url} if name == "start" else {}
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            cwd=tmp_path,
            env=env | extra,
            capture_output=True,
            text=True,
            timeout=60,  # a bound for a hung run, not a speed
        )
        assert done.returncode == 2, (name, done.stderr)
        [lines[name]] = done.stderr.splitlines()
    assert len(set(lines.values())) == 1, lines
    said = lines["health"]
    assert said.startswith(f"Cannot reach the PostgreSQL database at 127.0.0.1:{port} ("), said
    # (What follows asyncpg's own words is the one function's.)
    assert said.endswith(out_of_reach(url, OSError("x")).split("(x)")[1]), said
    assert "secret" not in said
