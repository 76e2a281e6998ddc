"""The store's ranked ladder: each season's ratings, the standings and their champions, and a
player's matches with the change each made to their rating (written when a match is decided:
:mod:`bot.store.ranked_match_tables`)."""

from __future__ import annotations

from bot.core.games.endings import Ending
from bot.core.ranked.records import NOT_RATED, MatchLine, RatingRecord, Unrated
from bot.store.queries import Queries
from bot.store.ranked_rows import R_RATING_COLUMNS, RATING_COLUMNS, read_line, read_rating

__all__ = ["LadderTables"]

#: Whether rating ``o`` stands above ``r`` in their season's standings (among the players with
#: the matches to be ranked, its one parameter): by ordinal, then matches, then id.
_ABOVE = (
    "o.season = r.season AND o.matches >= ? AND (o.ordinal > r.ordinal"
    " OR (o.ordinal = r.ordinal AND (o.matches > r.matches"
    " OR (o.matches = r.matches AND o.user_id < r.user_id))))"
)

#: A player's finished match as their list of matches reads it, up to its ratings (its
#: parameters: the player's id, four times; a match without a winner reads as not won).
_LINE = (
    "SELECT m.id, CASE WHEN m.player_a = ? THEN m.player_b ELSE m.player_a END,"
    " o.name, COALESCE(m.winner = ?, FALSE), CASE WHEN m.player_a = ? THEN m.wins_a ELSE m.wins_b"
    " END, CASE WHEN m.player_a = ? THEN m.wins_b ELSE m.wins_a END, m.how,"
)
#: The opponent's entry ``o`` of match ``m`` (its parameter: the player's id).
_OPPONENT = (
    "JOIN ranked_entries o ON o.id = CASE WHEN m.player_a = ? THEN m.entry_b ELSE m.entry_a END"
)

#: Why match ``m``, which ended without a result, was not rated, as
#: :func:`~bot.core.ranked.records.unrated_why` says it from its games (its parameters: the
#: clock's ending, then the two :class:`~bot.core.ranked.records.Unrated` values).
_UNRATED_WHY = (
    "CASE WHEN EXISTS (SELECT 1 FROM ranked_games rg JOIN games g ON g.id = rg.game_id"
    " WHERE rg.match_id = m.id AND rg.winner IS NULL AND g.ending = ?) THEN ? ELSE ? END"
)


class LadderTables(Queries):
    """The seasons' ratings, standings and champions, and the players' finished matches
    (rated, or ended without a result)."""

    async def season_rating(self, season: str, user_id: int) -> RatingRecord | None:
        """The player's rating in ``season`` (None: no match in it)."""
        return await self._one(
            read_rating,
            f"SELECT {RATING_COLUMNS} FROM ranked_ratings WHERE season = ? AND user_id = ?",
            (season, user_id),
        )

    async def latest_rating(
        self, user_id: int, *, before: str | None = None
    ) -> RatingRecord | None:
        """The player's rating of their latest season (before ``before``, when given)."""
        return await self._one(
            read_rating,
            f"SELECT {RATING_COLUMNS} FROM ranked_ratings WHERE user_id = ?"
            + (" AND season < ?" if before is not None else "")
            + " ORDER BY season DESC LIMIT 1",
            (user_id, before) if before is not None else (user_id,),
        )

    async def ladder(self, season: str, *, at_least: int, limit: int) -> list[RatingRecord]:
        """The season's standings: the players with ``at_least`` matches, best first."""
        return await self._all(
            read_rating,
            f"SELECT {RATING_COLUMNS} FROM ranked_ratings WHERE season = ? AND matches >= ?"
            " ORDER BY ordinal DESC, matches DESC, user_id LIMIT ?",
            (season, at_least, limit),
        )

    async def ladder_place(self, season: str, user_id: int, *, at_least: int) -> int | None:
        """Where the player stands in the season's standings (from 1; None: not ranked)."""
        rows = await self._read(
            f"SELECT 1 + (SELECT COUNT(*) FROM ranked_ratings o WHERE {_ABOVE})"
            " FROM ranked_ratings r WHERE r.season = ? AND r.user_id = ? AND r.matches >= ?",
            (at_least, season, user_id, at_least),
        )
        return int(rows[0][0]) if rows else None

    async def ladder_size(self, season: str, *, at_least: int) -> int:
        """How many players the season ranks."""
        rows = await self._read(
            "SELECT COUNT(*) FROM ranked_ratings WHERE season = ? AND matches >= ?",
            (season, at_least),
        )
        return int(rows[0][0])

    async def season_champions(
        self, *, at_least: int, before: str, limit: int
    ) -> list[RatingRecord]:
        """The top of each season's final standings, newest first (the seasons before
        ``before``, which are over): each champion's rating in their season."""
        return await self._all(
            read_rating,
            f"SELECT {R_RATING_COLUMNS} FROM ranked_ratings r"
            " WHERE r.season < ? AND r.matches >= ?"
            f" AND NOT EXISTS (SELECT 1 FROM ranked_ratings o WHERE {_ABOVE})"
            " ORDER BY r.season DESC LIMIT ?",
            (before, at_least, at_least, limit),
        )

    async def match_lines(self, user_id: int, *, limit: int) -> list[MatchLine]:
        """The player's latest finished matches, newest first: those rated (each with its
        change), and those that ended without a result (:data:`NOT_RATED`, no change: their
        ratings read 0)."""
        return await self._all(
            read_line,
            f"{_LINE} c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, m.ended_at,"
            " CAST(NULL AS TEXT)"
            f" FROM ranked_changes c JOIN ranked_matches m ON m.id = c.match_id {_OPPONENT}"
            f" WHERE c.user_id = ? UNION ALL {_LINE} 0, 0, 0, 0, m.ended_at, {_UNRATED_WHY}"
            f" FROM ranked_matches m {_OPPONENT} WHERE m.how = ? AND (m.player_a = ?"
            " OR m.player_b = ?) ORDER BY 1 DESC LIMIT ?",
            (
                *(user_id,) * 6,
                *(user_id,) * 4,
                str(Ending.CLOCK),
                str(Unrated.BOTH_LATE),
                str(Unrated.DOWN),
                user_id,
                str(NOT_RATED),
                user_id,
                user_id,
                limit,
            ),
        )

    async def match_changes(self, match_id: int) -> dict[int, tuple[float, float, float, float]]:
        """Each player's rating change in a finished match: (mu, sigma) before, then after."""
        rows = await self._read(
            "SELECT user_id, mu_before, sigma_before, mu_after, sigma_after FROM ranked_changes"
            " WHERE match_id = ?",
            (match_id,),
        )
        return {int(r[0]): (float(r[1]), float(r[2]), float(r[3]), float(r[4])) for r in rows}
