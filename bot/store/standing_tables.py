"""The store's standings: the ratings, totals and head to head derived from the results (written
with each result, :mod:`bot.store.standings`), and the reads of ``/cribbage leaderboard`` and
``stats``."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from bot.core.base.store_errors import Raced, decided_again
from bot.core.games.records import FOUR_CARD_SHOWS, RatingChange, ordinal_sql
from bot.core.standings.records import Ranked, Rival, Standing
from bot.store import standings as derived
from bot.store.database import Overtaken, Transaction
from bot.store.queries import Queries, marks, people_acting
from bot.store.result_tables import RESULT_COLUMNS, result_of
from engine.variants import STANDARD

__all__ = ["StandingTables"]

#: How many times a rebuild of the ratings is made before it gives up: each time, a game
#: finished meanwhile moved on a standing it read (a busy bot finishes several a second).
_REBUILD_TRIES = 5


class StandingTables(Queries):
    """The standings: read for the leaderboard and stats, replayed and rebuilt from the results."""

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

    async def _finished_games(
        self, guild_id: int | None = None, on: Transaction | None = None
    ) -> list[derived.Finished]:
        """Every result (or, given ``guild_id``, that server's), grouped by game, in the order
        the results were recorded (read in ``on``, when given)."""
        where = "" if guild_id is None else " WHERE COALESCE(guild_id, 0) = ?"
        rows = await (self.db if on is None else on).fetch(
            f"SELECT game_id, rated_order, COALESCE(guild_id, 0) AS guild, finished_at,"
            f" {RESULT_COLUMNS}"
            f" FROM results{where} ORDER BY rated_order, game_id, seat",
            () if guild_id is None else (guild_id,),
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
                    tuple(result_of(row) for row in members),
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
            stored.standings[(s.guild_id, s.variant, s.vs_computer, s.player_id)] = s
        for r in map(derived.rival, rivals):
            stored.rivals[(r.guild_id, r.user_id, r.opponent_id)] = r
        stored.changes = [derived.change(row) for row in changes]
        return stored

    async def rebuild_ratings(self) -> derived.Replayed:
        """Recompute every rating, total and head to head from the results, in the order
        they were recorded, and store them in place of what was there (one transaction)."""
        return await self._rebuilt(None)

    async def rebuild_server_ratings(self, guild_id: int) -> None:
        """Recompute one server's ratings, totals and head to head from its results (each
        server's tables are rated apart, so this gives what a whole rebuild would), in place
        of what was there (one transaction): after some of its games were deleted."""
        await self._rebuilt(guild_id)

    async def _rebuilt(self, guild_id: int | None) -> derived.Replayed:
        """The results (every server's, or ``guild_id``'s) replayed and written in place of
        the standings, rating changes and head to head, in one transaction with one snapshot:
        the results are read in it, and what it deletes and writes is what that snapshot
        holds. A game finishing meanwhile in any process either commits before the snapshot
        (it is read) or after: its rows are new to the snapshot and stay, and a standing it
        moved on is one this transaction cannot write over (PostgreSQL refuses it:
        :class:`~bot.store.database.Overtaken`), so the rebuild is made again from a new
        read (:func:`~bot.core.base.store_errors.decided_again`). No lock is taken."""

        async def once() -> derived.Replayed:
            try:
                return await self._rebuilt_once(guild_id)
            except Overtaken:
                raise Raced() from None

        return await decided_again(once, tries=_REBUILD_TRIES)

    async def _rebuilt_once(self, guild_id: int | None) -> derived.Replayed:
        where = "" if guild_id is None else " WHERE guild_id = ?"
        params: tuple[int, ...] = () if guild_id is None else (guild_id,)
        async with self._writing(snapshot=True) as tx:
            games = await self._finished_games(guild_id, tx)
            replayed = derived.replay(games)
            computers = people_acting(derived.computers_rated(r for g in games for r in g.results))
            if computers is not None:
                await computers.run(tx)
            for table in ("standings", "rating_changes", "rivals"):
                await tx.execute(f"DELETE FROM {table}{where}", params)
            for sql, rows in derived.writes(replayed):
                await tx.executemany(sql, rows)
        return replayed

    async def ranking(
        self,
        guild_id: int | None,
        *,
        vs_computer: bool = False,
        offset: int = 0,
        limit: int = 10,
        variant: str = STANDARD.name,
    ) -> tuple[int, list[Ranked]]:
        """How many players a server's table of ``variant`` has, and ``limit`` of them from
        ``offset``, best first (by ordinal), each with the ordinal before their last 10
        games."""
        key = (guild_id or 0, variant, int(vs_computer))
        table = "guild_id = ? AND variant = ? AND vs_computer = ?"
        rows = await self._read(
            f"SELECT {derived.STANDING_COLUMNS},"
            f" (SELECT COUNT(*) FROM standings WHERE {table}) AS total,"
            f" {derived.TREND_FROM} AS trend_from"
            f" FROM standings s WHERE {table}"
            " ORDER BY ordinal DESC, player_id LIMIT ? OFFSET ?",
            (*key, *key, limit, offset),
        )
        if not rows:
            counted = await self._read(f"SELECT COUNT(*) FROM standings WHERE {table}", key)
            return int(counted[0][0]), []
        return rows[0]["total"], [
            Ranked(derived.standing(row), offset + place, row["total"], row["trend_from"])
            for place, row in enumerate(rows, start=1)
        ]

    async def standing(
        self, guild_id: int | None, player_id: int, variant: str = STANDARD.name
    ) -> dict[bool, Ranked]:
        """A player's standing in each of the server's tables of ``variant`` they have played
        in, with their rank, keyed by ``vs_computer``."""
        rows = await self._read(
            f"SELECT {derived.STANDING_COLUMNS},"
            " (SELECT COUNT(*) FROM standings o WHERE o.guild_id = s.guild_id"
            "   AND o.variant = s.variant AND o.vs_computer = s.vs_computer"
            "   AND (o.ordinal > s.ordinal"
            "   OR (o.ordinal = s.ordinal AND o.player_id < s.player_id))) + 1 AS rank,"
            " (SELECT COUNT(*) FROM standings o WHERE o.guild_id = s.guild_id"
            "   AND o.variant = s.variant AND o.vs_computer = s.vs_computer) AS total,"
            f" {derived.TREND_FROM} AS trend_from"
            " FROM standings s WHERE guild_id = ? AND variant = ? AND vs_computer IN (0, 1)"
            " AND player_id = ?",
            (guild_id or 0, variant, player_id),
        )
        return {
            bool(row["vs_computer"]): Ranked(
                derived.standing(row), row["rank"], row["total"], row["trend_from"]
            )
            for row in rows
        }

    async def levels(self, guild_id: int | None, variant: str = STANDARD.name) -> list[Standing]:
        """The computer levels' standings on a server in ``variant``, best rated first."""
        return await self._all(
            derived.standing,
            f"SELECT {derived.STANDING_COLUMNS} FROM standings"
            " WHERE guild_id = ? AND variant = ? AND vs_computer = 1 AND player_id < 0"
            " ORDER BY ordinal DESC",
            (guild_id or 0, variant),
        )

    async def variants_played(self, guild_id: int | None, player_id: int) -> list[str]:
        """The variants other than the standard game a player has finished games in on a
        server (each has tables of its own), by name."""
        rows = await self._read(
            "SELECT DISTINCT variant FROM standings"
            " WHERE guild_id = ? AND player_id = ? AND variant <> ? ORDER BY variant",
            (guild_id or 0, player_id, STANDARD.name),
        )
        return [str(row[0]) for row in rows]

    async def server_points(
        self, guild_id: int | None, variant: str = STANDARD.name
    ) -> tuple[int, int, int, int]:
        """The server's people (in games between people, in ``variant``) in all: pegging,
        hand and crib points, and deals shown."""
        rows = await self._read(
            "SELECT COALESCE(SUM(pegging_points), 0), COALESCE(SUM(hand_points), 0),"
            " COALESCE(SUM(crib_points), 0), COALESCE(SUM(deals), 0)"
            " FROM standings WHERE guild_id = ? AND variant = ? AND vs_computer = 0",
            (guild_id or 0, variant),
        )
        pegging, hand, crib, deals = rows[0]
        return pegging, hand, crib, deals

    async def rating_history(
        self,
        guild_id: int | None,
        player_id: int,
        *,
        vs_computer: bool = False,
        last: int = 200,
        variant: str = STANDARD.name,
    ) -> list[tuple[float, float]]:
        """The player's ordinal after each of their last ``last`` games in one of the server's
        tables (of ``variant``), with when the game finished, oldest first."""
        rows = await self._read(
            f"SELECT {ordinal_sql('mu_after', 'sigma_after')}, finished_at FROM rating_changes"
            " WHERE guild_id = ? AND variant = ? AND vs_computer = ? AND player_id = ?"
            " ORDER BY rated_order DESC LIMIT ?",
            (guild_id or 0, variant, int(vs_computer), player_id, last),
        )
        return [(row[0], row[1]) for row in reversed(rows)]

    async def game_rating_changes(self, game_id: int) -> list[RatingChange]:
        """A finished game's rating changes, in seat order (empty for any other game)."""
        return await self._all(
            derived.change,
            f"SELECT {derived.CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )

    async def best_hands(
        self, guild_id: int | None, user_id: int, *, limit: int = 3
    ) -> list[tuple[int, str, int | None]]:
        """A player's best hands on a server (points, cards and the channel of the game they
        were held in), best and earliest first: hands of four cards and the starter, in the
        standard game or a variant that shows them (five and six players); five-card and
        seven-card cribbage's hands, of three and five, are not ranked beside them."""
        shows = FOUR_CARD_SHOWS
        rows = await self._read(
            "SELECT r.best_hand, r.best_hand_cards,"
            " (SELECT g.channel_id FROM games g WHERE g.id = r.game_id) FROM results r"
            " WHERE r.guild_id IS NOT DISTINCT FROM ? AND r.user_id = ?"
            f" AND r.best_hand_cards IS NOT NULL AND r.variant IN ({marks(shows)})"
            " ORDER BY r.best_hand DESC, r.finished_at LIMIT ?",
            (guild_id, user_id, *shows, limit),
        )
        return [(row[0], row[1], None if row[2] is None else int(row[2])) for row in rows]

    async def game_channels(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The channel each of ``game_ids`` was played in (those that exist)."""
        return await self._of_games("channel_id", game_ids)

    async def game_targets(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The target each of ``game_ids`` was played to (those that exist)."""
        return await self._of_games("target", game_ids)

    async def _of_games(self, column: str, game_ids: Sequence[int]) -> dict[int, int]:
        """``column`` (a name written in this module, never input) of each of ``game_ids``
        that exists, in one query."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._read(
            f"SELECT id, {column} FROM games WHERE id IN ({marks})", tuple(wanted)
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def rival(self, guild_id: int | None, user_id: int, opponent_id: int) -> Rival | None:
        """``user_id``'s head to head against ``opponent_id`` on a server, or None."""
        return await self._one(
            derived.rival,
            f"SELECT {derived.RIVAL_COLUMNS} FROM rivals"
            " WHERE guild_id = ? AND user_id = ? AND opponent_id = ?",
            (guild_id or 0, user_id, opponent_id),
        )
