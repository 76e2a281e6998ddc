"""Times as people type them, in a server's zone; a club's next nights; Discord's recurrence
rule; a league's season (bot/core/nights/when.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.base.refusals import Refused
from bot.core.nights.when import (
    Repeat,
    monthly_refusal,
    next_night,
    read_when,
    recurrence_rule,
    rule_occurrence,
    season_of,
    suggestions,
    zone_named,
)

LONDON = zone_named("Europe/London")
NEW_YORK = zone_named("America/New_York")
#: A Wednesday noon, UTC.
NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Friday 20:00", at(2026, 3, 6, 20, 0)),
        ("friday 8pm", at(2026, 3, 6, 20, 0)),
        ("Fri 8:30 pm", at(2026, 3, 6, 20, 30)),
        ("fri at 20.00", at(2026, 3, 6, 20, 0)),
        ("8pm on Friday", at(2026, 3, 6, 20, 0)),
        ("20:00 tomorrow", at(2026, 3, 5, 20, 0)),
        ("tomorrow 19:30", at(2026, 3, 5, 19, 30)),
        ("today 18:00", at(2026, 3, 4, 18, 0)),
        ("tonight 9pm", at(2026, 3, 4, 21, 0)),
        ("20:00", at(2026, 3, 4, 20, 0)),
        ("11:00", at(2026, 3, 5, 11, 0)),  # (today's has passed: tomorrow's)
        ("Wednesday 11:00", at(2026, 3, 11, 11, 0)),  # (today's has passed: next week's)
        ("6 March 19:30", at(2026, 3, 6, 19, 30)),
        ("March 6th 7:30pm", at(2026, 3, 6, 19, 30)),
        ("Friday 6 March 20:00", at(2026, 3, 6, 20, 0)),
        ("2026-03-06 20:00", at(2026, 3, 6, 20, 0)),
        ("1 Feb noon", at(2027, 2, 1, 12, 0)),  # (this year's has passed)
        ("6 April 19:30", at(2026, 4, 6, 18, 30)),  # (London's summer time)
    ],
)
def test_a_time_is_read_as_people_say_it_in_the_servers_zone(typed: str, meant: datetime) -> None:
    assert read_when(typed, LONDON, NOW) == meant


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Friday", "Say the time too"),
        ("soon", "I couldn't read that time"),
        ("Friday 25:00", "I couldn't read that time"),
        ("Friday 20", "I couldn't read that time"),
        ("31 February 20:00", "I couldn't read that time"),
        ("2026-03-01 20:00", "That time has passed"),
        ("2028-03-01 20:00", "more than a year away"),
    ],
)
def test_a_time_it_cannot_take_is_refused_in_one_sentence(typed: str, said: str) -> None:
    with pytest.raises(Refused, match=said):
        read_when(typed, LONDON, NOW)


def test_the_list_offers_the_dates_it_reads_then_the_weeks_after() -> None:
    offered = suggestions("fri 8pm", NEW_YORK, "America/New_York", NOW)
    assert [name for name, _ in offered][:2] == [
        "Friday 6 March 2026, 20:00 (America/New_York)",
        "Friday 13 March 2026, 20:00 (America/New_York)",
    ]
    # Each value is a time the option reads back as the same moment.
    for _, value in offered:
        read_when(value, NEW_YORK, NOW)
    assert len(suggestions("", LONDON, "Europe/London", NOW)) == 8
    assert suggestions("Saturday", LONDON, "Europe/London", NOW)[0][1] == "2026-03-07 20:00"
    assert suggestions("nonsense", LONDON, "Europe/London", NOW) == []


def test_a_weekly_night_keeps_its_wall_clock_time_across_summer_time() -> None:
    before = read_when("Friday 20:00", LONDON, NOW)  # 20:00 GMT
    after = next_night(
        next_night(
            next_night(next_night(before, LONDON, Repeat.WEEKLY), LONDON, Repeat.WEEKLY),
            LONDON,
            Repeat.WEEKLY,
        ),
        LONDON,
        Repeat.WEEKLY,
    )
    assert after == at(2026, 4, 3, 19, 0)  # 20:00 BST
    # Discord's weekly rule counts in UTC: the night's occurrence by it is an hour off.
    occurrence = rule_occurrence(Repeat.WEEKLY, before, after)
    assert occurrence == at(2026, 4, 3, 20, 0)


def test_nights_every_other_week_and_monthly() -> None:
    first = read_when("Friday 13 March 20:00", LONDON, NOW)
    assert next_night(first, LONDON, Repeat.FORTNIGHTLY) == at(2026, 3, 27, 20, 0)
    # The second Friday of the next month.
    assert next_night(first, LONDON, Repeat.MONTHLY) == at(2026, 4, 10, 19, 0)
    assert monthly_refusal(first, LONDON) is None
    fifth = read_when("Friday 29 May 20:00", LONDON, NOW)
    assert monthly_refusal(fifth, LONDON) is not None


def test_discords_recurrence_rule_for_each_rhythm() -> None:
    start = at(2026, 3, 13, 20, 0)
    assert recurrence_rule(Repeat.ONCE, start) is None
    assert recurrence_rule(Repeat.WEEKLY, start) == {
        "start": "2026-03-13T20:00:00Z",
        "frequency": 2,
        "interval": 1,
        "by_weekday": [4],
    }
    assert recurrence_rule(Repeat.FORTNIGHTLY, start)["interval"] == 2  # type: ignore[index]
    assert recurrence_rule(Repeat.MONTHLY, start) == {
        "start": "2026-03-13T20:00:00Z",
        "frequency": 1,
        "interval": 1,
        "by_n_weekday": [{"n": 2, "day": 4}],
    }


def test_a_season_is_a_calendar_quarter_in_the_clubs_zone() -> None:
    # 00:30 on 1 April in London is still 31 March in UTC: April–June already in London.
    late = at(2026, 3, 31, 23, 30)
    assert season_of(late, LONDON).name == "April–June 2026"
    assert season_of(late, zone_named("UTC")).name == "January–March 2026"
    assert season_of(late, LONDON, back=1).name == "January–March 2026"
    assert season_of(at(2026, 1, 5), LONDON, back=1).name == "October–December 2025"
