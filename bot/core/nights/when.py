"""Times as people think of them: "Friday 20:00", "tomorrow 8pm", "6 March 19:30", read in
the server's time zone (Python's :mod:`zoneinfo`, on the machine's zone database or, lacking
one, the ``tzdata`` package's); the next dates offered as they type; a club's next night,
weekly, every other week or monthly, in its zone's wall-clock time (20:00 stays 20:00 across
summer time); Discord's recurrence rule for the same; and a league's season (a calendar
quarter in the club's zone).

>>> from datetime import datetime
>>> london = zone_named("Europe/London")
>>> now = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)  # a Wednesday
>>> read_when("Friday 20:00", london, now)
datetime.datetime(2026, 3, 6, 20, 0, tzinfo=datetime.timezone.utc)
>>> read_when("fri 8pm", london, now) == read_when("2026-03-06 20:00", london, now)
True
>>> read_when("6 April 19:30", london, now)  # summer time: 18:30 UTC
datetime.datetime(2026, 4, 6, 18, 30, tzinfo=datetime.timezone.utc)
>>> next_local(datetime(2026, 3, 27, 20, 0), Repeat.WEEKLY)
datetime.datetime(2026, 4, 3, 20, 0)
>>> next_local(datetime(2026, 3, 13, 20, 0), Repeat.MONTHLY)  # the second Friday
datetime.datetime(2026, 4, 10, 20, 0)
>>> season_of(datetime(2026, 5, 1, tzinfo=UTC), london).name
'April–June 2026'
"""

from __future__ import annotations

import calendar
import re
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from functools import cache

from bot.core.base.refusals import Refused

__all__ = [
    "DEFAULT_ZONE",
    "Repeat",
    "Season",
    "known_zones",
    "local_of",
    "next_local",
    "read_when",
    "recurrence_rule",
    "rule_occurrence",
    "season_of",
    "suggestions",
    "when_value",
    "zone_named",
]

#: The time zone a server that has not set its own reads its times in.
DEFAULT_ZONE = "UTC"
#: A night is scheduled this far ahead at the least (Discord refuses an event in the past, and
#: the moment typed must still be to come when the command lands).
SOONEST = timedelta(minutes=1)
#: How far ahead a night may be scheduled.
LATEST = timedelta(days=366)
#: The time a day offered alone is suggested at.
EVENING = time(20, 0)

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = tuple(calendar.month_name[n].lower() for n in range(1, 13))
_TIME = re.compile(
    r"(?:(?P<h>\d{1,2})(?:[:.h](?P<m>\d{2}))?\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)?|(?P<word>noon|midnight))$"
)
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})$")
#: What a time that cannot be read is told.
HOW = (
    "I couldn't read that time: write it as people say it, e.g. `Friday 20:00`, `tomorrow 8pm`"
    " or `6 March 19:30` (or choose one of the dates offered)."
)


class Repeat(StrEnum):
    """How often a club's night comes round."""

    ONCE = "once"
    WEEKLY = "weekly"
    FORTNIGHTLY = "fortnightly"
    MONTHLY = "monthly"

    @property
    def said(self) -> str:
        """The words for it ("every other week")."""
        return _REPEAT_SAID[self]


_REPEAT_SAID = {
    Repeat.ONCE: "once",
    Repeat.WEEKLY: "every week",
    Repeat.FORTNIGHTLY: "every other week",
    Repeat.MONTHLY: "every month",
}


@cache
def zone_named(name: str) -> tzinfo:
    """The time zone of an IANA name ("Europe/London"); ``Refused`` for one there is not."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise Refused(
            f"`{name}` is no time zone I know: choose one from the list (e.g. `Europe/London`,"
            " `America/New_York`)."
        ) from None


@cache
def _all_zones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


def known_zones(typed: str, *, limit: int = 25) -> list[str]:
    """The zones whose names hold what was typed (case and spaces aside), the closest first
    (those it begins a part of)."""
    wanted = typed.strip().lower().replace(" ", "_")
    zones = _all_zones()
    if not wanted:
        return ["UTC", "Europe/London", "America/New_York", "America/Chicago"][:limit]
    hits = [z for z in zones if wanted in z.lower()]
    hits.sort(key=lambda z: (not any(p.startswith(wanted) for p in z.lower().split("/")), z))
    return hits[:limit]


def local_of(at: datetime, zone: tzinfo) -> datetime:
    """A moment as the zone's wall clock reads it (naive)."""
    return at.astimezone(zone).replace(tzinfo=None)


def _utc(local: datetime, zone: tzinfo) -> datetime:
    """A wall-clock time of the zone (naive) as a moment."""
    return local.replace(tzinfo=zone).astimezone(UTC)


def _read_time(text: str) -> time | None:
    found = _TIME.match(text.strip().lower())
    if found is None:
        return None
    if found["word"]:
        return time(12, 0) if found["word"] == "noon" else time(0, 0)
    hour, minute = int(found["h"]), int(found["m"] or 0)
    ampm = (found["ampm"] or "").replace(".", "")
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    elif found["m"] is None:
        return None  # ("20" alone is no time: "20:00" or "8pm" is)
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def _named(word: str, names: tuple[str, ...]) -> int | None:
    """The index of the name ``word`` begins (three letters at least): Mon, Tues, Sept."""
    if len(word) < 3:
        return None
    found = [n for n, name in enumerate(names) if name.startswith(word)]
    return found[0] if len(found) == 1 else None


