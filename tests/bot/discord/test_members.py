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


def _sight(kind: discord.ChannelType, *, connect: bool) -> DiscordMembers:
    """A server whose one channel is of ``kind``, where everyone may view it and may (or may
    not) Connect: discord.py keeps View Channel for those who may not join a voice channel,
    but Discord keeps its chat from them."""
    allowed = discord.Permissions(view_channel=True, send_messages=True, connect=connect)
    channel = SimpleNamespace(type=kind, permissions_for=lambda who: allowed)
    guild = SimpleNamespace(
        get_member=lambda user_id: SimpleNamespace(id=user_id),
        get_channel_or_thread=lambda channel_id: channel,
        default_role=SimpleNamespace(),
    )
    client: Any = SimpleNamespace(get_guild=lambda guild_id: guild)
    return DiscordMembers(client, Pacer(), None, fresh=60.0)


async def test_a_voice_or_stage_channels_chat_is_seen_by_those_who_may_connect() -> None:
    for kind in (discord.ChannelType.voice, discord.ChannelType.stage_voice):
        assert not await _sight(kind, connect=False).sees(7, 1, 9), kind
        assert not await _sight(kind, connect=False).open_to_all(7, 9), kind
        assert await _sight(kind, connect=True).sees(7, 1, 9), kind
        assert await _sight(kind, connect=True).open_to_all(7, 9), kind
    # Connect means nothing in a text channel.
    assert await _sight(discord.ChannelType.text, connect=False).sees(7, 1, 9)
    assert await _sight(discord.ChannelType.text, connect=False).open_to_all(7, 9)
