"""A server's club nights, as people use them: ``/club night`` schedules a night (once, or
weekly, every other week, monthly) in a channel for a time typed as people say it, in the
server's time zone; people enter with the night's **Join** or by marking its Discord event
**Interested**, and check in with one press in its last minutes; a moderator skips or moves
the next night, or ends the club; ``/club league`` shows the league the nights make; a late
arrival is told which round takes them. What happens at the night's times (check-in opening,
the reminder, the start, the next night) is the director's (:mod:`bot.core.nights.director`).

Each night is a tournament (:mod:`bot.core.tournaments`) made with it, so everything a
tournament does (its message, threads, rounds, standings, withdrawals, a moderator's result)
a night does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Protocol

from bot.core.base.choices import DEFAULT_FORMAT
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Choice, User
from bot.core.base.text import escape, plural, shown_at, shown_until
from bot.core.nights.league import LeagueLine, NightPlace, league_table, places_of
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
    Season,
    known_zones,
    local_of,
    monthly_refusal,
    next_night,
    read_when,
    season_of,
    suggestions,
    zone_named,
)
from bot.core.tournaments.records import (
    TournamentPlan,
    TournamentStatus,
)
from bot.core.tournaments.tournaments import (
    MODERATORS_ONLY,
    Tournaments,
    TournamentStore,
    planned,
    read_event,
)
from engine.outcome import Scoring
from engine.variants import STANDARD

__all__ = [
    "CHECK_IN",
    "LATE_START",
    "ROUND_MINUTES",
    "LeagueBoard",
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


@dataclass(frozen=True, slots=True)
class LeagueBoard:
    """A club's league as its page shows it: its name, this season's table and the last's
    (each with its name and the nights played), and each season's champion."""

    name: str
    seasons: tuple[tuple[str, int, tuple[LeagueLine, ...]], ...]
    champions: tuple[tuple[str, str, int], ...]


def check_in_opens(night: NightRecord) -> float:
    """When a night's check-in opens (and its reminder goes)."""
    return night.starts_at - CHECK_IN.total_seconds()


class NightStore(TournamentStore, Protocol):
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
    async def night_people(self, night_id: int) -> list[NightPerson]: ...
    async def interest(self, night: NightRecord, user_id: int, name: str, yes: bool) -> bool: ...
    async def check_in(
        self, night: NightRecord, user_id: int, name: str, *, now: float
    ) -> bool: ...
    async def drop_absent(self, night: NightRecord) -> int: ...
    async def enter_late(
        self, night: NightRecord, user_id: int, name: str, *, now: float
    ) -> bool: ...
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