def _day_of(words: list[str], today: date) -> date | None:
    """The day the words name, on or after today (None: they name none)."""
    if not words:
        return None
    text = " ".join(words)
    if text in ("today", "tonight"):
        return today
    if text == "tomorrow":
        return today + timedelta(days=1)
    iso = _ISO.match(text)
    if iso is not None:
        try:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        except ValueError:
            return None
    words = [w for w in words if w not in ("next", "this", "on", "the")]
    if len(words) == 1:
        weekday = _named(words[0], _DAYS)
        if weekday is not None:
            return today + timedelta(days=(weekday - today.weekday()) % 7)
    # "6 March", "March 6", "6th March", "Friday 6 March"
    words = [w for w in words if _named(w, _DAYS) is None] or words
    if len(words) == 2:
        first, second = words
        for day_word, month_word in ((first, second), (second, first)):
            day_text = re.sub(r"(st|nd|rd|th)$", "", day_word)
            month = _named(month_word, _MONTHS)
            if day_text.isdecimal() and month is not None:
                year = today.year
                try:
                    found = date(year, month + 1, int(day_text))
                    if found < today:
                        found = date(year + 1, month + 1, int(day_text))
                except ValueError:
                    return None
                return found
    return None


def _split(text: str) -> tuple[list[str], time | None]:
    """The words naming a day, and the time at the end (None: none found)."""
    cleaned = re.sub(r"[,@]", " ", text.strip().lower())
    cleaned = re.sub(r"\s+at\s+", " ", cleaned)
    words = cleaned.split()
    for cut in (1, 2):
        if len(words) >= cut:
            found = _read_time(" ".join(words[-cut:]))
            if found is not None:
                return words[:-cut], found
    for cut in (2, 1):  # ("8pm Friday": the time first)
        if len(words) > cut:
            found = _read_time(" ".join(words[:cut]))
            if found is not None:
                return [w for w in words[cut:] if w != "on"], found
    return words, None


def read_when(text: str, zone: tzinfo, now: datetime) -> datetime:
    """The moment ``text`` names in ``zone`` (a day and a time; a time alone is the next such
    time), as UTC; ``Refused`` with the sentence to say when it names none, or a moment past
    or too far ahead."""
    words, at = _split(text)
    if at is None:
        if words and _day_of(words, local_of(now, zone).date()) is not None:
            raise Refused("Say the time too, e.g. `Friday 20:00`.")
        raise Refused(HOW)
    today = local_of(now, zone).date()
    if words:
        day = _day_of(words, today)
        if day is None:
            raise Refused(HOW)
        moment = _utc(datetime.combine(day, at), zone)
        if moment <= now and len(words) == 1 and _named(words[0], _DAYS) is not None:
            moment = _utc(datetime.combine(day + timedelta(days=7), at), zone)
    else:
        moment = _utc(datetime.combine(today, at), zone)
        if moment <= now:
            moment = _utc(datetime.combine(today + timedelta(days=1), at), zone)
    if moment < now + SOONEST:
        raise Refused("That time has passed: choose one to come (the list offers the next dates).")
    if moment > now + LATEST:
        raise Refused("That is more than a year away: choose a date within the year.")
    return moment


def when_value(at: datetime, zone: tzinfo) -> str:
    """A moment as the option's value writes it: the zone's date and time ("2026-03-06 20:00")."""
    return local_of(at, zone).strftime("%Y-%m-%d %H:%M")


def said_day(at: datetime, zone: tzinfo) -> str:
    """A moment as a list of dates says it: "Friday 6 March 2026, 20:00"."""
    local = local_of(at, zone)
    return f"{_DAYS[local.weekday()].title()} {local.day} {local:%B %Y}, {local:%H:%M}"


def suggestions(
    typed: str, zone: tzinfo, zone_name: str, now: datetime, *, limit: int = 25
) -> list[tuple[str, str]]:
    """What the ``when`` option offers as someone types: (what the list shows, the value):
    what they typed read, then the same weekday and time in the weeks after; a day typed
    alone, at 20:00; nothing typed, the next evenings."""
    found: list[datetime] = []
    words, at = _split(typed)
    today = local_of(now, zone).date()
    try:
        first = read_when(typed, zone, now) if at is not None else None
    except Refused:
        first = None
    if first is not None:
        local = local_of(first, zone)
        found = [_utc(local + timedelta(weeks=n), zone) for n in range(4)]
    elif words and at is None and _day_of(words, today) is not None:
        day = _day_of(words, today)
        assert day is not None
        found = [_utc(datetime.combine(day + timedelta(weeks=n), EVENING), zone) for n in range(4)]
    elif not typed.strip():
        found = [_utc(datetime.combine(today + timedelta(days=n), EVENING), zone) for n in range(8)]
    shown = [
        (f"{said_day(moment, zone)} ({zone_name})", when_value(moment, zone))
        for moment in found
        if now + SOONEST <= moment <= now + LATEST
    ]
    return shown[:limit]


