"""The store's ranked play: the entries (a player's search, then their match), the matches and
their games, the seasons' ratings, and the blocks between players.

What holds with any number of processes (each may queue players and pair them; the one that
sends runs the matches):

- **One live entry a player.** A partial unique index takes at most one entry of a player that
  is searching or matched: a second is refused (:class:`AlreadyRanked`), however the two race.
- **Paired once.** One transaction takes both entries from ``searching`` to ``matched`` and
  names their match, or changes nothing: on PostgreSQL it locks both rows first, in order of
  id (two pairings never wait on each other in a circle), and a row another pairing took is no
  longer searching once its lock is had. A process killed at any point leaves both searching,
  or both in the one match.
- **Counted once.** A game of a match is counted where it is not yet, and the match is
  finished (rated, its entries freed) where it is still being played, each in the
  transaction that checks it.

Every change of an entry moves its version on and, on PostgreSQL, is announced in the same
transaction (as a game's is), so the process that sends draws its player's card again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord
from bot.core.games.endings import Ending
from bot.core.games.records import ordinal
from bot.core.ranked.rating import carried, rate_match, season_of
from bot.core.ranked.records import (
    AlreadyRanked,
    EntryRecord,
    EntryStatus,
    MatchGame,
    MatchLine,
    MatchRecord,
    MatchStatus,
    PlaceKind,
    RatingRecord,
)
from bot.store.database import Dialect, Transaction, UniqueViolation
from bot.store.game_tables import ANNOUNCE_CHANNEL, announcements
from bot.store.message_tables import ANSWER_KEPT_SQL, message_row
from bot.store.queries import Queries, marks
from bot.store.rows import columns, reader

__all__ = ["RankedTables"]

_ENTRY_COLUMNS, _entry = columns(EntryRecord), reader(EntryRecord)
_MATCH_COLUMNS, _match = columns(MatchRecord), reader(MatchRecord)
_game = reader(MatchGame)
#: A match's games, each with how it ended: the game's own ending (``games.ending``).
_MATCH_GAMES = (
    "SELECT rg.match_id, rg.number, rg.game_id, rg.winner, g.ending FROM ranked_games rg"
    " LEFT JOIN games g ON g.id = rg.game_id WHERE rg.match_id = ? ORDER BY rg.number"
)
_RATING_COLUMNS, _rating = columns(RatingRecord), reader(RatingRecord)
_LINE = reader(MatchLine)
#: The rating's columns of a query that names ranked_ratings ``r``.
_R_RATING_COLUMNS = ", ".join(f"r.{c.strip()}" for c in _RATING_COLUMNS.split(","))
#: What a write that breaks the one-live-entry index names (PostgreSQL: the index; SQLite:
#: its column).
_ONE_LIVE = frozenset({"ranked_one_live_entry", "ranked_entries.user_id"})
_LIVE = "('searching', 'matched')"
#: The searching entries nearest a skill, some on each side (its parameters: the skill and
#: how many, twice).
_NEAREST = (
    f"SELECT * FROM (SELECT {_ENTRY_COLUMNS} FROM ranked_entries"
    " WHERE status = 'searching' AND mu <= ? ORDER BY mu DESC LIMIT ?) below"
    f" UNION ALL SELECT * FROM (SELECT {_ENTRY_COLUMNS} FROM ranked_entries"
    " WHERE status = 'searching' AND mu > ? ORDER BY mu LIMIT ?) above"
)
#: What draws a player's card as they join: from their entry, its match and their opponent.
Card = Callable[[EntryRecord, MatchRecord | None, EntryRecord | None], MessageRecord | None]
#: Whom a newcomer may be paired with among searching players, best first (given the blocks).
Pick = Callable[[EntryRecord, list[EntryRecord], set[tuple[int, int]]], list[EntryRecord]]
#: What joining the queue gives: the entry, its match if paired at once, the entries changed.
Joined = tuple[EntryRecord, MatchRecord | None, list[EntryRecord]]
_UPSERT_RATING = (
    f"INSERT INTO ranked_ratings ({_RATING_COLUMNS}, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (season, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
    " sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins,"
    " updated_at = excluded.updated_at, ordinal = excluded.ordinal"
)


def _rating_row(rating: RatingRecord) -> tuple[Any, ...]:
    return (
        rating.season,
        rating.user_id,
        rating.name,
        rating.mu,
        rating.sigma,
        rating.matches,
        rating.wins,
        rating.updated_at,
        ordinal(rating.mu, rating.sigma),
    )


class RankedTables(Queries):
    """Ranked entries, matches, ratings and blocks."""

    # -- entries ----------------------------------------------------------------------------
    async def _entry_changed(self, tx: Transaction, entry_ids: Sequence[int]) -> list[EntryRecord]:
        """Move the entries' versions on (and announce each on PostgreSQL); them, as now."""
        rows = await tx.fetch(
            f"UPDATE ranked_entries SET version = version + 1 WHERE id IN ({marks(entry_ids)})"
            f" RETURNING {_ENTRY_COLUMNS}",
            tuple(entry_ids),
        )
        entries = [_entry(row) for row in rows]
        await self._announce(tx, entries)
        return entries

    async def _announce(
        self, tx: Transaction, entries: Sequence[EntryRecord], answered: MessageRecord | None = None
    ) -> None:
        """On PostgreSQL, announce each entry's change to every process at commit (with the
        card an answer kept, if any)."""
        if self.db.dialect is not Dialect.POSTGRES:
            return
        for entry in entries:
            head = f"{Owner.ranked(entry.id)}:{entry.version}:{entry.channel_id}"
            for payload in announcements(head, answered):
                await tx.execute("SELECT pg_notify(?, ?)", (ANNOUNCE_CHANNEL, payload))

    async def queue_entry(
        self,
        *,
        user_id: int,
        name: str,
        avatar: str | None,
        guild_id: int | None,
        channel_id: int,
        place: PlaceKind,
        mu: float,
        last_opponent: int | None,
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
        it ends (and its match and opponent, if paired), kept with it. The entry, the match
        if one was made, and every entry changed. Raises :class:`AlreadyRanked` when they
        are searching or in a match already."""
        async with self._writing() as tx:
            try:
                rows = await tx.fetch(
                    "INSERT INTO ranked_entries (user_id, name, avatar, guild_id, channel_id,"
                    " place, mu, last_opponent, queued_at, version)"
                    f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1) RETURNING {_ENTRY_COLUMNS}",
                    (
                        user_id,
                        name,
                        avatar,
                        guild_id,
                        channel_id,
                        str(place),
                        mu,
                        last_opponent,
                        now,
                    ),
                )
            except UniqueViolation as broken:
                if broken.names in _ONE_LIVE:
                    raise AlreadyRanked(None) from None
                raise
            entry = _entry(rows[0])
            paired = (
                None if pick is None else await self._pair_now(tx, entry, pick, candidates, now)
            )
            match, changed = paired if paired is not None else (None, [entry])
            mine = next(e for e in changed if e.id == entry.id)
            other = next((e for e in changed if e.id != entry.id), None)
            kept = None if card is None else card(mine, match, other)
            if kept is not None:
                await tx.execute(ANSWER_KEPT_SQL, message_row(Owner.ranked(entry.id), kept))
            await self._announce(tx, [mine], kept)
            if other is not None:
                await self._announce(tx, [other])
        return mine, match, changed

    async def _pair_now(
        self, tx: Transaction, entry: EntryRecord, pick: Pick, candidates: int, now: float
    ) -> tuple[MatchRecord, list[EntryRecord]] | None:
        """In the transaction that queued ``entry``: pair it with the first searching player
        ``pick`` chooses that no other pairing holds (see :meth:`queue_entry`)."""
        nearest = [
            _entry(row)
            for row in await tx.fetch(_NEAREST, (entry.mu, candidates, entry.mu, candidates))
            if int(row[0]) != entry.id
        ]
        if not nearest:
            return None
        users = sorted({entry.user_id, *(e.user_id for e in nearest)})
        blocks = {
            (int(r[0]), int(r[1]))
            for r in await tx.fetch(
                "SELECT user_id, blocked_id FROM ranked_blocks"
                f" WHERE user_id IN ({marks(users)}) OR blocked_id IN ({marks(users)})",
                (*users, *users),
            )
        }
        lock = " FOR UPDATE SKIP LOCKED" if self.db.dialect is Dialect.POSTGRES else ""
        for other in pick(entry, nearest, blocks):
            held = await tx.fetch(
                f"SELECT id FROM ranked_entries WHERE id = ? AND status = 'searching'{lock}",
                (other.id,),
            )
            if not held:
                continue  # (paired a moment ago, or being paired now)
            match = await _new_match(tx, other, entry, now)
            rows = await tx.fetch(
                "UPDATE ranked_entries SET status = 'matched', match_id = ?,"
                " version = version + 1 WHERE id IN (?, ?) AND status = 'searching'"
                f" RETURNING {_ENTRY_COLUMNS}",
                (match.id, other.id, entry.id),
            )
            if len(rows) != 2:
                raise RuntimeError("a ranked entry was paired twice")
            return match, [_entry(row) for row in rows]
        return None

    async def ranked_entry(self, entry_id: int) -> EntryRecord | None:
        """One entry by its id."""
        return await self._one(
            _entry, f"SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE id = ?", (entry_id,)
        )

    async def live_entry(self, user_id: int) -> EntryRecord | None:
        """The player's entry that is searching or in a match, if any."""
        return await self._one(
            _entry,
            f"SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE user_id = ? AND status IN {_LIVE}",
            (user_id,),
        )

    async def entries_since(self, since: float) -> list[EntryRecord]:
        """Every live entry, and every one that ended since ``since``."""
        return await self._all(
            _entry,
            f"SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE status IN {_LIVE}"
            " UNION ALL"
            f" SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE status NOT IN {_LIVE}"
            " AND ended_at >= ?",
            (since,),
        )

    async def searching_entries(self) -> list[EntryRecord]:
        """Every entry waiting for an opponent, longest waiting first."""
        return await self._all(
            _entry,
            f"SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE status = 'searching'"
            " ORDER BY queued_at, id",
        )

    async def nearest_searching(self, mu: float, *, limit: int) -> list[EntryRecord]:
        """The searching entries nearest ``mu`` in skill: ``limit`` at most on each side (one
        query)."""
        return await self._all(_entry, _NEAREST, (mu, limit, mu, limit))

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
            "WITH r AS (SELECT"
            f" {_RATING_COLUMNS} FROM ranked_ratings WHERE user_id = ? ORDER BY season DESC"
            " LIMIT 1) SELECT"
            f" (SELECT status FROM ranked_entries WHERE user_id = ? AND status IN {_LIVE}),"
            " (SELECT COUNT(*) FROM ranked_matches WHERE abandoned_by = ? AND ended_at >= ?),"
            " (SELECT MAX(ended_at) FROM ranked_matches WHERE abandoned_by = ? AND ended_at >= ?),"
            " (SELECT CASE WHEN player_a = ? THEN player_b ELSE player_a END FROM ranked_matches"
            "  WHERE player_a = ? OR player_b = ? ORDER BY id DESC LIMIT 1),"
            f" {_R_RATING_COLUMNS}"
            " FROM (SELECT 1 AS one) o LEFT JOIN r ON 1 = 1",
            (user_id, user_id, user_id, since, user_id, since, user_id, user_id, user_id),
        )
        status, abandoned, last, opponent, *rating = rows[0]
        return (
            None if status is None else EntryStatus(status),
            int(abandoned),
            None if last is None else float(last),
            None if rating[0] is None else _rating(rating),
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
            # (PostgreSQL: a row another pairing holds is skipped, not waited for: it is being
            # paired, and this one tries its next candidate at once.)
            lock = " FOR UPDATE SKIP LOCKED" if self.db.dialect is Dialect.POSTGRES else ""
            rows = await tx.fetch(
                f"SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE id IN (?, ?)"
                f" AND status = 'searching' ORDER BY id{lock}",
                (low, high),
            )
            if len(rows) != 2:
                return None
            found = {e.id: e for e in map(_entry, rows)}
            a, b = found[first], found[second]
            match = await _new_match(tx, a, b, now)
            paired = await tx.execute(
                "UPDATE ranked_entries SET status = 'matched', match_id = ?"
                " WHERE id IN (?, ?) AND status = 'searching'",
                (match.id, low, high),
            )
            if paired != 2:
                # (Not on either database, whose rows above are this transaction's; kept as
                # the invariant's last guard: nothing of it is written.)
                raise RuntimeError("a ranked entry was paired twice")
            entries = await self._entry_changed(tx, [low, high])
        return match, entries

    # -- matches ----------------------------------------------------------------------------
    async def ranked_match(self, match_id: int) -> MatchRecord | None:
        """One match by its id."""
        return await self._one(
            _match, f"SELECT {_MATCH_COLUMNS} FROM ranked_matches WHERE id = ?", (match_id,)
        )

    async def matches_since(self, since: float) -> list[MatchRecord]:
        """Every match being played, and every one that ended since ``since``."""
        return await self._all(
            _match,
            f"SELECT {_MATCH_COLUMNS} FROM ranked_matches WHERE status = 'playing'"
            " UNION ALL"
            f" SELECT {_MATCH_COLUMNS} FROM ranked_matches WHERE status = 'finished'"
            " AND ended_at >= ?",
            (since,),
        )

    async def match_entries(self, match: MatchRecord) -> tuple[EntryRecord, EntryRecord]:
        """The match's two entries: the first player's, then the second's."""
        rows = await self._read(
            f"SELECT {_ENTRY_COLUMNS} FROM ranked_entries WHERE id IN (?, ?)",
            (match.entry_a, match.entry_b),
        )
        found = {e.id: e for e in map(_entry, rows)}
        return found[match.entry_a], found[match.entry_b]

    async def match_games(self, match_id: int) -> list[MatchGame]:
        """The match's games, in order."""
        return await self._all(_game, _MATCH_GAMES, (match_id,))

    async def add_match_game(self, match_id: int, number: int, game_id: int) -> list[EntryRecord]:
        """Game ``number`` of the match is ``game_id`` (written once): the match's entries as
        they are now, if it was written now (none: it was before)."""
        async with self._writing() as tx:
            rows = await tx.fetch(
                "INSERT INTO ranked_games (match_id, number, game_id) VALUES (?, ?, ?)"
                " ON CONFLICT (match_id, number) DO NOTHING RETURNING number",
                (match_id, number, game_id),
            )
            if not rows:
                return []
            await tx.execute(
                "UPDATE ranked_matches SET games = ?, game_id = ? WHERE id = ? AND games < ?",
                (number, game_id, match_id, number),
            )
            return await self._match_changed(tx, match_id)

    async def _match_changed(self, tx: Transaction, match_id: int) -> list[EntryRecord]:
        """The match changed: its entries (whose cards are drawn again), as they are now."""
        rows = await tx.fetch(
            "SELECT entry_a, entry_b FROM ranked_matches WHERE id = ?", (match_id,)
        )
        if not rows:
            return []
        return await self._entry_changed(tx, [int(rows[0][0]), int(rows[0][1])])

    async def count_match_game(self, match_id: int, number: int, winner: int) -> list[EntryRecord]:
        """Count game ``number`` of a match being played, won by ``winner`` (how it ended is
        the game's own ending): the match's entries as they are now, if it was counted now
        (none: before, or the match is over)."""
        async with self._writing() as tx:
            counted = await tx.execute(
                "UPDATE ranked_games SET winner = ?"
                " WHERE match_id = ? AND number = ? AND winner IS NULL"
                " AND EXISTS (SELECT 1 FROM ranked_matches WHERE id = ? AND status = 'playing')",
                (winner, match_id, number, match_id),
            )
            if not counted:
                return []
            await _won(tx, match_id, winner)
            return await self._match_changed(tx, match_id)

    async def finish_match(
        self,
        match_id: int,
        *,
        winner: int,
        how: str,
        abandoned_by: int | None,
        now: float,
    ) -> list[EntryRecord]:
        """Decide a match being played for ``winner`` (``how``: ``games`` or ``left``) and rate
        it in the season ``now`` is in, in one transaction: both players' season ratings
        (each starting from their last season's, see :func:`~bot.core.ranked.rating.carried`),
        each one's change, the match, and both entries freed. Decided by the other leaving
        it, the game being played (not yet counted) is counted too, won by ``winner``: the
        leaver loses it with the match (a game that ended by itself a moment before, not
        counted yet, is counted for whoever won it). The entries as they are now, if it was
        decided now (none: it was before)."""
        season = season_of(now)
        async with self._writing() as tx:
            rows = await tx.fetch(
                f"SELECT {_MATCH_COLUMNS} FROM ranked_matches WHERE id = ? AND status = 'playing'"
                + (" FOR UPDATE" if self.db.dialect is Dialect.POSTGRES else ""),
                (match_id,),
            )
            if not rows:
                return []
            match = _match(rows[0])
            if how == Ending.LEFT:
                # (A game that ended a moment before, not counted yet, goes to its own winner.)
                counted = await tx.fetch(
                    "UPDATE ranked_games SET winner = COALESCE((SELECT r.user_id FROM results r"
                    " WHERE r.game_id = ranked_games.game_id AND r.won = 1 LIMIT 1), ?)"
                    " WHERE match_id = ? AND winner IS NULL RETURNING winner",
                    (winner, match_id),
                )
                for (won_by,) in counted:
                    await _won(tx, match_id, int(won_by))
            loser = match.opponent(winner)
            names = await self._names(tx, match)
            before_w = await self._season_start(tx, season, winner, names[winner], now)
            before_l = await self._season_start(tx, season, loser, names[loser], now)
            after_w, after_l = rate_match(before_w, before_l, now)
            await tx.executemany(_UPSERT_RATING, [_rating_row(after_w), _rating_row(after_l)])
            await tx.executemany(
                "INSERT INTO ranked_changes (match_id, user_id, season, mu_before, sigma_before,"
                " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (match_id, b.user_id, season, b.mu, b.sigma, a.mu, a.sigma)
                    for b, a in ((before_w, after_w), (before_l, after_l))
                ],
            )
            await tx.execute(
                "UPDATE ranked_matches SET status = ?, winner = ?, how = ?, abandoned_by = ?,"
                " season = ?, ended_at = ? WHERE id = ?",
                (str(MatchStatus.FINISHED), winner, how, abandoned_by, season, now, match_id),
            )
            await tx.execute(
                "UPDATE ranked_entries SET status = 'done', ended_at = ? WHERE match_id = ?",
                (now, match_id),
            )
            return await self._entry_changed(tx, [match.entry_a, match.entry_b])

    async def _names(self, tx: Transaction, match: MatchRecord) -> dict[int, str]:
        rows = await tx.fetch(
            "SELECT user_id, name FROM ranked_entries WHERE id IN (?, ?)",
            (match.entry_a, match.entry_b),
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def _season_start(
        self, tx: Transaction, season: str, user_id: int, name: str, now: float
    ) -> RatingRecord:
        """The player's rating in ``season`` before this match: kept, or carried from their
        latest season before it (a newcomer's, for their first)."""
        rows = await tx.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ranked_ratings WHERE season = ? AND user_id = ?",
            (season, user_id),
        )
        if rows:
            kept = _rating(rows[0])
            return kept if kept.name == name else _renamed(kept, name)
        earlier = await tx.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ranked_ratings WHERE user_id = ? AND season < ?"
            " ORDER BY season DESC LIMIT 1",
            (user_id, season),
        )
        return carried(_rating(earlier[0]) if earlier else None, season, user_id, name, now)

    # -- ratings and the ladder -------------------------------------------------------------
    async def season_rating(self, season: str, user_id: int) -> RatingRecord | None:
        """The player's rating in ``season`` (None: no match in it)."""
        return await self._one(
            _rating,
            f"SELECT {_RATING_COLUMNS} FROM ranked_ratings WHERE season = ? AND user_id = ?",
            (season, user_id),
        )

    async def latest_rating(
        self, user_id: int, *, before: str | None = None
    ) -> RatingRecord | None:
        """The player's rating of their latest season (before ``before``, when given)."""
        return await self._one(
            _rating,
            f"SELECT {_RATING_COLUMNS} FROM ranked_ratings WHERE user_id = ?"
            + (" AND season < ?" if before is not None else "")
            + " ORDER BY season DESC LIMIT 1",
            (user_id, before) if before is not None else (user_id,),
        )

    async def ladder(self, season: str, *, at_least: int, limit: int) -> list[RatingRecord]:
        """The season's standings: the players with ``at_least`` matches, best first."""
        return await self._all(
            _rating,
            f"SELECT {_RATING_COLUMNS} FROM ranked_ratings WHERE season = ? AND matches >= ?"
            " ORDER BY ordinal DESC, matches DESC, user_id LIMIT ?",
            (season, at_least, limit),
        )

    async def ladder_place(self, season: str, user_id: int, *, at_least: int) -> int | None:
        """Where the player stands in the season's standings (from 1; None: not ranked)."""
        rows = await self._read(
            "SELECT 1 + (SELECT COUNT(*) FROM ranked_ratings o WHERE o.season = r.season"
            " AND o.matches >= ? AND (o.ordinal > r.ordinal OR (o.ordinal = r.ordinal"
            " AND (o.matches > r.matches OR (o.matches = r.matches AND o.user_id < r.user_id)))))"
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
            _rating,
            f"SELECT {_R_RATING_COLUMNS} FROM ranked_ratings r"
            " WHERE r.season < ? AND r.matches >= ? AND NOT EXISTS (SELECT 1 FROM ranked_ratings o"
            " WHERE o.season = r.season AND o.matches >= ? AND (o.ordinal > r.ordinal"
            " OR (o.ordinal = r.ordinal AND (o.matches > r.matches"
            " OR (o.matches = r.matches AND o.user_id < r.user_id)))))"
            " ORDER BY r.season DESC LIMIT ?",
            (before, at_least, at_least, limit),
        )

    async def match_lines(self, user_id: int, *, limit: int) -> list[MatchLine]:
        """The player's latest finished matches, newest first."""
        return await self._all(
            _LINE,
            "SELECT m.id, CASE WHEN m.player_a = ? THEN m.player_b ELSE m.player_a END,"
            " o.name, m.winner = ?, CASE WHEN m.player_a = ? THEN m.wins_a ELSE m.wins_b END,"
            " CASE WHEN m.player_a = ? THEN m.wins_b ELSE m.wins_a END, m.how,"
            " c.mu_before, c.sigma_before, c.mu_after, c.sigma_after, m.ended_at"
            " FROM ranked_changes c JOIN ranked_matches m ON m.id = c.match_id"
            " JOIN ranked_entries o ON o.id = CASE WHEN m.player_a = ? THEN m.entry_b"
            " ELSE m.entry_a END WHERE c.user_id = ? ORDER BY c.match_id DESC LIMIT ?",
            (user_id, user_id, user_id, user_id, user_id, user_id, limit),
        )

    async def match_changes(self, match_id: int) -> dict[int, tuple[float, float, float, float]]:
        """Each player's rating change in a finished match: (mu, sigma) before, then after."""
        rows = await self._read(
            "SELECT user_id, mu_before, sigma_before, mu_after, sigma_after FROM ranked_changes"
            " WHERE match_id = ?",
            (match_id,),
        )
        return {int(r[0]): (float(r[1]), float(r[2]), float(r[3]), float(r[4])) for r in rows}

    # -- fair play ----------------------------------------------------------------------------
    async def block_player(self, user_id: int, blocked_id: int, name: str, *, now: float) -> None:
        """``user_id`` is never matched with ``blocked_id`` again (until they unblock)."""
        await self.db.execute(
            "INSERT INTO ranked_blocks (user_id, blocked_id, name, at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id, blocked_id) DO UPDATE SET name = excluded.name",
            (user_id, blocked_id, name, now),
        )

    async def unblock_player(self, user_id: int, blocked_id: int) -> bool:
        """Lift a block; whether there was one."""
        return bool(
            await self.db.execute(
                "DELETE FROM ranked_blocks WHERE user_id = ? AND blocked_id = ?",
                (user_id, blocked_id),
            )
        )

    async def blocked_players(self, user_id: int) -> list[tuple[int, str]]:
        """Whom the player blocked, by name."""
        rows = await self._read(
            "SELECT blocked_id, name FROM ranked_blocks WHERE user_id = ? ORDER BY name",
            (user_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def blocks_among(self, user_ids: Sequence[int]) -> set[tuple[int, int]]:
        """The blocks in which ``user_ids`` block or are blocked: (who, whom)."""
        if not user_ids:
            return set()
        ids = tuple(user_ids)
        rows = await self._read(
            "SELECT user_id, blocked_id FROM ranked_blocks"
            f" WHERE user_id IN ({marks(ids)}) OR blocked_id IN ({marks(ids)})",
            ids + ids,
        )
        return {(int(r[0]), int(r[1])) for r in rows}

    async def past_opponents(self, user_id: int, *, limit: int) -> list[tuple[int, str]]:
        """The players ``user_id`` met in ranked matches, latest first, each once."""
        rows = await self._read(
            "SELECT o.user_id, o.name, MAX(m.id) FROM ranked_matches m"
            " JOIN ranked_entries o ON o.id = CASE WHEN m.player_a = ? THEN m.entry_b"
            " ELSE m.entry_a END WHERE m.player_a = ? OR m.player_b = ?"
            " GROUP BY o.user_id, o.name ORDER BY MAX(m.id) DESC LIMIT ?",
            (user_id, user_id, user_id, limit),
        )
        seen: dict[int, str] = {}
        for row in rows:
            seen.setdefault(int(row[0]), str(row[1]))
        return list(seen.items())

    async def abandoned(self, user_id: int, *, since: float) -> tuple[int, float | None]:
        """How many matches the player abandoned since ``since``, and when the last ended."""
        rows = await self._read(
            "SELECT COUNT(*), MAX(ended_at) FROM ranked_matches"
            " WHERE abandoned_by = ? AND ended_at >= ?",
            (user_id, since),
        )
        count, last = rows[0]
        return int(count), (None if last is None else float(last))

    async def last_opponent(self, user_id: int) -> int | None:
        """The opponent of the player's latest match."""
        rows = await self._read(
            "SELECT CASE WHEN player_a = ? THEN player_b ELSE player_a END FROM ranked_matches"
            " WHERE player_a = ? OR player_b = ? ORDER BY id DESC LIMIT 1",
            (user_id, user_id, user_id),
        )
        return int(rows[0][0]) if rows else None


async def _won(tx: Transaction, match_id: int, winner: int) -> None:
    """One more game of the match won by ``winner``."""
    await tx.execute(
        "UPDATE ranked_matches SET"
        " wins_a = wins_a + CASE WHEN player_a = ? THEN 1 ELSE 0 END,"
        " wins_b = wins_b + CASE WHEN player_b = ? THEN 1 ELSE 0 END WHERE id = ?",
        (winner, winner, match_id),
    )


async def _new_match(tx: Transaction, a: EntryRecord, b: EntryRecord, now: float) -> MatchRecord:
    """Write the match of ``a`` (who sits first) and ``b``, started ``now``."""
    made = await tx.fetch(
        "INSERT INTO ranked_matches (entry_a, entry_b, player_a, player_b, started_at)"
        f" VALUES (?, ?, ?, ?, ?) RETURNING {_MATCH_COLUMNS}",
        (a.id, b.id, a.user_id, b.user_id, now),
    )
    return _match(made[0])


def _renamed(rating: RatingRecord, name: str) -> RatingRecord:
    """``rating`` under the name its player goes by now."""
    return RatingRecord(
        rating.season,
        rating.user_id,
        name,
        rating.mu,
        rating.sigma,
        rating.matches,
        rating.wins,
        rating.updated_at,
    )
