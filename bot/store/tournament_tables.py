"""The store's tournaments: the events, their entrants and pairings as they are read; each
round's pairings as they are made and decided are :mod:`~bot.store.pairing_tables`'
(:class:`TournamentTables` is both).

Every change to a tournament moves its version on in the same transaction (on PostgreSQL it is
announced there too, as a game's change is: :mod:`~bot.store.tournament_rows`), so the process
that sends hears of it and draws the tournament's message again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.tournaments.records import (
    ChampionRecord,
    EntrantRecord,
    PairingRecord,
    TournamentBusy,
    TournamentPlan,
    TournamentRecord,
    TournamentStatus,
)
from bot.store.database import Transaction, UniqueViolation
from bot.store.pairing_tables import PairingTables
from bot.store.queries import people_acting
from bot.store.rows import columns, reader
from engine.formats import TournamentFormat

__all__ = ["TournamentTables", "insert_entrant", "insert_tournament"]

#: Each record's columns (its fields, in order) and what reads it from a row of them.
_COLUMNS, _tournament = columns(TournamentRecord), reader(TournamentRecord)
_PAIRING_COLUMNS, _pairing = columns(PairingRecord), reader(PairingRecord)
_ENTRANT_COLUMNS, _entrant = columns(EntrantRecord), reader(EntrantRecord)
#: What a write that breaks the one-tournament-per-channel index names (PostgreSQL: the
#: index; SQLite: its column).
_ONE_PER_CHANNEL = frozenset({"tournaments_one_per_channel", "tournaments.channel_id"})


async def insert_tournament(
    tx: Transaction, plan: TournamentPlan, *, now: float
) -> TournamentRecord:
    """The tournament ``plan`` says, opened (taking entrants) at ``now`` in ``tx`` (its version
    is for the caller to move on; the organiser's act: their row made if it is not there).
    Raises :class:`TournamentBusy`."""
    acting = people_acting([plan.organiser_id])
    assert acting is not None
    await acting.run(tx)
    try:
        rows = await tx.fetch(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, format, rounds,"
            " target, scoring, round_hours, created_at, match_games, playoff, variant)"
            f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
            (
                plan.guild_id,
                plan.channel_id,
                plan.organiser_id,
                plan.format.name,
                plan.rounds,
                plan.target,
                plan.scoring,
                plan.round_hours,
                now,
                plan.match_games,
                plan.playoff,
                plan.variant,
            ),
        )
    except UniqueViolation as broken:
        if broken.names in _ONE_PER_CHANNEL:
            raise TournamentBusy() from None
        raise
    return _tournament(rows[0])


async def insert_entrant(
    tx: Transaction, tournament_id: int, user_id: int, name: str, *, status: str = "open"
) -> bool:
    """Add an entrant in ``tx`` to a tournament whose status is ``status`` (taking entrants,
    or, for a club night's late arrival, being played), after the others (False: already in,
    or the tournament is not so). The tournament's version is for the caller to move on. The
    entrant's act: their row made if it is not there."""
    acting = people_acting([user_id])
    assert acting is not None
    await acting.run(tx)
    rows = await tx.fetch(
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, seed)"
        " SELECT ?, ?, ?, (SELECT COALESCE(MAX(seed), 0) + 1 FROM tournament_entrants"
        " WHERE tournament_id = ?)"
        " WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = ?)"
        " ON CONFLICT DO NOTHING RETURNING seed",
        (tournament_id, user_id, name, tournament_id, tournament_id, status),
    )
    return bool(rows)


