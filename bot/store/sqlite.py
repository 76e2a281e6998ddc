"""The SQLite store: every query the bot makes, with ``?`` placeholders, in this one module.

Games, seats, the action log and results live in one file. Numbered ``migrations/NNN_*.sql``
files are applied at start-up and tracked with ``PRAGMA user_version``. Each accepted action is
one transaction: append to the log, update the snapshot ``WHERE version = ?``, and for a
finished game write the results; a write that lost a race raises :class:`VersionConflict` and
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiosqlite

from bot.core.records import (
    OPEN_STATUSES,
    GameRecord,
    GameStatus,
    LeaderRow,
    ResultRecord,
    SeatRecord,
    StatsRow,
)
from bot.core.storage import ChannelBusy, StoreError, VersionConflict

__all__ = [
    "OPEN_STATUSES",
    "ChannelBusy",
    "GameRecord",
    "LeaderRow",
    "ResultRecord",
    "SeatRecord",
    "StatsRow",
    "Store",
    "StoreError",
    "VersionConflict",
    "migrations",
]

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")
_T = TypeVar("_T")


def migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    """The numbered migration files, in order."""
    found = []
    for path in directory.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"Two migrations share a number in {directory}.")
    return found


_GAME_COLUMNS_G = (
    "g.id, g.guild_id, g.channel_id, g.status, g.creator_id, g.num_players, g.target,"
    " g.vs_computer, g.lobby_message_id, g.snapshot, g.version, g.created_at, g.updated_at"
)


def _record(row: sqlite3.Row, seats: tuple[SeatRecord, ...]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=GameStatus(row["status"]),
        creator_id=row["creator_id"],
        num_players=row["num_players"],
        target=row["target"],
        vs_computer=bool(row["vs_computer"]),
        lobby_message_id=row["lobby_message_id"],
        snapshot=row["snapshot"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        seats=seats,
    )


# -- the statements, run on aiosqlite's worker thread (see Store._run) ------------------------


def _connect_fast(path: str) -> sqlite3.Connection:
    """The connection used on the event loop's thread (settings as for the aiosqlite one)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")
        # Only the other connection's rare writes can hold the lock, for microseconds.
        conn.execute("PRAGMA busy_timeout = 5000")
    except BaseException:
        conn.close()
        raise
    return conn


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if anything in the block raised."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


def _scalar(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    row = conn.execute(sql, params).fetchone()
    return None if row is None else row[0]


def _games(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[GameRecord]:
    """Games matching ``where`` with their seats, in one joined query."""
    rows = conn.execute(
        f"SELECT {_GAME_COLUMNS_G}, s.seat, s.user_id, s.display_name, s.is_computer,"
        " s.computer_level"
        " FROM games g LEFT JOIN seats s ON s.game_id = g.id"
        f" WHERE {where} ORDER BY g.id, s.seat",
        params,
    ).fetchall()
    games: list[GameRecord] = []
    for _, group in itertools.groupby(rows, key=lambda row: row["id"]):
        members = list(group)
        seats = tuple(
            SeatRecord(
                r["seat"],
                r["user_id"],
                r["display_name"],
                bool(r["is_computer"]),
                r["computer_level"],
            )
            for r in members
            if r["seat"] is not None
        )
        games.append(_record(members[0], seats))
    return games


def _insert_seats(conn: sqlite3.Connection, game_id: int, seats: Iterable[SeatRecord]) -> None:
    conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer, computer_level)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.name, int(s.is_computer), s.level) for s in seats],
    )


def _bump(
    conn: sqlite3.Connection,
    game_id: int,
    version: int,
    *,
    now: float,
    status: str | None,
    snapshot: str | None,
) -> None:
    """Move the game to the next version, or raise VersionConflict if it is not at
    ``version`` any more (the check that makes two racing writes fail one way)."""
    cursor = conn.execute(
        "UPDATE games SET version = version + 1, updated_at = ?,"
        " status = COALESCE(?, status), snapshot = COALESCE(?, snapshot)"
        " WHERE id = ? AND version = ?",
        (now, status, snapshot, game_id, version),
    )
    if cursor.rowcount != 1:
        raise VersionConflict()


