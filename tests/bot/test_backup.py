"""``python -m bot backup`` (issue 50, item 3), in one process: each copy made while writes
go on is whole (SQLite's check passes) and is the database as it stood at one moment, never a
mix (its rows are a count the database had, between the count before the copy and after); a
backup refused or failed leaves no file behind and says why in one sentence, with the exit
statuses every maintenance command uses."""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
from pathlib import Path

import pytest

from bot.core.base.replies import TableAsked, User
from bot.store import Store
from bot.tools import FAILED, TO_FIX, backup, health
from bot.tools.backup import copy_sqlite
from tests.helpers.service_driver import Clock, make_service


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
                # (One write may be committed and its count not yet taken: the writer goes on
                # after its commit once the loop runs it, which may be after this task.)
                assert before <= rows <= after + 1
                assert not target.with_name(f"{target.name}.partial").exists()
        finally:
            stop.set()
            await writer
        assert written > 4, "the writes went on during the copies"


def _left(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_a_source_that_is_not_sqlite_is_a_file_to_fix_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 54: it left a 0-byte ``x.db.partial`` and exited 1, where ``health`` said 2."""
    notes = tmp_path / "notes.db"
    notes.write_text("not a database")
    assert backup.main([str(tmp_path / "x.db"), "--database", str(notes)]) == TO_FIX
    said = capsys.readouterr().err
    assert said == (
        f"The database {notes} cannot be used: it is not a SQLite database (its first bytes"
        " are not SQLite's header), so it was left as it is: move it away, or choose another"
        " path.\n"
    )
    assert health.main(["--database", str(notes)]) == TO_FIX
    assert capsys.readouterr().err == said, "both commands say it the same, with the same status"
    assert _left(tmp_path) == {"notes.db"}


def test_a_directory_as_the_copy_is_refused_even_with_replace_and_leaves_nothing(
    migrated_sqlite_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 54: with --replace it left a 495 KB ``.partial`` and printed "[Errno 21] Is a
    directory: …"."""
    folder = tmp_path / "out" / "backups"
    folder.mkdir(parents=True)
    for replace in ([], ["--replace"]):
        argv = [str(folder), "--database", str(migrated_sqlite_path), *replace]
        assert backup.main(argv) == TO_FIX
        assert capsys.readouterr().err == (
            f"{folder} is a directory, not a file: give the path of the file to write the copy"
            f" to, such as {folder / 'cribbage-backup.db'}.\n"
        )
    assert _left(folder.parent) == {"backups"} and _left(folder) == set()


def test_a_copy_that_fails_leaves_no_partial_and_says_why_in_one_sentence(
    migrated_sqlite_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "copy.db"

    def full(source: str, _: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", source)

    monkeypatch.setattr(os, "replace", full)
    argv = [str(target), "--database", str(migrated_sqlite_path)]
    assert backup.main(argv) == FAILED
    partial = target.with_name("copy.db.partial")
    assert capsys.readouterr().err == (
        f"The backup of {migrated_sqlite_path} failed: no space left on device ({partial});"
        f" {target} was not written.\n"
    )
    assert _left(target.parent) == set()


async def test_a_backup_counts_its_games_with_the_plural_right(
    migrated_sqlite_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 68, item 19: ``backup`` said "1 games"."""
    async with await Store.open(migrated_sqlite_path) as store:
        service = make_service(store, Clock())
        opened = await service.lobbies.new_game(
            1, 10, User(1001, "Al"), TableAsked(vs_computer=True)
        )
        assert opened.ok
        await service.ledger.writes.flush()
    target = tmp_path / "copy.db"
    assert await backup.run(str(migrated_sqlite_path), target, replace=False) == 0
    said = capsys.readouterr().out
    assert ", 1 game, " in said and "1 games" not in said, said
