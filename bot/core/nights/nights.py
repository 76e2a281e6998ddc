"""A server's club nights, as people use them: ``/club night`` schedules a night (once, or
weekly, every other week, monthly) in a channel for a time typed as people say it, in the
server's time zone; a moderator skips or moves the next night, or ends the club, and sets the
server's time zone. People enter with the night's **Join** or by marking its Discord event
**Interested**, and check in with one press in its last minutes (who comes:
:mod:`bot.core.nights.attendance`); ``/club league`` shows the league the nights make
(:mod:`bot.core.nights.leagues`). What happens at the night's times (check-in opening, the
reminder, the start, the next night) is the director's (:mod:`bot.core.nights.director`).

Each night is a tournament (:mod:`bot.core.tournaments`) made with it, so everything a
tournament does (its message, threads, rounds, standings, withdrawals, a moderator's result)
a night does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Protocol

from bot.core.base.choices import DEFAULT_FORMAT
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Choice, User
from bot.core.base.text import escape, shown_at, shown_until
from bot.core.nights.records import (
    ClubPlan,
    ClubRecord,
    EventSteps,
    NightPerson,
    NightRecord,
    NightState,
)
from bot.core.nights.when import (
    DEFAULT_ZONE,
    Repeat,
    known_zones,
    local_of,
    monthly_refusal,
    next_night,
    read_when,
    suggestions,
    zone_named,
)
from bot.core.tournaments.records import TournamentPlan
from bot.core.tournaments.tournaments import (
    MODERATORS_ONLY,
    Tournaments,
    TournamentStore,
    planned,
)
from engine.outcome import Scoring
from engine.variants import STANDARD

__all__ = [
    "CHECK_IN",
    "LATE_START",
    "ROUND_MINUTES",
    "NightPeopleStore",
    "NightStore",
    "Nights",
    "check_in_opens",
]

#: A night's check-in opens this long before it starts (and the one reminder goes then).
CHECK_IN = timedelta(minutes=15)
#: A night not started this long after its time (the bot was down) is called off instead.
LATE_START = timedelta(minutes=30)
#: How long a night's round may take, in minutes (its default first).
DEFAULT_ROUND_MINUTES = 30
ROUND_MINUTES = (15, 180)

NO_CLUB = "There are no club nights in this channel. A moderator schedules one with `/club night`."
#: What a moderator's ``/cribbage tournament start`` of a night is told.
STARTS_ITSELF = (
    "This is a club night: it starts by itself at its time ({at}), with those checked in."
    " `/club move` changes its time."
)


def check_in_opens(night: NightRecord) -> float:
    """When a night's check-in opens (and its reminder goes)."""
    return night.starts_at - CHECK_IN.total_seconds()


class NightPeopleStore(Protocol):
    """Who comes to a night, as the nights need it of a store (part of :class:`NightStore`;
    written in ``bot.store.night_people_tables``)."""

    async def night_people(self, night_id: int) -> list[NightPerson]: ...
    async def interest(self, night: NightRecord, user_id: int, name: str, yes: bool) -> bool: ...
    async def check_in(
        self, night: NightRecord, user_id: int, name: str, *, now: float
    ) -> bool: ...
    async def drop_absent(self, night: NightRecord) -> int: ...
    async def enter_late(
        self, night: NightRecord, user_id: int, name: str, *, now: float
    ) -> bool: ...


