"""The nights' director: runs every club night at its times, in the process that sends (as the
tournaments' director runs the tournaments), and keeps each club's Discord event true.

It follows the change feed (a night's change is its tournament's) and each night's clock. Every
step is claimed by a conditional update of the night's state (``bot.store.night_tables``), so a
step is taken once whichever process takes it, and a stop at any moment is carried on from the
store:

1. a scheduled night's check-in opens 15 minutes before it starts (its message offers **Check
   in**, and the one reminder, naming everyone entered, is posted);
2. at its time, everyone entered who did not check in is taken out of its tournament; with
   too few left (3 are needed) it is called off, else it starts (the tournaments' director
   pairs and runs it from there); a night the bot was down for, found more than
   :data:`~bot.core.nights.nights.LATE_START` after its time, is called off;
3. once its tournament is over (or a moderator cancelled it, or skipped the night), the night
   is over: a club that comes round has its next night made (a week, two, or a month on, in
   its zone's wall-clock time), with everyone interested in its event entered; a club held
   once ends.

The club's event (the server's *Events* entry, made by this director as soon as a club has a
night) is told each stage of each night once: scheduled (its time, what it is, how to take
part), started (ACTIVE), over (who won, or why not; COMPLETED, which moves a recurring event
on to its next occurrence, or CANCELED). Discord refusing it the permission, the night goes on
all the same; a moderator deleting it, the club goes on without one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import OwnerKind
from bot.core.base.patrol import OnPatrol
from bot.core.base.refusals import Refused
from bot.core.base.text import plural
from bot.core.nights.attendance import Attendance
from bot.core.nights.league import places_of
from bot.core.nights.nights import (
    CHECK_IN,
    LATE_START,
    Nights,
    NightStore,
    check_in_opens,
    tournament_of,
)
from bot.core.nights.records import ClubRecord, EventSteps, NightRecord, NightState
from bot.core.nights.when import next_night, recurrence_rule, rule_occurrence, zone_named
from bot.core.tournaments.records import TournamentRecord, TournamentStatus
from bot.core.tournaments.threads import (
    EventPlan,
    EventRefused,
    Events,
    EventSeen,
    EventStatus,
)
from bot.core.tournaments.tournaments import MIN_ENTRANTS, Tournaments, read_event
from bot.core.tournaments.view import settings_line

__all__ = ["NightDirector", "event_plan"]

log = logging.getLogger(__name__)

#: The rounds a night's event is reckoned to last when its club leaves them to the entrants.
ROUNDS_RECKONED = 3
#: A little time beyond its rounds that an event is shown to last.
SLACK = 15 * 60.0
#: The most steps one look takes.
STEPS = 12


def _plain(text: str) -> str:
    return text.replace("**", "")


def event_plan(club: ClubRecord, night: NightRecord, record: TournamentRecord) -> EventPlan:
    """What a night's event says while it is to come: its tournament, and how to take part."""
    rounds = record.rounds or club.rounds or ROUNDS_RECKONED
    end = night.starts_at + rounds * club.round_hours * 3600 + SLACK
    text = (
        f"{_plain(settings_line(record))}. Mark Interested to enter, or press Join on the"
        " night's message in its channel; check in there in its last"
        f" {int(CHECK_IN.total_seconds() // 60)} minutes with one press: only those checked in"
        " are dealt in."
    )
    rule = recurrence_rule(club.repeat, datetime.fromtimestamp(night.starts_at, UTC))
    return EventPlan(
        name=club.name[:100],
        description=text[:1000],
        start=night.starts_at,
        end=end,
        channel_id=club.channel_id,
        voice_id=club.voice_id,
        rule=rule,
    )


