"""What the parts of ranked play's store share: the records' columns and readers, the rows that
are live or ended lately, and an entry's change (its version moved on, announced).

Every change of an entry moves its version on and, on PostgreSQL, is announced in the same
transaction (as a game's is), so the process that sends draws its player's card again.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.delivery import AnswerKept
from bot.core.base.owners import Owner
from bot.core.ranked.records import EntryRecord, MatchGame, MatchLine, MatchRecord, RatingRecord
from bot.store.announcing import ANNOUNCE_CHANNEL, announcements
from bot.store.database import Dialect, Transaction
from bot.store.queries import Queries, marks
from bot.store.rows import columns, reader

__all__ = [
    "ENTRY_COLUMNS",
    "LATEST_RATING",
    "MATCH_COLUMNS",
    "RATING_COLUMNS",
    "R_RATING_COLUMNS",
    "EntryChanges",
    "live_or_ended_since",
    "read_entry",
    "read_game",
    "read_line",
    "read_match",
    "read_rating",
]

ENTRY_COLUMNS, read_entry = columns(EntryRecord), reader(EntryRecord)
MATCH_COLUMNS, read_match = columns(MatchRecord), reader(MatchRecord)
RATING_COLUMNS, read_rating = columns(RatingRecord), reader(RatingRecord)
read_game, read_line = reader(MatchGame), reader(MatchLine)
#: A player's rating of their latest season (its parameter: their id).
LATEST_RATING = (
    f"SELECT {RATING_COLUMNS} FROM ranked_ratings WHERE user_id = ? ORDER BY season DESC LIMIT 1"
)
#: The rating's columns of a query that names ranked_ratings ``r``.
R_RATING_COLUMNS = ", ".join(f"r.{c.strip()}" for c in RATING_COLUMNS.split(","))
#: An entry's statuses while it is live (searching or matched), as SQL.


def live_or_ended_since(table: str, selected: str, live: str) -> str:
    """The query of ``table``'s rows (their columns ``selected``) that are ``live`` (a
    condition: ``status = 'playing'``) and of those that ended since its one parameter, as
    two queries, so the live rows are read by their index."""
    return (
        f"SELECT {selected} FROM {table} WHERE {live}"
        f" UNION ALL SELECT {selected} FROM {table} WHERE NOT ({live}) AND ended_at >= ?"
    )


class EntryChanges(Queries):
    """The base of ranked play's parts that change entries: each change moves the entries'
    versions on and announces them."""

    async def _entry_changed(self, tx: Transaction, entry_ids: Sequence[int]) -> list[EntryRecord]:
        """Move the entries' versions on (and announce each on PostgreSQL); them, as now."""
        rows = await tx.fetch(
            f"UPDATE ranked_entries SET version = version + 1 WHERE id IN ({marks(entry_ids)})"
            f" RETURNING {ENTRY_COLUMNS}",
            tuple(entry_ids),
        )
        entries = [read_entry(row) for row in rows]
        await self._announce(tx, entries)
        return entries

    async def _announce(
        self, tx: Transaction, entries: Sequence[EntryRecord], answered: AnswerKept | None = None
    ) -> None:
        """On PostgreSQL, announce each entry's change to every process at commit (with the
        card an answer kept, if any)."""
        if self.db.dialect is not Dialect.POSTGRES:
            return
        for entry in entries:
            head = f"{Owner.ranked(entry.id)}:{entry.version}:{entry.channel_id}"
            for payload in announcements(head, answered):
                await tx.execute("SELECT pg_notify(?, ?)", (ANNOUNCE_CHANNEL, payload))

    async def _match_changed(self, tx: Transaction, match_id: int) -> list[EntryRecord]:
        """The match changed: its entries (whose cards are drawn again), as they are now."""
        rows = await tx.fetch(
            "SELECT entry_a, entry_b FROM ranked_matches WHERE id = ?", (match_id,)
        )
        if not rows:
            return []
        return await self._entry_changed(tx, [int(rows[0][0]), int(rows[0][1])])