class Nights:
    """The calls of ``/club``, the night's Check in button, and the interest people mark on
    its Discord event."""

    def __init__(
        self,
        store: NightStore,
        tournaments: Tournaments,
        feed: ChangeFeed,
        now: Callable[[], float],
        faults: Faults | None = None,
        league_link: Callable[[int], str | None] | None = None,
    ) -> None:
        """``league_link``: a club's league page in the browser (None: no pages)."""
        self._store = store
        self._tournaments = tournaments
        self._feed = feed
        self._now = now
        self.faults = faults or Faults()
        self._league_link = league_link

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

    async def _here(self, channel_id: int) -> tuple[ClubRecord, NightRecord]:
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
        plan = ClubPlan(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=user.id,
            name=named,
            repeat=how_often,
            zone=zone_name,
            format=tournament.format.name,
            target=tournament.target,
            scoring=tournament.scoring,
            round_hours=tournament.round_hours,
            rounds=tournament.rounds,
            match_games=tournament.match_games,
            variant=tournament.variant,
            voice_id=voice_id,
            events=events_refusal is None,
        )
        _, night = await self._store.open_club(
            plan, tournament, starts_at=start.timestamp(), now=self._now()
        )
        await self.changed(night.tournament_id)
        often = "" if how_often is Repeat.ONCE else f", then {how_often.said}"
        said = [
            f"**{escape(named)}** is scheduled for {shown_until(start.timestamp(), 'F')}{often}."
            " Its message is on its way here: people enter with its **Join** or by marking the"
            " event **Interested**, and check in with one press in its last 15 minutes.",
        ]
        said.append(
            events_refusal
            if events_refusal is not None
            else "It is on its way to the server's **Events** list too."
        )
        if not chosen:
            said.append(
                f"(Times are read in {zone_name} until a moderator sets the server's time zone"
                " with `/club timezone`.)"
            )
        return Answer.say(" ".join(said))

    async def offer_times(self, guild_id: int, typed: str) -> list[Choice]:
        """What ``when`` offers as it is typed: the dates it reads, in the server's zone."""
        zone_name, zone, _ = await self.zone_of(guild_id)
        found = suggestions(typed, zone, zone_name, self._stamp())
        return [Choice(name[:100], value) for name, value in found]

    # -- check-in -------------------------------------------------------------------------------
    @answers
    async def check_in(self, channel_id: int, user: User) -> Answer:
        """``/club checkin``: check in to this channel's night (as its button does)."""
        club, night = await self._here(channel_id)
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
                await self.changed(night.tournament_id)
            you = "You're in the night. " if entered else ""
            opens = check_in_opens(night)
            return Answer.say(
                f"{you}Check-in opens {shown_until(opens)}: one press then (here, or on the"
                " reminder) and you're dealt in."
            )
        if night.state is NightState.CHECK_IN:
            if not await self._store.check_in(night, user.id, user.name, now=now):
                raise Refused("Check-in has just closed: the night is starting.")
            await self.changed(night.tournament_id)
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
        await self.changed(record.id)
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

    # -- a moderator's changes ------------------------------------------------------------------
    @answers
    async def skip(self, channel_id: int, user: User, *, moderator: bool) -> Answer:
        """Skip this channel's next night (moderators; nights that come round: the one after
        is scheduled as usual)."""
        if not moderator:
            raise Refused(MODERATORS_ONLY)
        club, night = await self._here(channel_id)
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
        club, night = await self._here(channel_id)
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
        club, night = await self._here(channel_id)
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

    # -- people's interest ----------------------------------------------------------------------
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
        await self.changed(night.tournament_id)

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
            await self.changed(night.tournament_id)

    # -- the league -----------------------------------------------------------------------------
    async def season_places(self, club: ClubRecord, season: Season) -> list[list[NightPlace]]:
        """The places of each night of ``club`` played in ``season``."""
        found: list[list[NightPlace]] = []
        for night in await self._store.club_nights(club.id):
            if night.state is not NightState.PLAYED or not season.holds(night.starts_at):
                continue
            record = await self._store.tournament(night.tournament_id)
            if record is not None and record.status is TournamentStatus.FINISHED:
                found.append(places_of(await read_event(self._store, record)))
        return found

    async def standings(self, club: ClubRecord, season: Season) -> list[LeagueLine]:
        """A club's league table for ``season``."""
        return league_table(await self.season_places(club, season))

    @answers
    async def league(self, channel_id: int, season: str = "this") -> Answer:
        """``/club league``: this channel's club's league table this season (``last``: the
        season before, final; ``champions``: each season's champion)."""
        club = await self._store.club_in_channel(channel_id)
        if club is None:
            raise Refused(NO_CLUB)
        if not club.recurs:
            raise Refused(
                "A night held once makes no league: nights that come round do (`/club night"
                " repeat:weekly`)."
            )
        zone = zone_named(club.zone)
        now = self._stamp()
        if season == "champions":
            return Answer.say(await self._champions(club, zone, now), ephemeral=False)
        back = 1 if season == "last" else 0
        which = season_of(now, zone, back)
        lines = await self.standings(club, which)
        played = len(await self.season_places(club, which))
        head = f"**🏅 {escape(club.name)} league — {which.name}**"
        if back:
            head += f" (final: {plural(played, 'night')})"
        else:
            ends = shown_at(which.end.timestamp(), "D")
            head += f" ({plural(played, 'night')} played; the season ends {ends})"
        rows = [
            f"{place}. {escape(line.name)} — {plural(line.points, 'league point')}"
            f" · {plural(line.nights, 'night')}, {line.won} won · {line.game_points} game points"
            for place, line in enumerate(lines[:20], 1)
        ]
        if not rows:
            rows = [f"No night played {'that' if back else 'this'} season yet."]
        how = (
            "A night's winner scores as many league points as it had players, the last 1;"
            " the season's champion has the most."
        )
        link = None if self._league_link is None else self._league_link(club.id)
        if link is not None:
            how += f" Every season's table: <{link}>"
        return Answer.say("\n".join([head, *rows, how]), ephemeral=False)

    async def _champions(self, club: ClubRecord, zone: tzinfo, now: datetime) -> str:
        head = f"**🏆 {escape(club.name)} league champions**"
        lines: list[str] = []
        first = datetime.fromtimestamp(club.created_at, UTC)
        back = 1
        while len(lines) < 12:
            season = season_of(now, zone, back)
            if season.end <= first:
                break
            table = await self.standings(club, season)
            if table:
                best = table[0]
                lines.append(
                    f"{season.name}: {escape(best.name)} ({plural(best.points, 'league point')})"
                )
            back += 1
        return "\n".join([head, *(lines or ["None yet: the first is crowned when a season ends."])])

    async def league_board(self, club_id: int) -> LeagueBoard | None:
        """A club's league for its page: this season's table, the last's, and every season's
        champion (None: no such club, or one held once)."""
        club = await self._store.club(club_id)
        if club is None or not club.recurs:
            return None
        zone, now = zone_named(club.zone), self._stamp()
        seasons = []
        for back in (0, 1):
            which = season_of(now, zone, back)
            places = await self.season_places(club, which)
            seasons.append((which.name, len(places), tuple(league_table(places))))
        champions: list[tuple[str, str, int]] = []
        first = datetime.fromtimestamp(club.created_at, UTC)
        back = 1
        while len(champions) < 12:
            which = season_of(now, zone, back)
            if which.end <= first:
                break
            table = await self.standings(club, which)
            if table:
                champions.append((which.name, table[0].name, table[0].points))
            back += 1
        return LeagueBoard(club.name, tuple(seasons), tuple(champions))

    async def night_of_game(self, channel_id: int) -> tuple[int, str] | None:
        """The club and the words naming the night a game in ``channel_id`` (a pairing's
        thread) was played for (None: it was no night's)."""
        night = await self._store.night_of_thread(channel_id)
        club = None if night is None else await self._store.club(night.club_id)
        if night is None or club is None:
            return None
        return club.id, f"{club.name}, night {night.number}"

    async def champion_line(self, club: ClubRecord, season: Season) -> tuple[int, str] | None:
        """The season's champion and the line that crowns them (None: no night played)."""
        table = await self.standings(club, season)
        if not table:
            return None
        best = table[0]
        return best.user_id, (
            f"🏆 **{escape(best.name)}** is the {escape(club.name)} league's champion for"
            f" {season.name}, with {plural(best.points, 'league point')}"
            f" ({plural(best.nights, 'night')}, {best.won} won)!"
        )

    async def stats_lines(self, guild_id: int, user_id: int) -> list[str]:
        """What ``/cribbage stats`` says of a person's club nights on a server: their place in
        each league this season."""
        said: list[str] = []
        now = self._stamp()
        for club in await self._store.clubs_of_server(guild_id):
            if not club.recurs:
                continue
            season = season_of(now, zone_named(club.zone))
            table = await self.standings(club, season)
            for place, line in enumerate(table, 1):
                if line.user_id == user_id:
                    said.append(
                        f"🏅 {escape(club.name)} league ({season.name}): #{place} of {len(table)},"
                        f" {plural(line.points, 'league point')}, {plural(line.nights, 'night')}"
                        f" ({line.won} won)"
                    )
        return said[:5]

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
