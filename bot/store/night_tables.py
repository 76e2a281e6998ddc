"""The store's club nights: the clubs, their nights (each with its tournament, made in the
same transaction), and each server's time zone; who was interested in a night and who checked
in is :mod:`bot.store.night_people_tables`'.

Every change to a night moves its tournament's version on in the same transaction (and
announces it on PostgreSQL, :func:`~bot.store.tournament_rows.bump_tournament`), so the
process that sends hears of it: the night's message is drawn again and the nights' director
looks at it. A step that must be taken once (check-in opening, the start, the end) is claimed
by a conditional update of the night's state (``WHERE state = ?``), so two processes, or a
process and its own retry after a stop, never both take it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.nights.records import (
    ClubBusy,
    ClubPlan,
    ClubRecord,
    EventSteps,
    NightRecord,
    NightState,
)
from bot.core.tournaments.records import TournamentPlan
from bot.store.database import Transaction, UniqueViolation
from bot.store.night_people_tables import NightPeopleTables
from bot.store.queries import people_acting
from bot.store.rows import columns, reader
from bot.store.tournament_tables import insert_tournament

__all__ = ["NightTables"]

_CLUB_COLUMNS, _club = columns(ClubRecord), reader(ClubRecord)
_NIGHT_COLUMNS, _night = columns(NightRecord), reader(NightRecord)
#: What a write that breaks the one-club-per-channel index names.
_ONE_PER_CHANNEL = frozenset({"clubs_one_per_channel", "clubs.channel_id"})
#: The states of a night not over.
_UNDER_WAY = ("scheduled", "check_in", "started")


class NightTables(NightPeopleTables):
    """Clubs, their nights, and the servers' time zones (who comes to a night:
    :class:`~bot.store.night_people_tables.NightPeopleTables`)."""

    # -- clubs ----------------------------------------------------------------------------------
    async def open_club(
        self, plan: ClubPlan, tournament: TournamentPlan, *, starts_at: float, now: float
    ) -> tuple[ClubRecord, NightRecord]:
        """A club and its first night (with the night's tournament, taking entrants), in one
        transaction (the organiser's act: their row made if it is not there). Raises
        :class:`ClubBusy`, or ``TournamentBusy``."""
        acting = people_acting([plan.organiser_id])
        assert acting is not None
        async with self._writing() as tx:
            await acting.run(tx)
            try:
                rows = await tx.fetch(
                    "INSERT INTO clubs (guild_id, channel_id, organiser_id, name, repeat, zone,"
                    " format, target, scoring, round_hours, rounds, match_games, variant,"
                    " voice_id, events, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    f" RETURNING {_CLUB_COLUMNS}",
                    (
                        plan.guild_id,
                        plan.channel_id,
                        plan.organiser_id,
                        plan.name,
                        str(plan.repeat),
                        plan.zone,
                        plan.format,
                        plan.target,
                        plan.scoring,
                        plan.round_hours,
                        plan.rounds,
                        plan.match_games,
                        plan.variant,
                        plan.voice_id,
                        int(plan.events),
                        now,
                    ),
                )
            except UniqueViolation as broken:
                if broken.names in _ONE_PER_CHANNEL:
                    raise ClubBusy() from None
                raise
            club = _club(rows[0])
            night = await self._add_night(tx, club.id, 1, starts_at, tournament, now)
            assert night is not None
        return club, night

    async def club(self, club_id: int) -> ClubRecord | None:
        """One club by its id."""
        return await self._one(_club, f"SELECT {_CLUB_COLUMNS} FROM clubs WHERE id = ?", (club_id,))

    async def club_in_channel(self, channel_id: int) -> ClubRecord | None:
        """The channel's club with nights to come; else its latest."""
        return await self._one(
            _club,
            f"SELECT {_CLUB_COLUMNS} FROM clubs WHERE channel_id = ? ORDER BY ended, id DESC"
            " LIMIT 1",
            (channel_id,),
        )

    async def club_of_event(self, guild_id: int, event_id: int) -> ClubRecord | None:
        """The club whose Discord event that is, in that server."""
        return await self._one(
            _club,
            f"SELECT {_CLUB_COLUMNS} FROM clubs WHERE event_id = ? AND guild_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (event_id, guild_id),
        )

    async def clubs_of_server(self, guild_id: int) -> list[ClubRecord]:
        """A server's clubs, the latest first."""
        return await self._all(
            _club,
            f"SELECT {_CLUB_COLUMNS} FROM clubs WHERE guild_id = ? ORDER BY id DESC",
            (guild_id,),
        )

    async def set_event(self, club_id: int, event_id: int | None) -> None:
        """The club's Discord event is ``event_id`` (None: it has none, the bot makes none)."""
        if event_id is None:
            sql = "UPDATE clubs SET event_id = NULL, event_refused = NULL, events = 0 WHERE id = ?"
            await self.db.execute(sql, (club_id,))
            return
        await self.db.execute(
            "UPDATE clubs SET event_id = ?, event_refused = NULL WHERE id = ?", (event_id, club_id)
        )

    async def claim_event(self, club_id: int, *, now: float, lapse: float = 60.0) -> bool:
        """Claim the making of a club's Discord event (False: it has one, or another process
        claimed it less than ``lapse`` seconds ago): of processes that would make it, one does."""
        claimed = await self.db.execute(
            "UPDATE clubs SET event_claimed = ? WHERE id = ? AND event_id IS NULL AND events = 1"
            " AND (event_claimed IS NULL OR event_claimed < ?)",
            (now, club_id, now - lapse),
        )
        return bool(claimed)

    async def event_refused(self, club_id: int, at: float | None) -> None:
        """Discord refused the club's event the permission at ``at`` (None: it takes it)."""
        await self.db.execute("UPDATE clubs SET event_refused = ? WHERE id = ?", (at, club_id))

    async def end_club(self, club_id: int) -> bool:
        """No more nights for the club (False: it had ended)."""
        ended = "UPDATE clubs SET ended = 1 WHERE id = ? AND ended = 0"
        return bool(await self.db.execute(ended, (club_id,)))

    # -- nights ---------------------------------------------------------------------------------
    async def _add_night(
        self,
        tx: Transaction,
        club_id: int,
        number: int,
        starts_at: float,
        tournament: TournamentPlan,
        now: float,
    ) -> NightRecord | None:
        record = await insert_tournament(tx, tournament, now=now)
        rows = await tx.fetch(
            "INSERT INTO nights (club_id, number, starts_at, usual_at, tournament_id)"
            " VALUES (?, ?, ?, ?, ?)"
            f" ON CONFLICT (club_id, number) DO NOTHING RETURNING {_NIGHT_COLUMNS}",
            (club_id, number, starts_at, starts_at, record.id),
        )
        if not rows:
            # (Made already, by another process or before a stop: the tournament goes too.)
            await tx.execute("DELETE FROM tournaments WHERE id = ?", (record.id,))
            return None
        await self._bumped(tx, record.id)
        return _night(rows[0])

    async def add_night(
        self,
        club_id: int,
        number: int,
        starts_at: float,
        tournament: TournamentPlan,
        *,
        now: float,
        interested: Sequence[tuple[int, str]] = (),
    ) -> NightRecord | None:
        """The club's night ``number`` at ``starts_at``, with its tournament taking entrants
        and ``interested`` (ids and names) entered into it, in one transaction, unless the club
        has that night already (None) or has ended (None)."""
        async with self._writing() as tx:
            alive = await tx.fetch("SELECT 1 FROM clubs WHERE id = ? AND ended = 0", (club_id,))
            if not alive:
                return None
            night = await self._add_night(tx, club_id, number, starts_at, tournament, now)
            if night is None:
                return None
            for user_id, name in interested:
                await self._interest(tx, night, user_id, name, True)
        return night

    async def night(self, night_id: int) -> NightRecord | None:
        """One night by its id."""
        return await self._one(
            _night, f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE id = ?", (night_id,)
        )

    async def night_of_tournament(self, tournament_id: int) -> NightRecord | None:
        """The night a tournament is played for (None: it is no night's)."""
        return await self._one(
            _night,
            f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE tournament_id = ?",
            (tournament_id,),
        )

    async def night_of_thread(self, thread_id: int) -> NightRecord | None:
        """The night whose pairing's games are played in a thread (None: none's)."""
        return await self._one(
            _night,
            f"SELECT {', '.join(f'n.{c}' for c in _NIGHT_COLUMNS.split(', '))} FROM nights n"
            " JOIN tournament_pairings p ON p.tournament_id = n.tournament_id"
            " WHERE p.thread_id = ? LIMIT 1",
            (thread_id,),
        )

    async def latest_night(self, club_id: int) -> NightRecord | None:
        """The club's latest night."""
        return await self._one(
            _night,
            f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE club_id = ? ORDER BY number DESC LIMIT 1",
            (club_id,),
        )

    async def club_nights(self, club_id: int) -> list[NightRecord]:
        """Every night of a club, in order."""
        return await self._all(
            _night,
            f"SELECT {_NIGHT_COLUMNS} FROM nights WHERE club_id = ? ORDER BY number",
            (club_id,),
        )

    async def nights_under_way(self) -> list[NightRecord]:
        """Every night scheduled, checking in or being played, of every club; and every night
        over whose club's event is not yet told so, or that is the latest of a club with
        nights to come (a stop may have left its next night unmade)."""
        return await self._all(
            _night,
            f"SELECT {_NIGHT_COLUMNS} FROM nights n WHERE state IN (?, ?, ?)"
            " OR event_step <> 'ended' OR (number = (SELECT MAX(number) FROM nights m"
            " WHERE m.club_id = n.club_id) AND EXISTS (SELECT 1 FROM clubs c"
            " WHERE c.id = n.club_id AND c.ended = 0)) ORDER BY id",
            _UNDER_WAY,
        )

    async def claim_night(
        self, night_id: int, was: NightState, now_: NightState, *, note: str | None = None
    ) -> bool:
        """Move a night from ``was`` to ``now_`` (with ``note``: why, for one called off or
        cancelled), if it still is ``was``: whoever gets True takes the step, once."""
        async with self._writing() as tx:
            rows = await tx.fetch(
                "UPDATE nights SET state = ?, note = COALESCE(?, note), version = version + 1"
                " WHERE id = ? AND state = ? RETURNING tournament_id",
                (str(now_), note, night_id, str(was)),
            )
            if rows:
                await self._bumped(tx, int(rows[0][0]))
        return bool(rows)

    async def move_night(self, night_id: int, starts_at: float) -> bool:
        """A moderator moved a night not yet started to ``starts_at`` (checking in again only
        once its new last minutes come)."""
        async with self._writing() as tx:
            rows = await tx.fetch(
                "UPDATE nights SET starts_at = ?, moved = 1, state = 'scheduled',"
                " event_step = 'none', version = version + 1"
                " WHERE id = ? AND state IN ('scheduled', 'check_in')"
                " RETURNING tournament_id",
                (starts_at, night_id),
            )
            if rows:
                await tx.execute(
                    "UPDATE night_people SET checked_in = NULL WHERE night_id = ?", (night_id,)
                )
                await self._bumped(tx, int(rows[0][0]))
        return bool(rows)

    async def set_event_step(self, night_id: int, step: EventSteps) -> None:
        """The club's event says ``step`` of the night now."""
        await self.db.execute(
            "UPDATE nights SET event_step = ? WHERE id = ?", (str(step), night_id)
        )

    # -- the servers' time zones ----------------------------------------------------------------
    async def time_zone(self, guild_id: int) -> str | None:
        """The time zone a server set (None: none)."""
        rows = await self._read(
            "SELECT time_zone FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
        return str(rows[0][0]) if rows else None

    async def set_time_zone(self, guild_id: int, zone: str) -> None:
        """A server's time zone, for its clubs too (their nights to come keep their times;
        the ones after follow the new zone's clock)."""
        async with self._writing() as tx:
            await tx.execute(
                "INSERT INTO server_settings (guild_id, time_zone) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET time_zone = EXCLUDED.time_zone",
                (guild_id, zone),
            )
            await tx.execute(
                "UPDATE clubs SET zone = ? WHERE guild_id = ? AND ended = 0", (zone, guild_id)
            )
