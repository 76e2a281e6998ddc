"""What the parts of the tournaments' store share: a tournament's change (its version moved
on, announced).

Every change to a tournament moves its version on in the same transaction (on PostgreSQL it is
announced there too, as a game's change is), so the process that sends hears of it and draws
the tournament's message again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.base.feed import Change
from bot.core.base.owners import Owner, OwnerKind
from bot.store.announcing import announce
from bot.store.database import Dialect, Transaction
from bot.store.queries import Queries

__all__ = ["TournamentChanges", "bump_tournament"]


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
    change = Change(owner, version, channel_id)
    await announce(tx, dialect, change)
    return change


class TournamentChanges(Queries):
    """The base of the tournaments' parts that change them: each change moves the tournament's
    version on and announces it."""

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