def nth_of_month(day: date) -> int:
    """Which of its weekday in the month a day is (the 2nd Friday: 2)."""
    return (day.day - 1) // 7 + 1


def next_local(local: datetime, repeat: Repeat) -> datetime:
    """The night after one at ``local`` (the zone's wall-clock time): a week or two later, or
    the same weekday of the same week of the next month (the second Friday)."""
    if repeat is Repeat.WEEKLY:
        return local + timedelta(weeks=1)
    if repeat is Repeat.FORTNIGHTLY:
        return local + timedelta(weeks=2)
    if repeat is Repeat.MONTHLY:
        n, weekday = nth_of_month(local.date()), local.weekday()
        year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
        first = (weekday - calendar.weekday(year, month, 1)) % 7 + 1
        return local.replace(year=year, month=month, day=first + 7 * (n - 1))
    raise ValueError("A night held once has no next.")


def next_night(at: datetime, zone: tzinfo, repeat: Repeat) -> datetime:
    """The moment of the night after one at ``at``, in ``zone``'s wall-clock time."""
    return _utc(next_local(local_of(at, zone), repeat), zone)


def monthly_refusal(at: datetime, zone: tzinfo) -> str | None:
    """Why a monthly night cannot start then (None: it can): the fifth of a weekday does not
    come every month."""
    if nth_of_month(local_of(at, zone).date()) == 5:
        return (
            "A monthly night comes on the same weekday of the same week each month, and not"
            " every month has a fifth one: choose a date in the month's first four weeks."
        )
    return None


def recurrence_rule(repeat: Repeat, start: datetime) -> dict[str, object] | None:
    """Discord's recurrence rule for a club's nights from ``start`` (None: once): weekly or
    every other week on its weekday, or monthly on its weekday of its week, all by the
    start's UTC date as Discord's rule counts (Guild Scheduled Event, "Recurrence Rule")."""
    if repeat is Repeat.ONCE:
        return None
    first = start.astimezone(UTC)
    rule: dict[str, object] = {"start": first.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if repeat is Repeat.MONTHLY:
        n = nth_of_month(first.date())
        return rule | {
            "frequency": 1,
            "interval": 1,
            "by_n_weekday": [{"n": n, "day": first.weekday()}],
        }
    interval = 2 if repeat is Repeat.FORTNIGHTLY else 1
    return rule | {"frequency": 2, "interval": interval, "by_weekday": [first.weekday()]}


def rule_occurrence(repeat: Repeat, rule_start: datetime, near: datetime) -> datetime:
    """The occurrence of Discord's recurrence rule (:func:`recurrence_rule`, started at
    ``rule_start``) nearest to ``near``: the one a night at ``near`` is, by Discord's count
    (which is in UTC: across a change to or from summer time, an hour from the night).

    >>> first = datetime(2026, 3, 6, 20, 0, tzinfo=UTC)
    >>> rule_occurrence(Repeat.WEEKLY, first, datetime(2026, 4, 3, 19, 0, tzinfo=UTC))
    datetime.datetime(2026, 4, 3, 20, 0, tzinfo=datetime.timezone.utc)
    """
    first = rule_start.astimezone(UTC)
    if repeat is Repeat.MONTHLY:
        n = nth_of_month(first.date())
        best = first
        for months in range(-1, 2):
            index = near.year * 12 + near.month - 1 + months
            year, month = divmod(index, 12)
            day = (first.weekday() - calendar.weekday(year, month + 1, 1)) % 7 + 1 + 7 * (n - 1)
            if day > calendar.monthrange(year, month + 1)[1]:
                continue
            found = first.replace(year=year, month=month + 1, day=day)
            if abs((found - near).total_seconds()) < abs((best - near).total_seconds()):
                best = found
        return best
    step = timedelta(weeks=2 if repeat is Repeat.FORTNIGHTLY else 1)
    return first + step * round((near - first) / step)


@dataclass(frozen=True, slots=True)
class Season:
    """A league's season: a calendar quarter in the club's time zone, as moments."""

    start: datetime
    end: datetime
    name: str

    def holds(self, at: float) -> bool:
        """Whether the Unix time ``at`` falls in it."""
        return self.start.timestamp() <= at < self.end.timestamp()


def season_of(at: datetime, zone: tzinfo, back: int = 0) -> Season:
    """The quarter (January–March, April–June, ...) ``at`` falls in, in ``zone``, or the one
    ``back`` quarters before."""
    local = local_of(at, zone)
    index = local.year * 4 + (local.month - 1) // 3 - back
    year, quarter = divmod(index, 4)
    first = datetime(year, quarter * 3 + 1, 1)
    after_index = index + 1
    after = datetime(after_index // 4, (after_index % 4) * 3 + 1, 1)
    name = f"{calendar.month_name[quarter * 3 + 1]}–{calendar.month_name[quarter * 3 + 3]} {year}"
    return Season(_utc(first, zone), _utc(after, zone), name)
