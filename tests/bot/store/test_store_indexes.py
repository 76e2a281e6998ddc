"""The hot reads find their rows by index (issue 10, items 11 and 12): `/cribbage status` in a
channel, the leaderboard and stats never scan every game or result of every server, so they
stay fast at any size. Each statement the store runs is traced and its plan asked of SQLite."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.store.sqlite import SqliteDatabase
from tests.helpers.cast import AL, BEA
from tests.helpers.results import finish_game, result_row

GUILD = 5


async def _statements(store: Store, call: Callable[[], Awaitable[Any]]) -> list[str]:
    """The SQL ``call`` ran, with its parameters filled in."""
    seen: list[str] = []
    assert isinstance(store.db, SqliteDatabase)
    connection = store.db.connection
    await connection.set_trace_callback(seen.append)
    try:
        await call()
    finally:
        await connection.set_trace_callback(None)  # type: ignore[arg-type]  # None stops it
    return [sql for sql in seen if sql.lstrip().upper().startswith(("SELECT", "WITH"))]


def _scans(path: Path, statements: list[str]) -> list[str]:
    """The plan lines that read a whole table of games, results or ratings: a SCAN, or a
    SEARCH with no index to search by (SQLite's plan for MAX(id) over an unindexed column)."""
    found = []
    with sqlite3.connect(path) as db:
        for sql in statements:
            for row in db.execute(f"EXPLAIN QUERY PLAN {sql}"):
                detail = row[3]
                whole = detail.startswith("SCAN") or "USING" not in detail
                if whole and any(
                    table in detail for table in ("games", "results", "rating_changes", "rivals")
                ):
                    found.append(f"{detail} in {sql}")
    return found


async def test_status_leaderboard_and_stats_read_by_index(tmp_path: Path) -> None:
    path = tmp_path / "plans.db"
    store = await Store.open(path)
    try:
        for channel in range(3):
            won, lost = (
                result_row(0, AL, won=True, score=121),
                result_row(1, BEA, won=False, score=101),
            )
            await finish_game(store, [won, lost], guild=GUILD, channel=channel, now=2.0)
        calls: list[Callable[[], Awaitable[Any]]] = [
            lambda: store.open_game_in_channel(99),
            lambda: store.last_game_in_channel(99),
            lambda: store.last_game_in_channel(1),
            lambda: store.ranking(GUILD, offset=10),
            lambda: store.standing(GUILD, 1),
            lambda: store.rating_history(GUILD, 1),
            lambda: store.best_hands(GUILD, 1),
            lambda: store.server_points(GUILD),
            lambda: store.rival(GUILD, 1, 2),
            # A rematch's lobby and a result say the series they continue (issue 58).
            lambda: store.series_results(1),
            # Housekeeping, over every server's games: by index too (issue 10, items 13-14).
            lambda: store.idle_games(1e12, after=0, limit=50),
            lambda: store.prunable(1e12, limit=50),
            lambda: store.archived(1),
        ]
        statements = [sql for call in calls for sql in await _statements(store, call)]
        assert len(statements) >= len(calls)
        assert _scans(path, statements) == []
    finally:
        await store.close()
