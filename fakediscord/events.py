"""Guild scheduled events: a server's *Events* list, as Discord's documentation, its OpenAPI
description and the reports of bots that use them give them (fakediscord/README.md, "Scheduled
events", lists each rule with its source).

An event is made, read, changed and deleted through ``/guilds/{guild}/scheduled-events``; the
people interested in it are read through ``.../users`` and told to a bot with the
GUILD_SCHEDULED_EVENTS intent as GUILD_SCHEDULED_EVENT_USER_ADD and _REMOVE; a recurring event
(``recurrence_rule``) has exceptions (an occurrence skipped or moved). An external event starts
and ends by itself at its times, on the emulator's wall clock (:meth:`Clock.wall`, which
``fd.clock.advance`` moves on); ending an occurrence of a recurring event moves the event on to
its next occurrence, SCHEDULED again.

A test acts as the people who use them: ``fd.scheduled.interested(user, event)``,
``fd.scheduled.uninterested(user, event)``, and reads ``fd.scheduled.of(guild)``.
"""

from __future__ import annotations

import asyncio
import calendar
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from aiohttp import web

from fakediscord import payloads
from fakediscord.errors import (
    DiscordError,
    EmulatorUsageError,
    Refusal,
    form_error,
)
from fakediscord.model import (
    CONNECT,
    CREATE_EVENTS,
    GUILD_STAGE_VOICE,
    GUILD_VOICE,
    MANAGE_CHANNELS,
    MANAGE_EVENTS,
    MOVE_MEMBERS,
    MUTE_MEMBERS,
    VIEW_CHANNEL,
    Channel,
    Guild,
    User,
)

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

__all__ = [
    "ACTIVE",
    "CANCELED",
    "COMPLETED",
    "EXTERNAL",
    "GUILD_SCHEDULED_EVENTS",
    "SCHEDULED",
    "VOICE",
    "ScheduledEvent",
    "ScheduledEvents",
    "routes",
]

#: The gateway intent a bot asks for to hear of events and of the people interested in them
#: (Gateway, "Gateway Intents": ``GUILD_SCHEDULED_EVENTS (1 << 16)``).
GUILD_SCHEDULED_EVENTS = 1 << 16
#: Statuses (Guild Scheduled Event, "Guild Scheduled Event Status").
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
#: "Valid Guild Scheduled Event Status Transitions".
TRANSITIONS = frozenset({(SCHEDULED, ACTIVE), (ACTIVE, COMPLETED), (SCHEDULED, CANCELED)})
#: Entity types ("Guild Scheduled Event Entity Types").
STAGE_INSTANCE, VOICE, EXTERNAL = 1, 2, 3
#: "A guild can have a maximum of 100 events with SCHEDULED or ACTIVE status at any time."
MOST_UNDER_WAY = 100
#: Recurrence frequencies ("Recurrence Rule - Frequency") and the weekday sets a daily event
#: may recur on ("System limitations").
YEARLY, MONTHLY, WEEKLY, DAILY = 0, 1, 2, 3
DAILY_SETS = (
    frozenset({0, 1, 2, 3, 4}),
    frozenset({1, 2, 3, 4, 5}),
    frozenset({6, 0, 1, 2, 3}),
    frozenset({4, 5}),
    frozenset({5, 6}),
    frozenset({6, 0}),
)
#: The users Get Guild Scheduled Event Users gives at most per request ("up to maximum 100").
USERS_PAGE = 100
#: The recurrence rule's fields, as Discord writes them back (every one, null when not set:
#: discord/discord-api-docs#6799 shows a rule as the API returns it).
RULE_FIELDS = (
    "start",
    "end",
    "frequency",
    "interval",
    "by_weekday",
    "by_n_weekday",
    "by_month",
    "by_month_day",
    "by_year_day",
    "count",
)


