"""Scheduled events as Discord keeps them (fakediscord/README.md, "Scheduled events"): made
with Create Events, never in the past nor ending before they start, an external one with a
location and an end; the people interested, read a hundred at a time and told to a bot with
the GUILD_SCHEDULED_EVENTS intent; the status's transitions, an external event starting and
ending by itself, a recurring one moving on to its next occurrence; its rule's limits and its
exceptions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest

from fakediscord.errors import EmulatorUsageError, errors_at
from fakediscord.events import ACTIVE, CANCELED, COMPLETED, SCHEDULED, next_by_rule
from fakediscord.model import CREATE_EVENTS, MANAGE_EVENTS
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, refusal


def at(hours: float, *, table: TinyWorld) -> str:
    """A time ``hours`` from now on the emulator's wall clock, as the description writes one."""
    moment = datetime.fromtimestamp(table.fd.clock.wall(), UTC) + timedelta(hours=hours)
    return moment.replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def night(table: TinyWorld, **changed: Any) -> dict[str, Any]:
    """An external event tomorrow evening, with ``changed`` fields."""
    body: dict[str, Any] = {
        "name": "Cribbage night",
        "privacy_level": 2,
        "entity_type": 3,
        "entity_metadata": {"location": "#general"},
        "scheduled_start_time": at(24, table=table),
        "scheduled_end_time": at(26, table=table),
        "description": "Mark Interested to play.",
    }
    body.update(changed)
    return body


def events_of(table: TinyWorld) -> str:
    return f"/guilds/{table.guild.id}/scheduled-events"


