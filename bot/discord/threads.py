"""A tournament pairing's place on Discord: its message in the tournament's channel and the
public thread started from it (the director's :class:`~bot.core.tournament_director.Threads`).

Both are made so that making them again after a stop makes nothing new: the message is posted
with a nonce (Discord's ``enforce_nonce`` gives back the message made the first time), and a
message starts one thread at most, whose id is the message's ("Start Thread from Message":
160004 when it has one already). Both go through the pacer like every bot-token request.
"""

from __future__ import annotations

from typing import Literal

import discord

from bot.core.tournament_director import ThreadRefused
from bot.discord.pacing import Pacer, RequestKind

__all__ = ["THREAD_EXISTS", "DiscordThreads"]

#: "A thread has already been created for this message."
THREAD_EXISTS = 160004
#: Threads close themselves after a day without messages (they open again when one comes).
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440


class DiscordThreads:
    """Posts a pairing's message and starts its thread, with the bot's token."""

    def __init__(self, client: discord.Client, pacer: Pacer) -> None:
        self._client = client
        self._pacer = pacer

    async def post(self, channel_id: int, text: str, nonce: str, mentions: tuple[int, ...]) -> int:
        """Post ``text`` in the channel, mentioning ``mentions``; the message's id."""
        channel = self._client.get_partial_messageable(channel_id)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in mentions]
        )
        try:
            async with self._pacer.turn(channel_id, RequestKind.POST):
                sent = await channel.send(text, nonce=nonce, allowed_mentions=allowed)
        except (discord.Forbidden, discord.NotFound) as error:
            raise ThreadRefused(str(error)) from error
        return sent.id

    async def start_thread(self, channel_id: int, message_id: int, name: str) -> int:
        """Start a public thread from the message (or find the one it started)."""
        try:
            async with self._pacer.turn(channel_id, RequestKind.POST):
                made = await self._client.http.start_thread_with_message(
                    channel_id,
                    message_id,
                    name=name,
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                )
        except discord.HTTPException as error:
            if error.code == THREAD_EXISTS:
                return message_id  # started before a stop: it has the message's id
            if isinstance(error, discord.Forbidden | discord.NotFound):
                raise ThreadRefused(str(error)) from error
            raise
        return int(made["id"])
