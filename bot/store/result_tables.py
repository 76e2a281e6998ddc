"""The store's results: a finished game's result rows, written with the ratings, totals and head
to head they change (in the transaction that finishes the game:
:meth:`~bot.store.game_tables.GameTables.save`), and read back, a game's or its series'; and
the hints each seat asked for, counted while the game is played and kept with its result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bot.core.games.records import ResultRecord, SeriesResult
from bot.store import standings as derived
from bot.store.database import Row, Transaction
from bot.store.queries import Queries, people_acting
from engine.outcome import Scoring

__all__ = ["RESULT_COLUMNS", "ResultTables", "record_results", "result_of"]


#: The columns of ``results`` that hold a ResultRecord, named as its fields.
_RESULT_FIELDS = tuple(field.name for field in dataclasses.fields(ResultRecord))
RESULT_COLUMNS = ", ".join(_RESULT_FIELDS)
#: The same, of ``results`` named ``r`` in a join.
_RESULTS_OF_R = ", ".join(f"r.{name}" for name in _RESULT_FIELDS)
#: Flags SQLite keeps as 0 and 1.
_RESULT_FLAGS = frozenset({"is_computer", "won", "skunk_given", "skunk_taken"})


def result_of(row: Row) -> ResultRecord:
    """A ResultRecord from a row of its columns."""
    values: dict[str, Any] = {
        name: bool(row[name]) if name in _RESULT_FLAGS else row[name] for name in _RESULT_FIELDS
    }
    values["scoring"] = Scoring(values["scoring"])
    return ResultRecord(**values)


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
            r.variant,
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
    " computer_level, scoring, variant, finished_at, rated_order)"
    " VALUES (?, (SELECT guild_id FROM games WHERE id = ?),"
    f" {', '.join('?' for _ in range(27))})"
)
#: Copies a finished game's count of hints per seat into its results (migration 025).
_HINTS_KEPT = (
    "UPDATE results SET hints = (SELECT t.hints FROM hints_taken t"
    " WHERE t.game_id = results.game_id AND t.seat = results.seat)"
    " WHERE game_id = ? AND seat IN (SELECT seat FROM hints_taken WHERE game_id = ?)"
)


async def record_results(
    tx: Transaction,
    game_id: int,
    results: Sequence[ResultRecord],
    now: float,
) -> None:
    """Write a finished game's results and, in the same transaction (one snapshot), its
    ratings, its players' totals and the head to head of its people. Two games of one
    player finishing at once in two processes both read their standing: the second to
    write it is refused (:class:`~bot.store.database.Overtaken`) and records its game again
    from the standing the first wrote, so each is rated after the one before, in the order
    they were recorded; games of other people, read from no common row, are rated side by
    side (their order ties, as the replay's order of games breaks it)."""
    computers = people_acting(derived.computers_rated(results))
    if computers is not None:
        # (A computer's level is rated as a player of its own: its row stands beside
        # the people's, for its standing to refer to.)
        await computers.run(tx)
    found = await tx.fetch(derived.NEXT_ORDER, (game_id,))
    guild_id, order = found[0]  # the game was just updated in this transaction
    await tx.executemany(_INSERT_RESULTS, _result_rows(game_id, results, now, order))
    # Each seat's hints, as counted while the game was played, kept with its result.
    await tx.execute(_HINTS_KEPT, (game_id, game_id))
    game = derived.Finished(game_id, order, guild_id, now, tuple(results))
    standings = await tx.fetch(*derived.standings_query(game))
    rivals = await tx.fetch(*derived.rivals_query(game))
    rated = derived.rate(game, standings, rivals)
    for sql, rows in derived.writes(rated):
        await tx.executemany(sql, rows)


class ResultTables(Queries):
    """Finished games' results, and the hints counted toward them."""

    async def take_hint(self, game_id: int, seat: int) -> None:
        """Count one more hint for ``seat`` of a game being played (its result keeps the
        count once it ends)."""
        await self.db.execute(
            "INSERT INTO hints_taken (game_id, seat, hints) VALUES (?, ?, 1)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET hints = hints_taken.hints + 1",
            (game_id, seat),
        )

    async def hints_taken(self, game_id: int) -> dict[int, int]:
        """How many hints each seat of a game asked for, by seat (only those that did): as
        its result keeps them once it ended, else as counted."""
        rows = await self._read(
            "SELECT seat, hints FROM results WHERE game_id = ? AND hints > 0"
            " UNION SELECT seat, hints FROM hints_taken WHERE game_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM results WHERE game_id = ?)",
            (game_id, game_id, game_id),
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def series_results(self, game_id: int) -> list[SeriesResult]:
        """The results of the series game ``game_id`` is in (the one it continues, or the one
        it begins), of its games up to it, game by game in order and each in seat order."""
        return await self._all(
            lambda row: SeriesResult(row["game_id"], row["finished_at"], result_of(row)),
            "WITH s AS (SELECT COALESCE(series, id) AS first FROM games WHERE id = ?)"
            f" SELECT r.game_id, r.finished_at, {_RESULTS_OF_R}"
            " FROM results r JOIN games g ON g.id = r.game_id, s"
            " WHERE (g.id = s.first OR g.series = s.first) AND g.id <= ?"
            " ORDER BY r.game_id, r.seat",
            (game_id, game_id),
        )

    async def results(self, game_id: int) -> list[ResultRecord]:
        """The result rows of a finished game, in seat order (empty for any other game)."""
        return await self._all(
            result_of,
            f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
