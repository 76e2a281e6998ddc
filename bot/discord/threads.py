"""A tournament pairing's place on Discord: its message in the tournament's channel and the
public thread started from it (the director's :class:`~bot.core.tournaments.threads.Threads`).

Both are made so that making them again after a stop makes nothing new: the message is posted
with a nonce (Discord's ``enforce_nonce`` gives back the message made the first time), and a
message starts one thread at most, whose id is the message's ("Start Thread from Message":
160004 when it has one already). Both players are added to the thread (adding a member twice
is no error), and once the match is decided the thread is archived: as the thread's creator the
bot needs no Manage Threads for that. Every request goes through the pacer like every
bot-token request.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Literal

import discord

from bot.core.ledger.transport import Pacing, RequestKind
from bot.core.tournaments.threads import ThreadRefused
from bot.discord.courier import CLOCK_SLACK

__all__ = ["THREAD_EXISTS", "DiscordThreads"]

log = logging.getLogger(__name__)

#: "A thread has already been created for this message."
THREAD_EXISTS = 160004
#: "Thread is archived": an operation an archived thread does not take.
THREAD_ARCHIVED = 50083
#: "Unknown Channel": the channel was deleted.
UNKNOWN_CHANNEL = 10003
#: The messages one look at a channel's history reads (Discord's most for one request).
HISTORY_PAGE = 100
#: Threads close themselves after a day without messages (they open again when one comes).
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440


def _refused(error: discord.Forbidden | discord.NotFound) -> ThreadRefused:
    """Discord's refusal in the tournament's channel, as the director takes it (``gone``: the
    channel was deleted)."""
    return ThreadRefused(str(error), gone=error.code == UNKNOWN_CHANNEL)


class DiscordThreads:
    """Posts a pairing's message and starts its thread, with the bot's token."""

    def __init__(self, client: discord.Client, pacer: Pacing) -> None:
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
            raise _refused(error) from error
        return sent.id

    async def find_post(self, channel_id: int, since: float, opening: str) -> int | None:
        """The oldest of the bot's messages in the channel since ``since`` whose text begins
        with ``opening`` (one request: Discord's first page of messages after that time)."""
        channel = self._client.get_partial_messageable(channel_id)
        after = discord.utils.time_snowflake(datetime.fromtimestamp(since - CLOCK_SLACK, tz=UTC))
        try:
            async with self._pacer.turn(None, RequestKind.EDIT):
                messages = [
                    m
                    async for m in channel.history(
                        after=discord.Object(after), limit=HISTORY_PAGE, oldest_first=True
                    )
                ]
        except (discord.Forbidden, discord.NotFound) as error:
            raise _refused(error) from error
        mine = self._client.application_id
        found = (m.id for m in messages if m.author.id == mine and m.content.startswith(opening))
        return next(found, None)

    async def start_thread(
        self, channel_id: int, message_id: int, name: str, members: tuple[int, ...]
    ) -> int:
        """Start a public thread from the message (or find the one it started), and add
        ``members`` to it."""
        try:
            async with self._pacer.turn(channel_id, RequestKind.POST):
                made = await self._client.http.start_thread_with_message(
                    channel_id,
                    message_id,
                    name=name,
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                )
            thread_id = int(made["id"])
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                if isinstance(error, discord.Forbidden | discord.NotFound):
                    raise _refused(error) from error
                raise
            thread_id = message_id  # started before a stop: it has the message's id
        for user_id in members:
            try:
                async with self._pacer.turn(None, RequestKind.EDIT):
                    await self._client.http.add_user_to_thread(thread_id, user_id)
            except (discord.Forbidden, discord.NotFound) as error:
                # Left the server, say: the game is dealt all the same (the mention in the
                # thread's first message still reaches whoever can read it).
                log.warning("could not add %s to thread %s: %s", user_id, thread_id, error)
        return thread_id

    async def archive(self, thread_id: int) -> None:
        """Archive the thread (left as it is if it is archived already, or gone)."""
        try:
            async with self._pacer.turn(None, RequestKind.EDIT):
                await self._client.http.edit_channel(thread_id, archived=True)
        except discord.HTTPException as error:
            if error.code == THREAD_ARCHIVED:
                return
            if isinstance(error, discord.Forbidden | discord.NotFound):
                log.warning("could not archive thread %s: %s", thread_id, error)
                return
            raise