class NightDirector(OnPatrol, name="crib-nights", failing="could not run club night %s"):
    """Runs every club night (see the module), while it is started."""

    def __init__(
        self,
        store: NightStore,
        nights: Nights,
        attendance: Attendance,
        tournaments: Tournaments,
        feed: ChangeFeed,
        *,
        clock: Callable[[], float],
    ) -> None:
        self._store = store
        self._nights = nights
        self._attendance = attendance
        self._tournaments = tournaments
        self._events: Events | None = None
        #: tournament id -> its night (None: no night's), as far as learnt.
        self._of_tournament: dict[int, int | None] = {}
        #: The clubs whose interested people were read from Discord since the last start.
        self._synced: set[int] = set()
        self._finding: set[asyncio.Task[None]] = set()
        super().__init__(feed, clock=clock)

    async def start(self, events: Events) -> None:
        """Direct from now on (this process sends): follow the feed, and look at every night
        under way (carrying on whatever a stop left half-done), reading again who is
        interested in each club's event."""
        self._events = events
        self._synced.clear()
        self._patrol.follow()
        for night in await self._store.nights_under_way():
            self._of_tournament[night.tournament_id] = night.id
            self.look(night.id)

    async def again(self) -> None:
        """Look at every night again, reading again who is interested (a new session: the
        interested people's events of the time between never came)."""
        if not self.running:
            return
        self._synced.clear()
        for night in await self._store.nights_under_way():
            self.look(night.id)

    def _heard(self, change: Change) -> None:
        if change.owner.kind is not OwnerKind.TOURNAMENT:
            return
        tournament_id = change.owner.id
        if tournament_id in self._of_tournament:
            night_id = self._of_tournament[tournament_id]
            if night_id is not None:
                self.look(night_id)
            return
        task = asyncio.get_running_loop().create_task(self._find(tournament_id))
        self._finding.add(task)
        task.add_done_callback(self._finding.discard)

    async def _find(self, tournament_id: int) -> None:
        """Learn whether a tournament is a night's (made with it, so once known, known)."""
        try:
            night = await self._store.night_of_tournament(tournament_id)
        except Exception:
            log.warning("could not read tournament %s's night", tournament_id, exc_info=True)
            return
        self._of_tournament[tournament_id] = None if night is None else night.id
        if night is not None:
            self.look(night.id)

    async def _claim(self, night: NightRecord, to: NightState, *, note: str | None = None) -> bool:
        """Take a night's step from its state (once: see the module); its change published."""
        claimed = await self._store.claim_night(night.id, night.state, to, note=note)
        if claimed:
            await self._nights.changed(night.tournament_id)
        return claimed

    # -- the steps ------------------------------------------------------------------------------
    async def _advance(self, night_id: int) -> float | None:
        for _ in range(STEPS):
            night = await self._store.night(night_id)
            club = None if night is None else await self._store.club(night.club_id)
            record = None if night is None else await self._store.tournament(night.tournament_id)
            if night is None or club is None or record is None:
                return None
            self._of_tournament[record.id] = night.id
            await self._keep_event(club, night, record)
            if night.state.ahead and club.id not in self._synced:
                await self._sync(club, night)
            due = await self._step(club, night, record)
            if due is not _AGAIN:
                return due if isinstance(due, float) else None
        return self._clock()

    async def _step(
        self, club: ClubRecord, night: NightRecord, record: TournamentRecord
    ) -> float | None | object:
        """Take the night's next step, if one is due: :data:`_AGAIN` when one was (look
        again), else when the next falls due (None: a change will say)."""
        now = self._clock()
        state = night.state
        if state.ahead:
            if record.status is TournamentStatus.CANCELLED:
                by = "Cancelled by a moderator."
                return _AGAIN if await self._claim(night, NightState.CANCELLED, note=by) else None
            if record.status is TournamentStatus.RUNNING:
                return _AGAIN if await self._claim(night, NightState.STARTED) else None
        if state is NightState.SCHEDULED:
            if now < check_in_opens(night):
                return check_in_opens(night)
            return _AGAIN if await self._claim(night, NightState.CHECK_IN) else None
        if state is NightState.CHECK_IN:
            if now < night.starts_at:
                return night.starts_at
            if now >= night.starts_at + LATE_START.total_seconds():
                note = "Called off: I wasn't running at its start time."
                if await self._claim(night, NightState.CALLED_OFF, note=note):
                    await self._cancel(club, record)
                return _AGAIN
            await self._start(club, night, record)
            return _AGAIN
        if state is NightState.STARTED:
            if record.status is TournamentStatus.OPEN:
                # Claimed, then stopped before it began (or another process is beginning it
                # now): begin it.
                await self._begin(club, night, record)
                return _AGAIN
            if record.status is TournamentStatus.FINISHED:
                return _AGAIN if await self._claim(night, NightState.PLAYED) else None
            if record.status is TournamentStatus.CANCELLED:
                by = "Cancelled by a moderator while it was played."
                return _AGAIN if await self._claim(night, NightState.CANCELLED, note=by) else None
            return None
        await self._next(club, night)
        return None

    async def _start(self, club: ClubRecord, night: NightRecord, record: TournamentRecord) -> None:
        """The night's time: those entered who did not check in go; it starts with the rest,
        or is called off with too few."""
        await self._store.drop_absent(night)
        entrants = await self._store.entrants(record.id)
        if len(entrants) < MIN_ENTRANTS:
            only = plural(len(entrants), "player") if entrants else "nobody"
            note = f"Called off: {only} checked in ({MIN_ENTRANTS} needed)."
            if await self._claim(night, NightState.CALLED_OFF, note=note):
                await self._cancel(club, record)
            return
        if await self._claim(night, NightState.STARTED):
            fresh = await self._store.night(night.id)
            if fresh is not None:
                await self._begin(club, fresh, record)

    async def _begin(self, club: ClubRecord, night: NightRecord, record: TournamentRecord) -> None:
        """Begin a started night's tournament, if nobody did (its start is conditional: of two
        processes beginning it, one does); one that can't (its entrants left meanwhile) is
        called off."""
        fresh = await self._store.tournament(record.id)
        if fresh is None or fresh.status is not TournamentStatus.OPEN:
            return
        try:
            await self._tournaments.begin(fresh)
        except Refused as refused:
            again = await self._store.tournament(record.id)
            if again is not None and again.status is not TournamentStatus.OPEN:
                return  # (begun meanwhile, elsewhere)
            note = f"Called off: {refused}"
            if await self._claim(night, NightState.CALLED_OFF, note=note):
                await self._cancel(club, record)

    async def _cancel(self, club: ClubRecord, record: TournamentRecord) -> None:
        """End a night's tournament that will not be played (its channel freed for the next)."""
        if await self._store.cancel_tournament(record.id, by=club.organiser_id, now=self._clock()):
            await self._nights.changed(record.id)

    async def _next(self, club: ClubRecord, night: NightRecord) -> None:
        """A night over: the club's next one made (a club that comes round), or the club ended
        (one held once)."""
        if club.ended:
            return
        if not club.recurs:
            await self._store.end_club(club.id)
            return
        latest = await self._store.latest_night(club.id)
        if latest is None or latest.number != night.number:
            return
        zone = zone_named(club.zone)
        following = next_night(datetime.fromtimestamp(night.usual_at, UTC), zone, club.repeat)
        now = self._clock()
        while following.timestamp() - CHECK_IN.total_seconds() <= now:
            # (Down past it: the next night to come.)
            following = next_night(following, zone, club.repeat)
        interested = await self._interested(club)
        made = await self._store.add_night(
            club.id,
            night.number + 1,
            following.timestamp(),
            tournament_of(club),
            now=now,
            interested=interested,
        )
        if made is not None:
            self._of_tournament[made.tournament_id] = made.id
            self._synced.add(club.id)
            await self._nights.changed(made.tournament_id)
            self.look(made.id)

    async def _interested(self, club: ClubRecord) -> list[tuple[int, str]]:
        """Who is interested in the club's event, as Discord has it now (none: no event)."""
        if self._events is None or club.event_id is None or not club.events:
            return []
        try:
            return await self._events.interested(club.guild_id, club.event_id)
        except EventRefused as refused:
            await self._refused(club, refused)
            return []

    async def _sync(self, club: ClubRecord, night: NightRecord) -> None:
        """Everyone interested in the club's event entered in its night to come (read once a
        start, or a new session)."""
        if club.event_id is None or not club.events:
            return
        found = await self._interested(club)
        await self._attendance.sync_interest(night, found)
        self._synced.add(club.id)

    # -- the event ------------------------------------------------------------------------------
    async def _refused(self, club: ClubRecord, refused: EventRefused) -> None:
        if refused.gone:
            log.info("club %s: its event is gone; its nights go on without one", club.id)
            await self._store.set_event(club.id, None)
        else:
            log.info("club %s: Discord refuses its event (%s)", club.id, refused)
            await self._store.event_refused(club.id, self._clock())

    async def _keep_event(
        self, club: ClubRecord, night: NightRecord, record: TournamentRecord
    ) -> None:
        """Tell the club's event the night's stage, once a stage (see the module)."""
        if night.state.ahead:
            want = EventSteps.SCHEDULED
        elif night.state is NightState.STARTED:
            want = EventSteps.STARTED
        else:
            want = EventSteps.ENDED
        if night.event_step is want:
            return
        events = self._events
        if events is None:
            return
        if not club.events or (club.event_id is None and want is EventSteps.ENDED):
            await self._store.set_event_step(night.id, want)
            return
        try:
            if club.event_id is None:
                if not await self._store.claim_event(club.id, now=self._clock()):
                    return  # (another process makes it: told the night's stage after)
                plan = event_plan(club, night, record)
                event_id = await events.find(club.guild_id, plan.name, plan.start)
                if event_id is None:
                    event_id = await events.create(club.guild_id, plan)
                await self._store.set_event(club.id, event_id)
                log.info("club %s: its event is %s", club.id, event_id)
            else:
                seen = await events.read(club.guild_id, club.event_id)
                await self._tell(club, night, record, seen, want)
            await self._store.event_refused(club.id, None)
        except EventRefused as refused:
            await self._refused(club, refused)
        await self._store.set_event_step(night.id, want)

    async def _tell(
        self,
        club: ClubRecord,
        night: NightRecord,
        record: TournamentRecord,
        seen: EventSeen,
        want: EventSteps,
    ) -> None:
        """Make the event ``seen`` say the night's stage ``want`` (while directing: through
        the events given at the start)."""
        guild, event_id, events = club.guild_id, club.event_id, self._events
        assert event_id is not None and events is not None
        standing = seen.status in (EventStatus.SCHEDULED, EventStatus.ACTIVE)
        if not standing:
            return  # (over on Discord: nothing to tell)
        # This night's occurrence of a recurring event, by Discord's rule (an exception names
        # it); whether the event still stands at it (has not moved on past it).
        occurrence = seen.start
        if club.recurs and seen.rule_start is not None:
            first = datetime.fromtimestamp(seen.rule_start, UTC)
            near = datetime.fromtimestamp(night.usual_at, UTC)
            occurrence = rule_occurrence(club.repeat, first, near).timestamp()
        here = seen.start <= occurrence
        if want is EventSteps.SCHEDULED:
            plan = event_plan(club, night, record)
            text = plan.description + await self._last_time(club, night)
            if club.recurs and (night.starts_at != occurrence or occurrence in seen.excepted):
                await events.except_occurrence(
                    guild, event_id, occurrence, start=plan.start, end=plan.end
                )
            elif not club.recurs and seen.start != night.starts_at:
                await events.edit(guild, event_id, start=plan.start, end=plan.end)
            await events.edit(guild, event_id, description=text[:1000])
            return
        if want is EventSteps.STARTED:
            entrants = len(await self._store.entrants(record.id))
            text = (
                f"Under way: {plural(entrants, 'player')} checked in,"
                f" {plural(record.rounds, 'round')}. Follow it in the night's channel."
            )
            status = EventStatus.ACTIVE if seen.status is EventStatus.SCHEDULED else None
            # (Its rounds are known now: its end is when they are reckoned to be over.)
            end = night.starts_at + record.rounds * record.round_hours * 3600 + SLACK
            await events.edit(
                guild, event_id, description=text, status=status, end=max(end, self._clock() + 60)
            )
            return
        text = await self._ended_words(club, night, record)
        if seen.status is EventStatus.ACTIVE:
            after = await events.edit(
                guild, event_id, description=text, status=EventStatus.COMPLETED
            )
            if club.ended and after.status is EventStatus.SCHEDULED:
                await events.edit(guild, event_id, status=EventStatus.CANCELED)
            return
        if club.ended or not club.recurs:
            await events.edit(guild, event_id, description=text, status=EventStatus.CANCELED)
            return
        await events.edit(guild, event_id, description=text)
        if here:
            # This occurrence is not played: skipped, so the event moves on to the next.
            await events.except_occurrence(guild, event_id, occurrence, skip=True)

    async def _ended_words(
        self, club: ClubRecord, night: NightRecord, record: TournamentRecord
    ) -> str:
        """What the event says of a night over: who won, or why it was not played."""
        if night.state is NightState.PLAYED:
            places = places_of(await read_event(self._store, record))
            if places:
                best = places[0]
                return (
                    f"🏆 {best.name} won night {night.number} ({best.game_points} game points)"
                    f" of {plural(best.field, 'player')}."
                )
        return night.note or "This night was not played."

    async def _last_time(self, club: ClubRecord, night: NightRecord) -> str:
        """What the night before came to, for a recurring club's event ("" for the first)."""
        if night.number == 1:
            return ""
        nights = await self._store.club_nights(club.id)
        before = next((n for n in nights if n.number == night.number - 1), None)
        if before is None:
            return ""
        record = await self._store.tournament(before.tournament_id)
        if record is None:
            return ""
        with contextlib.suppress(Exception):
            return " Last time: " + await self._ended_words(club, before, record)
        return ""


#: A step was taken: look again at once.
_AGAIN: object = object()