class NightStore(TournamentStore, NightPeopleStore, Protocol):
    """What the nights need of a store (written in ``bot.store.night_tables``)."""

    async def open_club(
        self, plan: ClubPlan, tournament: TournamentPlan, *, starts_at: float, now: float
    ) -> tuple[ClubRecord, NightRecord]: ...
    async def club(self, club_id: int) -> ClubRecord | None: ...
    async def club_in_channel(self, channel_id: int) -> ClubRecord | None: ...
    async def club_of_event(self, guild_id: int, event_id: int) -> ClubRecord | None: ...
    async def clubs_of_server(self, guild_id: int) -> list[ClubRecord]: ...
    async def set_event(self, club_id: int, event_id: int | None) -> None: ...
    async def claim_event(self, club_id: int, *, now: float, lapse: float = ...) -> bool: ...
    async def event_refused(self, club_id: int, at: float | None) -> None: ...
    async def end_club(self, club_id: int) -> bool: ...
    async def add_night(
        self,
        club_id: int,
        number: int,
        starts_at: float,
        tournament: TournamentPlan,
        *,
        now: float,
        interested: Sequence[tuple[int, str]] = ...,
    ) -> NightRecord | None: ...
    async def night(self, night_id: int) -> NightRecord | None: ...
    async def night_of_tournament(self, tournament_id: int) -> NightRecord | None: ...
    async def latest_night(self, club_id: int) -> NightRecord | None: ...
    async def night_of_thread(self, thread_id: int) -> NightRecord | None: ...
    async def club_nights(self, club_id: int) -> list[NightRecord]: ...
    async def nights_under_way(self) -> list[NightRecord]: ...
    async def claim_night(
        self, night_id: int, was: NightState, now_: NightState, *, note: str | None = None
    ) -> bool: ...
    async def move_night(self, night_id: int, starts_at: float) -> bool: ...
    async def set_event_step(self, night_id: int, step: EventSteps) -> None: ...
    async def time_zone(self, guild_id: int) -> str | None: ...
    async def set_time_zone(self, guild_id: int, zone: str) -> None: ...


def default_name(repeat: Repeat, start: datetime, zone: tzinfo) -> str:
    """A club's name when its moderator gives none: "Friday cribbage night" for nights that
    come weekly or every other week, else "Cribbage night"."""
    if repeat in (Repeat.WEEKLY, Repeat.FORTNIGHTLY):
        return f"{local_of(start, zone):%A} cribbage night"
    return "Cribbage night"


def tournament_of(club: ClubRecord) -> TournamentPlan:
    """The tournament every night of ``club`` plays."""
    return planned(
        club.guild_id,
        club.channel_id,
        User(club.organiser_id, ""),
        format=club.format,
        rounds=club.rounds,
        target=club.target,
        scoring=club.scoring,
        round_hours=club.round_hours,
        match_games=club.match_games,
        variant=club.variant,
    )


def club_plan(
    tournament: TournamentPlan,
    name: str,
    repeat: Repeat,
    zone: str,
    *,
    voice_id: int | None,
    events: bool,
) -> ClubPlan:
    """The club ``/club night`` makes, each of its nights playing ``tournament`` (its place
    and organiser the tournament's), named ``name``, coming round as ``repeat`` says in the
    time zone ``zone``; ``events``: the bot makes it a Discord event."""
    return ClubPlan(
        guild_id=tournament.guild_id,
        channel_id=tournament.channel_id,
        organiser_id=tournament.organiser_id,
        name=name,
        repeat=repeat,
        zone=zone,
        format=tournament.format.name,
        target=tournament.target,
        scoring=tournament.scoring,
        round_hours=tournament.round_hours,
        rounds=tournament.rounds,
        match_games=tournament.match_games,
        variant=tournament.variant,
        voice_id=voice_id,
        events=events,
    )


def scheduled(
    plan: ClubPlan, start: datetime, events_refusal: str | None, *, zone_set: str | None
) -> str:
    """What a moderator is told of the club ``plan`` scheduled for ``start``: how people take
    part, whether it goes to the server's Events (``events_refusal``: why not), and, where the
    server set no time zone, the one ``zone_set`` its times were read in."""
    often = "" if plan.repeat is Repeat.ONCE else f", then {plan.repeat.said}"
    said = [
        f"**{escape(plan.name)}** is scheduled for {shown_until(start.timestamp(), 'F')}{often}."
        " Its message is on its way here: people enter with its **Join** or by marking the"
        " event **Interested**, and check in with one press in its last 15 minutes.",
        events_refusal
        if events_refusal is not None
        else "It is on its way to the server's **Events** list too.",
    ]
    if zone_set is not None:
        said.append(
            f"(Times are read in {zone_set} until a moderator sets the server's time zone"
            " with `/club timezone`.)"
        )
    return " ".join(said)


