"""A club night's scheduled event in the server's *Events* list (the nights' director's
:class:`~bot.core.tournaments.threads.Events`), through Discord's routes for scheduled events.

discord.py 2.7 sends neither ``recurrence_rule`` nor exceptions (its ``create_guild_scheduled_
event`` keeps a list of the fields it knows), and writes times with ``+00:00``, where Discord's
description of its API takes them with ``Z``: the requests are made here on discord.py's own
HTTP client (``Route``: its rate limits, retries and session) with the bodies Discord documents.
An external event's location is its channel's name, as its members see it; a voice channel's
event is in that channel. Every request goes through the pacer, as every bot-token request.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import discord
from discord.http import Route

from bot.core.ledger.transport import Pacing, RequestKind
from bot.core.tournaments.threads import EventPlan, EventRefused, EventSeen, EventStatus

__all__ = ["DiscordEvents", "written"]

log = logging.getLogger(__name__)

#: Discord's entity types: an event in a voice channel, or somewhere else (our text channel).
VOICE, EXTERNAL = 2, 3
#: Who may see the event: the server's members (the one level Discord has).
GUILD_ONLY = 2
#: "Unknown Guild Scheduled Event".
UNKNOWN_EVENT = 10070
#: The people interested read a page at a time (Discord's most).
USERS_PAGE = 100


def written(at: float) -> str:
    """A Unix time as Discord's description of its API writes one: ``2026-03-06T20:00:00Z``."""
    return datetime.fromtimestamp(round(at), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _read(at: str) -> float:
    return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()


def _seen(data: dict[str, Any]) -> EventSeen:
    exceptions = data.get("guild_scheduled_event_exceptions") or []
    excepted = tuple(_original(int(e["event_exception_id"])) for e in exceptions)
    rule = data.get("recurrence_rule") or {}
    start = rule.get("start")
    return EventSeen(
        int(data["id"]),
        EventStatus(int(data["status"])),
        _read(data["scheduled_start_time"]),
        excepted,
        None if start is None else _read(str(start)),
    )


def _original(exception_id: int) -> float:
    """The start an exception's id holds (a snowflake of that time)."""
    return ((exception_id >> 22) + 1420070400000) / 1000


class DiscordEvents:
    """A server's scheduled events, made and kept by the bot's token."""

    def __init__(self, client: discord.Client, pacer: Pacing) -> None:
        self._client = client
        self._pacer = pacer

    async def _request(self, route: Route, **kwargs: Any) -> Any:
        """One request (paced); Discord's refusal as the director takes it."""
        try:
            async with self._pacer.turn(None, RequestKind.EDIT):
                return await self._client.http.request(route, **kwargs)
        except discord.Forbidden as error:
            raise EventRefused(str(error), permission=True) from error
        except discord.NotFound as error:
            raise EventRefused(str(error), gone=True) from error

    def _location(self, plan: EventPlan) -> str:
        channel = self._client.get_channel(plan.channel_id)
        name = getattr(channel, "name", None)
        return (f"#{name}" if name else "this server's tournament channel")[:100]

    async def create(self, guild_id: int, plan: EventPlan) -> int:
        """Make the night's event (external, at its channel; or in its voice channel)."""
        body: dict[str, Any] = {
            "name": plan.name,
            "description": plan.description,
            "privacy_level": GUILD_ONLY,
            "scheduled_start_time": written(plan.start),
            "scheduled_end_time": written(plan.end),
        }
        if plan.voice_id is not None:
            body |= {"entity_type": VOICE, "channel_id": str(plan.voice_id)}
        else:
            body |= {"entity_type": EXTERNAL, "entity_metadata": {"location": self._location(plan)}}
        if plan.rule is not None:
            body["recurrence_rule"] = plan.rule
        route = Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=guild_id)
        made = await self._request(route, json=body)
        return int(made["id"])

    async def find(self, guild_id: int, name: str, start: float) -> int | None:
        """The bot's own event under way of that name and start (made by a process that
        stopped before it kept its id)."""
        route = Route("GET", "/guilds/{guild_id}/scheduled-events", guild_id=guild_id)
        listed = await self._request(route)
        me = self._client.user.id if self._client.user is not None else None
        for data in listed:
            mine = data.get("creator_id") is not None and int(data["creator_id"]) == me
            if (
                mine
                and data.get("name") == name
                and abs(_read(data["scheduled_start_time"]) - start) < 1
            ):
                return int(data["id"])
        return None

    def _one(self, method: str, guild_id: int, event_id: int, tail: str = "") -> Route:
        return Route(
            method,
            "/guilds/{guild_id}/scheduled-events/{event_id}" + tail,
            guild_id=guild_id,
            event_id=event_id,
        )

    async def read(self, guild_id: int, event_id: int) -> EventSeen:
        """The event as Discord has it."""
        return _seen(await self._request(self._one("GET", guild_id, event_id)))

    async def edit(
        self,
        guild_id: int,
        event_id: int,
        *,
        description: str | None = None,
        status: EventStatus | None = None,
        start: float | None = None,
        end: float | None = None,
    ) -> EventSeen:
        """Change the given fields of the event."""
        body: dict[str, Any] = {}
        if description is not None:
            body["description"] = description
        if status is not None:
            body["status"] = int(status)
        if start is not None:
            body["scheduled_start_time"] = written(start)
        if end is not None:
            body["scheduled_end_time"] = written(end)
        return _seen(await self._request(self._one("PATCH", guild_id, event_id), json=body))

    async def except_occurrence(
        self,
        guild_id: int,
        event_id: int,
        original: float,
        *,
        skip: bool = False,
        start: float | None = None,
        end: float | None = None,
    ) -> None:
        """Skip or move one occurrence of a recurring event."""
        body: dict[str, Any] = {"original_scheduled_start_time": written(original)}
        if skip:
            body["is_canceled"] = True
        if start is not None:
            body["scheduled_start_time"] = written(start)
        if end is not None:
            body["scheduled_end_time"] = written(end)
        await self._request(self._one("POST", guild_id, event_id, "/exceptions"), json=body)

    async def interested(self, guild_id: int, event_id: int) -> list[tuple[int, str]]:
        """Everyone interested in the event but the bot, a page of 100 at a time."""
        found: list[tuple[int, str]] = []
        after: int | None = None
        me = self._client.user.id if self._client.user is not None else None
        while True:
            params: dict[str, Any] = {"limit": USERS_PAGE, "with_member": "true"}
            if after is not None:
                params["after"] = after
            page = await self._request(
                self._one("GET", guild_id, event_id, "/users"), params=params
            )
            for item in page:
                user = item["user"]
                user_id = int(user["id"])
                if user_id == me or user.get("bot"):
                    continue
                member = item.get("member") or {}
                name = member.get("nick") or user.get("global_name") or user.get("username") or "?"
                found.append((user_id, str(name)))
            if len(page) < USERS_PAGE:
                return found
            after = int(page[-1]["user"]["id"])
