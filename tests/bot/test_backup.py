"""``python -m bot backup`` (issue 50, item 3), in one process: each copy made while writes
go on is whole (SQLite's check passes) and is the database as it stood at one moment, never a
mix (its rows are a count the database had, between the count before the copy and after)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.store import Store
from bot.tools.backup import copy_sqlite


async def test_copies_made_while_the_bot_writes_are_whole(
    migrated_sqlite_path: Path, tmp_path: Path
) -> None:
    async with await Store.open(migrated_sqlite_path) as store:
        written = 0
        stop = asyncio.Event()

        async def write() -> None:
            nonlocal written
            while not stop.is_set():
                await store.set_coach(1000 + written, False, now=float(written))
                written += 1

        writer = asyncio.create_task(write())
        try:
            for round_ in range(4):
                target = tmp_path / f"copy{round_}.db"
                before = written
                size, _games = await asyncio.to_thread(copy_sqlite, migrated_sqlite_path, target)
                after = written
                with sqlite3.connect(target) as copy:
                    [(rows,)] = copy.execute("SELECT COUNT(*) FROM user_settings").fetchall()
                    [(check,)] = copy.execute("PRAGMA integrity_check").fetchall()
                assert check == "ok" and size == target.stat().st_size
                assert before <= rows <= after
                assert not target.with_name(f"{target.name}.partial").exists()
        finally:
            stop.set()
            await writer
        assert written > 4, "the writes went on during the copies"
