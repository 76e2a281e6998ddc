"""The reviews of games (issue 23): each seat's decisions judged, kept with the game."""

from __future__ import annotations

from bot.core.review.records import ReviewRow
from bot.store.database import MissingReference
from bot.store.queries import Queries
from bot.store.rows import columns, reader

__all__ = ["ReviewTables"]

_COLUMNS = columns(ReviewRow)
_row = reader(ReviewRow)


class ReviewTables(Queries):
    """Reviews: saved once made, read back instead of made again, added up for the stats."""

    async def review(self, game_id: int, seat: int) -> ReviewRow | None:
        """The review kept of ``seat`` in the game (None when none was made)."""
        rows = await self._read(
            f"SELECT {_COLUMNS} FROM reviews WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return None if not rows else _row(rows[0])

    async def save_review(self, row: ReviewRow) -> None:
        """Keep ``row`` (replacing an older review of that seat in that game), unless its seat
        is no longer its player's: their data was deleted while it was made (a review takes
        seconds, from the game as it was read), and it would keep theirs again. The review
        refers to the seat as it was read (its game, its number and its player: migration
        040), so the write finds nothing to refer to once the deletion renamed the seat, or
        deleted the game with its server's data, whichever process made it and whenever it
        commits; nothing is kept then."""
        try:
            await self.db.execute(
                f"INSERT INTO reviews ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET deals = excluded.deals,"
                " final = excluded.final, decisions = excluded.decisions,"
                " accurate = excluded.accurate, given_up = excluded.given_up,"
                " data = excluded.data, made_at = excluded.made_at",
                (
                    row.game_id,
                    row.seat,
                    row.user_id,
                    row.guild_id,
                    row.deals,
                    int(row.final),
                    row.decisions,
                    row.accurate,
                    row.given_up,
                    row.data,
                    row.made_at,
                ),
            )
        except MissingReference:
            return  # (the seat is no longer its player's, or the game itself went)

    async def reviews_owed(self, since: float, *, limit: int) -> list[int]:
        """Finished games, last changed at or after ``since``, not pruned and with their
        snapshot, whose automatic reviews are not done yet (no ``auto_reviews`` row): their
        ids, the latest first."""
        rows = await self._read(
            "SELECT id FROM games WHERE status = 'finished' AND updated_at >= ?"
            " AND pruned_at IS NULL AND snapshot IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM auto_reviews a WHERE a.game_id = games.id)"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            (since, limit),
        )
        return [int(row[0]) for row in rows]

    async def reviews_done(self, game_id: int, outcome: str, *, now: float) -> None:
        """Note that game ``game_id`` is owed no more automatic reviews: ``outcome`` is
        ``reviewed``, ``too old``, ``unreadable`` or ``nothing kept``."""
        await self.db.execute(
            "INSERT INTO auto_reviews (game_id, outcome, done_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game_id, outcome, now),
        )

    async def review_totals(
        self, guild_id: int | None, user_id: int, *, last: int
    ) -> list[tuple[int, int, int, float]]:
        """The figures of the player's latest ``last`` reviewed games in the server that their
        record counts, the game that ended last first (whenever each review was made): (game
        id, decisions, accurate ones, points given up). A game counts as the stats count it:
        by its result (a lesson keeps none, nor does a game cancelled or expired, though each
        may be reviewed)."""
        rows = await self._read(
            "SELECT r.game_id, r.decisions, r.accurate, r.given_up FROM reviews r"
            " JOIN games g ON g.id = r.game_id"
            " WHERE r.final = 1 AND r.user_id = ? AND r.guild_id IS NOT DISTINCT FROM ?"
            " AND EXISTS (SELECT 1 FROM results x WHERE x.game_id = r.game_id)"
            " ORDER BY g.updated_at DESC, r.game_id DESC LIMIT ?",
            (user_id, guild_id, last),
        )
        return [(int(r[0]), int(r[1]), int(r[2]), float(r[3])) for r in rows]
