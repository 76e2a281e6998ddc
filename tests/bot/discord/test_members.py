"""Who is still a member: what the bot saw in a server counts for ``fresh`` seconds, then a
move by DM asks Discord first (one request); with ``fresh`` 0 it asks every time."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.core.ledger.pacer import Pacer
from bot.discord.members import DiscordMembers


class _Http:
    """Discord's answers to Get Guild Member: the members in ``members``, 404 for others."""

    def __init__(self, members: set[int]) -> None:
        self.members = members
        self.asked: list[int] = []

    async def get_member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        self.asked.append(user_id)
        if user_id not in self.members:
            gone = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(gone, {"code": 10007, "message": "Unknown Member"})
        return {"user": {"id": str(user_id)}}


def _members(fresh: float, http: _Http, now: list[float]) -> DiscordMembers:
    client: Any = SimpleNamespace(http=http)
    return DiscordMembers(client, Pacer(), None, fresh=fresh, clock=lambda: now[0])


async def test_what_was_learnt_counts_for_its_time_then_discord_is_asked_again() -> None:
    http, now = _Http({1, 2}), [1000.0]
    members = _members(5.0, http, now)
    assert await members.is_member(7, 2) and http.asked == [2]
    http.members.discard(2)  # she leaves the server
    now[0] += 4.9
    assert await members.is_member(7, 2), "still within what was learnt"
    assert http.asked == [2]
    now[0] += 0.2
    assert not await members.is_member(7, 2), "asked again once that time is over"
    assert http.asked == [2, 2]


async def test_with_no_time_at_all_discord_is_asked_before_every_move() -> None:
    http, now = _Http({1}), [1000.0]
    members = _members(0.0, http, now)
    assert await members.is_member(7, 1)
    assert await members.is_member(7, 1)
    assert http.asked == [1, 1]
