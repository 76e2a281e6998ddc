"""Whether a player is still a member of a game's server, asked of Discord.

The bot has no privileged intent (no member list, no member events), so it asks for the one
member it needs, ``GET /guilds/{guild}/members/{user}``, when a player moves by DM or the
table is about to remind them, and keeps the answer a minute. Discord answers 404 (10007,
Unknown Member) for someone who left or was removed, and 403 (50001) or 404 (10004) when the
bot itself is no longer in the server: either way that player cannot play on there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import discord

from bot.discord.pacing import Pacer, RequestKind

__all__ = ["DiscordMembers"]

log = logging.getLogger(__name__)

#: How long an answer is kept: a player who left can move for at most this long after.
MEMBER_TTL = 60.0
#: Answers kept at most (the oldest go first).
MEMBERS_KEPT = 4096


class DiscordMembers:
    """:class:`bot.core.membership.Membership` from Discord, with a short memory."""

    def __init__(
        self, client: discord.Client, pacer: Pacer, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._client = client
        self._pacer = pacer
        self._clock = clock
        self._known: dict[tuple[int, int], tuple[float, bool]] = {}

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """True while ``user_id`` is in ``guild_id`` (and when Discord could not say: a passing
        failure must not stop a game)."""
        now = self._clock()
        known = self._known.get((guild_id, user_id))
        if known is not None and known[0] > now:
            return known[1]
        try:
            async with self._pacer.turn(None, RequestKind.POST):
                await self._client.http.get_member(guild_id, user_id)
            member = True
        except (discord.NotFound, discord.Forbidden):
            member = False
        except discord.HTTPException as error:
            log.warning("could not tell whether %s is in server %s: %s", user_id, guild_id, error)
            return True
        if len(self._known) >= MEMBERS_KEPT:
            self._known.pop(next(iter(self._known)))
        self._known[(guild_id, user_id)] = (now + MEMBER_TTL, member)
        return member
