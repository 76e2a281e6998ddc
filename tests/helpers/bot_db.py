"""Reading the bot's database from a test, with a connection of its own (the bot writes in WAL
mode, so a reader sees every committed transaction and never blocks it).

What the end-to-end tests read: a game's row and snapshot, its action log, the messages it owns
(key, Discord ids, digest) and the players whose DMs were refused.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.core.deal_log import DealLog
from bot.core.ratings import shown
from bot.core.snapshot import decode
from engine.game import Game

__all__ = [
    "OwnedMessage",
    "Snapshot",
    "dm_refusals",
    "latest_game_id",
    "logged_actions",
    "owned_messages",
    "read_game",
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


@dataclass(frozen=True)
class OwnedMessage:
    """A row of ``game_messages``: which Discord message the game keeps under ``key``."""

    key: str
    channel_id: int
    message_id: int
    digest: str


def _connect(db_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(db_path, timeout=10)


def read_game(db_path: Path, game_id: int) -> Snapshot:
    """The game as the bot saved it."""
    with _connect(db_path) as db:
        row = db.execute(
            "SELECT status, version, snapshot, updated_at FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        actions = db.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    status, version, stored, updated_at = row
    game = log = None
    if stored:
        # The rng only matters for future deals, which this copy never shows to anyone.
        found = decode(stored, random.Random(0))
        game, log = found.game, found.log
    return Snapshot(game_id, status, version, game, log, actions, updated_at)


def logged_actions(db_path: Path, game_id: int) -> list[dict[str, Any]]:
    """The game's action log as the bot saved it, oldest first."""
    with _connect(db_path) as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    return [json.loads(row[0]) for row in rows]


def latest_game_id(db_path: Path, channel_id: int) -> int:
    """The newest game opened in a channel."""
    with _connect(db_path) as db:
        row = db.execute("SELECT MAX(id) FROM games WHERE channel_id = ?", (channel_id,)).fetchone()
    assert row[0] is not None, "no game was created in the channel"
    return int(row[0])


def owned_messages(db_path: Path, game_id: int) -> dict[str, OwnedMessage]:
    """The messages the game keeps, by key (``lobby``, ``table:3``, ``hand:3:1``, ...)."""
    with _connect(db_path) as db:
        rows = db.execute(
            "SELECT key, channel_id, message_id, digest FROM game_messages WHERE game_id = ?",
            (game_id,),
        ).fetchall()
    return {key: OwnedMessage(key, int(ch), int(mid), digest) for key, ch, mid, digest in rows}


def dm_refusals(db_path: Path, game_id: int) -> dict[int, int]:
    """Seat -> the deal in which Discord refused that player's DMs (as the game remembers)."""
    with _connect(db_path) as db:
        rows = db.execute(
            "SELECT seat, deal FROM dm_refusals WHERE game_id = ?", (game_id,)
        ).fetchall()
    return {int(seat): int(deal) for seat, deal in rows}


def ratings_line(db_path: Path, game_id: int) -> str:
    """The line a finished game's result ends with, from the rating changes the bot stored:
    each person's new rating and its change ("Ratings: Al 1,069 (+69) · Bea 963 (−37)")."""
    with _connect(db_path) as db:
        rows = db.execute(
            "SELECT s.display_name, c.mu_before - 3 * c.sigma_before,"
            " c.mu_after - 3 * c.sigma_after FROM rating_changes c"
            " JOIN seats s ON s.game_id = c.game_id AND s.seat = c.seat"
            " WHERE c.game_id = ? AND s.is_computer = 0 ORDER BY c.seat",
            (game_id,),
        ).fetchall()
    parts = []
    for name, before, after in rows:
        change = shown(after) - shown(before)
        signed = f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0"
        parts.append(f"{name} {shown(after):,} ({signed})")
    return "Ratings: " + " · ".join(parts) if parts else ""
