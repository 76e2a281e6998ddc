"""Who comes to a club night: the interest people mark on the club's Discord event (each
entered in its night while it takes entrants, or taken out), the check-in in its last minutes
(the night's and the reminder's **Check in**, ``/club checkin``: only those checked in are dealt
in), and a late arrival, entered for a Swiss night's next round or told it is too late. The
night itself (scheduled, skipped, moved, ended) is :class:`~bot.core.nights.nights.Nights`';
what happens at its times, the director's (:mod:`bot.core.nights.director`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, User
from bot.core.base.text import shown_at, shown_until
from bot.core.nights.nights import Nights, NightStore, check_in_opens
from bot.core.nights.records import ClubRecord, NightRecord, NightState
from bot.core.tournaments.records import TournamentStatus

__all__ = ["Attendance"]


class Attendance:
    """A night's Check in button and ``/club checkin``, a late arrival, and the interest
    people mark on its club's Discord event."""

    def __init__(
        self,
        store: NightStore,
        nights: Nights,
        now: Callable[[], float],
        faults: Faults,
    ) -> None:
        """``nights``: where this channel's club and night are found, and a night's change
        published."""
        self._store = store
        self._nights = nights
        self._now = now
        self.faults = faults

    @answers
    async def check_in(self, channel_id: int, user: User) -> Answer:
        """``/club checkin``: check in to this channel's night (as its button does)."""
        club, night = await self._nights.here(channel_id)
        return await self._check_in(club, night, user)

    @answers
    async def check_in_click(
        self, tournament_id: int, user: User, *, guild_id: int | None
    ) -> Answer:
        """A night's (or its reminder's) Check in button."""
        night = await self._store.night_of_tournament(tournament_id)
        club = None if night is None else await self._store.club(night.club_id)
        if night is None or club is None or club.guild_id != guild_id:
            raise Refused("I can't find that night.")
        return await self._check_in(club, night, user)

    async def _check_in(self, club: ClubRecord, night: NightRecord, user: User) -> Answer:
        now = self._now()
        if night.state is NightState.SCHEDULED:
            entered = await self._store.enter(night.tournament_id, user.id, user.name)
            if entered:
                await self._nights.changed(night.tournament_id)
            you = "You're in the night. " if entered else ""
            opens = check_in_opens(night)
            return Answer.say(
                f"{you}Check-in opens {shown_until(opens)}: one press then (here, or on the"
                " reminder) and you're dealt in."
            )
        if night.state is NightState.CHECK_IN:
            if not await self._store.check_in(night, user.id, user.name, now=now):
                raise Refused("Check-in has just closed: the night is starting.")
            await self._nights.changed(night.tournament_id)
            return Answer.say(
                f"You're checked in: the night starts {shown_until(night.starts_at)}. Your first"
                " game is dealt in a thread that calls you."
            )
        if night.state is NightState.STARTED:
            return await self._late(club, night, user)
        return Answer.say(await self._over_words(club, night))

    async def _late(self, club: ClubRecord, night: NightRecord, user: User) -> Answer:
        """A late arrival: entered if the next round takes them (a Swiss night not in its last
        round), else told they are too late."""
        record = await self._store.tournament(night.tournament_id)
        assert record is not None
        entrants = {e.user_id: e for e in await self._store.entrants(record.id)}
        if user.id in entrants:
            entrant = entrants[user.id]
            if entrant.withdrawn is not None:
                raise Refused("You withdrew from tonight's night: you are paired no more.")
            return Answer.say("You're playing tonight already: your games are in their threads.")
        if record.status is not TournamentStatus.RUNNING:
            return Answer.say(await self._over_words(club, night))
        if record.format.name != "swiss":
            return Answer.say(
                f"Sorry, too late: a {record.format.named()} night's pairings were drawn when it"
                f" started, {shown_at(night.starts_at, 't')}. {await self._next_words(club)}"
            )
        if record.round >= record.swiss_rounds:
            return Answer.say(
                f"Sorry, too late: the night is in its last round. {await self._next_words(club)}"
            )
        if not await self._store.enter_late(night, user.id, user.name, now=self._now()):
            raise Refused("You're playing tonight already.")
        await self._nights.changed(record.id)
        nxt = record.round + 1
        when = (
            f", by {shown_at(record.deadline, 't')} at the latest"
            if record.deadline is not None
            else ""
        )
        if record.round == 0:
            return Answer.say(f"You're in: round 1 of {record.rounds} is being paired now.")
        return Answer.say(
            f"You're in, late: round {nxt} of {record.rounds} takes you, paired as soon as every"
            f" game of round {record.round} is over{when}."
        )

    async def _over_words(self, club: ClubRecord, night: NightRecord) -> str:
        return f"This night is over. {await self._next_words(club)}".strip()

    async def _next_words(self, club: ClubRecord) -> str:
        latest = await self._store.latest_night(club.id)
        if club.ended or latest is None or not latest.state.ahead:
            return ""
        return f"The next night is {shown_until(latest.starts_at, 'F')}."

    # -- interest marked on the club's event ----------------------------------------------------
    async def interest(
        self, guild_id: int, event_id: int, user_id: int, name: str, *, yes: bool
    ) -> None:
        """Someone marked a club's event Interested (or took it back): entered in its night
        taking entrants (or taken out, unless they checked in)."""
        club = await self._store.club_of_event(guild_id, event_id)
        if club is None or club.ended:
            return
        night = await self._store.latest_night(club.id)
        if night is None or not night.state.ahead:
            return
        await self._store.interest(night, user_id, name, yes)
        await self._nights.changed(night.tournament_id)

    async def sync_interest(self, night: NightRecord, found: Sequence[tuple[int, str]]) -> None:
        """Everyone interested in the club's event (read from Discord at a start, or for a new
        night) entered in ``night``; those the night had as interested who are no longer
        taken out."""
        if not night.state.ahead:
            return
        known = {p.user_id: p for p in await self._store.night_people(night.id)}
        now_in = dict(found)
        changed = False
        for user_id, name in found:
            person = known.get(user_id)
            if person is None or not person.interested:
                changed |= await self._store.interest(night, user_id, name, True)
        for user_id, person in known.items():
            if person.interested and user_id not in now_in:
                changed |= await self._store.interest(night, user_id, person.name, False)
        if changed:
            await self._nights.changed(night.tournament_id)
