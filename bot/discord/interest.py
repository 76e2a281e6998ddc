"""Someone marking a club night's Discord event **Interested**, or taking it back, as the
gateway tells it (``GUILD_SCHEDULED_EVENT_USER_ADD`` and ``_REMOVE``): each noted in the core
(``services.attendance.interest``: entered in the night, or taken out) after the one before it,
in the order Discord told them, so one person's Interested and then taken back leaves them
out.

They are heard from discord.py's own parsers of the gateway's events, whether it has the person
in its cache or not: without the members intent (the bot asks for no privileged intent) it
drops the event for a person it has not met.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.core.faces import DiscordFace

__all__ = ["InterestHeard"]

log = logging.getLogger(__name__)


class InterestHeard:
    """Hears who marks a club night's event Interested (or takes it back) on ``client``'s
    gateway, and notes each in the core while it is started."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        #: The core, while the bot is set up and not closing (None: nothing is noted).
        self._services: DiscordFace | None = None
        #: The latest person's interest being noted: each is noted after the one before it.
        self._latest: asyncio.Task[None] | None = None

    def listen(self, parsers: dict[str, Callable[[Any], None]]) -> None:
        """Hear the events through the gateway's ``parsers`` (discord.py's, each kept: it
        parses the event first)."""
        for kind, yes in (("ADD", True), ("REMOVE", False)):
            name = f"GUILD_SCHEDULED_EVENT_USER_{kind}"
            parsers[name] = _also(parsers[name], functools.partial(self.heard, yes=yes))

    def start(self, services: DiscordFace) -> None:
        """Note what is heard in ``services`` from now on (the bot is set up)."""
        self._services = services

    def stop(self) -> asyncio.Task[None] | None:
        """Note nothing more (the bot is closing); the noting still under way, if any, for
        the stop to cancel."""
        self._services = None
        return self._latest

    def heard(self, data: dict[str, Any], *, yes: bool) -> None:
        """A GUILD_SCHEDULED_EVENT_USER_ADD (``yes``) or _REMOVE, as Discord sent it."""
        services = self._services
        if services is None:
            return
        user_id = int(data["user_id"])
        me = self._client.user
        if me is not None and user_id == me.id:
            return  # (the bot is interested in the events it makes)
        guild_id, event_id = int(data["guild_id"]), int(data["guild_scheduled_event_id"])
        self._latest = asyncio.get_running_loop().create_task(
            self._noted(services, guild_id, event_id, user_id, yes, after=self._latest)
        )

    async def _noted(
        self,
        services: DiscordFace,
        guild_id: int,
        event_id: int,
        user_id: int,
        yes: bool,
        *,
        after: asyncio.Task[None] | None,
    ) -> None:
        if after is not None:
            await asyncio.wait([after])
        try:
            name = await self._member_name(guild_id, user_id) if yes else ""
            await services.attendance.interest(guild_id, event_id, user_id, name, yes=yes)
        except Exception:
            log.exception("could not note %s's interest in event %s", user_id, event_id)

    async def _member_name(self, guild_id: int, user_id: int) -> str:
        """The name a person goes by in a server (its nickname, else their own)."""
        client = self._client
        guild = client.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        if member is not None:
            return member.display_name
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        return user.display_name


def _also(parser: Callable[[Any], None], then: Callable[[Any], None]) -> Callable[[Any], None]:
    """discord.py's own parser of a gateway event, then ``then`` with the same data."""

    def parse(data: Any) -> None:
        parser(data)
        then(data)

    return parse
