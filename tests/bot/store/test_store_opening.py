"""Opening the database refuses what would corrupt it or be used wrongly (issue 10, items 1-3):
a schema newer than this code, a file that is not a SQLite database (never overwritten: its
header is read before SQLite touches it), a truncated one, a directory or a missing folder.
Each refusal is one sentence saying what is wrong and what to do, and changes nothing on disk.
Only the one-open-game-per-channel constraint means "channel busy"; any other integrity error
is a bug and is raised as one."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.core.base.store_errors import ChannelBusy, UnusableStore
from bot.core.games.records import NewGame, Options, SeatRecord
from bot.store import Dialect, NewerSchema, Store, migrations, sqlite

SQLITE_MIGRATIONS = migrations(Dialect.SQLITE.migrations_dir)
LAST = SQLITE_MIGRATIONS[-1][0]
AL = SeatRecord(0, 1, "Al")


def _files(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


async def _made(path: Path) -> None:
    """A database made by this release, closed."""
    await (await Store.open(path)).close()


async def test_a_schema_newer_than_the_code_is_refused_naming_both_versions(
    tmp_path: Path,
) -> None:
    path = tmp_path / "future.db"
    await _made(path)
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {LAST + 1}")
    before = _files(tmp_path)
    with pytest.raises(NewerSchema) as refused:
        await Store.open(path)
    said = str(refused.value)
    assert f"schema version {LAST + 1}" in said and f"up to {LAST}" in said
    assert refused.value.found == LAST + 1 and refused.value.known == LAST
    assert _files(tmp_path) == before, "nothing on disk changed"


async def test_a_file_that_is_not_a_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(os.urandom(3000))
    before = _files(tmp_path)
    with pytest.raises(UnusableStore, match="not a SQLite database"):
        await Store.open(path)
    assert _files(tmp_path) == before, "not overwritten, no journal made beside it"


async def test_a_short_text_file_is_not_a_database_either(tmp_path: Path) -> None:
    path = tmp_path / "cribbage.db"
    path.write_text("DISCORD_TOKEN=oops\n")
    with pytest.raises(UnusableStore, match="not a SQLite database"):
        await Store.open(path)
    assert path.read_text() == "DISCORD_TOKEN=oops\n"


async def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    store = await Store.open(path)
    for channel in range(200):
        await store.create_game(NewGame(5, channel, AL, Options(2, 121)), now=1.0)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = _files(tmp_path)
    with pytest.raises(UnusableStore, match="truncated") as refused:
        await Store.open(path)
    assert "backup" in str(refused.value)
    assert _files(tmp_path) == before


async def test_a_header_cut_short_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "stub.db"
    path.write_bytes(b"SQLite format 3\x00\x10\x00")
    with pytest.raises(UnusableStore, match="truncated"):
        await Store.open(path)


async def test_a_directory_given_as_the_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnusableStore, match="is a directory"):
        await Store.open(tmp_path)
    assert list(tmp_path.iterdir()) == []


async def test_a_missing_folder_is_refused_and_not_made(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "cribbage.db"
    with pytest.raises(UnusableStore, match="does not exist") as refused:
        await Store.open(path)
    assert str(tmp_path / "no" / "such") in str(refused.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("what", ["database", "new file"])
async def test_a_read_only_file_system_is_named_before_sqlite_touches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, what: str
) -> None:
    # The real mount is in tests/e2e/test_startup.py (it needs a mount namespace); here the
    # file system only says it is mounted read-only, as statvfs(2) does for one.
    path = tmp_path / "bot.db"
    await _made(path)
    if what == "new file":
        path = tmp_path / "new.db"
    before = _files(tmp_path)

    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(os, "statvfs", lambda folder: ReadOnly())
    with pytest.raises(UnusableStore, match="read-only file system") as refused:
        await Store.open(path)
    assert str(tmp_path) in str(refused.value) and "read-write" in str(refused.value)
    monkeypatch.undo()
    assert _files(tmp_path) == before, "nothing on disk changed"


async def test_an_empty_file_becomes_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    store = await Store.open(path)
    try:
        assert await store.user_version() == LAST
    finally:
        await store.close()


async def test_only_the_open_game_constraint_means_the_channel_is_busy(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    store = await Store.open(path)
    try:
        await store.create_game(NewGame(5, 10, AL, Options(2, 121)), now=1.0)
        with pytest.raises(ChannelBusy):
            await store.create_game(NewGame(5, 10, AL, Options(2, 121)), now=1.0)
        # A rule of some later schema that this code does not know of.
        async with store.db.transaction() as tx:
            await tx.execute(
                "CREATE TRIGGER no_third_server BEFORE INSERT ON games WHEN NEW.guild_id = 3"
                " BEGIN SELECT RAISE(ABORT, 'servers are capped'); END"
            )
        with pytest.raises(sqlite3.IntegrityError, match="capped"):
            await store.create_game(NewGame(3, 11, AL, Options(2, 121)), now=1.0)
        assert await store.open_game_in_channel(11) is None
    finally:
        await store.close()


def _busy_error(folder: Path) -> sqlite3.OperationalError:
    """A real SQLITE_BUSY, as SQLite answers a lock it will not wait for."""
    path = folder / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(sqlite3.OperationalError) as caught:
            other.execute("SELECT * FROM sqlite_master")
    finally:
        other.close()
        holder.close()
    assert caught.value.sqlite_errorname == "SQLITE_BUSY"
    return caught.value


def _wal_switch_answers(
    monkeypatch: pytest.MonkeyPatch, busy: sqlite3.OperationalError, times: int
) -> list[str]:
    """Make the first ``times`` switches to WAL mode answer ``busy`` at once, as SQLite answers
    the second of two processes switching a new file together (a deadlock: it does not call its
    busy handler). Returns the statements seen, to count the tries."""
    import aiosqlite

    seen: list[str] = []
    execute = aiosqlite.Connection.execute

    async def answering(self: aiosqlite.Connection, sql: str, *args: object) -> object:
        if sql == "PRAGMA journal_mode = WAL":
            seen.append(sql)
            if len(seen) <= times:
                raise busy
        return await execute(self, sql, *args)

    monkeypatch.setattr(aiosqlite.Connection, "execute", answering)
    return seen


async def test_a_switch_to_wal_answered_busy_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _wal_switch_answers(monkeypatch, _busy_error(tmp_path), times=3)
    path = tmp_path / "new.db"
    async with await Store.open(path) as store:
        assert len(seen) == 4
        assert [tuple(row) for row in await store.db.fetch("PRAGMA journal_mode")] == [("wal",)]


async def test_a_switch_to_wal_busy_beyond_the_timeout_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.store import sqlite

    monkeypatch.setattr(sqlite, "_WAL_SWITCH_SECONDS", 0.05)
    seen = _wal_switch_answers(monkeypatch, _busy_error(tmp_path), times=10_000)
    with pytest.raises(UnusableStore, match=r"database is locked"):
        await Store.open(tmp_path / "new.db")
    assert 1 < len(seen) < 100


async def test_an_open_stopped_at_its_last_step_leaves_no_thread_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stop signal during start-up cancels the opening wherever it is. The connection's
    # thread is not a daemon: left open, it would keep the stopped process alive for ever.
    import asyncio
    import threading

    import aiosqlite

    reached = asyncio.Event()
    started: list[threading.Thread] = []

    async def stuck(self: aiosqlite.Connection, *args: object) -> None:
        started.extend(t for t in threading.enumerate() if t not in before)
        reached.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(aiosqlite.Connection, "set_progress_handler", stuck)
    before = set(threading.enumerate())
    opening = asyncio.create_task(sqlite.SqliteDatabase.open(tmp_path / "stopped.db"))
    await reached.wait()
    assert started, "the connection's thread runs"
    opening.cancel()
    with pytest.raises(asyncio.CancelledError):
        await opening
    for thread in started:
        thread.join(timeout=30)
    assert not [t for t in started if t.is_alive()]


def test_a_stop_while_the_file_opens_leaves_nothing_to_answer_a_gone_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop signal cancels start-up wherever it is. Cancelled while SQLite's connection was
    still opening (in aiosqlite's thread), the open returned at once; the process then ended
    its event loop, and the thread, its connection made, answered that loop: "Event loop is
    closed", a traceback as the bot exited (seen once in the SIGTERM-at-start-up test). The
    connection is let open and closed before the cancel goes on."""
    import asyncio
    import threading

    slow = sqlite3.connect

    connecting, stopped = threading.Event(), threading.Event()

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connecting.set()
        stopped.wait(5)  # (the opening under way when the stop comes, until it has come)
        connection: sqlite3.Connection = slow(*args, **kwargs)
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect)
    failures: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    before = set(threading.enumerate())

    async def stopped_while_opening() -> None:
        opening = asyncio.ensure_future(sqlite.SqliteDatabase.open(tmp_path / "bot.db"))
        # The stop comes once the connection is being made in aiosqlite's thread.
        assert await asyncio.get_running_loop().run_in_executor(None, connecting.wait, 5)
        opening.cancel()
        stopped.set()
        with contextlib.suppress(asyncio.CancelledError):
            await opening

    loop = asyncio.new_event_loop()
    loop.run_until_complete(stopped_while_opening())
    loop.close()
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)
    assert failures == []
