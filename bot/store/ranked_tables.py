"""The store's ranked play, in a part per job: the entries and the queue (here), the matches
(:mod:`~bot.store.ranked_match_tables`), the ladder (:mod:`~bot.store.ranked_ladder_tables`)
and the blocks (:mod:`~bot.store.ranked_block_tables`); :class:`RankedTables` is all of them.

What holds with any number of processes (each may queue players and pair them; the one that
sends runs the matches):

- **One live entry a player.** A partial unique index takes at most one entry of a player that
  is searching or matched: a second is refused (:class:`AlreadyRanked`), however the two race.
- **Paired once.** One transaction takes both entries from ``searching`` to ``matched`` and
  names their match, or changes nothing: on PostgreSQL it locks both rows first, in order of
  id (two pairings never wait on each other in a circle), and a row another pairing took is no
  longer searching once its lock is had. A process killed at any point leaves both searching,
  or both in the one match.
- **Counted once** (:mod:`~bot.store.ranked_match_tables`).

Every change of an entry moves its version on and, on PostgreSQL, is announced in the same
transaction (:class:`~bot.store.ranked_rows.EntryChanges`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.core.base.owners import Owner
from bot.core.ranked.records import (
    AlreadyRanked,
    EntryRecord,
    EntryStatus,
    MatchRecord,
    RatingRecord,
    Search,
)
from bot.core.ranked.storage import Card, Joined, Pick
from bot.store.database import Dialect, Transaction, UniqueViolation
from bot.store.message_tables import first_answer
from bot.store.one_game_here import LIVE, search_refused
from bot.store.queries import marks, people_acting
from bot.store.ranked_block_tables import BlockTables, blocks_among
from bot.store.ranked_ladder_tables import LadderTables
from bot.store.ranked_match_tables import MatchTables
from bot.store.ranked_rows import (
    ENTRY_COLUMNS,
    LATEST_RATING,
    MATCH_COLUMNS,
    R_RATING_COLUMNS,
    EntryChanges,
    live_or_ended_since,
    read_entry,
    read_match,
    read_rating,
)
from bot.store.rows import columns

__all__ = ["QueueTables", "RankedTables"]

#: What a write that breaks the one-live-entry index names (PostgreSQL: the index; SQLite:
#: its column).
_ONE_LIVE = frozenset({"ranked_one_live_entry", "ranked_entries.user_id"})
#: The searching entries nearest a skill, some on each side (its parameters: the skill and
#: how many, twice).
_NEAREST = (
    f"SELECT * FROM (SELECT {ENTRY_COLUMNS} FROM ranked_entries"
    " WHERE status = 'searching' AND mu <= ? ORDER BY mu DESC LIMIT ?) below"
    f" UNION ALL SELECT * FROM (SELECT {ENTRY_COLUMNS} FROM ranked_entries"
    " WHERE status = 'searching' AND mu > ? ORDER BY mu LIMIT ?) above"
)
#: A search's entry: the search's fields, then when it was queued (its parameters, in that
#: order: :func:`_searched`).
_INSERT_ENTRY = (
    f"INSERT INTO ranked_entries ({columns(Search)}, queued_at, version)"
    f" VALUES ({marks(dataclasses.fields(Search))}, ?, 1) RETURNING {ENTRY_COLUMNS}"
)
_LIVE_OR_ENDED = live_or_ended_since("ranked_entries", ENTRY_COLUMNS, f"status IN {LIVE}")


class QueueTables(EntryChanges):
    """Ranked entries: a player's search, the queue and its pairings."""

    async def queue_entry(
        self,
        search: Search,
        *,
        now: float,
        card: Card | None = None,
        pick: Pick | None = None,
        candidates: int = 24,
    ) -> Joined:
        """A player joins the queue from their place, and, with ``pick``, is paired at once
        in the same transaction with the first of the searching players ``pick`` chooses
        among the ``candidates`` nearest in skill on each side (with the blocks between them)
        that no other pairing holds this moment (the one who waited sits first). ``card``:
        the message that answers them (their card, its id to come), drawn from the entry as
        it ends (and its match, opponent and the opponent's latest rating, if paired), kept
        with it. The entry, the match
        if one was made, and every entry changed. Raises :class:`AlreadyRanked` when they
        are searching or in a match already, and :class:`~bot.core.base.store_errors.
        SeatedHere` when they sit at a game not over in the place they search from (the key
        of ``presence``: :mod:`bot.store.one_game_here`)."""
        try:
            return await self._queued(search, now, card, pick, candidates)
        except UniqueViolation as broken:
            refused = search_refused(broken)
            if refused is None:
                raise
            raise refused from None

    async def _queued(
        self,
        search: Search,
        now: float,
        card: Card | None,
        pick: Pick | None,
        candidates: int,
    ) -> Joined:
        """:meth:`queue_entry`'s transaction."""
        async with self._writing() as tx:
            acting = people_acting([search.user_id])
            assert acting is not None
            await acting.run(tx)
            try:
                rows = await tx.fetch(_INSERT_ENTRY, _searched(search, now))
            except UniqueViolation as broken:
                if broken.names in _ONE_LIVE:
                    raise AlreadyRanked(None) from None
                raise
            entry = read_entry(rows[0])
            paired = (
                None if pick is None else await self._pair_now(tx, entry, pick, candidates, now)
            )
            match, changed = paired if paired is not None else (None, [entry])
            mine = next(e for e in changed if e.id == entry.id)
            other = next((e for e in changed if e.id != entry.id), None)
            theirs = None
            if other is not None and card is not None:
                found = await tx.fetch(LATEST_RATING, (other.user_id,))
                theirs = read_rating(found[0]) if found else None
            kept = None if card is None else card(mine, match, other, theirs)
            if kept is not None:
                card_of = (entry.id, entry.user_id)
                await first_answer(Owner.ranked(entry.id), kept, card=card_of).run(tx)
            await self._announce(tx, [mine], kept)
            if other is not None:
                await self._announce(tx, [other])
        return mine, match, changed

    async def _pair_now(
        self, tx: Transaction, entry: EntryRecord, pick: Pick, candidates: int, now: float
    ) -> tuple[MatchRecord, list[EntryRecord]] | None:
        """In the transaction that queued ``entry``: pair it with the first searching player
        ``pick`` chooses that no other pairing holds (see :meth:`queue_entry`)."""
        found = await tx.fetch(_NEAREST, (entry.mu, candidates, entry.mu, candidates))
        nearest = [e for e in map(read_entry, found) if e.id != entry.id]
        if not nearest:
            return None
        users = sorted({entry.user_id, *(e.user_id for e in nearest)})
        blocks = await blocks_among(tx, users)
        for other in pick(entry, nearest, blocks):
            held = await tx.fetch(
                "SELECT id FROM ranked_entries WHERE id = ? AND status = 'searching'"
                + self._skip_held,
                (other.id,),
            )
            if not held:
                continue  # (paired a moment ago, or being paired now)
            return await _matched(tx, other, entry, now)
        return None

    @property
    def _skip_held(self) -> str:
        """What makes a pairing's read lock the searching rows it reads, passing over those
        another pairing holds (PostgreSQL; SQLite's writer is one at a time): a held row is
        being paired, and this one tries its next candidate at once."""
        return " FOR UPDATE SKIP LOCKED" if self.db.dialect is Dialect.POSTGRES else ""

    async def ranked_entry(self, entry_id: int) -> EntryRecord | None:
        """One entry by its id."""
        return await self._one(
            read_entry, f"SELECT {ENTRY_COLUMNS} FROM ranked_entries WHERE id = ?", (entry_id,)
        )

    async def live_entry(self, user_id: int) -> EntryRecord | None:
        """The player's entry that is searching or in a match, if any."""
        return await self._one(
            read_entry,
            f"SELECT {ENTRY_COLUMNS} FROM ranked_entries WHERE user_id = ? AND status IN {LIVE}",
            (user_id,),
        )

    async def entries_since(self, since: float) -> list[EntryRecord]:
        """Every live entry, and every one that ended since ``since``."""
        return await self._all(read_entry, _LIVE_OR_ENDED, (since,))

    async def searching_entries(self) -> list[EntryRecord]:
        """Every entry waiting for an opponent, longest waiting first."""
        return await self._all(
            read_entry,
            f"SELECT {ENTRY_COLUMNS} FROM ranked_entries WHERE status = 'searching'"
            " ORDER BY queued_at, id",
        )

    async def older_release_running(self, release: str, *, seen_after: float) -> bool:
        """Whether a process of a release before ``release`` (a migration's name: its
        heartbeat names the last one it has) was heard from after ``seen_after``."""
        rows = await self._read(
            "SELECT 1 FROM bot_processes WHERE release < ? AND seen_at > ? LIMIT 1",
            (release, seen_after),
        )
        return bool(rows)

    async def ranked_player(
        self, user_id: int, *, since: float
    ) -> tuple[EntryStatus | None, int, float | None, RatingRecord | None, int | None]:
        """What joining the queue asks of a player, in one query: the status of their live
        entry (None: none), how many matches they abandoned since ``since`` and when the last
        ended, the rating of their latest season (None: a newcomer), and the opponent of
        their latest match."""
        rows = await self._read(
            f"WITH r AS ({LATEST_RATING}) SELECT"
            f" (SELECT status FROM ranked_entries WHERE user_id = ? AND status IN {LIVE}),"
            " (SELECT COUNT(*) FROM ranked_matches WHERE abandoned_by = ? AND ended_at >= ?),"
            " (SELECT MAX(ended_at) FROM ranked_matches WHERE abandoned_by = ? AND ended_at >= ?),"
            " (SELECT CASE WHEN player_a = ? THEN player_b ELSE player_a END FROM ranked_matches"
            "  WHERE player_a = ? OR player_b = ? ORDER BY id DESC LIMIT 1),"
            f" {R_RATING_COLUMNS}"
            " FROM (SELECT 1 AS one) o LEFT JOIN r ON 1 = 1",
            (user_id, user_id, user_id, since, user_id, since, user_id, user_id, user_id),
        )
        status, abandoned, last, opponent, *rating = rows[0]
        return (
            None if status is None else EntryStatus(status),
            int(abandoned),
            None if last is None else float(last),
            None if rating[0] is None else read_rating(rating),
            None if opponent is None else int(opponent),
        )

    async def end_search(
        self, entry_id: int, status: EntryStatus, *, now: float
    ) -> EntryRecord | None:
        """A search ends unmatched (stopped, or expired); the entry then (None: it was not
        searching any more: paired, or ended already)."""
        async with self._writing() as tx:
            done = await tx.execute(
                "UPDATE ranked_entries SET status = ?, ended_at = ?"
                " WHERE id = ? AND status = 'searching'",
                (str(status), now, entry_id),
            )
            if not done:
                return None
            (entry,) = await self._entry_changed(tx, [entry_id])
        return entry

    async def pair_entries(
        self, first: int, second: int, *, now: float
    ) -> tuple[MatchRecord, list[EntryRecord]] | None:
        """Pair two searching entries in a match (the first's player sits first): the match and
        both entries as they are now; None, with nothing changed, when either is no longer
        searching (or another pairing holds it this moment)."""
        low, high = sorted((first, second))
        async with self._writing() as tx:
            rows = await tx.fetch(
                f"SELECT {ENTRY_COLUMNS} FROM ranked_entries WHERE id IN (?, ?)"
                " AND status = 'searching' ORDER BY id" + self._skip_held,
                (low, high),
            )
            if len(rows) != 2:
                return None
            found = {e.id: e for e in map(read_entry, rows)}
            match, entries = await _matched(tx, found[first], found[second], now)
            await self._announce(tx, entries)
        return match, entries


