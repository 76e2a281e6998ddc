"""Start-up as a host runs it (`python -m bot`), when something is wrong (issue 10, items 1-3, 5
and 6): each problem is one line naming the setting and what to do, a non-zero exit status and
no traceback, and nothing on disk is changed; a SIGTERM at any moment of start-up ends the
process within seconds with status 0 and the database closed; and no warning about voice
support, which the bot does not use."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from bot.store import Dialect, Store, migrations
from bot.store.migrate import BEFORE_NAMES
from fakediscord import FakeDiscord
from fakediscord.runner import free_port
from fakediscord.testing import BotLauncher
from fakediscord.warm import WarmStarts
from tests.helpers.bot_runs import (
    REPO,
    bot_environment,
    refused_a_taken_port,
    run_to_end,
    spawn_bot,
)
from tests.helpers.migrated import migrations_before

SQLITE_MIGRATIONS = migrations(Dialect.SQLITE.migrations_dir)
LAST = SQLITE_MIGRATIONS[-1][0]
#: What an older database has applied: the migrations before the ratings (006).
OLDER = [m.name for m in SQLITE_MIGRATIONS if m.number < 6]
#: Where an operator reads what to do with a database the bot refuses.
RUNNING = REPO / "docs" / "running.md"
#: discord.py's two warnings about voice support (discord/client.py, discord.py 2.7).
VOICE_WARNINGS = ("PyNaCl is not installed", "davey is not installed")


def _refusal(lines: list[str]) -> str:
    """The line that says what is wrong: the last, with no traceback or error log before it."""
    text = "\n".join(lines)
    assert "Traceback" not in text, text
    assert not any(" ERROR " in line or "CRITICAL" in line for line in lines), text
    assert lines, "it said nothing"
    return lines[-1]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


async def _older_database(path: Path) -> None:
    """A database as a release before the ratings left it: migrations 001-005 applied and
    recorded by name, schema version 5 (the folder of those migrations made beside it)."""
    older = migrations_before(Dialect.SQLITE, 6, path.with_name(f"{path.stem}-migrations"))
    await (await Store.open(path, migrations_dir=older)).close()


async def test_a_database_from_a_newer_release_is_refused(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    path = tmp_path / "bot.db"
    await (await Store.open(path)).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {LAST + 1}")
    before = _files(tmp_path)
    status, lines = await run_to_end(fake_discord, path, warm=warm_starts)
    assert status == 2
    line = _refusal(lines)
    assert "DATABASE_PATH" in line and str(path) in line
    assert f"version {LAST + 1}" in line and f"up to {LAST}" in line
    assert len(lines) == 1, lines
    assert _files(tmp_path) == before
    assert fake_discord.gateway.identify_count == 0, "it never logged in"


async def test_a_database_from_before_names_were_recorded_is_refused_saying_what_to_do(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    # Builds before 23 November 2026 kept only the number, not the migrations' names.
    path = tmp_path / "bot.db"
    await _older_database(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP TABLE schema_migrations")
    before = _files(tmp_path)
    status, lines = await run_to_end(fake_discord, path, warm=warm_starts)
    assert status == 2
    assert _refusal(lines) == f"DATABASE_PATH={path}: {BEFORE_NAMES}"
    assert "commit 1a6c3ced" in BEFORE_NAMES and "1a6c3ced" in RUNNING.read_text()
    assert len(lines) == 1, lines
    assert _files(tmp_path) == before, "the database is byte for byte as it was"
    assert fake_discord.gateway.identify_count == 0, "it never logged in"


@pytest.mark.parametrize(
    ("what", "said"),
    [
        ("random bytes", "not a SQLite database"),
        ("a truncated database", "truncated"),
        ("a directory", "is a directory"),
        ("a missing folder", "does not exist"),
    ],
)
async def test_a_database_path_that_cannot_be_used_is_one_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path, what: str, said: str
) -> None:
    path = tmp_path / "bot.db"
    if what == "random bytes":
        path.write_bytes(os.urandom(5000))
    elif what == "a truncated database":
        store = await Store.open(path)
        await store.close()
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.executescript(
                "CREATE TABLE filler (x TEXT); INSERT INTO filler"
                " SELECT hex(randomblob(500)) FROM (SELECT 1 UNION ALL SELECT 2) a,"
                " (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) b;"
                " PRAGMA wal_checkpoint(TRUNCATE);"
            )
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    elif what == "a directory":
        path.mkdir()
    else:
        path = tmp_path / "missing" / "bot.db"
    before = _files(tmp_path)
    status, lines = await run_to_end(fake_discord, path, warm=warm_starts)
    assert status == 2
    line = _refusal(lines)
    assert "DATABASE_PATH" in line and said in line, line
    assert len(lines) == 1, lines
    assert _files(tmp_path) == before, "nothing on disk changed"
    assert not (tmp_path / "missing").exists()


def _without_root_powers() -> list[str]:
    """A command prefix that makes the bot unable to write what its permissions forbid: as
    root, drop the capabilities that let root write anything (setpriv, util-linux)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: read-only files are writable")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner"]


