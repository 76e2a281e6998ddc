"""The store's part of who comes to a club night: who was interested in it (marked on its
club's Discord event) and who checked in, each entered in (or taken out of) the night's
tournament in the same transaction, which moves the tournament's version on (and announces it
on PostgreSQL, :func:`~bot.store.tournament_rows.bump_tournament`). The clubs and their nights
are :mod:`bot.store.night_tables`'.
"""

from __future__ import annotations

from bot.core.nights.records import NightPerson, NightRecord
from bot.store.database import Transaction
from bot.store.queries import people_acting
from bot.store.rows import columns, reader
from bot.store.tournament_rows import TournamentChanges
from bot.store.tournament_tables import insert_entrant

__all__ = ["NightPeopleTables"]

_PERSON_COLUMNS, _person = columns(NightPerson), reader(NightPerson)


class NightPeopleTables(TournamentChanges):
    """Who was interested in a night or checked in to it, entered in its tournament."""

    async def night_people(self, night_id: int) -> list[NightPerson]:
        """Who was interested in a night or checked in to it, in the order they came."""
        return await self._all(
            _person,
            f"SELECT {_PERSON_COLUMNS} FROM night_people WHERE night_id = ?"
            " ORDER BY checked_in IS NULL, checked_in, user_id",
            (night_id,),
        )

    async def _interest(
        self, tx: Transaction, night: NightRecord, user_id: int, name: str, yes: bool
    ) -> bool:
        """Note (or take back) a person's interest, entering them in the night's tournament
        while it takes entrants (or taking them out, if they had not checked in); whether the
        entrants changed. Their act: their row made if it is not there."""
        acting = people_acting([user_id])
        assert acting is not None
        await acting.run(tx)
        await tx.execute(
            "INSERT INTO night_people (night_id, user_id, name, interested) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (night_id, user_id) DO UPDATE SET interested = EXCLUDED.interested,"
            " name = EXCLUDED.name",
            (night.id, user_id, name, int(yes)),
        )
        if yes:
            return await insert_entrant(tx, night.tournament_id, user_id, name)
        # (A person who checked in stays in: the check-in decides who is dealt in.)
        done = await tx.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?"
            " AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')"
            " AND NOT EXISTS (SELECT 1 FROM night_people WHERE night_id = ? AND user_id = ?"
            " AND checked_in IS NOT NULL)",
            (night.tournament_id, user_id, night.tournament_id, night.id, user_id),
        )
        return bool(done)

    async def interest(self, night: NightRecord, user_id: int, name: str, yes: bool) -> bool:
        """A person marked the club's event Interested (or took it back) for ``night``: noted,
        and entered in (or taken out of) its tournament while it takes entrants; whether its
        entrants changed."""
        async with self._writing() as tx:
            changed = await self._interest(tx, night, user_id, name, yes)
            await tx.execute("UPDATE nights SET version = version + 1 WHERE id = ?", (night.id,))
            await self._bumped(tx, night.tournament_id)
        return changed

    async def check_in(self, night: NightRecord, user_id: int, name: str, *, now: float) -> bool:
        """A person checks in to a night whose check-in is open, entered in its tournament if
        they were not (a walk-in: their row made, as :func:`~bot.store.tournament_tables.
        insert_entrant` makes it, if it is not there); False: the check-in is not open (any
        more)."""
        async with self._writing() as tx:
            open_ = await tx.fetch(
                "SELECT 1 FROM nights WHERE id = ? AND state = 'check_in'", (night.id,)
            )
            if not open_:
                return False
            await tx.execute(
                "INSERT INTO night_people (night_id, user_id, name, checked_in)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (night_id, user_id) DO UPDATE SET"
                " checked_in = COALESCE(night_people.checked_in, EXCLUDED.checked_in),"
                " name = EXCLUDED.name",
                (night.id, user_id, name, now),
            )
            await insert_entrant(tx, night.tournament_id, user_id, name)
            await tx.execute("UPDATE nights SET version = version + 1 WHERE id = ?", (night.id,))
            await self._bumped(tx, night.tournament_id)
        return True

    async def drop_absent(self, night: NightRecord) -> int:
        """Take every entrant who did not check in out of the night's tournament, while it
        takes entrants; how many went."""
        async with self._writing() as tx:
            done = await tx.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ?"
                " AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')"
                " AND user_id NOT IN (SELECT user_id FROM night_people WHERE night_id = ?"
                " AND checked_in IS NOT NULL)",
                (night.tournament_id, night.tournament_id, night.id),
            )
            if done:
                await self._bumped(tx, night.tournament_id)
        return int(done)

    async def enter_late(self, night: NightRecord, user_id: int, name: str, *, now: float) -> bool:
        """A late arrival enters the night's tournament being played (its next round takes
        them), checked in as they come; False: in it already, or it is not being played."""
        async with self._writing() as tx:
            entered = await insert_entrant(tx, night.tournament_id, user_id, name, status="running")
            if not entered:
                return False
            await tx.execute(
                "INSERT INTO night_people (night_id, user_id, name, checked_in)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (night_id, user_id) DO UPDATE SET"
                " checked_in = EXCLUDED.checked_in",
                (night.id, user_id, name, now),
            )
            await self._bumped(tx, night.tournament_id)
        return True