class RankedTables(QueueTables, MatchTables, LadderTables, BlockTables):
    """Ranked entries, matches, ratings and blocks."""


async def _matched(
    tx: Transaction, a: EntryRecord, b: EntryRecord, now: float
) -> tuple[MatchRecord, list[EntryRecord]]:
    """Write the match of ``a`` (who sits first) and ``b``, started ``now``, and both entries
    matched in it, their versions moved on (both searching, held by this transaction): the
    match and both entries as they are now."""
    made = await tx.fetch(
        "INSERT INTO ranked_matches (entry_a, entry_b, player_a, player_b, started_at)"
        f" VALUES (?, ?, ?, ?, ?) RETURNING {MATCH_COLUMNS}",
        (a.id, b.id, a.user_id, b.user_id, now),
    )
    match = read_match(made[0])
    rows = await tx.fetch(
        "UPDATE ranked_entries SET status = 'matched', match_id = ?,"
        " version = version + 1 WHERE id IN (?, ?) AND status = 'searching'"
        f" RETURNING {ENTRY_COLUMNS}",
        (match.id, a.id, b.id),
    )
    if len(rows) != 2:
        # (Not on either database, whose rows this transaction holds; kept as the invariant's
        # last guard: nothing of it is written.)
        raise RuntimeError("a ranked entry was paired twice")
    return match, [read_entry(row) for row in rows]


def _searched(search: Search, now: float) -> tuple[Any, ...]:
    """``_INSERT_ENTRY``'s parameters: the search's own fields (an entry's others are not
    written from it), then ``now``."""
    return (*(getattr(search, f.name) for f in dataclasses.fields(Search)), now)