class TournamentTables(PairingTables):
    """Tournaments and their entrants, and (:class:`PairingTables`) their rounds' pairings."""

    async def create_tournament(self, plan: TournamentPlan, *, now: float) -> TournamentRecord:
        """Open the tournament ``plan`` says, taking entrants, at ``now``. Raises
        :class:`TournamentBusy`."""
        async with self._writing() as tx:
            record = await insert_tournament(tx, plan, now=now)
            await self._bumped(tx, record.id)
        return record

    async def tournament(self, tournament_id: int) -> TournamentRecord | None:
        """One tournament by its id."""
        return await self._one(
            _tournament, f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )

    async def tournament_in_channel(self, channel_id: int) -> TournamentRecord | None:
        """The channel's tournament taking entrants or being played; else its latest."""
        return await self._one(
            _tournament,
            f"SELECT {_COLUMNS} FROM tournaments WHERE channel_id = ?"
            " ORDER BY CASE WHEN status IN ('open', 'running') THEN 0 ELSE 1 END, id DESC"
            " LIMIT 1",
            (channel_id,),
        )

    async def recent_tournaments(self, since: float) -> list[TournamentRecord]:
        """Every tournament open, running, or ended since ``since``."""
        return await self._all(
            _tournament,
            f"SELECT {_COLUMNS} FROM tournaments WHERE status IN ('open', 'running')"
            " OR finished_at >= ? ORDER BY id",
            (since,),
        )

    async def entrants(self, tournament_id: int) -> list[EntrantRecord]:
        """A tournament's entrants in the order they joined."""
        return await self._all(
            _entrant,
            f"SELECT {_ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ?"
            " ORDER BY seed",
            (tournament_id,),
        )

    async def pairings(self, tournament_id: int) -> list[PairingRecord]:
        """Every pairing of every round so far, by round and table."""
        return await self._all(
            _pairing,
            f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament_id = ?"
            " ORDER BY round, tab",
            (tournament_id,),
        )

    async def enter(self, tournament_id: int, user_id: int, name: str) -> bool:
        """Add an entrant to a tournament taking entrants (their act: their row made if it
        is not there; False: already in, or it no longer takes entrants)."""
        async with self._writing() as tx:
            entered = await insert_entrant(tx, tournament_id, user_id, name)
            if entered:
                await self._bumped(tx, tournament_id)
        return entered

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Take an entrant out of a tournament still taking entrants (False: not in it)."""
        return await self._changes(
            tournament_id,
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?"
            " AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')",
            (tournament_id, user_id, tournament_id),
        )

    async def withdraw(self, tournament_id: int, user_id: int, round_: int) -> bool:
        """An entrant of a running tournament withdraws in ``round_`` (False: not in it, or
        withdrawn already). Each of their pairings still to be decided moves on (its
        version), so a game opened for it from a read before this is refused."""
        async with self._writing() as tx:
            done = await tx.execute(
                "UPDATE tournament_entrants SET withdrawn = ?"
                " WHERE tournament_id = ? AND user_id = ? AND withdrawn IS NULL",
                (round_, tournament_id, user_id),
            )
            if done:
                await tx.execute(
                    "UPDATE tournament_pairings SET version = version + 1 WHERE tournament_id = ?"
                    " AND decided IS NULL AND (player_a = ? OR player_b = ?)",
                    (tournament_id, user_id, user_id),
                )
                await self._bumped(tx, tournament_id)
        return bool(done)

    async def tournaments_of(self, guild_id: int | None, user_id: int) -> tuple[int, int]:
        """How many of a server's tournaments a player has played (started with them in
        it, cancelled since or not: its first round paired) and won."""
        rows = await self._read(
            "SELECT COUNT(*), SUM(CASE WHEN t.champion_id = ? THEN 1 ELSE 0 END)"
            " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE t.guild_id = ? AND e.user_id = ?"
            " AND (t.round > 0 OR t.status IN ('running', 'finished'))",
            (user_id, guild_id, user_id),
        )
        return (int(rows[0][0]), int(rows[0][1] or 0)) if rows else (0, 0)

    async def tournament_champions(self, guild_id: int, *, limit: int) -> list[ChampionRecord]:
        """A server's finished tournaments' champions, the latest first."""
        rows = await self._read(
            "SELECT t.champion_id, e.name, t.format, t.channel_id,"
            " (SELECT COUNT(*) FROM tournament_entrants n WHERE n.tournament_id = t.id),"
            " t.finished_at, t.variant FROM tournaments t JOIN tournament_entrants e"
            " ON e.tournament_id = t.id AND e.user_id = t.champion_id"
            " WHERE t.guild_id = ? AND t.status = 'finished'"
            " ORDER BY t.finished_at DESC, t.id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [
            ChampionRecord(
                int(r[0]),
                str(r[1]),
                TournamentFormat.from_name(str(r[2])),
                int(r[3]),
                int(r[4]),
                float(r[5]),
                str(r[6]),
            )
            for r in rows
        ]

    async def reseed(self, tournament_id: int, order: Sequence[int]) -> None:
        """Number the entrants in ``order`` (best seed first)."""
        async with self._writing() as tx:
            await tx.executemany(
                "UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? AND user_id = ?",
                [(seed, tournament_id, user) for seed, user in enumerate(order, 1)],
            )
            await self._bumped(tx, tournament_id)

    async def start_tournament(self, tournament_id: int, *, rounds: int | None = None) -> bool:
        """Start a tournament taking entrants (with how many rounds it plays, when given);
        False if it was not taking entrants."""
        return await self._changes(
            tournament_id,
            "UPDATE tournaments SET status = 'running', rounds = COALESCE(?, rounds)"
            " WHERE id = ? AND status = 'open'",
            (rounds, tournament_id),
        )

    async def end_tournament(
        self, tournament_id: int, how: TournamentStatus, *, now: float, champion: int | None = None
    ) -> bool:
        """End a tournament being played at ``now``, ``how`` (finished, with its champion, or
        cancelled); False if it was not being played. Its pairings still to be decided move
        on (a game opened for one from a read before this is refused)."""
        return await self._tournament_ended(
            tournament_id,
            "UPDATE tournaments SET status = ?, finished_at = ?, champion_id = ?"
            " WHERE id = ? AND status = 'running'",
            (str(how), now, champion, tournament_id),
        )

    async def cancel_tournament(self, tournament_id: int, *, by: int, now: float) -> bool:
        """Cancel a tournament taking entrants or being played (False: it had ended): the act
        of ``by`` (their row made if it is not there), as :meth:`end_tournament`."""
        return await self._tournament_ended(
            tournament_id,
            "UPDATE tournaments SET status = 'cancelled', finished_at = ?, cancelled_by = ?"
            " WHERE id = ? AND status IN ('open', 'running')",
            (now, by, tournament_id),
            by=by,
        )

    async def _tournament_ended(
        self, tournament_id: int, sql: str, params: Sequence[Any], *, by: int | None = None
    ) -> bool:
        """The tournament ended by ``sql`` (the act of ``by``, if any): whether it did; its
        pairings still to be decided moved on with it."""
        acting = people_acting([by])
        async with self._writing() as tx:
            if acting is not None:
                await acting.run(tx)
            done = await tx.execute(sql, params)
            if done:
                await tx.execute(
                    "UPDATE tournament_pairings SET version = version + 1"
                    " WHERE tournament_id = ? AND decided IS NULL",
                    (tournament_id,),
                )
                await self._bumped(tx, tournament_id)
        return bool(done)
