"""The store's tournaments: the events, their entrants, and each round's pairings.

Every change to a tournament moves its version on in the same transaction (on PostgreSQL it is
announced there too, as a game's change is), so the process that sends hears of it and draws
the tournament's message again. A round is paired in the transaction that moves the
tournament's round on from the one before: two directors racing to pair it (a restart, a
second process) cannot both do it. A result is written only where none is (a moderator's
correction aside), so a game's end heard twice counts once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.base.feed import Change
from bot.core.base.owners import Owner, OwnerKind
from bot.core.tournaments.records import (
    ChampionRecord,
    Decided,
    EntrantRecord,
    PairingRecord,
    TournamentBusy,
    TournamentPlan,
    TournamentRecord,
    TournamentStatus,
    Verdict,
)
from bot.store.database import Dialect, Transaction, UniqueViolation
from bot.store.game_tables import ANNOUNCE_CHANNEL
from bot.store.queries import Queries
from bot.store.rows import columns, reader
from engine.formats import TournamentFormat

__all__ = ["TournamentTables", "bump_tournament"]

#: Each record's columns (its fields, in order) and what reads it from a row of them.
_COLUMNS, _tournament = columns(TournamentRecord), reader(TournamentRecord)
_PAIRING_COLUMNS, _pairing = columns(PairingRecord), reader(PairingRecord)
_ENTRANT_COLUMNS, _entrant = columns(EntrantRecord), reader(EntrantRecord)
#: What a write that breaks the one-tournament-per-channel index names (PostgreSQL: the
#: index; SQLite: its column).
_ONE_PER_CHANNEL = frozenset({"tournaments_one_per_channel", "tournaments.channel_id"})


async def bump_tournament(tx: Transaction, dialect: Dialect, tournament_id: int) -> Change | None:
    """Move the tournament's version on (and announce it on PostgreSQL), in ``tx``: its change,
    to publish once ``tx`` is committed (None: no such tournament)."""
    rows = await tx.fetch(
        "UPDATE tournaments SET version = version + 1 WHERE id = ? RETURNING version, channel_id",
        (tournament_id,),
    )
    if not rows:
        return None
    owner = Owner(OwnerKind.TOURNAMENT, tournament_id)
    version, channel_id = int(rows[0][0]), int(rows[0][1])
    if dialect is Dialect.POSTGRES:
        payload = f"{owner}:{version}:{channel_id}"
        await tx.execute("SELECT pg_notify(?, ?)", (ANNOUNCE_CHANNEL, payload))
    return Change(owner, version, channel_id)


class TournamentTables(Queries):
    """Tournaments, their entrants and pairings."""

    async def _bumped(self, tx: Transaction, tournament_id: int) -> None:
        """Move the tournament's version on (and announce it on PostgreSQL)."""
        await bump_tournament(tx, self.db.dialect, tournament_id)

    async def _changes(self, tournament_id: int, sql: str, params: Sequence[Any]) -> bool:
        """One write that may change a tournament, whose version moves on in the same
        transaction if it did; whether it did."""
        async with self._writing() as tx:
            done = await tx.execute(sql, params)
            if done:
                await self._bumped(tx, tournament_id)
        return bool(done)

    async def create_tournament(self, plan: TournamentPlan, *, now: float) -> TournamentRecord:
        """Open the tournament ``plan`` says, taking entrants, at ``now``. Raises
        :class:`TournamentBusy`."""
        async with self._writing() as tx:
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
            record = _tournament(rows[0])
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
        """Add an entrant to a tournament taking entrants (False: already in, or it no
        longer takes entrants)."""
        async with self._writing() as tx:
            rows = await tx.fetch(
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, seed)"
                " SELECT ?, ?, ?, (SELECT COALESCE(MAX(seed), 0) + 1 FROM tournament_entrants"
                " WHERE tournament_id = ?)"
                " WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')"
                " ON CONFLICT DO NOTHING RETURNING seed",
                (tournament_id, user_id, name, tournament_id, tournament_id),
            )
            if rows:
                await self._bumped(tx, tournament_id)
        return bool(rows)

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
        withdrawn already)."""
        return await self._changes(
            tournament_id,
            "UPDATE tournament_entrants SET withdrawn = ?"
            " WHERE tournament_id = ? AND user_id = ? AND withdrawn IS NULL",
            (round_, tournament_id, user_id),
        )

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

    async def set_status(
        self,
        tournament_id: int,
        status: TournamentStatus,
        *,
        before: TournamentStatus,
        rounds: int | None = None,
        now: float | None = None,
        champion: int | None = None,
    ) -> bool:
        """Move a tournament from ``before`` to ``status`` (with how many rounds it plays, or
        when it ended and its champion); False if it was not ``before``."""
        ended = status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
        return await self._changes(
            tournament_id,
            "UPDATE tournaments SET status = ?, rounds = COALESCE(?, rounds),"
            " finished_at = ?, champion_id = ? WHERE id = ? AND status = ?",
            (str(status), rounds, now if ended else None, champion, tournament_id, str(before)),
        )

    async def cancel_tournament(self, tournament_id: int, *, by: int, now: float) -> bool:
        """Cancel a tournament taking entrants or being played (False: it had ended)."""
        return await self._changes(
            tournament_id,
            "UPDATE tournaments SET status = 'cancelled', finished_at = ?, cancelled_by = ?"
            " WHERE id = ? AND status IN ('open', 'running')",
            (now, by, tournament_id),
        )

    async def pair_round(
        self,
        tournament_id: int,
        round_: int,
        pairs: Sequence[tuple[int, int | None]],
        *,
        now: float,
    ) -> bool:
        """Store round ``round_``'s pairings (a pair ``(a, None)`` is ``a``'s bye, decided
        at once as a win) and make it the round being played; False (nothing written) if the
        tournament is not running with ``round_ - 1`` as its round: paired already."""
        async with self._writing() as tx:
            moved = await tx.execute(
                "UPDATE tournaments SET round = ?, round_started = ?, round_held = 0,"
                " refused_since = NULL WHERE id = ? AND round = ? AND status = 'running'",
                (round_, now, tournament_id, round_ - 1),
            )
            if not moved:
                return False
            await tx.executemany(
                "INSERT INTO tournament_pairings (tournament_id, round, tab, player_a, player_b,"
                " decided, winner) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        round_,
                        tab,
                        a,
                        b,
                        None if b is not None else str(Decided.BYE),
                        None if b is not None else a,
                    )
                    for tab, (a, b) in enumerate(pairs, 1)
                ],
            )
            await self._bumped(tx, tournament_id)
        return True

    async def refuse_round(
        self, tournament_id: int, round_: int, *, refused: bool, now: float
    ) -> bool:
        """Discord refuses round ``round_``'s tables from ``now`` (``refused``): its clock
        stops; or takes them again at ``now``: it goes on, the time refused held. False:
        nothing changed (it was so already, or that round is not being played)."""
        if refused:
            sql = (
                "UPDATE tournaments SET refused_since = ? WHERE id = ? AND round = ?"
                " AND status = 'running' AND refused_since IS NULL"
            )
        else:
            sql = (
                "UPDATE tournaments SET round_held = round_held + ? - refused_since,"
                " refused_since = NULL WHERE id = ? AND round = ? AND refused_since IS NOT NULL"
            )
        return await self._changes(tournament_id, sql, (now, tournament_id, round_))

    async def set_post(self, tournament_id: int, round_: int, tab: int, post_id: int) -> None:
        """The channel message a pairing's thread starts from."""
        await self._set(tournament_id, round_, tab, "post_id", post_id)

    async def set_thread(self, tournament_id: int, round_: int, tab: int, thread_id: int) -> None:
        """A pairing's thread."""
        await self._set(tournament_id, round_, tab, "thread_id", thread_id)

    async def set_archived(self, tournament_id: int, round_: int, tab: int) -> None:
        """A pairing's thread was archived (the tournament's message does not show it, so its
        version stays)."""
        await self._set(tournament_id, round_, tab, "archived", 1)

    async def set_game(self, tournament_id: int, round_: int, tab: int, game_id: int) -> None:
        """A pairing's game (the tournament's message shows its thread from now on)."""
        await self._set(tournament_id, round_, tab, "game_id", game_id, bump=True)

    async def _set(
        self,
        tournament_id: int,
        round_: int,
        tab: int,
        column: str,
        value: int,
        *,
        bump: bool = False,
    ) -> None:
        # ``column`` is one of the four names above, never input.
        async with self._writing() as tx:
            await tx.execute(
                f"UPDATE tournament_pairings SET {column} = ?"
                " WHERE tournament_id = ? AND round = ? AND tab = ?",
                (value, tournament_id, round_, tab),
            )
            if bump:
                await self._bumped(tx, tournament_id)

    async def count_game(
        self, tournament_id: int, round_: int, tab: int, game_id: int, *, a_won: bool, margin: int
    ) -> bool:
        """A game of a best of 3 ended: the winner's tally and player_a's spread move on and
        the pairing has no game until the next is opened, in one statement that counts the
        game once (False: it was counted already)."""
        signed = margin if a_won else -margin
        return await self._changes(
            tournament_id,
            "UPDATE tournament_pairings SET wins_a = wins_a + ?, wins_b = wins_b + ?,"
            " spread_a = spread_a + ?, game_id = NULL"
            " WHERE tournament_id = ? AND round = ? AND tab = ? AND game_id = ?",
            (int(a_won), int(not a_won), signed, tournament_id, round_, tab, game_id),
        )

    async def decide(
        self,
        tournament_id: int,
        round_: int,
        tab: int,
        verdict: Verdict,
        *,
        again: bool = False,
    ) -> bool:
        """Write a pairing's result (False: it had one already, unless ``again``: a
        moderator's correction, which replaces it)."""
        undecided = "" if again else " AND decided IS NULL"
        return await self._changes(
            tournament_id,
            "UPDATE tournament_pairings SET decided = ?, winner = ?, lurch = ?, margin = ?"
            f" WHERE tournament_id = ? AND round = ? AND tab = ?{undecided}",
            (
                str(verdict.how),
                verdict.winner,
                int(verdict.lurch),
                verdict.margin,
                tournament_id,
                round_,
                tab,
            ),
        )
