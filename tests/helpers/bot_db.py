"""Reading the bot's database from a test, with a connection of its own: a SQLite file (the bot
writes in WAL mode, so a reader sees every committed transaction and never blocks it) or a
PostgreSQL database, named by its ``postgresql://`` URL. The reads are synchronous, as polled
conditions need them; PostgreSQL's are run by asyncpg on a thread of their own. One connection
per database is kept (a polled condition reads thousands of times in a game: opening a SQLite
file cost each read 0.3 ms of the test process's time); SQLite's until the test ends
(:func:`close_sqlite_readers`).

What the end-to-end tests read: a game's row and snapshot, its action log, the messages it owns
(key, Discord ids, digest) and the players whose DMs were refused.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import random
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.core.base.keys import MessageKey
from bot.core.base.text import RATINGS_WHY, shown
from bot.core.games.computer import THINKS_AT_LENGTH
from bot.core.games.deal_log import DealLog
from bot.core.games.snapshot import decode
from bot.store.database import numbered_placeholders
from engine.game import Game
from engine.variants import STANDARD, named

__all__ = [
    "Database",
    "OwnedMessage",
    "Snapshot",
    "close_sqlite_readers",
    "dm_refusals",
    "latest_game_id",
    "logged_actions",
    "owned_messages",
    "read_game",
    "rows",
]


@dataclass
class Snapshot:
    """One game row of the bot's database, with the engine state and deal log restored."""

    id: int
    status: str
    version: int
    game: Game | None
    log: DealLog | None
    actions: int
    updated_at: float
    #: The seed of every shuffle so far (None for a game whose shuffles are not sealed).
    seeds: list[str] | None = None


@dataclass(frozen=True)
class OwnedMessage:
    """A row of ``messages``: which Discord message the game keeps under ``key``."""

    key: str
    channel_id: int
    message_id: int
    digest: str


#: A bot's database as the tests name it: a SQLite file's path, or a PostgreSQL URL.
Database = Path | str


class _PostgresReader:
    """Synchronous reads of PostgreSQL databases: asyncpg on an event loop of its own thread,
    one connection per database, kept for the session."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connections: dict[str, asyncpg.Connection] = {}
        self._lock = threading.Lock()

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="bot-db", daemon=True).start()
                self._loop = loop
            return self._loop

    async def _fetch(self, url: str, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        connection = self._connections.get(url)
        if connection is None or connection.is_closed():
            connection = self._connections[url] = await asyncpg.connect(url)
        rows = await connection.fetch(numbered_placeholders(sql), *params)
        return [tuple(row) for row in rows]

    def rows(self, url: str, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        future = asyncio.run_coroutine_threadsafe(
            self._fetch(url, sql, params), self._running_loop()
        )
        return future.result(timeout=30)


_POSTGRES = _PostgresReader()


class _SqliteReader:
    """Synchronous reads of SQLite files, one connection per file until :meth:`close`. It is
    in autocommit mode: each query is a read transaction of its own, ended as its rows are all
    fetched, so it sees every transaction committed before it began (none stays open to keep
    an older view, or to stop the bot's checkpoints). A file replaced by another (another inode
    at the path) is opened again."""

    def __init__(self) -> None:
        self._connections: dict[str, tuple[tuple[int, int] | None, sqlite3.Connection]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _identity(path: str) -> tuple[int, int] | None:
        try:
            found = os.stat(path)
        except OSError:
            return None
        return found.st_dev, found.st_ino

    def _connection(self, path: str) -> sqlite3.Connection:
        identity = self._identity(path)
        kept = self._connections.pop(path, None)
        if kept is not None:
            if identity is not None and kept[0] == identity:
                self._connections[path] = kept
                return kept[1]
            kept[1].close()
        # Any thread may read (under the lock): a test may poll from asyncio.to_thread.
        db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        self._connections[path] = (self._identity(path), db)
        return db

    def rows(self, path: str, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self._lock:
            found = self._connection(path).execute(sql, tuple(params)).fetchall()
        return [tuple(row) for row in found]

    def close(self) -> None:
        with self._lock:
            for _, db in self._connections.values():
                db.close()
            self._connections.clear()


_SQLITE = _SqliteReader()


def rows(where: Database, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of one query (``?`` placeholders) on the bot's database."""
    if isinstance(where, str) and where.startswith(("postgresql://", "postgres://")):
        return _POSTGRES.rows(where, sql, params)
    return _SQLITE.rows(os.fspath(where), sql, params)


def close_sqlite_readers() -> None:
    """Close the connections :func:`rows` keeps to SQLite files (as each test ends: its files
    go with it)."""
    _SQLITE.close()