@pytest.mark.parametrize(
    ("what", "said"),
    [
        ("file", "the file is read-only"),
        ("folder", "is read-only for the user the bot runs as, and SQLite must create its"),
        ("both", "the file and its folder"),
        ("new file", "SQLite must create the file and its -wal and -shm files there"),
    ],
)
async def test_a_read_only_database_is_refused_before_logging_in(
    fake_discord: FakeDiscord, tmp_path: Path, what: str, said: str
) -> None:
    # SQLite says "attempt to write a readonly database" (file), SQLITE_READONLY_DIRECTORY
    # (folder: the -wal and -shm files cannot be made), or "unable to open database file" (a
    # new file in a read-only folder); the line says which is read-only and what to do.
    prefix = _without_root_powers()
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "bot.db"
    await (await Store.open(path)).close()
    if what in ("file", "both"):
        path.chmod(0o444)
    if what in ("folder", "both", "new file"):
        folder.chmod(0o555)
    if what == "new file":
        path = folder / "new.db"
    before = _files(folder)
    try:
        status, lines = await run_to_end(fake_discord, path, prefix)
    finally:
        folder.chmod(0o755)
        (folder / "bot.db").chmod(0o644)
    assert status == 2
    line = _refusal(lines)
    assert "DATABASE_PATH" in line and "read-only" in line and said in line, line
    assert "writable" in line, line
    assert len(lines) == 1, lines
    assert _files(folder) == before, "nothing on disk changed"
    assert fake_discord.gateway.identify_count == 0, "it never logged in"


def _read_only_mount(folder: Path) -> list[str]:
    """A command prefix that runs a command with ``folder`` mounted read-only (bound onto
    itself, read-only: what a read-only volume is), in a mount namespace of its own. As root
    that needs CAP_SYS_ADMIN; otherwise a user namespace, where the kernel allows them."""
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare (util-linux) to mount a folder read-only")
    tries = [[unshare, "--mount", "--propagation", "private"]]
    tries.append([unshare, "--user", "--map-root-user", "--mount", "--propagation", "private"])
    for start in tries:
        probe = subprocess.run(
            [*start, "sh", "-c", script, str(folder), "true"], capture_output=True, check=False
        )
        if probe.returncode == 0:
            return [*start, "sh", "-c", script, str(folder)]
    pytest.skip(f"cannot mount a folder read-only here: {probe.stderr.decode().strip()}")


@pytest.mark.parametrize("what", ["database", "new file"])
async def test_a_database_on_a_read_only_mount_is_refused_saying_so(
    fake_discord: FakeDiscord, tmp_path: Path, what: str
) -> None:
    # A read-only mount refuses every write, root's too: SQLite opens the file read-only and
    # then cannot make the -shm file WAL mode reads through ("unable to open database file").
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "bot.db"
    await (await Store.open(path)).close()
    prefix = _read_only_mount(folder)
    if what == "new file":
        path = folder / "new.db"
    before = _files(folder)
    status, lines = await run_to_end(fake_discord, path, prefix)
    assert status == 2
    line = _refusal(lines)
    assert "DATABASE_PATH" in line and "read-only file system" in line, line
    assert "mount it read-write" in line, line
    assert len(lines) == 1, lines
    assert _files(folder) == before, "nothing on disk changed"
    assert fake_discord.gateway.identify_count == 0, "it never logged in"


