"""The store's ranked matches: each match and its games, a game counted once for its winner, and
a match decided once, rated in the same transaction (both players' season ratings, each one's
change, both entries freed).

- **Counted once.** A game of a match is counted where it is not yet, and the match is
  finished (rated, its entries freed) where it is still being played, each in the
  transaction that checks it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.core.games.endings import Ending
from bot.core.games.records import ordinal
from bot.core.ranked.rating import carried, rate_match, season_of
from bot.core.ranked.records import (
    EntryRecord,
    MatchGame,
    MatchRecord,
    MatchStatus,
    RatingRecord,
)
from bot.store.database import Transaction
from bot.store.one_game_here import LIVE
from bot.store.ranked_rows import (
    ENTRY_COLUMNS,
    MATCH_COLUMNS,
    RATING_COLUMNS,
    EntryChanges,
    live_or_ended_since,
    read_entry,
    read_game,
    read_match,
    read_rating,
)

__all__ = ["MatchTables"]

_PLAYING_OR_ENDED = live_or_ended_since("ranked_matches", MATCH_COLUMNS, "status = 'playing'")

#: A match's games, each with how it ended: the game's own ending (``games.ending``).
_MATCH_GAMES = (
    "SELECT rg.match_id, rg.number, rg.game_id, rg.winner, g.ending FROM ranked_games rg"
    " LEFT JOIN games g ON g.id = rg.game_id WHERE rg.match_id = ? ORDER BY rg.number"
)
_UPSERT_RATING = (
    f"INSERT INTO ranked_ratings ({RATING_COLUMNS}, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (season, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
    " sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins,"
    " updated_at = excluded.updated_at, ordinal = excluded.ordinal"
)


def _rating_row(rating: RatingRecord) -> tuple[Any, ...]:
    """A rating as ``_UPSERT_RATING`` writes it: its columns, then its ordinal."""
    return (*dataclasses.astuple(rating), ordinal(rating.mu, rating.sigma))


class MatchTables(EntryChanges):
    """Ranked matches and their games: counted, decided and rated."""

    async def ranked_match(self, match_id: int) -> MatchRecord | None:
        """One match by its id."""
        return await self._one(
            read_match, f"SELECT {MATCH_COLUMNS} FROM ranked_matches WHERE id = ?", (match_id,)
        )

    async def last_match_from(self, user_id: int, channel_id: int) -> MatchRecord | None:
        """The latest match ``user_id`` played from ``channel_id`` (their place), if over."""
        return await self._one(
            read_match,
            f"SELECT {MATCH_COLUMNS} FROM ranked_matches WHERE id = (SELECT match_id"
            " FROM ranked_entries WHERE user_id = ? AND channel_id = ? AND match_id IS NOT NULL"
            f" AND status NOT IN {LIVE} ORDER BY id DESC LIMIT 1)",
            (user_id, channel_id),
        )

    async def matches_since(self, since: float) -> list[MatchRecord]:
        """Every match being played, and every one that ended since ``since``."""
        return await self._all(read_match, _PLAYING_OR_ENDED, (since,))

    async def match_entries(self, match: MatchRecord) -> tuple[EntryRecord, EntryRecord]:
        """The match's two entries: the first player's, then the second's."""
        rows = await self._read(
            f"SELECT {ENTRY_COLUMNS} FROM ranked_entries WHERE id IN (?, ?)",
            (match.entry_a, match.entry_b),
        )
        found = {e.id: e for e in map(read_entry, rows)}
        return found[match.entry_a], found[match.entry_b]

    async def match_games(self, match_id: int) -> list[MatchGame]:
        """The match's games, in order."""
        return await self._all(read_game, _MATCH_GAMES, (match_id,))

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
                "UPDATE ranked_matches SET games = ?, game_id = ?, version = version + 1"
                " WHERE id = ? AND games < ?",
                (number, game_id, match_id, number),
            )
            return await self._match_changed(tx, match_id)

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
        winner: int | None,
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
        counted yet, is counted for whoever won it). ``winner`` None (``how``:
        :data:`~bot.core.ranked.records.NOT_RATED`): the match ends without a result, its
        entries freed, nobody's rating touched (no season, no change, abandoned by nobody).
        The entries as they are now, if it was decided now (none: it was before)."""
        season = season_of(now)
        async with self._writing() as tx:
            # The match taken from being played, a compare-and-set of its state that moves its
            # version on: of two decisions at once (in any processes) the second finds it
            # played no more and changes nothing.
            rows = await tx.fetch(
                "UPDATE ranked_matches SET version = version + 1 WHERE id = ?"
                f" AND status = 'playing' RETURNING {MATCH_COLUMNS}",
                (match_id,),
            )
            if not rows:
                return []
            match = read_match(rows[0])
            if winner is None:
                return await self._ended(tx, match, (None, how, None, None, now))
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
            return await self._ended(tx, match, (winner, how, abandoned_by, season, now))

    async def _ended(
        self,
        tx: Transaction,
        match: MatchRecord,
        decided: tuple[int | None, str, int | None, str | None, float],
    ) -> list[EntryRecord]:
        """The match finished as ``decided`` says (winner, how, abandoned by, season, when),
        both its entries freed; the entries as they are now."""
        winner, how, abandoned_by, season, now = decided
        await tx.execute(
            "UPDATE ranked_matches SET status = ?, winner = ?, how = ?, abandoned_by = ?,"
            " season = ?, ended_at = ?, version = version + 1 WHERE id = ?",
            (str(MatchStatus.FINISHED), winner, how, abandoned_by, season, now, match.id),
        )
        await tx.execute(
            "UPDATE ranked_entries SET status = 'done', ended_at = ? WHERE match_id = ?",
            (now, match.id),
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
            f"SELECT {RATING_COLUMNS} FROM ranked_ratings WHERE season = ? AND user_id = ?",
            (season, user_id),
        )
        if rows:
            return dataclasses.replace(read_rating(rows[0]), name=name)
        earlier = await tx.fetch(
            f"SELECT {RATING_COLUMNS} FROM ranked_ratings WHERE user_id = ? AND season < ?"
            " ORDER BY season DESC LIMIT 1",
            (user_id, season),
        )
        return carried(read_rating(earlier[0]) if earlier else None, season, user_id, name, now)


async def _won(tx: Transaction, match_id: int, winner: int) -> None:
    """One more game of the match won by ``winner``."""
    await tx.execute(
        "UPDATE ranked_matches SET"
        " wins_a = wins_a + CASE WHEN player_a = ? THEN 1 ELSE 0 END,"
        " wins_b = wins_b + CASE WHEN player_b = ? THEN 1 ELSE 0 END, version = version + 1"
        " WHERE id = ?",
        (winner, winner, match_id),
    )