def read_game(db: Database, game_id: int) -> Snapshot:
    """The game as the bot saved it. Its ``game`` and ``log`` are read, never changed: a
    snapshot read again as it was is the same objects (:func:`_restored`)."""
    [(status, version, stored, updated_at, actions)] = rows(
        db,
        "SELECT status, version, snapshot, updated_at,"
        " (SELECT COUNT(*) FROM actions WHERE game_id = games.id) FROM games WHERE id = ?",
        (game_id,),
    )
    game, log, seeds = _restored(stored) if stored else (None, None, None)
    return Snapshot(game_id, status, version, game, log, int(actions), updated_at, seeds)


@functools.lru_cache(maxsize=64)
def _restored(stored: str) -> tuple[Game, DealLog, list[str] | None]:
    """The game, deal log and seeds of the snapshot text ``stored``, restored once for as long
    as it is among the latest read: a condition polled while the bot works reads the game
    every 50 ms and more, mostly as it was (restoring a game's snapshot, every event of it,
    was a sixth of a test process's CPU in the end-to-end tests of the private tables)."""
    # The rng only matters for future deals, which this copy never shows to anyone.
    found = decode(stored, random.Random(0))
    return found.game, found.log, found.seeds


def logged_actions(db: Database, game_id: int) -> list[dict[str, Any]]:
    """The game's action log as the bot saved it, oldest first."""
    found = rows(db, "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
    return [json.loads(row[0]) for row in found]


def latest_game_id(db: Database, channel_id: int) -> int:
    """The newest game opened in a channel."""
    [(newest,)] = rows(db, "SELECT MAX(id) FROM games WHERE channel_id = ?", (channel_id,))
    assert newest is not None, "no game was created in the channel"
    return int(newest)


def owned_messages(db: Database, game_id: int) -> dict[str, OwnedMessage]:
    """The messages the game keeps, by key (``lobby``, ``table:3``, ``hand:3:1``, ...); not the
    players' private copies of them written down beside them (``hand:3:1@<id>``)."""
    found = rows(
        db,
        "SELECT key, channel_id, message_id, digest FROM messages WHERE owner = ?",
        (f"game:{game_id}",),
    )
    return {
        key: OwnedMessage(key, int(ch), int(mid), digest)
        for key, ch, mid, digest in found
        if MessageKey.parse(key).copy is None
    }


def shown_versions(db: Database, game_id: int) -> dict[str, tuple[int, bool]]:
    """Each message the game keeps, by key: the game's version Discord confirmed it shows, and
    whether a click's answer kept with a move is still not known to have reached Discord."""
    found = rows(
        db,
        "SELECT key, shown_version, unconfirmed_since FROM messages WHERE owner = ?",
        (f"game:{game_id}",),
    )
    return {
        key: (int(version), since is not None)
        for key, version, since in found
        if MessageKey.parse(key).copy is None
    }


def answering_apart(db: Database, game_id: int) -> set[int]:
    """The computer seats of a game whose answers to a person's play are saved apart from it
    (their level thinks at length)."""
    found = rows(db, "SELECT seat, computer_level FROM seats WHERE game_id = ?", (game_id,))
    return {int(seat) for seat, level in found if level in THINKS_AT_LENGTH}


def dm_refusals(db: Database, game_id: int) -> dict[int, int]:
    """Seat -> the deal in which Discord refused that player's DMs (as the game remembers)."""
    found = rows(db, "SELECT seat, deal FROM dm_refusals WHERE game_id = ?", (game_id,))
    return {int(seat): int(deal) for seat, deal in found}


def ratings_line(db: Database, game_id: int) -> str:
    """The line a finished game's result ends with, from the rating changes the bot stored:
    each person's new rating and its change ("Ratings — Al: 1,069 (+69) · Bea: 963 (−37)"; a
    variant's are named: "Five-card cribbage ratings — …"), then the line that says why they
    are what they are (the bot's own words for it, ``RATINGS_WHY``)."""
    found = rows(
        db,
        "SELECT s.display_name, c.mu_before - 3 * c.sigma_before,"
        " c.mu_after - 3 * c.sigma_after, c.variant FROM rating_changes c"
        " JOIN seats s ON s.game_id = c.game_id AND s.seat = c.seat"
        " WHERE c.game_id = ? AND s.is_computer = 0 ORDER BY c.seat",
        (game_id,),
    )
    parts = []
    label = "Ratings"
    for name, before, after, variant in found:
        if variant != STANDARD.name:
            label = f"{named(variant).title} ratings"
        change = shown(after) - shown(before)
        signed = f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"
        parts.append(f"{name}: {shown(after):,} ({signed})")
    return f"{label} — " + " · ".join(parts) + f"\n{RATINGS_WHY}" if parts else ""