async def test_a_dev_guild_the_bot_is_not_in_is_one_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    status, lines = await run_to_end(
        fake_discord, tmp_path / "bot.db", DEV_GUILD_ID="1234567890", warm=warm_starts
    )
    assert status == 2
    line = _refusal(lines)
    assert "DEV_GUILD_ID" in line and "1234567890" in line and "invite" in line.lower(), line
    assert any(r.code == 50001 for r in fake_discord.requests), "Discord refused the sync"
    assert len(lines) == 1, lines
    assert _files(tmp_path) == {}, "the database this start created is gone again"


@pytest.mark.parametrize("database", ["new", "existing"])
async def test_discord_unreachable_is_one_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path, database: str
) -> None:
    path = tmp_path / "bot.db"
    if database == "existing":
        await (await Store.open(path)).close()
    before = _files(tmp_path)
    wrong = f"http://127.0.0.1:{free_port()}/api/v10"
    status, lines = await run_to_end(fake_discord, path, DISCORD_API_BASE=wrong, warm=warm_starts)
    assert status == 1
    line = _refusal(lines)
    assert "DISCORD_API_BASE" in line and wrong in line, line
    assert len(lines) == 1, lines
    assert _files(tmp_path) == before, "nothing on disk changed"


@pytest.mark.parametrize("refusal", ["token refused", "Discord unreachable"])
async def test_a_start_discord_refuses_leaves_an_older_database_as_it_was(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path, refusal: str
) -> None:
    # The migrations wait until Discord has taken the token: this file stays at schema 5.
    path = tmp_path / "bot.db"
    await _older_database(path)
    before = _files(tmp_path)
    if refusal == "token refused":
        extra, said = {"DISCORD_TOKEN": "not-the-token"}, "Discord refused the token"
    else:
        wrong = f"http://127.0.0.1:{free_port()}/api/v10"
        extra, said = {"DISCORD_API_BASE": wrong}, "DISCORD_API_BASE"
    status, lines = await run_to_end(fake_discord, path, **extra, warm=warm_starts)
    assert status == 1
    line = _refusal(lines)
    assert said in line, line
    assert len(lines) == 1, lines
    assert _files(tmp_path) == before, "the older database is byte for byte as it was"