def parse_time(text: str) -> datetime:
    """An ISO 8601 timestamp as Discord takes it (``Z`` or an offset)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def written(at: datetime | None) -> str | None:
    """A time as Discord writes it back (``2023-12-31T23:00:00+00:00``)."""
    return None if at is None else at.astimezone(UTC).isoformat()


def exception_id(original: datetime) -> int:
    """The snowflake an exception is known by: "a snowflake containing the original scheduled
    start time" (discord/discord-api-docs pull request #8389)."""
    ms = int(original.timestamp() * 1000) - 1420070400000
    return ms << 22


@dataclass(eq=False)
class ScheduledEvent:
    """One scheduled event of a server, as the emulator keeps it."""

    id: int
    guild: Guild
    creator: User
    name: str
    start: datetime
    end: datetime | None
    entity_type: int
    channel: Channel | None = None
    description: str | None = None
    location: str | None = None
    status: int = SCHEDULED
    recurrence: dict[str, Any] | None = None
    #: Its exceptions, by their id (the original start of the occurrence they change).
    exceptions: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Who is interested (user id -> when they said so); its creator from the start.
    interested: dict[int, str] = field(default_factory=dict)
    #: Every state it has had, as Discord wrote it (its payload), oldest first.
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def recurring(self) -> bool:
        """Whether it recurs (has a recurrence rule)."""
        return self.recurrence is not None

    @property
    def under_way(self) -> bool:
        """SCHEDULED or ACTIVE: not over."""
        return self.status in (SCHEDULED, ACTIVE)

    def occurrence(self) -> dict[str, Any] | None:
        """The exception of the occurrence the event stands at, if it has one."""
        return self.exceptions.get(exception_id(self.start))

    def effective_start(self) -> datetime:
        """When the occurrence it stands at starts: moved by an exception, or its own."""
        moved = self.occurrence()
        if moved is not None and moved.get("scheduled_start_time"):
            return parse_time(moved["scheduled_start_time"])
        return self.start

    def effective_end(self) -> datetime | None:
        """When the occurrence it stands at ends."""
        moved = self.occurrence()
        if moved is not None and moved.get("scheduled_end_time"):
            return parse_time(moved["scheduled_end_time"])
        if moved is not None and moved.get("scheduled_start_time") and self.end is not None:
            return self.effective_start() + (self.end - self.start)
        return self.end

    def payload(self, *, with_user_count: bool = False) -> dict[str, Any]:
        """The guild scheduled event object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild.id),
            "channel_id": None if self.channel is None else str(self.channel.id),
            "creator_id": str(self.creator.id),
            "creator": payloads.user(self.creator),
            "name": self.name,
            "description": self.description,
            "scheduled_start_time": written(self.start),
            "scheduled_end_time": written(self.end),
            "privacy_level": 2,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": None if self.location is None else {"location": self.location},
            "image": None,
            "sku_ids": [],
            "recurrence_rule": None if self.recurrence is None else dict(self.recurrence),
            "guild_scheduled_event_exceptions": [dict(e) for e in self.exceptions.values()],
        }
        if with_user_count:
            data["user_count"] = len(self.interested)
        return data

    def next_occurrence(self, after: datetime) -> datetime | None:
        """The rule's first occurrence later than ``after`` that is not skipped (None: none,
        or no rule)."""
        if self.recurrence is None:
            return None
        found = after
        for _ in range(1000):
            candidate = next_by_rule(self.recurrence, found)
            if candidate is None:
                return None
            skipped = self.exceptions.get(exception_id(candidate))
            if skipped is None or not skipped.get("is_canceled"):
                return candidate
            found = candidate
        return None


def next_by_rule(rule: dict[str, Any], after: datetime) -> datetime | None:
    """The first time later than ``after`` that ``rule`` (a recurrence rule Discord took)
    names, at the time of day of its ``start`` (UTC)."""
    start = parse_time(str(rule["start"]))
    frequency, interval = int(rule["frequency"]), int(rule.get("interval") or 1)
    if frequency == WEEKLY:
        days = rule.get("by_weekday") or [start.weekday()]
        first = start + timedelta(days=(int(days[0]) - start.weekday()) % 7)
        step = timedelta(weeks=interval)
        if after < first:
            return first
        steps = (after - first) // step + 1
        return first + steps * step
    if frequency == DAILY:
        allowed = set(rule.get("by_weekday") or range(7))
        candidate = max(start, after.replace(microsecond=0))
        candidate = candidate.replace(hour=start.hour, minute=start.minute, second=start.second)
        for _ in range(15):
            if candidate > after and candidate >= start and candidate.weekday() in allowed:
                return candidate
            candidate += timedelta(days=1)
        return None
    if frequency == MONTHLY:
        own = {"n": (start.day - 1) // 7 + 1, "day": start.weekday()}
        [nth] = rule.get("by_n_weekday") or [own]
        year, month = start.year, start.month
        for _ in range(120):
            day = nth_weekday(year, month, int(nth["n"]), int(nth["day"]))
            if day is not None:
                candidate = start.replace(year=year, month=month, day=day)
                if candidate > after and candidate >= start:
                    return candidate
            month += 1
            if month > 12:
                year, month = year + 1, 1
        return None
    months = rule.get("by_month") or [start.month]
    days_of = rule.get("by_month_day") or [start.day]
    for year in range(start.year, start.year + 10):
        with contextlib.suppress(ValueError):
            candidate = start.replace(year=year, month=int(months[0]), day=int(days_of[0]))
            if candidate > after and candidate >= start:
                return candidate
    return None


def nth_weekday(year: int, month: int, n: int, weekday: int) -> int | None:
    """The day of the month of its ``n``-th ``weekday`` (0 Monday), None if it has none."""
    first = (weekday - calendar.weekday(year, month, 1)) % 7 + 1
    day = first + 7 * (n - 1)
    return day if day <= calendar.monthrange(year, month)[1] else None


def _location(body: dict[str, Any]) -> str | None:
    found = (body.get("entity_metadata") or {}).get("location")
    return None if found is None else str(found)


def _invalid(path: str, code: str, message: str) -> DiscordError:
    return form_error(path, code, message)


def check_rule(rule: dict[str, Any]) -> dict[str, Any]:
    """A recurrence rule as Discord takes it (its "System limitations"), written back whole;
    else 400 / 50035 naming the field."""
    where = "recurrence_rule"
    for unsettable in ("count", "end", "by_year_day"):
        if rule.get(unsettable) is not None:
            # discord/discord-api-docs#7020: "This field is not supported for recurring events."
            raise _invalid(
                f"{where}.{unsettable}",
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_FIELD_NOT_SUPPORTED",
                "This field is not supported for recurring events.",
            )
    frequency = int(rule["frequency"])
    interval = int(rule.get("interval") or 1)
    by_weekday = rule.get("by_weekday")
    by_n_weekday = rule.get("by_n_weekday")
    by_month, by_month_day = rule.get("by_month"), rule.get("by_month_day")
    used = [by_weekday is not None, by_n_weekday is not None]
    used.append(by_month is not None or by_month_day is not None)
    if sum(used) > 1:
        raise _invalid(
            where, "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID", "Mutually exclusive fields."
        )
    if interval != 1 and not (frequency == WEEKLY and interval == 2):
        raise _invalid(
            f"{where}.interval",
            "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
            "An interval other than 1 is taken only by a weekly rule, and then 2.",
        )
    if by_weekday is not None:
        if frequency == WEEKLY and len(by_weekday) != 1:
            raise _invalid(
                f"{where}.by_weekday",
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
                "A weekly rule recurs on one day of the week.",
            )
        if frequency == DAILY and frozenset(by_weekday) not in DAILY_SETS:
            raise _invalid(
                f"{where}.by_weekday",
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
                "A daily rule recurs on one of the known sets of weekdays.",
            )
        if frequency not in (WEEKLY, DAILY):
            raise _invalid(
                f"{where}.by_weekday",
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
                "Only a daily or weekly rule takes by_weekday.",
            )
    if by_n_weekday is not None:
        if frequency != MONTHLY or len(by_n_weekday) != 1:
            raise _invalid(
                f"{where}.by_n_weekday",
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
                "Only a monthly rule takes by_n_weekday, with one day.",
            )
        if not 1 <= int(by_n_weekday[0].get("n", 0)) <= 5:
            raise _invalid(
                f"{where}.by_n_weekday.0.n",
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
                "The week to recur on is 1 to 5.",
            )
    if by_month is not None or by_month_day is not None:
        pair = (by_month or [], by_month_day or [])
        if frequency != YEARLY or [len(p) for p in pair] != [1, 1]:
            raise _invalid(
                where,
                "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID",
                "Only a yearly rule takes by_month and by_month_day, one each.",
            )
    whole = {name: rule.get(name) for name in RULE_FIELDS}
    whole["start"] = written(parse_time(str(rule["start"])))
    whole["interval"] = interval
    return whole


class ScheduledEvents:
    """Every scheduled event of one emulator: made and changed through REST, started and ended
    on the wall clock, and the people interested in them."""

    def __init__(self, fd: FakeDiscord) -> None:
        self._fd = fd
        self.events: dict[int, ScheduledEvent] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        fd.clock.on_advance(self._rearm_all)

    # -- a test's view --------------------------------------------------------------------------
    def of(self, guild: Guild) -> list[ScheduledEvent]:
        """A server's events, in the order they were made (ended ones too)."""
        return [e for e in self.events.values() if e.guild is guild]

    async def interested(self, user: User, event: ScheduledEvent) -> None:
        """``user`` marks the event Interested in their client (a bot with the intent hears
        GUILD_SCHEDULED_EVENT_USER_ADD)."""
        self._may_answer(user, event)
        if user.id in event.interested:
            raise EmulatorUsageError(f"{user.name} is interested in {event.name!r} already")
        event.interested[user.id] = datetime.now(UTC).isoformat()
        await self._tell_users("GUILD_SCHEDULED_EVENT_USER_ADD", event, user)

    async def uninterested(self, user: User, event: ScheduledEvent) -> None:
        """``user`` takes back their Interested (GUILD_SCHEDULED_EVENT_USER_REMOVE)."""
        self._may_answer(user, event)
        if event.interested.pop(user.id, None) is None:
            raise EmulatorUsageError(f"{user.name} is not interested in {event.name!r}")
        await self._tell_users("GUILD_SCHEDULED_EVENT_USER_REMOVE", event, user)

    def _may_answer(self, user: User, event: ScheduledEvent) -> None:
        if event.guild.member(user) is None or user.bot:
            raise EmulatorUsageError(f"{user.name} is not a member of {event.guild.name}")
        if event.channel is not None and not event.channel.visible_to(user):
            raise EmulatorUsageError(f"{user.name} cannot see #{event.channel.name}")
        if not event.under_way:
            raise EmulatorUsageError(f"{event.name!r} is over: nobody marks it any more")

    async def _tell_users(self, kind: str, event: ScheduledEvent, user: User) -> None:
        fd = self._fd
        self._fd._notify()
        if not self._hears(event.guild):
            return
        data = {
            "guild_scheduled_event_id": str(event.id),
            "user_id": str(user.id),
            "guild_id": str(event.guild.id),
        }
        await fd.gateway.dispatch(kind, data)

    def _hears(self, guild: Guild) -> bool:
        """Whether the bot hears of this server's events: a member, its session asking for
        the GUILD_SCHEDULED_EVENTS intent."""
        fd = self._fd
        if guild.member(fd.bot_user) is None or not fd.gateway.sessions:
            return False
        session = fd.gateway.route(guild.id)
        return session is not None and bool(session.intents & GUILD_SCHEDULED_EVENTS)

    def _announce(self, kind: str, event: ScheduledEvent) -> None:
        event.history.append(event.payload())
        self._fd._notify()
        if self._hears(event.guild):
            self._fd._spawn(self._fd.gateway.dispatch(kind, event.payload()))

    # -- the REST side --------------------------------------------------------------------------
    def _permissions(self, guild: Guild, channel: Channel | None, entity_type: int) -> None:
        """Make or change an event: Create Events or Manage Events in the server (for a
        voice or stage channel's, in that channel, with what that channel's event needs)."""
        bot = self._fd.bot_user
        member = guild.member(bot)
        if member is None:
            raise Refusal.MISSING_ACCESS.error()
        held = member.permissions if channel is None else channel.permissions_for(bot)
        needed = 0
        if entity_type == VOICE:
            needed = VIEW_CHANNEL | CONNECT
        elif entity_type == STAGE_INSTANCE:
            needed = MANAGE_CHANNELS | MUTE_MEMBERS | MOVE_MEMBERS
        if not held & (CREATE_EVENTS | MANAGE_EVENTS) or held & needed != needed:
            raise Refusal.MISSING_PERMISSIONS.error()

    def _check_fields(self, event_type: int, body: dict[str, Any], guild: Guild) -> Channel | None:
        """The fields an entity type requires ("Field Requirements By Entity Type"); the
        channel of a voice or stage event."""
        channel: Channel | None = None
        if event_type == EXTERNAL:
            if body.get("channel_id") is not None:
                raise form_error(
                    "channel_id",
                    "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED",
                    "An external event has no channel.",
                )
            location = (body.get("entity_metadata") or {}).get("location")
            if not isinstance(location, str) or not 1 <= len(location) <= 100:
                raise form_error(
                    "entity_metadata.location",
                    "BASE_TYPE_REQUIRED",
                    "An external event needs a location of 1 to 100 characters.",
                )
            if body.get("scheduled_end_time") is None:
                raise form_error(
                    "scheduled_end_time",
                    "BASE_TYPE_REQUIRED",
                    "An external event needs an end time.",
                )
            return None
        raw = body.get("channel_id")
        channel = None if raw is None else guild.channels.get(int(raw))
        wanted = GUILD_VOICE if event_type == VOICE else GUILD_STAGE_VOICE
        if channel is None or channel.type != wanted:
            raise form_error(
                "channel_id",
                "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL",
                "A voice event is in a voice channel, a stage event in a stage channel.",
            )
        if body.get("entity_metadata") is not None:
            raise form_error(
                "entity_metadata",
                "GUILD_SCHEDULED_EVENT_ENTITY_METADATA_NOT_ALLOWED",
                "Only an external event has entity metadata.",
            )
        return channel

    def _check_times(self, start: datetime, end: datetime | None, *, start_changed: bool) -> None:
        """A start in the past, or an end at or before the start, refused."""
        now = datetime.fromtimestamp(self._fd.clock.wall(), UTC)
        if start_changed and start < now:
            raise form_error(
                "scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                "Cannot schedule event in the past.",
            )
        if end is not None and end <= start:
            raise form_error(
                "scheduled_end_time",
                "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                "Cannot schedule event to end before starting.",
            )

    def create(self, guild: Guild, body: dict[str, Any]) -> ScheduledEvent:
        """Create Guild Scheduled Event."""
        kind = int(body.get("entity_type", 0))
        raw_channel = body.get("channel_id")
        channel = guild.channels.get(int(raw_channel)) if raw_channel is not None else None
        self._permissions(guild, channel, kind)
        channel = self._check_fields(kind, body, guild)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        description = body.get("description")
        if description is not None and not 1 <= len(str(description)) <= 1000:
            raise form_error(
                "description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1000 in length."
            )
        start = parse_time(str(body["scheduled_start_time"]))
        raw_end = body.get("scheduled_end_time")
        end = None if raw_end is None else parse_time(str(raw_end))
        self._check_times(start, end, start_changed=True)
        rule = body.get("recurrence_rule")
        recurrence = None if rule is None else check_rule(dict(rule))
        if sum(1 for e in self.of(guild) if e.under_way) >= MOST_UNDER_WAY:
            raise Refusal.TOO_MANY_EVENTS.error()
        bot = self._fd.bot_user
        event = ScheduledEvent(
            id=self._fd.world.ids.next(),
            guild=guild,
            creator=bot,
            name=name,
            start=start,
            end=end,
            entity_type=kind,
            channel=channel,
            description=None if description is None else str(description),
            location=_location(body) if kind == EXTERNAL else None,
            recurrence=recurrence,
        )
        # "Creating an event will automatically add you as a subscriber" (its creator).
        event.interested[bot.id] = datetime.now(UTC).isoformat()
        self.events[event.id] = event
        guild.events.append(event)
        self._announce("GUILD_SCHEDULED_EVENT_CREATE", event)
        self._rearm(event)
        return event

    def found(self, guild: Guild, event_id: int) -> ScheduledEvent:
        """One of the server's events (404 / 10070 Unknown Guild Scheduled Event)."""
        event = self.events.get(event_id)
        if event is None or event.guild is not guild:
            raise Refusal.UNKNOWN_EVENT.error()
        return event

    def _may_change(self, event: ScheduledEvent) -> None:
        """Modify/Delete: its creator with Create Events or Manage Events; anyone else with
        Manage Events (and a voice or stage event's channel permissions)."""
        bot = self._fd.bot_user
        self._permissions(event.guild, event.channel, event.entity_type)
        member = event.guild.member(bot)
        assert member is not None
        held = member.permissions if event.channel is None else event.channel.permissions_for(bot)
        if event.creator is not bot and not held & MANAGE_EVENTS:
            raise Refusal.MISSING_PERMISSIONS.error()

    def modify(self, event: ScheduledEvent, body: dict[str, Any]) -> ScheduledEvent:
        """Modify Guild Scheduled Event: its fields, or its status (start or end it)."""
        self._may_change(event)
        raw_status = body.get("status")
        status = event.status if raw_status is None else int(raw_status)
        moved = status != event.status
        if moved and (event.status, status) not in TRANSITIONS:
            raise form_error(
                "status",
                "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                "Cannot change the event's status this way.",
            )
        start = event.start
        if "scheduled_start_time" in body:
            start = parse_time(str(body["scheduled_start_time"]))
        end = event.end
        if "scheduled_end_time" in body:
            raw = body["scheduled_end_time"]
            end = None if raw is None else parse_time(str(raw))
        if event.entity_type == EXTERNAL and end is None:
            raise form_error(
                "scheduled_end_time", "BASE_TYPE_REQUIRED", "An external event needs an end time."
            )
        self._check_times(start, end, start_changed=start != event.start)
        if "name" in body:
            name = str(body["name"] or "")
            if not 1 <= len(name) <= 100:
                raise form_error(
                    "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                )
            event.name = name
        if "description" in body:
            description = body["description"]
            if description is not None and not 1 <= len(str(description)) <= 1000:
                raise form_error(
                    "description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 1000 in length."
                )
            event.description = None if description is None else str(description)
        if "entity_metadata" in body and event.entity_type == EXTERNAL:
            location = (body["entity_metadata"] or {}).get("location")
            if not isinstance(location, str) or not 1 <= len(location) <= 100:
                raise form_error(
                    "entity_metadata.location",
                    "BASE_TYPE_REQUIRED",
                    "An external event needs a location of 1 to 100 characters.",
                )
            event.location = location
        if "recurrence_rule" in body:
            rule = body["recurrence_rule"]
            event.recurrence = None if rule is None else check_rule(dict(rule))
            # (discord/discord-api-docs#8420: a new rule clears the exceptions.)
            event.exceptions.clear()
        event.start, event.end = start, end
        if moved:
            self._set_status(event, status)
        else:
            self._announce("GUILD_SCHEDULED_EVENT_UPDATE", event)
        self._rearm(event)
        return event

    def _set_status(self, event: ScheduledEvent, status: int) -> None:
        """Start, end or cancel it; an occurrence of a recurring event that ends moves the
        event on to the next one, SCHEDULED again (discord/discord-api-docs#6885: "when a
        reoccurring one ends it just reschedules an event"); cancelling a recurring event
        cancels every occurrence ("Setting status to CANCELED will cancel all future
        recurrences of the event as well", discord-userdoccers)."""
        if status == COMPLETED and event.recurring and self._roll_on(event):
            return
        event.status = status
        self._announce("GUILD_SCHEDULED_EVENT_UPDATE", event)

    def _roll_on(self, event: ScheduledEvent) -> bool:
        """Move a recurring event on to its next occurrence (False: it has none)."""
        following = event.next_occurrence(event.start)
        if following is None:
            return False
        length = None if event.end is None else event.end - event.start
        event.start = following
        event.end = None if length is None else following + length
        event.status = SCHEDULED
        self._announce("GUILD_SCHEDULED_EVENT_UPDATE", event)
        return True

    def delete(self, event: ScheduledEvent) -> None:
        """Delete Guild Scheduled Event."""
        self._may_change(event)
        self.events.pop(event.id, None)
        with contextlib.suppress(ValueError):
            event.guild.events.remove(event)
        timer = self._timers.pop(event.id, None)
        if timer is not None:
            timer.cancel()
        event.history.append(event.payload())
        if self._hears(event.guild):
            self._fd._spawn(
                self._fd.gateway.dispatch("GUILD_SCHEDULED_EVENT_DELETE", event.payload())
            )

    def add_exception(self, event: ScheduledEvent, body: dict[str, Any]) -> dict[str, Any]:
        """Create Guild Scheduled Event Exception: one occurrence of a recurring event skipped
        (``is_canceled``) or moved (its own times); the event's own times stay the rule's
        (discord/discord-api-docs#8428)."""
        self._may_change(event)
        if event.recurrence is None:
            raise form_error(
                "original_scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_NOT_RECURRING",
                "Only a recurring event has exceptions.",
            )
        original = parse_time(str(body["original_scheduled_start_time"]))
        on_rule = (
            original == event.start
            or next_by_rule(event.recurrence, original - timedelta(seconds=1)) == original
        )
        if not on_rule or original < event.start:
            raise form_error(
                "original_scheduled_start_time",
                "GUILD_SCHEDULED_EVENT_INVALID_OCCURRENCE",
                "No occurrence of the event starts then.",
            )
        start = body.get("scheduled_start_time")
        end = body.get("scheduled_end_time")
        if start is not None:
            self._check_times(
                parse_time(str(start)),
                None if end is None else parse_time(str(end)),
                start_changed=True,
            )
        made = {
            "event_id": str(event.id),
            "event_exception_id": str(exception_id(original)),
            "scheduled_start_time": None if start is None else written(parse_time(str(start))),
            "scheduled_end_time": None if end is None else written(parse_time(str(end))),
            "is_canceled": bool(body.get("is_canceled")),
        }
        event.exceptions[exception_id(original)] = made
        event.history.append(event.payload())
        self._fd._notify()
        if self._hears(event.guild):
            data = made | {"guild_id": str(event.guild.id)}
            self._fd._spawn(
                self._fd.gateway.dispatch("GUILD_SCHEDULED_EVENT_EXCEPTION_CREATE", data)
            )
        self._rearm(event)
        return made

    def users(self, event: ScheduledEvent, query: dict[str, str]) -> list[dict[str, Any]]:
        """Get Guild Scheduled Event Users: ascending by user id, ``limit`` (1 to 100) from
        ``after`` (or before ``before``, which wins), with their member when asked."""
        if event.channel is not None and not event.channel.visible_to(self._fd.bot_user):
            raise Refusal.MISSING_ACCESS.error()
        limit = int(query.get("limit") or USERS_PAGE)
        if not 1 <= limit <= USERS_PAGE:
            raise form_error("limit", "NUMBER_TYPE_MAX", "Must be between 1 and 100.")
        ids = sorted(event.interested)
        if query.get("before"):
            ids = [i for i in ids if i < int(query["before"])][-limit:]
        elif query.get("after"):
            ids = [i for i in ids if i > int(query["after"])][:limit]
        else:
            ids = ids[:limit]
        with_member = query.get("with_member", "").lower() in ("1", "true")
        found: list[dict[str, Any]] = []
        for user_id in ids:
            user = self._fd.world.users[user_id]
            item: dict[str, Any] = {
                "guild_scheduled_event_id": str(event.id),
                "user": payloads.user(user),
            }
            member = event.guild.member(user)
            if with_member and member is not None:
                item["member"] = payloads.member(member, with_user=False)
            found.append(item)
        return found

    # -- the clock ------------------------------------------------------------------------------
    def _rearm_all(self) -> None:
        for event in list(self.events.values()):
            self._rearm(event)

    def _rearm(self, event: ScheduledEvent) -> None:
        """An external event starts at its start time and ends at its end time by itself
        ("Guild Scheduled Event Status Update Automation"); a skipped occurrence of a recurring
        one moves it on instead."""
        timer = self._timers.pop(event.id, None)
        if timer is not None:
            timer.cancel()
        if event.entity_type != EXTERNAL or not event.under_way:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        due = event.effective_start() if event.status == SCHEDULED else event.effective_end()
        if due is None:
            return
        delay = max(0.0, due.timestamp() - self._fd.clock.wall())
        self._timers[event.id] = loop.call_later(delay, self._due, event)

    def _due(self, event: ScheduledEvent) -> None:
        self._timers.pop(event.id, None)
        if not event.under_way or self.events.get(event.id) is not event:
            return
        occurrence = event.occurrence()
        if event.status == SCHEDULED and occurrence is not None and occurrence.get("is_canceled"):
            if not self._roll_on(event):
                event.status = COMPLETED
                self._announce("GUILD_SCHEDULED_EVENT_UPDATE", event)
        elif event.status == SCHEDULED:
            event.status = ACTIVE
            self._announce("GUILD_SCHEDULED_EVENT_UPDATE", event)
        else:
            self._set_status(event, COMPLETED)
        self._rearm(event)


def routes(
    fd: FakeDiscord, api: str, guild_of: Callable[[web.Request], Guild]
) -> list[web.RouteDef]:
    """The scheduled events' REST routes."""
    from fakediscord.rest import json_response

    book = fd.scheduled
    base = api + r"/guilds/{guild:\d+}/scheduled-events"
    one = base + r"/{event:\d+}"

    async def body_of(request: web.Request) -> dict[str, Any]:
        from fakediscord.rest import BODY

        read = request.get(BODY)
        body = read[0] if read is not None else await request.json()
        if not isinstance(body, dict):
            raise form_error("_", "DICT_TYPE_CONVERT", "Only dictionaries may be used.")
        return body

    def counted(request: web.Request) -> bool:
        return request.query.get("with_user_count", "").lower() in ("1", "true")

    async def listed(request: web.Request) -> web.Response:
        guild = guild_of(request)
        # Get Guild Scheduled Events lists the SCHEDULED and ACTIVE ones (discord-userdoccers).
        events = [e for e in book.of(guild) if e.under_way]
        return json_response([e.payload(with_user_count=counted(request)) for e in events])

    async def create(request: web.Request) -> web.Response:
        event = book.create(guild_of(request), await body_of(request))
        return json_response(event.payload())

    async def get(request: web.Request) -> web.Response:
        event = book.found(guild_of(request), int(request.match_info["event"]))
        if event.channel is not None and not event.channel.visible_to(fd.bot_user):
            raise Refusal.MISSING_ACCESS.error()
        return json_response(event.payload(with_user_count=counted(request)))

    async def patch(request: web.Request) -> web.Response:
        event = book.found(guild_of(request), int(request.match_info["event"]))
        return json_response(book.modify(event, await body_of(request)).payload())

    async def delete(request: web.Request) -> web.Response:
        book.delete(book.found(guild_of(request), int(request.match_info["event"])))
        return web.Response(status=204)

    async def users(request: web.Request) -> web.Response:
        event = book.found(guild_of(request), int(request.match_info["event"]))
        query = {key: request.query.getone(key) for key in request.query}
        return json_response(book.users(event, query))

    async def exception(request: web.Request) -> web.Response:
        event = book.found(guild_of(request), int(request.match_info["event"]))
        return json_response(book.add_exception(event, await body_of(request)))

    return [
        web.get(base, listed),
        web.post(base, create),
        web.get(one, get),
        web.patch(one, patch),
        web.delete(one, delete),
        web.get(one + "/users", users),
        web.post(one + "/exceptions", exception),
    ]