async def test_an_event_needs_create_events_and_a_future_start(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    path = events_of(table)
    assert await refusal(http, "POST", path, night(table)) == (403, 50013)
    assert table.fd.scheduled.of(table.guild) == []
    table.guild.give_bot(CREATE_EVENTS)
    status, body = await call(
        http, "POST", path, night(table, scheduled_start_time=at(-1, table=table))
    )
    assert status == 400 and body["code"] == 50035
    [error] = errors_at(body["errors"], "scheduled_start_time")
    assert error["code"] == "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST"
    status, body = await call(
        http, "POST", path, night(table, scheduled_end_time=at(23, table=table))
    )
    assert status == 400 and errors_at(body["errors"], "scheduled_end_time")
    # An external event has a location and an end.
    status, body = await call(http, "POST", path, night(table, entity_metadata={}))
    assert status == 400 and body["code"] == 50035
    status, body = await call(http, "POST", path, night(table, scheduled_end_time=None))
    assert status == 400 and errors_at(body["errors"], "scheduled_end_time")
    # Discord's description takes a time written with "Z" only.
    plus = at(24, table=table).replace("Z", "+00:00")
    assert await refusal(http, "POST", path, night(table, scheduled_start_time=plus)) == (
        400,
        50035,
    )
    status, made = await call(http, "POST", path, night(table))
    assert status == 200, made
    assert made["status"] == SCHEDULED and made["entity_metadata"] == {"location": "#general"}
    assert made["scheduled_start_time"].endswith("+00:00")
    assert made["creator_id"] == str(table.fd.bot_user.id)
    status, listed = await call(http, "GET", path + "?with_user_count=true")
    assert status == 200 and [e["id"] for e in listed] == [made["id"]]
    # Its creator is interested from the start.
    assert listed[0]["user_count"] == 1


async def test_interested_people_are_read_in_pages_and_heard_with_the_intent(
    table: TinyWorld, http: aiohttp.ClientSession, tiny: InProcessBot
) -> None:
    fd = table.fd
    table.guild.give_bot(MANAGE_EVENTS)
    status, made = await call(http, "POST", events_of(table), night(table))
    assert status == 200
    [event] = fd.scheduled.of(table.guild)
    await fd.scheduled.interested(table.al, event)
    await fd.scheduled.interested(table.bea, event)
    await fd.scheduled.uninterested(table.al, event)
    session = fd.gateway.shards[0]
    heard = [(name, d.get("user_id")) for _, name, d in session.events if "USER" in name]
    assert heard == [
        ("GUILD_SCHEDULED_EVENT_USER_ADD", str(table.al.id)),
        ("GUILD_SCHEDULED_EVENT_USER_ADD", str(table.bea.id)),
        ("GUILD_SCHEDULED_EVENT_USER_REMOVE", str(table.al.id)),
    ]
    users = events_of(table) + f"/{made['id']}/users"
    status, found = await call(http, "GET", users + "?with_member=true")
    assert status == 200
    ids = [int(u["user"]["id"]) for u in found]
    assert ids == sorted([fd.bot_user.id, table.bea.id])
    assert all("member" in u for u in found)
    status, page = await call(http, "GET", users + f"?limit=1&after={ids[0]}")
    assert [int(u["user"]["id"]) for u in page] == ids[1:]
    # Someone who is not a member of the server sees no event to mark.
    with pytest.raises(EmulatorUsageError, match="not a member"):
        await fd.scheduled.interested(table.cy, event)


async def test_a_status_moves_only_as_discord_lets_it_and_a_recurring_event_moves_on(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    table.guild.give_bot(CREATE_EVENTS)
    start, end = at(24, table=table), at(26, table=table)
    weekday = datetime.fromisoformat(start.replace("Z", "+00:00")).weekday()
    rule = {"start": start, "frequency": 2, "interval": 1, "by_weekday": [weekday]}
    # The event starts when its rule does (not at another reading of the clock).
    times = {"scheduled_start_time": start, "scheduled_end_time": end}
    status, made = await call(
        http, "POST", events_of(table), night(table, **times, recurrence_rule=rule)
    )
    assert status == 200 and made["recurrence_rule"]["frequency"] == 2
    one = events_of(table) + f"/{made['id']}"
    assert await refusal(http, "PATCH", one, {"status": COMPLETED}) == (400, 50035)
    status, active = await call(http, "PATCH", one, {"status": ACTIVE})
    assert status == 200 and active["status"] == ACTIVE
    status, ended = await call(http, "PATCH", one, {"status": COMPLETED})
    # Ending an occurrence moves a recurring event on to its next one, scheduled again.
    assert status == 200 and ended["status"] == SCHEDULED
    moved = datetime.fromisoformat(ended["scheduled_start_time"])
    assert moved - datetime.fromisoformat(start.replace("Z", "+00:00")) == timedelta(weeks=1)
    # Cancelled, it is over (every occurrence), and takes no change of status after.
    status, cancelled = await call(http, "PATCH", one, {"status": CANCELED})
    assert status == 200 and cancelled["status"] == CANCELED
    assert await refusal(http, "PATCH", one, {"status": ACTIVE}) == (400, 50035)


async def test_an_external_event_starts_and_ends_by_itself_on_the_wall_clock(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    table.guild.give_bot(CREATE_EVENTS)
    status, _ = await call(http, "POST", events_of(table), night(table))
    assert status == 200
    [event] = fd.scheduled.of(table.guild)
    fd.clock.advance(24 * 3600 + 1)
    await fd.wait_for(lambda: event.status == ACTIVE)
    fd.clock.advance(2 * 3600)
    await fd.wait_for(lambda: event.status == COMPLETED)
    assert [h["status"] for h in event.history] == [SCHEDULED, ACTIVE, COMPLETED]


async def test_a_rules_limits_and_an_occurrence_skipped(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    table.guild.give_bot(CREATE_EVENTS)
    path, start, end = events_of(table), at(24, table=table), at(26, table=table)
    # The event starts when its rule does (a second boundary passed between two readings of
    # the clock on a busy machine, and the occurrence skipped below came before the event).
    times = {"scheduled_start_time": start, "scheduled_end_time": end}
    for wrong in (
        {"start": start, "frequency": 2, "by_weekday": [0, 1]},  # one day a week
        {"start": start, "frequency": 2, "interval": 3},  # every other week at most
        {"start": start, "frequency": 1, "interval": 2},
        {"start": start, "frequency": 2, "count": 4},  # not to be set
        {"start": start, "frequency": 1, "by_weekday": [4]},  # a monthly rule's by_n_weekday
    ):
        status, body = await call(http, "POST", path, night(table, **times, recurrence_rule=wrong))
        assert status == 400 and body["code"] == 50035, wrong
    monthly = {"start": start, "frequency": 1, "by_n_weekday": [{"n": 2, "day": 4}]}
    first = next_by_rule(monthly, datetime.now(UTC))
    assert first is not None and first.weekday() == 4 and 8 <= first.day <= 14
    weekday = datetime.fromisoformat(start.replace("Z", "+00:00")).weekday()
    weekly = {"start": start, "frequency": 2, "interval": 2, "by_weekday": [weekday]}
    status, made = await call(http, "POST", path, night(table, **times, recurrence_rule=weekly))
    assert status == 200
    exceptions = path + f"/{made['id']}/exceptions"
    off = at(25, table=table)  # not an occurrence
    status, body = await call(http, "POST", exceptions, {"original_scheduled_start_time": off})
    assert status == 400 and body["code"] == 50035
    status, skipped = await call(
        http, "POST", exceptions, {"original_scheduled_start_time": start, "is_canceled": True}
    )
    assert status == 200 and skipped["is_canceled"] is True
    [event] = fd.scheduled.of(table.guild)
    fd.clock.advance(24 * 3600 + 1)
    # The skipped occurrence never starts: the event moves on two weeks, still scheduled.
    await fd.wait_for(lambda: event.start > datetime.now(UTC) + timedelta(days=10))
    assert event.status == SCHEDULED