def _insert_results(
    conn: sqlite3.Connection, game_id: int, results: Sequence[ResultRecord], now: float
) -> None:
    vs_computer = any(r.is_computer for r in results)
    conn.executemany(
        "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, is_computer,"
        " vs_computer, won, game_points, skunk_given, skunk_taken, score, final_scores,"
        " reason, pegging_points, hand_points, crib_points, deals, best_hand,"
        " best_hand_cards, twenty_nines, finished_at)"
        " SELECT ?, guild_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
        " FROM games WHERE id = ?",
        [
            (
                game_id,
                r.seat,
                r.user_id,
                r.display_name,
                int(r.is_computer),
                int(vs_computer),
                int(r.won),
                r.game_points,
                int(r.skunk_given),
                int(r.skunk_taken),
                r.score,
                r.final_scores,
                r.reason,
                r.pegging_points,
                r.hand_points,
                r.crib_points,
                r.deals,
                r.best_hand,
                r.best_hand_cards,
                r.twenty_nines,
                now,
                game_id,
            )
            for r in results
        ],
    )


class Store:
    """Async access to the bot's database. Open with ``await Store.open(path)``.

    Every method here does its whole unit of work (a transaction, or a read and the rows it
    needs) in ONE synchronous call, :meth:`_run`, so no two units interleave and no lock is
    needed. For a database file that call runs on the event loop's own thread, on a second
    connection; the aiosqlite connection (``_db``) applies the migrations and serves methods
    written in the awaited style (they take ``_lock``).

    Why not aiosqlite's worker thread for the hot path (measured with benchmarks/bot_load.py,
    see docs/performance.md): these statements take tens of microseconds in WAL mode, but the
    worker thread must take the GIL back after every statement, and with the event loop's
    thread busy each of those waits up to the interpreter's switch interval (5 ms). At 100
    simultaneous games the worker thread, not SQLite, was the bottleneck (p99 over 1 s).
    With ``synchronous = NORMAL`` a commit does not fsync, so the loop is held only for the
    statements themselves.
    """

    def __init__(self, db: aiosqlite.Connection, fast: sqlite3.Connection | None = None) -> None:
        self._db = db
        self._fast = fast
        # Held by methods that make several awaited calls on the aiosqlite connection (a
        # transaction must not interleave with another coroutine's statements). The methods
        # here use _run instead; new ones should too.
        self._lock = asyncio.Lock()

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work(connection)`` as one unit: inline on the loop's connection, or (for an
        in-memory database, which a second connection could not see) in one hop on
        aiosqlite's worker thread.

        aiosqlite has no public call for "run this function on the connection's thread"; its
        ``_execute`` is exactly that (every public method is built on it), and the version is
        pinned in pyproject.toml.
        """
        if self._fast is not None:
            return work(self._fast)
        db = self._db
        execute: Callable[..., Awaitable[_T]] = db._execute
        return await execute(work, db._conn)

    @classmethod
    async def open(cls, path: str | Path, *, migrations_dir: Path = MIGRATIONS_DIR) -> Store:
        """Open (creating if needed) the database at ``path`` and apply pending migrations."""
        # isolation_level=None: no implicit transactions; this module says BEGIN itself.
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            # With WAL, NORMAL syncs at checkpoints, not at each commit: a commit survives a
            # crash of the process (what a bot restart is); only a power loss may drop the
            # last commits. Each action costs no fsync.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA busy_timeout = 5000")
            store = cls(db)
            await store._migrate(migrations_dir)
            if str(path) not in ("", ":memory:") and not str(path).startswith("file:"):
                store._fast = _connect_fast(str(path))
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connections."""
        if self._fast is not None:
            self._fast.close()
            self._fast = None
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _migrate(self, directory: Path) -> None:
        current = await self.user_version()
        for number, path in migrations(directory):
            if number <= current:
                continue
            sql = path.read_text(encoding="utf-8")
            # The script and the new user_version commit together, or not at all.
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {int(number)};\nCOMMIT;"
                )
            except BaseException:
                if self._db.in_transaction:
                    await self._db.rollback()
                raise

    async def user_version(self) -> int:
        """The number of the last migration applied."""
        return int(await self._scalar("PRAGMA user_version"))

    async def journal_mode(self) -> str:
        """SQLite's journal mode (``wal`` once open)."""
        return str(await self._scalar("PRAGMA journal_mode"))

    async def foreign_keys(self) -> bool:
        """Whether SQLite enforces foreign keys on this connection (it does once open)."""
        return bool(await self._scalar("PRAGMA foreign_keys"))

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._run(lambda conn: _scalar(conn, sql, params))

    # -- games -----------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        creator: SeatRecord,
        num_players: int,
        target: int,
        now: float,
        vs_computer: bool = False,
    ) -> GameRecord:
        """Open a lobby with ``creator`` in seat 0. Raises :class:`ChannelBusy`."""

        def work(conn: sqlite3.Connection) -> GameRecord:
            with _transaction(conn):
                try:
                    cursor = conn.execute(
                        "INSERT INTO games (guild_id, channel_id, status, creator_id,"
                        " num_players, target, vs_computer, version, created_at, updated_at)"
                        " VALUES (?, ?, 'lobby', ?, ?, ?, ?, 0, ?, ?)",
                        (
                            guild_id,
                            channel_id,
                            creator.user_id,
                            num_players,
                            target,
                            int(vs_computer),
                            now,
                            now,
                        ),
                    )
                except sqlite3.IntegrityError:
                    raise ChannelBusy() from None
                game_id = cursor.lastrowid
                assert game_id is not None
                _insert_seats(conn, game_id, [creator])
            found = _games(conn, "g.id = ?", (game_id,))
            return found[0]

        return await self._run(work)

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        found = await self._games("g.id = ?", (game_id,))
        return found[0] if found else None

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or active game in this channel, or None."""
        found = await self._games(
            "g.channel_id = ? AND g.status IN ('lobby', 'active')", (channel_id,)
        )
        return found[0] if found else None

    async def idle_games(self, before: float) -> list[GameRecord]:
        """Open games whose last change was before ``before``."""
        return await self._games("g.status IN ('lobby', 'active') AND g.updated_at < ?", (before,))

    async def _games(self, where: str, params: Sequence[Any]) -> list[GameRecord]:
        """Games matching ``where`` (a fixed condition written in this module, never input)
        with their seats, read in one query."""
        return await self._run(lambda conn: _games(conn, where, params))

    async def set_seats(
        self, game_id: int, version: int, seats: Sequence[SeatRecord], *, now: float
    ) -> int:
        """Replace a lobby's seats; returns the new version. Raises :class:`VersionConflict`."""

        def work(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                _bump(conn, game_id, version, now=now, status=None, snapshot=None)
                conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                _insert_seats(conn, game_id, seats)

        await self._run(work)
        return version + 1

    async def save(
        self,
        game_id: int,
        version: int,
        *,
        now: float,
        status: str,
        snapshot: str | None = None,
        actions: Sequence[str] = (),
        results: Sequence[ResultRecord] = (),
    ) -> int:
        """Apply one accepted change in one transaction; returns the new version.

        Appends ``actions`` (JSON texts) to the log, sets the status and (when given) the
        snapshot, and for a finished game inserts ``results``. Raises :class:`VersionConflict`
        if the game is no longer at ``version``, leaving everything as it was.
        """

        def work(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                _bump(conn, game_id, version, now=now, status=status, snapshot=snapshot)
                if actions:
                    # Each entry takes the next number in the game's log.
                    conn.executemany(
                        "INSERT INTO actions (game_id, seq, action, at)"
                        " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ? FROM actions"
                        " WHERE game_id = ?",
                        [(game_id, a, now, game_id) for a in actions],
                    )
                if results:
                    _insert_results(conn, game_id, results, now)

        await self._run(work)
        return version + 1

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        """Remember the lobby message (no version change: it is not a game move)."""
        await self._run(
            lambda conn: conn.execute(
                "UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id)
            )
        )

    async def actions(self, game_id: int) -> list[str]:
        """The game's action log (JSON texts), oldest first."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        )
        return [row[0] for row in rows]

    async def results(self, game_id: int) -> list[ResultRecord]:
        """The result rows of a finished game, in seat order (empty for any other game)."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT seat, user_id, display_name, is_computer, won, game_points,"
                " skunk_given, skunk_taken, score, final_scores, reason, pegging_points,"
                " hand_points, crib_points, deals, best_hand, best_hand_cards, twenty_nines"
                " FROM results WHERE game_id = ? ORDER BY seat",
                (game_id,),
            ).fetchall()
        )
        return [
            ResultRecord(
                seat=row["seat"],
                user_id=row["user_id"],
                display_name=row["display_name"],
                is_computer=bool(row["is_computer"]),
                won=bool(row["won"]),
                game_points=row["game_points"],
                skunk_given=bool(row["skunk_given"]),
                skunk_taken=bool(row["skunk_taken"]),
                score=row["score"],
                final_scores=row["final_scores"],
                reason=row["reason"],
                pegging_points=row["pegging_points"],
                hand_points=row["hand_points"],
                crib_points=row["crib_points"],
                deals=row["deals"],
                best_hand=row["best_hand"],
                best_hand_cards=row["best_hand_cards"],
                twenty_nines=row["twenty_nines"],
            )
            for row in rows
        ]

    # -- standings -------------------------------------------------------------------------
    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 20, vs_computer: bool = False
    ) -> list[LeaderRow]:
        """The server's players, best first: wins, then win rate, then game points. Over games
        between people, or with ``vs_computer`` over their games against the computer
        (computer seats themselves never get a row)."""
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT user_id,"
                " (SELECT display_name FROM results n WHERE n.user_id = r.user_id"
                "   AND n.guild_id IS r.guild_id ORDER BY finished_at DESC LIMIT 1) AS name,"
                " COUNT(*) AS games, SUM(won) AS wins, SUM(1 - won) AS losses,"
                " SUM(CASE WHEN won THEN game_points ELSE 0 END) AS points,"
                " SUM(skunk_given) AS given, SUM(skunk_taken) AS taken"
                " FROM results r"
                " WHERE guild_id IS ? AND vs_computer = ? AND is_computer = 0"
                " GROUP BY user_id"
                " ORDER BY wins DESC, CAST(wins AS REAL) / games DESC, points DESC, losses ASC,"
                " name"
                " LIMIT ?",
                (guild_id, int(vs_computer), limit),
            ).fetchall()
        )
        return [
            LeaderRow(
                user_id=row["user_id"],
                name=row["name"],
                games=row["games"],
                wins=row["wins"],
                losses=row["losses"],
                game_points=row["points"],
                skunks_given=row["given"],
                skunks_taken=row["taken"],
            )
            for row in rows
        ]

    async def player_stats(self, guild_id: int | None, user_id: int) -> dict[bool, StatsRow]:
        """A player's totals on a server, keyed by ``vs_computer`` (missing when no games)."""

        def work(conn: sqlite3.Connection) -> dict[bool, StatsRow]:
            rows = conn.execute(
                "SELECT vs_computer, COUNT(*) AS games, SUM(won) AS wins,"
                " SUM(skunk_given) AS given, SUM(skunk_taken) AS taken,"
                " SUM(pegging_points) AS pegging, SUM(hand_points) AS hand,"
                " SUM(crib_points) AS crib, SUM(deals) AS deals, MAX(best_hand) AS best,"
                " SUM(twenty_nines) AS nines"
                " FROM results WHERE guild_id IS ? AND user_id = ? AND is_computer = 0"
                " GROUP BY vs_computer",
                (guild_id, user_id),
            ).fetchall()
            stats: dict[bool, StatsRow] = {}
            for row in rows:
                best_cards = _scalar(
                    conn,
                    "SELECT best_hand_cards FROM results WHERE guild_id IS ? AND user_id = ?"
                    " AND is_computer = 0 AND vs_computer = ? AND best_hand = ?"
                    " ORDER BY finished_at LIMIT 1",
                    (guild_id, user_id, row["vs_computer"], row["best"]),
                )
                stats[bool(row["vs_computer"])] = StatsRow(
                    games=row["games"],
                    wins=row["wins"],
                    skunks_given=row["given"],
                    skunks_taken=row["taken"],
                    pegging_points=row["pegging"],
                    hand_points=row["hand"],
                    crib_points=row["crib"],
                    deals=row["deals"],
                    best_hand=row["best"],
                    best_hand_cards=best_cards,
                    twenty_nines=row["nines"],
                )
            return stats

        # A read, but in one hop: the two queries see the same snapshot of the results.
        return await self._run(work)

    # -- added for the computer opponent and the coach (issue 5) ------------------------------
    async def last_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The most recently opened game in this channel, whatever its status, or None."""
        found = await self._games(
            "g.id = (SELECT MAX(id) FROM games WHERE channel_id = ?)", (channel_id,)
        )
        return found[0] if found else None

    async def coach_off(self, user_ids: Iterable[int]) -> set[int]:
        """Which of ``user_ids`` have turned the coach off (everyone else has it on)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" for _ in wanted)
        # Asked at the end of every deal of every game: one unit (see _run), no lock queue.
        rows = await self._run(
            lambda conn: conn.execute(
                f"SELECT user_id FROM user_settings WHERE coach = 0 AND user_id IN ({marks})",
                wanted,
            ).fetchall()
        )
        return {row[0] for row in rows}

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> None:
        """Turn the coach on or off for a user (kept across servers and games)."""
        async with self._lock:
            await self._db.execute(
                "INSERT INTO user_settings (user_id, coach, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET coach = excluded.coach,"
                " updated_at = excluded.updated_at",
                (user_id, int(on), now),
            )