async def test_no_warning_about_voice_support(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    guild = fake_discord.add_guild("Club")
    bot = await bots.process(database=tmp_path / "bot.db", dev_guild=guild.id)
    await bot.stop()
    said = "\n".join(bot.output)
    assert "synced" in said, said
    assert not any(warning in said for warning in VOICE_WARNINGS), said


async def _old_database(path: Path, games: int) -> None:
    """A database as a release before the ratings left it (:func:`_older_database`) with
    ``games`` finished games: opening it applies every later migration and rates every game,
    which takes a while, so a SIGTERM can land in the middle of it."""
    await _older_database(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, status, creator_id, num_players,"
            " target, created_at, updated_at) VALUES (?, 7, ?, 'finished', 1, 2, 121, ?, ?)",
            [(g, 100 + g % 50, float(g), float(g)) for g in range(1, games + 1)],
        )
        db.executemany(
            "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, won,"
            " game_points, score, final_scores, reason, finished_at)"
            " VALUES (?, 7, ?, ?, ?, ?, 1, ?, '121-90', 'target', ?)",
            [
                (g, seat, user, f"P{user}", int(seat == g % 2), 121 if seat == g % 2 else 90, g)
                for g in range(1, games + 1)
                for seat, user in enumerate((1 + g % 40, 41 + g % 37))
            ],
        )
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def _until_it_handles_sigterm(pid: int) -> None:
    """Wait until process ``pid`` has a handler of its own for SIGTERM (Linux says so in
    /proc/PID/status, as the mask of caught signals)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        pytest.skip("no /proc here to tell when the process handles signals")
    bit = 1 << (signal.SIGTERM - 1)
    for _ in range(6000):
        caught = next(
            (line for line in status.read_text().splitlines() if line.startswith("SigCgt:")), ""
        )
        if caught and int(caught.split()[1], 16) & bit:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the bot never handled SIGTERM")


async def test_sigterm_at_any_moment_of_start_up_ends_it_cleanly(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.add_guild("Club")
    template = tmp_path / "template.db"
    await _old_database(template, 3000)
    # The moments after the database is open find it upgraded already, as a start past the
    # upgrade does (each start upgraded it again: most of its CPU, some 8 s of the test's).
    upgraded = tmp_path / "upgraded.db"
    shutil.copy(template, upgraded)
    await (await Store.open(upgraded)).close()
    with contextlib.closing(sqlite3.connect(upgraded)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # From the moment the process handles SIGTERM (importing, reading the settings, opening
    # and upgrading the database: until Python has run the program's first lines, no program
    # can handle a signal), as Discord answers it logging in and syncing its commands, and
    # from its first line of output (held back until it is logged in and set up: connecting,
    # reconciling).
    moments: list[tuple[str, float | str]] = [
        ("signal handler", d) for d in (0.0, 0.1, 0.3, 0.6, 1.0, 1.6)
    ]
    moments += [("answer to", r"GET /users/@me"), ("answer to", r"PUT /applications/.*commands")]
    moments += [("first line", d) for d in (0.0, 0.01, 0.05, 0.2, 0.6, 1.5)]
    for number, (since, when) in enumerate(moments):
        run = tmp_path / f"run{number}"
        run.mkdir()
        path = run / "bot.db"
        shutil.copy(template if since == "signal handler" else upgraded, path)
        env = bot_environment(fake_discord, path, DEV_GUILD_ID=str(guild.id))
        # A process still running long after SIGTERM is sent SIGABRT: Python then writes
        # where every thread stands, for the failure to say.
        env["PYTHONFAULTHANDLER"] = "1"
        started: list[asyncio.subprocess.Process] = []
        answered = asyncio.Event()
        if since == "answer to":

            def stop(
                _: str,
                started: list[asyncio.subprocess.Process] = started,
                answered: asyncio.Event = answered,
            ) -> None:
                started[0].send_signal(signal.SIGTERM)
                answered.set()

            fake_discord.after_request(str(when), stop)
        proc = await spawn_bot(env, run)
        started.append(proc)
        assert proc.stdout is not None
        lines: list[str] = []
        if since == "answer to":
            await asyncio.wait_for(answered.wait(), timeout=60)
        else:
            if since == "signal handler":
                await _until_it_handles_sigterm(proc.pid)
            else:
                first = await asyncio.wait_for(proc.stdout.readline(), timeout=60)
                lines.append(first.decode().rstrip())
            assert isinstance(when, float)
            await asyncio.sleep(when)
            proc.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        moment = (
            f"as Discord answered {when}" if since == "answer to" else f"{when} s after the {since}"
        )
        # The output is read as it comes (a cancelled communicate() would lose what it read).
        reading = asyncio.create_task(proc.stdout.read())
        try:
            await asyncio.wait_for(proc.wait(), timeout=30)
        except TimeoutError:
            proc.send_signal(signal.SIGABRT)
            await proc.wait()
            told = "\n".join([*lines, *(await reading).decode().splitlines()])
            raise AssertionError(f"SIGTERM {moment}: still running 30 s later\n{told}") from None
        took = time.monotonic() - sent
        lines += (await reading).decode().splitlines()
        text = "\n".join(lines)
        where = f"SIGTERM {moment} (exit took {took:.1f} s)"
        assert proc.returncode == 0, f"{where}: status {proc.returncode}\n{text}"
        assert "Traceback" not in text and " ERROR " not in text, f"{where}\n{text}"
        # The database was closed properly: it opens, whole, and either as it was or with
        # every migration applied (they apply together, or none does).
        with contextlib.closing(sqlite3.connect(path)) as db:
            assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok", where
            number = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
            applied = [row[0] for row in db.execute("SELECT name FROM schema_migrations")]
            if number == 5:
                assert sorted(applied) == OLDER and "standings" not in tables, where
            else:
                assert number == LAST, f"{where}: schema version {number}"
                assert sorted(applied) == sorted(m.name for m in SQLITE_MIGRATIONS), where


async def test_an_ops_port_already_taken_is_one_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    # Issue 50: health and metrics on a port of their own, refused as WEB_PORT is.
    await refused_a_taken_port(fake_discord, tmp_path / "bot.db", "OPS_PORT", warm=warm_starts)
