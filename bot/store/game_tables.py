"""The store's games: games and their seats read, each move saved with its version check, and the
action log. A game is opened by :mod:`bot.store.game_opening`'s rows, in one transaction; a
finished game's results are written in the transaction that finishes it, with the ratings they
change (:func:`bot.store.result_tables.record_results`).

Each accepted action is one transaction: append to the log, update the snapshot ``WHERE version =
?``, and for a finished game write the results and what they change in the ratings; a write that
lost a race raises :class:`~bot.core.base.store_errors.VersionConflict` and changes nothing. Every
``UPDATE`` of a game names its version: the compare-and-set of a change decided on a read, or,
in the transaction that made it, the version that transaction wrote (``tests/bot/store/
test_discipline.py``). A game that finishes is recorded with one snapshot of the standings it
reads (no lock: a standing another game moved on meanwhile refuses the write, which is made
again from a new read).
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.core.base.delivery import AnswerKept
from bot.core.base.owners import Owner
from bot.core.base.seating import Seating
from bot.core.base.store_errors import OccasionOver, VersionConflict
from bot.core.games.endings import Ending
from bot.core.games.records import (
    GameChange,
    GameRecord,
    GameStatus,
    NewGame,
    Options,
    SeatRecord,
)
from bot.store.announcing import ANNOUNCE_CHANNEL, announcing
from bot.store.database import (
    Dialect,
    MissingReference,
    Overtaken,
    Row,
    Transaction,
    UniqueViolation,
)
from bot.store.game_opening import insert_seats, occasion_opens, opened
from bot.store.game_options import OPTION_COLUMNS, options_of, options_params
from bot.store.game_places import match_places, occasion_of, seating_of
from bot.store.message_tables import keep_answer
from bot.store.one_game_here import OPEN as _OPEN
from bot.store.one_game_here import humans, seat_refused
from bot.store.queries import Queries, people_acting
from bot.store.result_tables import record_results

__all__ = ["GameTables"]

#: A game (``g``) that is no tournament's match being played: its pairing's game, undecided.
_NO_MATCH = (
    "NOT EXISTS (SELECT 1 FROM tournament_pairings tp WHERE tp.game_id = g.id"
    " AND tp.decided IS NULL)"
)
#: A game's row with its seats' (one row a seat, or one with no seat), as :func:`_games` reads
#: them; its options' columns as :mod:`bot.store.game_options` names them.
_GAME_COLUMNS = (
    "g.id, g.guild_id, g.channel_id, g.status, g.creator_id,"
    f" {', '.join(f'g.{name}' for name in OPTION_COLUMNS)},"
    " g.snapshot, g.version, g.created_at, g.updated_at, g.end_note,"
    " g.private_table, g.occasion, g.ending, g.rematch_of, g.series, g.lesson,"
    " s.seat, s.user_id, s.display_name, s.is_computer, s.computer_level, s.held_until"
)


def _games(rows: Iterable[Row], places: Mapping[int, Seating]) -> list[GameRecord]:
    """Games with their seats, from rows of ``games`` LEFT JOIN ``seats`` ordered by game
    (``places``: the seatings of the ranked matches among them, :func:`match_places`)."""
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
                r["held_until"],
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
                options=options_of(first),
                snapshot=first["snapshot"],
                version=first["version"],
                created_at=first["created_at"],
                updated_at=first["updated_at"],
                seats=seats,
                end_note=first["end_note"],
                seating=seating_of(first, places),
                occasion=occasion_of(first),
                ending=None if first["ending"] is None else Ending(first["ending"]),
                rematch_of=first["rematch_of"],
                series=first["series"],
            )
        )
    return games


#: A lobby's options as they are now (before its deal its table may change: players added,
#: everyone at the Activity dealt in).
_SET_OPTIONS = (
    f"UPDATE games SET {', '.join(f'{name} = ?' for name in OPTION_COLUMNS)}"
    " WHERE id = ? AND version = ?"
)


#: A game's next version: the check that makes two racing writes fail one way.
_BUMP = (
    "UPDATE games SET version = version + 1, updated_at = ?,"
    " status = COALESCE(?, status), snapshot = COALESCE(?, snapshot),"
    " end_note = COALESCE(?, end_note)"
    " WHERE id = ? AND version = ?"
)
#: The clause that announces a change on PostgreSQL (:mod:`bot.store.announcing`) in the
#: statement that bumps the version (its parameters: what
#: :func:`~bot.store.announcing.announcing` gives). The look a click was made on and the
#: change are both in one statement, in this order (PostgreSQL works out a statement's results
#: left to right), delivered together at commit.
_ANNOUNCE = (
    f" RETURNING CASE WHEN ? <> '' THEN pg_notify('{ANNOUNCE_CHANNEL}', ?) END,"
    f" pg_notify('{ANNOUNCE_CHANNEL}', 'game:' || id || ':' || version || ':' || channel_id || ?)"
)
#: PostgreSQL: a move saved in one statement, one round trip (the version bumped with its
#: check, the log entries appended, the clicked message's new look kept by the message store's
#: clause, ``{answered}``, the change announced, as ``_ANNOUNCE`` does); no row comes back when
#: the game was not at the version the move was made on.
_SAVE_AT_ONCE = (
    "WITH bumped AS ("
    f"{_BUMP} RETURNING id, version, channel_id),"
    " logged AS (INSERT INTO actions (game_id, seq, action, at)"
    " SELECT b.id, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = b.id) + a.n,"
    " a.action, ? FROM bumped b, unnest(?::text[]) WITH ORDINALITY AS a(action, n)),"
    " answered AS ({answered})"
    f" SELECT CASE WHEN ? <> '' THEN pg_notify('{ANNOUNCE_CHANNEL}', ?) END,"
    f" pg_notify('{ANNOUNCE_CHANNEL}',"
    " 'game:' || id || ':' || version || ':' || channel_id || ?) FROM bumped"
)
#: What the message store's clause of ``_SAVE_AT_ONCE`` holds to: the move was saved.
_BUMPED = "EXISTS (SELECT 1 FROM bumped)"


def _bumping(game_id: int, version: int, change: GameChange | None, now: float) -> tuple[Any, ...]:
    """``_BUMP``'s parameters: the game moved on at ``now`` from ``version``, to ``change``'s
    status, snapshot and end note (each as it was where None)."""
    if change is None:
        return (now, None, None, None, game_id, version)
    return (now, change.status, change.snapshot, change.end_note, game_id, version)


#: Games changed since a moment, whatever their status, one index range per status.
_CHANGED_SINCE = " UNION ALL ".join(
    ["SELECT id, version, channel_id FROM games WHERE status = ? AND updated_at >= ?"]
    * len(GameStatus)
)


class GameTables(Queries):
    """Games, seats, the action log and the results."""

    async def _games(self, where: str, params: Sequence[Any]) -> list[GameRecord]:
        """Games matching ``where`` (a fixed condition written in this module, never input)
        with their seats, in one query."""
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games g LEFT JOIN seats s ON s.game_id = g.id"
            f" WHERE {where} ORDER BY g.id, s.seat",
            params,
        )
        places = await match_places(self._read, [row["channel_id"] for row in rows])
        return _games(rows, places)

    async def _bump(
        self,
        tx: Transaction,
        game_id: int,
        version: int,
        change: GameChange | None,
        *,
        now: float,
        answered: AnswerKept | None = None,
        answered_by: Owner | None = None,
    ) -> None:
        """Move the game to the next version (to ``change``'s status, snapshot and end note,
        if any), or raise VersionConflict if it is not at ``version`` any more (the check that
        makes two racing writes fail one way); with ``answered``, keep what the game's message
        a click was answered with shows now (for ``answered_by``, the owner that keeps that
        message: the game's by default)."""
        params = _bumping(game_id, version, change, now)
        if self.db.dialect is Dialect.POSTGRES:
            # The same statement announces the change to every process (delivered when the
            # transaction commits, never for one rolled back): the one that sends hears of it.
            changed = len(await tx.fetch(_BUMP + _ANNOUNCE, params + announcing(answered)))
        else:
            changed = await tx.execute(_BUMP, params)
        if changed != 1:
            raise VersionConflict()
        if answered is not None:
            await keep_answer(answered_by or Owner.game(game_id), answered).run(tx)

    async def create_game(
        self,
        game: NewGame,
        *,
        now: float,
        fill: Callable[[GameRecord], Sequence[SeatRecord]] | None = None,
        deal: Callable[[GameRecord], Awaitable[tuple[str, Sequence[str]]]] | None = None,
        answered: Callable[[GameRecord], AnswerKept | None] | None = None,
    ) -> GameRecord:
        """Open ``game`` at ``now`` in one transaction: a lobby with its creator in seat 0
        and its table's options (a ``rematch_of`` game's series, as
        :mod:`~bot.store.game_opening` writes it; a ``lesson``, one open a person at most, else
        ``ChannelBusy``); ``fill`` gives the seats it has from the start (every other seat a
        computer), ``deal`` the first deal of a full table (its snapshot and log entries: the
        game is then active), and ``answered`` the message that answers the command (the
        lobby), kept with it. Nothing is left behind if any of it fails. Raises
        :class:`~bot.core.base.store_errors.ChannelBusy`, and
        :class:`~bot.core.base.store_errors.RankedHere` for a person seated where their ranked
        search waits or their match is played (the key of ``presence``:
        :mod:`bot.store.one_game_here`). A ranked match's or a pairing's game (its occasion a
        :class:`~bot.core.games.records.Match` or a :class:`~bot.core.games.records.Round`)
        is opened by one conditional update of the match or pairing as it was read (its
        version, its state, its two players), in the same transaction: else
        :class:`~bot.core.base.store_errors.OccasionOver`, to be decided again from a new
        read. A person seated who is gone meanwhile (their data deleted, in any process)
        raises that or, for any other game, :class:`VersionConflict`."""
        occasion = occasion_opens(game.occasion) is not None
        lost: type[VersionConflict | OccasionOver] = OccasionOver if occasion else VersionConflict
        seated: set[int] = set()
        try:
            async with self._writing() as tx:
                record = await opened(tx, self.dialect, game, now, fill, deal, answered, seated)
        except UniqueViolation as broken:
            refused = await seat_refused(self.db, broken, game.channel_id, seated)
            if refused is None:
                raise
            raise refused from None
        except (MissingReference, Overtaken):
            raise lost() from None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        found = await self._games("g.id = ?", (game_id,))
        return found[0] if found else None

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
        most ``limit`` of them (None: all); not a tournament's match being played (its round's
        deadline decides it, by the round's rule: :mod:`bot.core.tournaments.director`)."""
        if limit is None:
            return await self._games(
                f"g.status IN {_OPEN} AND g.updated_at < ? AND g.id > ? AND {_NO_MATCH}",
                (before, after),
            )
        return await self._games(
            f"g.id IN (SELECT id FROM games g WHERE status IN {_OPEN} AND updated_at < ?"
            f" AND id > ? AND {_NO_MATCH} ORDER BY id LIMIT ?)",
            (before, after, limit),
        )

    async def set_seats(
        self,
        game_id: int,
        version: int,
        seats: Sequence[SeatRecord],
        *,
        now: float,
        answered: AnswerKept | None = None,
        options: Options | None = None,
    ) -> int:
        """Replace a lobby's seats (and keep the lobby message's new look, when a click on it
        is answered with it; with ``options``, the options it is now played by: the players
        it seats, its variant, target, rule for game points...); returns the new version.
        Raises :class:`VersionConflict` (a person seated who is gone meanwhile, their data
        deleted, too), and :class:`~bot.core.base.store_errors.RankedHere` for a person newly
        seated where their ranked search waits or their match is played (the key of
        ``presence``)."""
        newly: set[int] = set()
        channel: list[int] = []
        try:
            async with self._writing() as tx:
                rows = await tx.fetch(
                    "SELECT g.channel_id, s.user_id FROM games g LEFT JOIN seats s"
                    " ON s.game_id = g.id AND s.held_until IS NULL WHERE g.id = ?",
                    (game_id,),
                )
                if rows:
                    # (Read before the version is checked: seats changed since are its
                    # conflict.)
                    channel.append(int(rows[0][0]))
                    newly.update(humans(seats) - {row[1] for row in rows})
                await self._bump(tx, game_id, version, None, now=now, answered=answered)
                # Those newly seated act now (a seat kept for a rematch is taken by its player).
                acting = people_acting(newly)
                if acting is not None:
                    await acting.run(tx)
                if options is not None:
                    params = (*options_params(options), game_id, version + 1)
                    await tx.execute(_SET_OPTIONS, params)
                await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
                await insert_seats(tx, game_id, seats)
        except UniqueViolation as broken:
            refused = await seat_refused(self.db, broken, channel[0] if channel else 0, newly)
            if refused is None:
                raise
            raise refused from None
        except (MissingReference, Overtaken):
            raise VersionConflict() from None
        return version + 1

    async def save(
        self,
        game_id: int,
        version: int,
        change: GameChange,
        *,
        now: float,
        answered: AnswerKept | None = None,
        answered_by: Owner | None = None,
    ) -> int:
        """Apply one accepted ``change`` in one transaction; returns the new version.

        Appends its log entries, sets the status and (when given) the snapshot and the note
        of why the game ended, and for a finished game inserts its results and keeps its
        ending and the series it continues; ``answered``: the look a click's answer gave a
        message, kept for ``answered_by`` (the game by default; a seat's place at a game
        played apart). Raises :class:`VersionConflict` if the game is no longer at
        ``version``, leaving everything as it was.
        """
        if self.db.dialect is Dialect.POSTGRES and not change.results and change.ending is None:
            # A move (nearly every save) is one statement: one round trip to the database.
            landing = keep_answer(answered_by or Owner.game(game_id), answered, when=_BUMPED)
            params = (
                *_bumping(game_id, version, change, now),
                now,
                list(change.actions),
                *landing.params,
                *announcing(answered),
            )
            if not await self.db.fetch(_SAVE_AT_ONCE.format(answered=landing.sql), params):
                raise VersionConflict()
            return version + 1
        try:
            await self._saved(game_id, version, change, now, answered, answered_by)
        except (MissingReference, Overtaken):
            # Another game finished meanwhile moved on a standing this one read (its one
            # snapshot), or a player of it is gone (their data deleted): read it again.
            raise VersionConflict() from None
        return version + 1

    async def _saved(
        self,
        game_id: int,
        version: int,
        change: GameChange,
        now: float,
        answered: AnswerKept | None,
        answered_by: Owner | None,
    ) -> None:
        """:meth:`save`'s transaction (one snapshot when the game finishes with results: what
        it rates is read as of its start)."""
        async with self._writing(snapshot=bool(change.results)) as tx:
            await self._bump(
                tx, game_id, version, change, now=now, answered=answered, answered_by=answered_by
            )
            if change.actions:
                # Each entry takes the next number in the game's log.
                await tx.executemany(
                    "INSERT INTO actions (game_id, seq, action, at) VALUES"
                    " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?)",
                    [(game_id, game_id, a, now) for a in change.actions],
                )
            if change.ending is not None:
                await tx.execute(
                    "UPDATE games SET ending = ? WHERE id = ? AND version = ?",
                    (change.ending, game_id, version + 1),
                )
            if change.series is not None:
                await tx.execute(
                    "UPDATE games SET series = ? WHERE id = ? AND version = ?",
                    (change.series, game_id, version + 1),
                )
            if change.results:
                await record_results(tx, game_id, change.results, now)

    async def open_lesson(self, user_id: int) -> GameRecord | None:
        """``user_id``'s lesson not over (``/cribbage learn``), if they have one."""
        found = await self._games(
            f"g.creator_id = ? AND g.lesson = 1 AND g.status IN {_OPEN}", (user_id,)
        )
        return found[0] if found else None

    async def played_now(self, user_id: int) -> list[GameRecord]:
        """The games being played (dealt, not over) with ``user_id`` in a seat, oldest first
        (by the index of seats by player)."""
        return await self._games(
            "g.status = ? AND g.id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (str(GameStatus.ACTIVE), user_id),
        )

    async def has_played(self, user_id: int) -> bool:
        """Whether ``user_id`` has sat at any game (a lobby's seat counts)."""
        rows = await self._read("SELECT 1 FROM seats WHERE user_id = ? LIMIT 1", (user_id,))
        return bool(rows)

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

    async def actions(self, game_id: int) -> list[str]:
        """The game's action log (JSON texts), oldest first."""
        rows = await self._read(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [row[0] for row in rows]