class Nights:
    """The calls of ``/club`` that make and change a club's nights: ``night``, ``skip``,
    ``move``, ``end``, and ``timezone`` (who comes, ``checkin`` among them, is
    :class:`~bot.core.nights.attendance.Attendance`'; ``league``,
    :class:`~bot.core.nights.leagues.Leagues`')."""

    def __init__(
        self,
        store: NightStore,
        tournaments: Tournaments,
        feed: ChangeFeed,
        now: Callable[[], float],
        faults: Faults,
    ) -> None:
        self._store = store
        self._tournaments = tournaments
        self._feed = feed
        self._now = now
        self.faults = faults

    # -- shared ---------------------------------------------------------------------------------
    async def changed(self, tournament_id: int) -> None:
        """Publish a night's change (its tournament's): its message is drawn again, and the
        director looks at it."""
        record = await self._store.tournament(tournament_id)
        if record is not None:
            owner = Owner.tournament(record.id)
            self._feed.publish(Change(owner, record.version, record.channel_id))

    async def zone_of(self, guild_id: int) -> tuple[str, tzinfo, bool]:
        """The server's time zone: its name, the zone, and whether the server chose it."""
        chosen = await self._store.time_zone(guild_id)
        name = chosen or DEFAULT_ZONE
        return name, zone_named(name), chosen is not None

    async def here(self, channel_id: int) -> tuple[ClubRecord, NightRecord]:
        """This channel's club and its latest night (a command's), or the refusal: no club."""
        club = await self._store.club_in_channel(channel_id)
        night = None if club is None else await self._store.latest_night(club.id)
        if club is None or night is None:
            raise Refused(NO_CLUB)
        return club, night

    def _stamp(self) -> datetime:
        return datetime.fromtimestamp(self._now(), UTC)

    async def held(self, tournament_id: int) -> str | None:
        """Why a night's tournament is not started by hand (None: it is no night's)."""
        night = await self._store.night_of_tournament(tournament_id)
        if night is None or not night.state.ahead:
            return None
        return STARTS_ITSELF.format(at=shown_until(night.starts_at, "t"))

    # -- /club night ----------------------------------------------------------------------------
    @answers
    async def schedule(
        self,
        guild_id: int,
        channel_id: int,
        user: User,
        *,
        moderator: bool,
        when: str,
        events_refusal: str | None,
        repeat: str = Repeat.ONCE,
        name: str | None = None,
        format: str = DEFAULT_FORMAT,
        rounds: int = 0,
        target: int | None = None,
        scoring: str = Scoring.LURCH,
        round_minutes: int = DEFAULT_ROUND_MINUTES,
        match_games: int = 1,
        variant: str = STANDARD.name,
        voice_id: int | None = None,
    ) -> Answer:
        """Schedule a night in this channel for ``when`` (moderators only), once or coming
        round as ``repeat`` says; its tournament takes entrants at once, and the director
        adds it to the server's Events (unless ``events_refusal`` says why it may not: the
        answer says it in one sentence)."""
        if not moderator:
            raise Refused(
                "Only a moderator (Manage Server or Manage Events) can schedule club nights."
            )
        try:
            how_often = Repeat(repeat)
        except ValueError:
            raise Refused("`repeat` must be once, weekly, fortnightly or monthly.") from None
        zone_name, zone, chosen = await self.zone_of(guild_id)
        start = read_when(when, zone, self._stamp())
        if how_often is Repeat.MONTHLY:
            refusal = monthly_refusal(start, zone)
            if refusal is not None:
                raise Refused(refusal)
        low, high = ROUND_MINUTES
        if not low <= round_minutes <= high:
            raise Refused(f"`round_minutes` must be from {low} to {high}.")
        tournament = planned(
            guild_id,
            channel_id,
            user,
            format=format,
            rounds=rounds,
            target=target,
            scoring=scoring,
            round_hours=round_minutes / 60,
            match_games=match_games,
            variant=variant,
        )
        named = " ".join((name or "").split())[:80] or default_name(how_often, start, zone)
        plan = club_plan(
            tournament,
            named,
            how_often,
            zone_name,
            voice_id=voice_id,
            events=events_refusal is None,
        )
        _, night = await self._store.open_club(
            plan, tournament, starts_at=start.timestamp(), now=self._now()
        )
        await self.changed(night.tournament_id)
        zone_set = None if chosen else zone_name
        return Answer.say(scheduled(plan, start, events_refusal, zone_set=zone_set))

    async def offer_times(self, guild_id: int, typed: str) -> list[Choice]:
        """What ``when`` offers as it is typed: the dates it reads, in the server's zone."""
        zone_name, zone, _ = await self.zone_of(guild_id)
        found = suggestions(typed, zone, zone_name, self._stamp())
        return [Choice(name[:100], value) for name, value in found]

    # -- a moderator's changes ------------------------------------------------------------------
    @answers
    async def skip(self, channel_id: int, user: User, *, moderator: bool) -> Answer:
        """Skip this channel's next night (moderators; nights that come round: the one after
        is scheduled as usual)."""
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        club, night = await self.here(channel_id)
        if not club.recurs:
            raise Refused(
                "This night is held once: to call it off, use `/cribbage tournament cancel`."
            )
        if club.ended or not night.state.ahead:
            raise Refused("The next night has started: there is none to skip before it ends.")
        note = "Skipped by a moderator."
        claimed = await self._store.claim_night(
            night.id, night.state, NightState.SKIPPED, note=note
        )
        if not claimed:
            raise Refused("The night has just started: it can't be skipped now.")
        await self._store.cancel_tournament(night.tournament_id, by=user.id, now=self._now())
        await self.changed(night.tournament_id)
        zone = zone_named(club.zone)
        following = next_night(datetime.fromtimestamp(night.starts_at, UTC), zone, club.repeat)
        return Answer.say(
            f"Night {night.number} ({shown_at(night.starts_at, 'f')}) is skipped. The next,"
            f" {shown_until(following.timestamp(), 'F')}, gets its message here now.",
            ephemeral=False,
        )

    @answers
    async def move(self, channel_id: int, user: User, *, moderator: bool, when: str) -> Answer:
        """Move this channel's next night to ``when`` (moderators); one that comes round stays
        before the one after it."""
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        club, night = await self.here(channel_id)
        if club.ended or not night.state.ahead:
            raise Refused("The night has started: it can't be moved now.")
        zone = zone_named(club.zone)
        start = read_when(when, zone, self._stamp())
        if club.recurs:
            usual = datetime.fromtimestamp(night.starts_at, UTC)
            following = next_night(usual, zone, club.repeat)
            if start >= following:
                raise Refused(
                    f"The night after it is {shown_at(following.timestamp(), 'f')}: move this one"
                    " to before then, or skip it with `/club skip`."
                )
        if not await self._store.move_night(night.id, start.timestamp()):
            raise Refused("The night has just started: it can't be moved now.")
        await self.changed(night.tournament_id)
        return Answer.say(
            f"Night {night.number} moves to {shown_until(start.timestamp(), 'F')}; check-in"
            " opens 15 minutes before, and the server's Events say so.",
            ephemeral=False,
        )

    @answers
    async def end(self, channel_id: int, user: User, *, moderator: bool) -> Answer:
        """No more nights in this channel's club (moderators): a night not started yet is
        cancelled, one being played is played out."""
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        club, night = await self.here(channel_id)
        if not await self._store.end_club(club.id):
            raise Refused("This club's nights have ended already.")
        if night.state.ahead:
            note = "The club's nights were ended by a moderator."
            if await self._store.claim_night(
                night.id, night.state, NightState.CANCELLED, note=note
            ):
                await self._store.cancel_tournament(
                    night.tournament_id, by=user.id, now=self._now()
                )
        await self.changed(night.tournament_id)
        playing = " Tonight's is played out." if night.state is NightState.STARTED else ""
        return Answer.say(
            f"**{escape(club.name)}**: no more nights.{playing} Its league keeps its table"
            " (`/club league`).",
            ephemeral=False,
        )

    # -- the server's time zone -----------------------------------------------------------------
    @answers
    async def time_zone(
        self, guild_id: int, user: User, *, moderator: bool, zone: str | None
    ) -> Answer:
        """``/club timezone``: the server's time zone said, or set (moderators)."""
        if zone is None:
            name, tz, chosen = await self.zone_of(guild_id)
            local = local_of(self._stamp(), tz)
            how = (
                "" if chosen else " (none is set: a moderator sets it with `/club timezone zone:`)"
            )
            return Answer.say(
                f"Club nights here are read in **{name}**{how}: it is {local:%H:%M} there now."
            )
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        tz = zone_named(zone.strip())
        await self._store.set_time_zone(guild_id, zone.strip())
        local = local_of(self._stamp(), tz)
        return Answer.say(
            f"Club nights here are read in **{zone.strip()}** from now on: it is {local:%H:%M}"
            " there now. Nights scheduled already keep their times."
        )

    @staticmethod
    def offer_zones(typed: str) -> list[Choice]:
        """What ``zone`` offers as it is typed."""
        return [Choice(z, z) for z in known_zones(typed)]
