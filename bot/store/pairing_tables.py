"""The store's tournament rounds as they are played: each round's pairings, each table's post,
thread and game as they are made, and its result (read with the tournament:
:meth:`~bot.store.tournament_tables.TournamentTables.pairings`).

A round is paired in the transaction that moves the tournament's round on from the one before:
two directors racing to pair it (a restart, a second process) cannot both do it. A result is
written only where none is (a moderator's correction aside), so a game's end heard twice counts
once.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.tournaments.records import Decided, Verdict
from bot.store.tournament_rows import TournamentChanges

__all__ = ["PairingTables"]


class PairingTables(TournamentChanges):
    """Each tournament round's pairings as they are made and decided."""

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
        """A pairing's thread was archived (the pairing's version moves on; the tournament's
        message does not show it, so the tournament's version stays)."""
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
                f"UPDATE tournament_pairings SET {column} = ?, version = version + 1"
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
            " spread_a = spread_a + ?, game_id = NULL, version = version + 1"
            " WHERE tournament_id = ? AND round = ? AND tab = ? AND game_id = ?",
            (int(a_won), int(not a_won), signed, tournament_id, round_, tab, game_id),
        )

    async def decide(
        self, tournament_id: int, round_: int, tab: int, verdict: Verdict, *, again: bool = False
    ) -> bool:
        """Write a pairing's result (False: it had one already, unless ``again``: a
        moderator's correction, which replaces it)."""
        undecided = "" if again else " AND decided IS NULL"
        return await self._changes(
            tournament_id,
            "UPDATE tournament_pairings SET decided = ?, winner = ?, lurch = ?, margin = ?,"
            " version = version + 1"
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
