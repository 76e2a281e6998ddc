"""The bot's store: every query it makes, written once, with ``?`` placeholders.

Games, seats, the action log, results and what is derived from them, and the messages each game
owns. The queries run on a :class:`~bot.store.database.Database`: SQLite (one file, one
process; the default) or PostgreSQL (any number of processes), chosen by the URL
:meth:`Store.open` is given. Each database's pending migrations are applied at start-up, all in
one transaction, and recorded by name (:mod:`bot.store.migrate`).

Each accepted action is one transaction: append to the log, update the snapshot
``WHERE version = ?``, and for a finished game write the results and what they change in the
ratings; a write that lost a race raises :class:`~bot.core.storage.VersionConflict` and changes
nothing.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from bot.core.owners import Owner
from bot.core.records import (
    DmLink,
    GameRecord,
    GameStatus,
    LeaderRow,
    MessageRecord,
    PendingPost,
    Ranked,
    RatingChange,
    ResultRecord,
    Rival,
    SeatRecord,
    Standing,
    StatsRow,
    ordinal_sql,
)
from bot.core.storage import ChannelBusy, VersionConflict
from bot.store import standings as derived
from bot.store.database import (
    Database,
    Dialect,
    Row,
    Transaction,
    UniqueViolation,
)
from bot.store.migrate import applied_migrations, migrate, number_of
from bot.store.postgres import PostgresDatabase
from bot.store.sqlite import SqliteDatabase
from engine.counting import Counting
from engine.outcome import Scoring

__all__ = ["ANNOUNCE_CHANNEL", "POSTGRES_SCHEMES", "Store", "is_postgres_url"]

#: Games that may still change (``GameStatus.LOBBY`` and ``ACTIVE``), as SQL.
_OPEN = "('lobby', 'active')"
#: Games that have ended (``GameStatus.FINISHED``, ``CANCELLED`` and ``EXPIRED``), as SQL.
_ENDED = "status IN ('finished', 'cancelled', 'expired')"


_GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.status, g.creator_id, g.num_players, g.target,"
    " g.vs_computer, g.snapshot, g.version, g.created_at, g.updated_at, g.end_note,"
    " g.scoring, g.counting,"
    " s.seat, s.user_id, s.display_name, s.is_computer, s.computer_level"
)
#: The columns of ``results`` that hold a ResultRecord, named as its fields.
_RESULT_FIELDS = tuple(field.name for field in dataclasses.fields(ResultRecord))
_RESULT_COLUMNS = ", ".join(_RESULT_FIELDS)
#: Flags SQLite keeps as 0 and 1.
_RESULT_FLAGS = frozenset({"is_computer", "won", "skunk_given", "skunk_taken"})


def _result(row: Row) -> ResultRecord:
    """A ResultRecord from a row of its columns."""
    values: dict[str, Any] = {
        name: bool(row[name]) if name in _RESULT_FLAGS else row[name] for name in _RESULT_FIELDS
    }
    values["scoring"] = Scoring(values["scoring"])
    return ResultRecord(**values)


def _games(rows: Iterable[Row]) -> list[GameRecord]:
    """Games with their seats, from rows of ``games`` LEFT JOIN ``seats`` ordered by game."""
    games: list[GameRecord] = []
    for _, group in itertools.groupby(rows, key=lambda row: row["id"]):
        members = list(group)
        first = members[0]
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
        games.append(
            GameRecord(
                id=first["id"],
                guild_id=first["guild_id"],
                channel_id=first["channel_id"],
                status=GameStatus(first["status"]),
                creator_id=first["creator_id"],
                num_players=first["num_players"],
                target=first["target"],
                vs_computer=bool(first["vs_computer"]),
                snapshot=first["snapshot"],
                version=first["version"],
                created_at=first["created_at"],
                updated_at=first["updated_at"],
                seats=seats,
                end_note=first["end_note"],
                scoring=Scoring(first["scoring"]),
                counting=Counting(first["counting"]),
            )
        )
    return games


def _seat_rows(game_id: int, seats: Iterable[SeatRecord]) -> list[tuple[Any, ...]]:
    return [(game_id, s.seat, s.user_id, s.name, int(s.is_computer), s.level) for s in seats]


_INSERT_SEATS = (
    "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer, computer_level)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


def _result_rows(
    game_id: int, results: Sequence[ResultRecord], now: float, order: int
) -> list[tuple[Any, ...]]:
    vs_computer = int(any(r.is_computer for r in results))
    return [
        (
            game_id,
            game_id,  # the game's server is read from its row
            r.seat,
            r.user_id,
            r.display_name,
            int(r.is_computer),
            vs_computer,
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
            r.points_missed,
            r.muggins_given,
            r.muggins_taken,
            r.computer_level,
            r.scoring,
            now,
            order,
        )
        for r in results
    ]


_INSERT_RESULTS = (
    "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, is_computer,"
    " vs_computer, won, game_points, skunk_given, skunk_taken, score, final_scores,"
    " reason, pegging_points, hand_points, crib_points, deals, best_hand,"
    " best_hand_cards, twenty_nines, points_missed, muggins_given, muggins_taken,"
    " computer_level, scoring, finished_at, rated_order)"
    " VALUES (?, (SELECT guild_id FROM games WHERE id = ?),"
    f" {', '.join('?' for _ in range(26))})"
)
#: The unique index that keeps one open game per channel, as each database names it when a
#: write breaks it (PostgreSQL: the index; SQLite: its column). No other unique index means
#: "this channel is busy": breaking one is a bug.
_ONE_OPEN_PER_CHANNEL = frozenset({"games_one_open_per_channel", "games.channel_id"})
#: A game's next version: the check that makes two racing writes fail one way.
_BUMP = (
    "UPDATE games SET version = version + 1, updated_at = ?,"
    " status = COALESCE(?, status), snapshot = COALESCE(?, snapshot)"
    " WHERE id = ? AND version = ?"
)
#: The channel on which a change is announced on PostgreSQL (the payload: the owner, its new
#: version and its channel, ``game:12:7:345``; ``bot.store.cluster`` listens and publishes it
#: on the change feed), and the clause that does it in the statement that bumps the version.
ANNOUNCE_CHANNEL = "crib_games"
_ANNOUNCE = (
    f" RETURNING pg_notify('{ANNOUNCE_CHANNEL}',"
    " 'game:' || id || ':' || version || ':' || channel_id)"
)
#: Games changed since a moment, whatever their status, one index range per status.
_CHANGED_SINCE = " UNION ALL ".join(
    ["SELECT id, version, channel_id FROM games WHERE status = ? AND updated_at >= ?"]
    * len(GameStatus)
)
#: The columns of a message an owner keeps, in MessageRecord's order.
_MESSAGE_COLUMNS = (
    "key, channel_id, message_id, digest, token, token_at, token_original, shown_version,"
    " unconfirmed_since"
)
#: Messages as last sent, upserted (never over a record of a later version of the owner, unless
#: it is another message: one posted again after the one before was deleted); the keys kept.
_KEEP_MESSAGES = (
    f"INSERT INTO messages (owner, {_MESSAGE_COLUMNS}) VALUES {{rows}}"
    " ON CONFLICT (owner, key) DO UPDATE SET channel_id = excluded.channel_id,"
    " message_id = excluded.message_id, digest = excluded.digest,"
    " token = excluded.token, token_at = excluded.token_at,"
    " token_original = excluded.token_original, shown_version = excluded.shown_version,"
    " unconfirmed_since = excluded.unconfirmed_since"
    " WHERE messages.shown_version <= excluded.shown_version"
    " OR messages.message_id <> excluded.message_id"
    " RETURNING key"
)
#: A click on an owner's message answered by updating it: what it shows, and the click's token
#: (if it is the owner's own message, or the one kept without its id yet, and what is kept of
#: it is not of a later version).
_ANSWERED = (
    "UPDATE messages SET channel_id = ?, message_id = ?, digest = ?, token = ?, token_at = ?,"
    " token_original = 1, shown_version = ?, unconfirmed_since = ?"
    " WHERE owner = ? AND key = ? AND message_id IN (?, 0) AND shown_version <= ?"
)
#: An interaction's answer that became an owner's message (``/cribbage new``'s lobby).
_ANSWER_KEPT = (
    f"INSERT INTO messages (owner, {_MESSAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (owner, key) DO NOTHING"
)


def _message_row(owner: Owner, record: MessageRecord) -> tuple[Any, ...]:
    return (
        str(owner),
        record.key,
        record.channel_id,
        record.message_id,
        record.digest,
        record.token,
        record.token_at,
        int(record.original),
        record.version,
        record.unconfirmed_since,
    )


def _answered_row(owner: Owner, record: MessageRecord) -> tuple[Any, ...]:
    return (
        record.channel_id,
        record.message_id,
        record.digest,
        record.token,
        record.token_at,
        record.version,
        record.unconfirmed_since,
        str(owner),
        record.key,
        record.message_id,
        record.version,
    )


def _message(row: Row) -> MessageRecord:
    return MessageRecord(
        key=row["key"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        digest=row["digest"],
        token=row["token"],
        token_at=row["token_at"],
        original=bool(row["token_original"]),
        version=row["shown_version"],
        unconfirmed_since=row["unconfirmed_since"],
    )


#: The lock a transaction that records results takes (any number no other part uses).
RESULTS_LOCK = 0x0C1B_0002
#: The URL schemes that name a PostgreSQL database (anything else is a SQLite file's path).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Store:
    """Async access to the bot's database. Open with ``await Store.open(path_or_url)``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: The migrations :meth:`open` applied, in the order it did.
        self.migrated: list[str] = []

    @classmethod
    async def open(cls, target: str | Path, *, migrations_dir: Path | None = None) -> Self:
        """Open the database ``target`` names (a SQLite file's path, created if needed, or a
        ``postgresql://`` URL) and apply its pending migrations.

        Raises :class:`~bot.store.database.NewerSchema` (closing it again) when the database
        was made by a newer release than this one.
        """
        db: Database
        if is_postgres_url(target):
            db = await PostgresDatabase.open(str(target))
        else:
            db = await SqliteDatabase.open(target)
        try:
            store = cls(db)
            store.migrated = await migrate(db, migrations_dir or db.dialect.migrations_dir)
            if await store._ratings_missing():
                # Results kept from before the ratings (migration 006): rate them once.
                await store.rebuild_ratings()
        except BaseException:
            await db.close()
            raise
        return store

    @property
    def dialect(self) -> Dialect:
        """Which database this store runs on."""
        return self.db.dialect

    async def close(self) -> None:
        """Close the database (after any unit of work still running)."""
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- units of work ----------------------------------------------------------------------
    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One query's rows."""
        return await self.db.fetch(sql, params)

    def _writing(self) -> AbstractAsyncContextManager[Transaction]:
        """One transaction: commit at the end of the block, or roll back if it raised."""
        return self.db.transaction()

    async def _games(self, where: str, params: Sequence[Any]) -> list[GameRecord]:
        """Games matching ``where`` (a fixed condition written in this module, never input)
        with their seats, in one query."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g LEFT JOIN seats s ON s.game_id = g.id"
            f" WHERE {where} ORDER BY g.id, s.seat",
            params,
        )
        return _games(rows)

    async def _bump(
        self,
        tx: Transaction,
        game_id: int,
        version: int,
        *,
        now: float,
        status: GameStatus | None = None,
        snapshot: str | None = None,
    ) -> None:
        """Move the game to the next version, or raise VersionConflict if it is not at
        ``version`` any more (the check that makes two racing writes fail one way)."""
        params = (now, status, snapshot, game_id, version)
        if self.db.dialect is Dialect.POSTGRES:
            # The same statement announces the change to every process (delivered when the
            # transaction commits, never for one rolled back): the one that sends hears of it.
            changed = len(await tx.fetch(_BUMP + _ANNOUNCE, params))
        else:
            changed = await tx.execute(_BUMP, params)
        if changed != 1:
            raise VersionConflict()

    # -- the database itself ----------------------------------------------------------------
    async def user_version(self) -> int:
        """The highest number of the migrations applied (0 for none)."""
        return max(map(number_of, await self.applied_migrations()), default=0)

    async def applied_migrations(self) -> list[str]:
        """The names of the migrations applied, in order of number and name."""
        return await applied_migrations(self.db)

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
        scoring: Scoring = Scoring.LURCH,
        counting: Counting = Counting.AUTO,
        fill: Callable[[GameRecord], Sequence[SeatRecord]] | None = None,
        deal: Callable[[GameRecord], Awaitable[tuple[str, Sequence[str]]]] | None = None,
        answered: Callable[[GameRecord], MessageRecord | None] | None = None,
    ) -> GameRecord:
        """Open a game in one transaction: a lobby with ``creator`` in seat 0 and the table's
        options; ``fill`` gives the seats it has from the start (every other seat a computer),
        ``deal`` the first deal of a full table (its snapshot and log entries: the game is then
        active), and ``answered`` the message that answers the command (the lobby), kept with
        it. Nothing is left behind if any of it fails. Raises :class:`ChannelBusy`."""
        async with self._writing() as tx:
            try:
                rows = await tx.fetch(
                    "INSERT INTO games (guild_id, channel_id, status, creator_id,"
                    " num_players, target, vs_computer, version, created_at, updated_at,"
                    " scoring, counting)"
                    " VALUES (?, ?, 'lobby', ?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        creator.user_id,
                        num_players,
                        target,
                        int(vs_computer),
                        now,
                        now,
                        str(scoring),
                        str(counting),
                    ),
                )
            except UniqueViolation as broken:
                if broken.names in _ONE_OPEN_PER_CHANNEL:
                    raise ChannelBusy() from None
                raise
            record = GameRecord(
                id=int(rows[0][0]),
                guild_id=guild_id,
                channel_id=channel_id,
                status=GameStatus.LOBBY,
                creator_id=creator.user_id or 0,
                num_players=num_players,
                target=target,
                vs_computer=vs_computer,
                snapshot=None,
                version=0,
                created_at=now,
                updated_at=now,
                seats=(creator,),
                scoring=scoring,
                counting=counting,
            )
            if fill is not None:
                # Seating the table is a change of its own (the game's next version), as it is
                # when players join one by one.
                record = dataclasses.replace(record, seats=tuple(fill(record)), version=1)
            await tx.executemany(_INSERT_SEATS, _seat_rows(record.id, record.seats))
            if deal is not None:
                snapshot, actions = await deal(record)
                record = dataclasses.replace(
                    record,
                    status=GameStatus.ACTIVE,
                    version=record.version + 1,
                    snapshot=snapshot,
                )
                await tx.executemany(
                    "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                    [(record.id, seq, action, now) for seq, action in enumerate(actions, 1)],
                )
            if record.version:
                await tx.execute(
                    "UPDATE games SET status = ?, version = ?, snapshot = ? WHERE id = ?",
                    (str(record.status), record.version, record.snapshot, record.id),
                )
            kept = None if answered is None else answered(record)
            if kept is not None:
                await tx.execute(_ANSWER_KEPT, _message_row(Owner.game(record.id), kept))
            if self.db.dialect is Dialect.POSTGRES:
                # Announced to every process at commit, as every later change is (see _bump).
                payload = f"{Owner.game(record.id)}:{record.version}:{channel_id}"
                await tx.execute("SELECT pg_notify(?, ?)", (ANNOUNCE_CHANNEL, payload))
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        found = await self._games("g.id = ?", (game_id,))
        return found[0] if found else None

    async def game_version(self, game_id: int) -> int | None:
        """The game's version now (None for a game that does not exist)."""
        rows = await self._read("SELECT version FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    async def open_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or active game in this channel, or None."""
        found = await self._games(f"g.channel_id = ? AND g.status IN {_OPEN}", (channel_id,))
        return found[0] if found else None

    async def last_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The most recently opened game in this channel, whatever its status, or None."""
        found = await self._games(
            "g.id = (SELECT MAX(id) FROM games WHERE channel_id = ?)", (channel_id,)
        )
        return found[0] if found else None

    async def idle_games(
        self, before: float, *, after: int = 0, limit: int | None = None
    ) -> list[GameRecord]:
        """Open games whose last change was before ``before``, by id from after ``after``, at
        most ``limit`` of them (None: all)."""
        if limit is None:
            return await self._games(
                f"g.status IN {_OPEN} AND g.updated_at < ? AND g.id > ?", (before, after)
            )
        return await self._games(
            f"g.id IN (SELECT id FROM games WHERE status IN {_OPEN} AND updated_at < ?"
            " AND id > ? ORDER BY id LIMIT ?)",
            (before, after, limit),
        )

    async def set_seats(
        self,
        game_id: int,
        version: int,
        seats: Sequence[SeatRecord],
        *,
        now: float,
        answered: MessageRecord | None = None,
    ) -> int:
        """Replace a lobby's seats (and keep the lobby message's new look, when a click on it
        is answered with it); returns the new version. Raises :class:`VersionConflict`."""
        async with self._writing() as tx:
            await self._bump(tx, game_id, version, now=now)
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await tx.executemany(_INSERT_SEATS, _seat_rows(game_id, seats))
            if answered is not None:
                await tx.execute(_ANSWERED, _answered_row(Owner.game(game_id), answered))
        return version + 1

    async def save(
        self,
        game_id: int,
        version: int,
        *,
        now: float,
        status: GameStatus,
        snapshot: str | None = None,
        actions: Sequence[str] = (),
        results: Sequence[ResultRecord] = (),
        end_note: str | None = None,
        answered: MessageRecord | None = None,
    ) -> int:
        """Apply one accepted change in one transaction; returns the new version.

        Appends ``actions`` (JSON texts) to the log, sets the status and (when given) the
        snapshot and the note of why the game ended, and for a finished game inserts
        ``results``. Raises :class:`VersionConflict` if the game is no longer at ``version``,
        leaving everything as it was.
        """
        async with self._writing() as tx:
            await self._bump(tx, game_id, version, now=now, status=status, snapshot=snapshot)
            if end_note is not None:
                await tx.execute("UPDATE games SET end_note = ? WHERE id = ?", (end_note, game_id))
            if actions:
                # Each entry takes the next number in the game's log.
                await tx.executemany(
                    "INSERT INTO actions (game_id, seq, action, at) VALUES"
                    " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?)",
                    [(game_id, game_id, a, now) for a in actions],
                )
            if results:
                await self._record_results(tx, game_id, results, now)
            if answered is not None:
                await tx.execute(_ANSWERED, _answered_row(Owner.game(game_id), answered))
        return version + 1

    async def _record_results(
        self,
        tx: Transaction,
        game_id: int,
        results: Sequence[ResultRecord],
        now: float,
    ) -> None:
        """Write a finished game's results and, in the same transaction, its ratings, its
        players' totals and the head to head of its people."""
        # Results are rated one game at a time, in the order they are recorded, whichever
        # process records them (each reads the standings the one before wrote).
        await tx.serialize(RESULTS_LOCK)
        found = await tx.fetch(derived.NEXT_ORDER, (game_id,))
        guild_id, order = found[0]  # the game was just updated in this transaction
        await tx.executemany(_INSERT_RESULTS, _result_rows(game_id, results, now, order))
        game = derived.Finished(game_id, order, guild_id, now, tuple(results))
        standings = await tx.fetch(*derived.standings_query(game))
        rivals = await tx.fetch(*derived.rivals_query(game))
        rated = derived.rate(game, standings, rivals)
        for sql, rows in derived.writes(rated):
            await tx.executemany(sql, rows)

    async def games_changed_since(self, since: float) -> list[tuple[int, int, int]]:
        """(game id, version, channel id) of every game changed since ``since`` (by the index
        on status and time: one range per status)."""
        rows = await self._read(
            _CHANGED_SINCE,
            [value for status in GameStatus for value in (str(status), since)],
        )
        return [(int(row[0]), int(row[1]), int(row[2])) for row in rows]

    async def recent_games(self, since: float) -> list[GameRecord]:
        """Every lobby and active game, and every game changed since ``since``, oldest first."""
        return await self._games(f"(g.status IN {_OPEN} OR g.updated_at >= ?)", (since,))

    # -- the messages owners keep ------------------------------------------------------------
    async def messages(self, owner: Owner) -> dict[str, MessageRecord]:
        """The owner's messages as last sent, by key."""
        rows = await self._read(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE owner = ?", (str(owner),)
        )
        return {row["key"]: _message(row) for row in rows}

    async def set_messages(
        self, owner: Owner, messages: Sequence[MessageRecord], *, posted: Sequence[str] = ()
    ) -> set[str]:
        """Remember messages sent (or edited) for ``owner``, in one transaction, and forget
        that the ``posted`` ones were about to be posted. Returns the keys not kept because
        what is kept of that message is of a later version of the owner (a click's answer
        kept meanwhile)."""
        if not messages:
            return set()
        rows = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in messages)
        params = [value for m in messages for value in _message_row(owner, m)]
        async with self._writing() as tx:
            kept = await tx.fetch(_KEEP_MESSAGES.format(rows=rows), params)
            if posted:
                await tx.executemany(
                    "DELETE FROM pending_posts WHERE owner = ? AND key = ?",
                    [(str(owner), key) for key in posted],
                )
        return {m.key for m in messages} - {row[0] for row in kept}

    async def set_answered(self, owner: Owner, message: MessageRecord) -> None:
        """A click on the owner's message ``message.key`` (if it is ``message.message_id``, or
        the one kept without its id yet) was answered by updating it to what the owner looked
        like at ``message.version``: what it shows now, and the click's token, which may edit
        it again (unless what is kept is of a later version)."""
        await self.db.execute(_ANSWERED, _answered_row(owner, message))

    async def forget_look(self, owner: Owner, key: str, version: int | None) -> None:
        """What the owner's message ``key`` shows is not known after all (an answer kept for
        ``version`` did not reach Discord; None: whatever is kept): it is edited again."""
        if version is None:
            await self.db.execute(
                "UPDATE messages SET digest = '' WHERE owner = ? AND key = ?", (str(owner), key)
            )
            return
        await self.db.execute(
            "UPDATE messages SET digest = '' WHERE owner = ? AND key = ? AND shown_version = ?",
            (str(owner), key, version),
        )

    async def forget_message(self, owner: Owner, key: str) -> None:
        """A message that is gone from Discord: it will be sent again."""
        await self.db.execute("DELETE FROM messages WHERE owner = ? AND key = ?", (str(owner), key))

    async def set_pending(self, owner: Owner, post: PendingPost) -> None:
        """A DM of the owner is about to be posted."""
        await self.db.execute(
            "INSERT INTO pending_posts (owner, key, channel_id, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (owner, key) DO UPDATE SET channel_id = excluded.channel_id,"
            " since = excluded.since",
            (str(owner), post.key, post.channel_id, post.since),
        )

    async def pending_posts(self, owner: Owner) -> list[PendingPost]:
        """The owner's DMs that were about to be posted and whose ids were never kept."""
        rows = await self._read(
            "SELECT key, channel_id, since FROM pending_posts WHERE owner = ? ORDER BY since",
            (str(owner),),
        )
        return [PendingPost(row["key"], row["channel_id"], row["since"]) for row in rows]

    async def clear_pending(self, owner: Owner, key: str) -> None:
        """Forget a post that was about to be made."""
        await self.db.execute(
            "DELETE FROM pending_posts WHERE owner = ? AND key = ?", (str(owner), key)
        )

    async def dm_refusals(self, game_id: int) -> dict[int, int]:
        """Seat -> the deal in which that player's DMs were refused."""
        rows = await self._read("SELECT seat, deal FROM dm_refusals WHERE game_id = ?", (game_id,))
        return {row["seat"]: row["deal"] for row in rows}

    async def refuse_dms(self, game_id: int, seat: int, deal: int) -> None:
        """Remember that a player's DMs were refused in ``deal``."""
        await self.db.execute(
            "INSERT INTO dm_refusals (game_id, seat, deal) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET deal = excluded.deal",
            (game_id, seat, deal),
        )

    async def dm_link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known."""
        rows = await self._read(
            "SELECT user_id, channel_id, token, token_at FROM dm_links WHERE user_id = ?",
            (user_id,),
        )
        return DmLink(*rows[0]) if rows else None

    async def set_dm_link(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there)."""
        await self.db.execute(
            "INSERT INTO dm_links (user_id, channel_id, token, token_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " token = excluded.token, token_at = excluded.token_at",
            (link.user_id, link.channel_id, link.token, link.token_at),
        )

    async def member_seen(self, guild_id: int, user_id: int) -> float | None:
        """When ``user_id`` was last known to be a member of ``guild_id`` (None: never)."""
        rows = await self._read(
            "SELECT seen_at FROM members_seen WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return float(rows[0][0]) if rows else None

    async def saw_member(self, guild_id: int, user_id: int, at: float) -> None:
        """Note that ``user_id`` was a member of ``guild_id`` at ``at`` (a later note stays)."""
        await self.db.execute(
            "INSERT INTO members_seen (guild_id, user_id, seen_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET seen_at = excluded.seen_at"
            " WHERE members_seen.seen_at < excluded.seen_at",
            (guild_id, user_id, at),
        )

    async def actions(self, game_id: int) -> list[str]:
        """The game's action log (JSON texts), oldest first."""
        rows = await self._read(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [row[0] for row in rows]

    async def results(self, game_id: int) -> list[ResultRecord]:
        """The result rows of a finished game, in seat order (empty for any other game)."""
        rows = await self._read(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_result(row) for row in rows]

    # -- standings -------------------------------------------------------------------------
    async def leaderboard(
        self, guild_id: int | None, *, limit: int = 20, vs_computer: bool = False
    ) -> list[LeaderRow]:
        """The server's players, best first: wins, then win rate, then game points. Over games
        between people, or with ``vs_computer`` over their games against the computer
        (computer levels themselves never get a row here). Read from the standings."""
        rows = await self._read(
            "SELECT player_id, name, games, wins, games - wins AS losses, game_points,"
            " skunks_given, skunks_taken, lurches_given, lurches_taken FROM standings"
            " WHERE guild_id = ? AND vs_computer = ? AND player_id > 0"
            " ORDER BY wins DESC, CAST(wins AS REAL) / games DESC, game_points DESC,"
            " losses ASC, name LIMIT ?",
            (guild_id or 0, int(vs_computer), limit),
        )
        return [LeaderRow(*row) for row in rows]

    async def player_stats(self, guild_id: int | None, user_id: int) -> dict[bool, StatsRow]:
        """A player's totals on a server, keyed by ``vs_computer`` (missing when no games)."""
        found = await self.standing(guild_id, user_id)
        return {
            vs_computer: StatsRow(
                games=s.games,
                wins=s.wins,
                skunks_given=s.skunks_given,
                skunks_taken=s.skunks_taken,
                pegging_points=s.pegging_points,
                hand_points=s.hand_points,
                crib_points=s.crib_points,
                deals=s.deals,
                best_hand=s.best_hand,
                best_hand_cards=s.best_hand_cards,
                twenty_nines=s.twenty_nines,
                points_missed=s.points_missed,
                muggins_given=s.muggins_given,
                muggins_taken=s.muggins_taken,
                lurches_given=s.lurches_given,
                lurches_taken=s.lurches_taken,
            )
            for vs_computer, ranked in found.items()
            for s in (ranked.standing,)
        }

    # -- ratings ---------------------------------------------------------------------------
    async def _ratings_missing(self) -> bool:
        """Whether there are results but no standings (a database from before the ratings;
        with other migrations, as in some tests, there may be neither table)."""
        if not {"results", "standings"} <= await self.db.table_names():
            return False
        rows = await self._read(
            "SELECT EXISTS (SELECT 1 FROM results) AND NOT EXISTS (SELECT 1 FROM standings)"
        )
        return bool(rows[0][0])

    async def _finished_games(self) -> list[derived.Finished]:
        """Every result, grouped by game, in the order the results were recorded."""
        rows = await self._read(
            f"SELECT game_id, rated_order, COALESCE(guild_id, 0) AS guild, finished_at,"
            f" {_RESULT_COLUMNS}"
            " FROM results ORDER BY rated_order, game_id, seat"
        )
        games = []
        for game_id, group in itertools.groupby(rows, key=lambda row: row["game_id"]):
            members = list(group)
            first = members[0]
            games.append(
                derived.Finished(
                    game_id,
                    first["rated_order"],
                    first["guild"],
                    first["finished_at"],
                    tuple(_result(row) for row in members),
                )
            )
        return games

    async def replay_ratings(self) -> derived.Replayed:
        """Every standing, rating change and head to head recomputed from the results
        (nothing is written)."""
        return derived.replay(await self._finished_games())

    async def stored_ratings(self) -> derived.Replayed:
        """Every standing, rating change and head to head as stored."""
        standings = await self._read(f"SELECT {derived.STANDING_COLUMNS} FROM standings")
        rivals = await self._read(f"SELECT {derived.RIVAL_COLUMNS} FROM rivals")
        changes = await self._read(
            f"SELECT {derived.CHANGE_COLUMNS} FROM rating_changes"
            " ORDER BY rated_order, game_id, seat"
        )
        stored = derived.Replayed()
        for s in map(derived.standing, standings):
            stored.standings[(s.guild_id, s.vs_computer, s.player_id)] = s
        for r in map(derived.rival, rivals):
            stored.rivals[(r.guild_id, r.user_id, r.opponent_id)] = r
        stored.changes = [derived.change(row) for row in changes]
        return stored

    async def rebuild_ratings(self) -> derived.Replayed:
        """Recompute every rating, total and head to head from the results, in the order
        they were recorded, and store them in place of what was there (one transaction)."""
        replayed = await self.replay_ratings()
        async with self._writing() as tx:
            for table in ("standings", "rating_changes", "rivals"):
                await tx.execute(f"DELETE FROM {table}")
            for sql, rows in derived.writes(replayed):
                await tx.executemany(sql, rows)
        return replayed

    async def ranking(
        self, guild_id: int | None, *, vs_computer: bool = False, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Ranked]]:
        """How many players a server's table has, and ``limit`` of them from ``offset``, best
        first (by ordinal), each with the ordinal before their last 10 games."""
        key = (guild_id or 0, int(vs_computer))
        rows = await self._read(
            f"SELECT {derived.STANDING_COLUMNS},"
            " (SELECT COUNT(*) FROM standings WHERE guild_id = ? AND vs_computer = ?) AS total,"
            f" {derived.TREND_FROM} AS trend_from"
            " FROM standings s WHERE guild_id = ? AND vs_computer = ?"
            " ORDER BY ordinal DESC, player_id LIMIT ? OFFSET ?",
            (*key, *key, limit, offset),
        )
        if not rows:
            counted = await self._read(
                "SELECT COUNT(*) FROM standings WHERE guild_id = ? AND vs_computer = ?", key
            )
            return int(counted[0][0]), []
        return rows[0]["total"], [
            Ranked(derived.standing(row), offset + place, row["total"], row["trend_from"])
            for place, row in enumerate(rows, start=1)
        ]

    async def standing(self, guild_id: int | None, player_id: int) -> dict[bool, Ranked]:
        """A player's standing in each of the server's tables they have played in, with their
        rank, keyed by ``vs_computer``."""
        rows = await self._read(
            f"SELECT {derived.STANDING_COLUMNS},"
            " (SELECT COUNT(*) FROM standings o WHERE o.guild_id = s.guild_id"
            "   AND o.vs_computer = s.vs_computer AND (o.ordinal > s.ordinal"
            "   OR (o.ordinal = s.ordinal AND o.player_id < s.player_id))) + 1 AS rank,"
            " (SELECT COUNT(*) FROM standings o WHERE o.guild_id = s.guild_id"
            "   AND o.vs_computer = s.vs_computer) AS total,"
            f" {derived.TREND_FROM} AS trend_from"
            " FROM standings s WHERE guild_id = ? AND vs_computer IN (0, 1) AND player_id = ?",
            (guild_id or 0, player_id),
        )
        return {
            bool(row["vs_computer"]): Ranked(
                derived.standing(row), row["rank"], row["total"], row["trend_from"]
            )
            for row in rows
        }

    async def levels(self, guild_id: int | None) -> list[Standing]:
        """The computer levels' standings on a server, best rated first."""
        rows = await self._read(
            f"SELECT {derived.STANDING_COLUMNS} FROM standings"
            " WHERE guild_id = ? AND vs_computer = 1 AND player_id < 0 ORDER BY ordinal DESC",
            (guild_id or 0,),
        )
        return [derived.standing(row) for row in rows]

    async def server_points(self, guild_id: int | None) -> tuple[int, int, int, int]:
        """The server's people (in games between people) in all: pegging, hand and crib
        points, and deals shown."""
        rows = await self._read(
            "SELECT COALESCE(SUM(pegging_points), 0), COALESCE(SUM(hand_points), 0),"
            " COALESCE(SUM(crib_points), 0), COALESCE(SUM(deals), 0)"
            " FROM standings WHERE guild_id = ? AND vs_computer = 0",
            (guild_id or 0,),
        )
        pegging, hand, crib, deals = rows[0]
        return pegging, hand, crib, deals

    async def rating_history(
        self, guild_id: int | None, player_id: int, *, vs_computer: bool = False, last: int = 200
    ) -> list[tuple[float, float]]:
        """The player's ordinal after each of their last ``last`` games in one of the server's
        tables, with when the game finished, oldest first."""
        rows = await self._read(
            f"SELECT {ordinal_sql('mu_after', 'sigma_after')}, finished_at FROM rating_changes"
            " WHERE guild_id = ? AND vs_computer = ? AND player_id = ?"
            " ORDER BY rated_order DESC LIMIT ?",
            (guild_id or 0, int(vs_computer), player_id, last),
        )
        return [(row[0], row[1]) for row in reversed(rows)]

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """A finished game's rating changes, in seat order (empty for any other game)."""
        rows = await self._read(
            f"SELECT {derived.CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [derived.change(row) for row in rows]

    async def best_hands(
        self, guild_id: int | None, user_id: int, *, limit: int = 3
    ) -> list[tuple[int, str]]:
        """A player's best hands on a server (points and cards), best and earliest first."""
        rows = await self._read(
            "SELECT best_hand, best_hand_cards FROM results"
            " WHERE guild_id IS NOT DISTINCT FROM ? AND user_id = ? AND best_hand_cards IS NOT NULL"
            " ORDER BY best_hand DESC, finished_at LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [(row[0], row[1]) for row in rows]

    async def rival(self, guild_id: int | None, user_id: int, opponent_id: int) -> Rival | None:
        """``user_id``'s head to head against ``opponent_id`` on a server, or None."""
        rows = await self._read(
            f"SELECT {derived.RIVAL_COLUMNS} FROM rivals"
            " WHERE guild_id = ? AND user_id = ? AND opponent_id = ?",
            (guild_id or 0, user_id, opponent_id),
        )
        return derived.rival(rows[0]) if rows else None

    # -- retention ---------------------------------------------------------------------------
    async def prunable(self, before: float, *, limit: int) -> list[tuple[int, str | None]]:
        """Ended games (finished, cancelled, expired) last changed before ``before`` and not
        pruned yet, oldest first, at most ``limit``: each game's id and last snapshot."""
        # By the partial index of games not pruned yet, so the games already pruned, which
        # pile up for ever, are never passed over (SQLite is told to; PostgreSQL's planner
        # picks the smaller index by itself).
        hint = " INDEXED BY games_to_prune" if self.db.dialect is Dialect.SQLITE else ""
        rows = await self._read(
            f"SELECT id, snapshot FROM games{hint}"
            f" WHERE pruned_at IS NULL AND {_ENDED} AND updated_at < ?"
            " ORDER BY updated_at, id LIMIT ?",
            (before, limit),
        )
        return [(int(row[0]), row[1]) for row in rows]

    async def prune(
        self, records: Sequence[tuple[int, bytes | None]], *, before: float, now: float
    ) -> int:
        """Prune ended games in one transaction, each kept as its archive record (None: none,
        for a game that never started): its snapshot, action log, messages, refused DMs and
        pending posts are dropped; its row, seats, results and ratings stay. A game that is no
        longer ended before ``before`` is left alone. Returns how many were pruned."""
        wanted = dict(records)
        if not wanted:
            return 0
        marks = ", ".join("?" for _ in wanted)
        async with self._writing() as tx:
            found = await tx.fetch(
                f"SELECT id FROM games WHERE id IN ({marks}) AND pruned_at IS NULL AND {_ENDED}"
                " AND updated_at < ?",
                (*wanted, before),
            )
            ids = [(int(row[0]),) for row in found]
            if not ids:
                return 0
            await tx.executemany(
                "UPDATE games SET snapshot = NULL, pruned_at = ? WHERE id = ?",
                [(now, game_id) for (game_id,) in ids],
            )
            await tx.executemany(
                "INSERT INTO game_archives (game_id, record) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET record = excluded.record",
                [(game_id, wanted[game_id]) for (game_id,) in ids if wanted[game_id] is not None],
            )
            for table in ("actions", "dm_refusals"):
                await tx.executemany(f"DELETE FROM {table} WHERE game_id = ?", ids)
            owners = [(str(Owner.game(game_id)),) for (game_id,) in ids]
            for table in ("messages", "pending_posts"):
                await tx.executemany(f"DELETE FROM {table} WHERE owner = ?", owners)
        return len(ids)

    async def archived(self, game_id: int) -> bytes | None:
        """A pruned game's archive record (None for a game not pruned, or never started)."""
        rows = await self._read("SELECT record FROM game_archives WHERE game_id = ?", (game_id,))
        return bytes(rows[0][0]) if rows else None

    async def reclaim(self, pages: int) -> None:
        """Give back up to ``pages`` pages of freed space to the file system (see
        :meth:`bot.store.database.Database.reclaim`)."""
        await self.db.reclaim(pages)

    # -- user settings -----------------------------------------------------------------------
    async def coach_off(self, user_ids: Iterable[int]) -> set[int]:
        """Which of ``user_ids`` have turned the coach off (everyone else has it on)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" for _ in wanted)
        rows = await self._read(
            f"SELECT user_id FROM user_settings WHERE coach = 0 AND user_id IN ({marks})", wanted
        )
        return {row[0] for row in rows}

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> None:
        """Turn the coach on or off for a user (kept across servers and games)."""
        await self.db.execute(
            "INSERT INTO user_settings (user_id, coach, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET coach = excluded.coach,"
            " updated_at = excluded.updated_at",
            (user_id, int(on), now),
        )

    # -- leases: work one process of the bot may start once in a while ----------------------
    async def take_lease(self, name: str, holder: str, *, now: float, seconds: float) -> bool:
        """Take (or, for its holder, renew) the lease ``name`` for ``seconds`` from ``now``;
        False when another holder has it and it has not lapsed. One statement, so two
        processes racing for a lapsed lease cannot both win it."""
        rows = await self._read_write(
            "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
            " expires_at = excluded.expires_at"
            " WHERE leases.holder = excluded.holder OR leases.expires_at <= ?"
            " RETURNING holder",
            (name, holder, now + seconds, now),
        )
        return bool(rows)

    async def _read_write(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """One writing statement that returns rows, in a transaction of its own."""
        async with self._writing() as tx:
            return await tx.fetch(sql, params)
