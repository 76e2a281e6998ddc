"""Whether a player is still a member of a game's server, from what Discord has shown or says.

The bot has no privileged intent (no member list, no member events). Every interaction from a
server carries its member, so each one the bot receives there is proof, for free, that its
user is a member now (:meth:`DiscordMembers.saw`): the players of a game have all joined it that
way. For a move by DM, or a reminder, the bot asks Discord for the one member it needs,
``GET /guilds/{guild}/members/{user}``, only when it has not seen them in the server, or been
told, within ``MEMBER_CHECK_SECONDS`` (default 10 minutes: a request per player per ten
minutes at most, where asking at every move would cost as much as the table itself). What a
process sees or is told is noted in the database too (``members_seen``), and read there before
asking Discord: with several processes, a DM move arrives on shard 0's while the player's
commands arrive on their server's shard, and only the sending process should spend the bot's
requests. Discord
answers 404 (10007, Unknown Member) for someone who left or was removed, and 403 (50001) or
404 (10004) when the bot itself is no longer in the server: either way that player cannot play
on there.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.core.ledger.transport import Pacing, RequestKind
from bot.discord.places import is_voice_chat
from bot.store import Store

__all__ = ["DiscordMembers"]

log = logging.getLogger(__name__)

#: Answers kept at most (the oldest go first).
MEMBERS_KEPT = 4096


class DiscordMembers:
    """:class:`bot.core.games.membership.Membership` from Discord, with a memory."""

    def __init__(
        self,
        client: discord.Client,
        pacer: Pacing,
        store: Store | None,
        *,
        fresh: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``store``: where every process notes what it saw (None: in memory only);
        ``fresh``: seconds what the bot saw or was told is taken as it is."""
        self._client = client
        self._fresh = fresh
        self._pacer = pacer
        self._clock = clock
        #: (guild, user) -> (when it was learnt, whether a member).
        self._known: dict[tuple[int, int], tuple[float, bool]] = {}
        self._asking: dict[tuple[int, int], asyncio.Task[bool]] = {}
        self._noting: set[asyncio.Task[None]] = set()
        self.store = store
        #: How many times Discord was asked (for tests and the benchmark's reading).
        self.asked = 0

    def saw(self, interaction: discord.Interaction[Any]) -> None:
        """Note that an interaction from a server came from one of its members."""
        if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
            return
        key = (interaction.guild_id, interaction.user.id)
        before = self._known.get(key)
        self._learn(key, True)
        now = self._clock()
        if self.store is not None and (
            before is None or not before[1] or now - before[0] > self._fresh / 4
        ):
            # Noted for the other processes now and then, never on the interaction's way.
            task = asyncio.ensure_future(self._note(key, now))
            self._noting.add(task)
            task.add_done_callback(self._noting.discard)

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """True while ``user_id`` is in ``guild_id`` (and when Discord could not say: a passing
        failure must not stop a game)."""
        key = (guild_id, user_id)
        known = self._known.get(key)
        if known is not None and self._clock() - known[0] < self._fresh:
            return known[1]
        if self.store is not None:
            try:
                seen = await self.store.member_seen(guild_id, user_id)
            except Exception:
                log.exception("could not read when %s was last seen in %s", user_id, guild_id)
                seen = None
            if seen is not None and self._clock() - seen < self._fresh:
                self._learn(key, True, at=seen)
                return True
        return await self._ask(key)

    def _ask(self, key: tuple[int, int]) -> asyncio.Task[bool]:
        """Ask Discord (once at a time per member: two moves at once share the answer)."""
        task = self._asking.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch(key))
            self._asking[key] = task
            task.add_done_callback(lambda _: self._asking.pop(key, None))
        return task

    async def _fetch(self, key: tuple[int, int]) -> bool:
        guild_id, user_id = key
        self.asked += 1
        try:
            # A move by DM waits on this answer: it goes before the channels' table edits.
            async with self._pacer.turn(None, RequestKind.POST, urgent=True):
                await self._client.http.get_member(guild_id, user_id)
            member = True
        except (discord.NotFound, discord.Forbidden):
            member = False
        except discord.HTTPException as error:
            log.warning("could not tell whether %s is in server %s: %s", user_id, guild_id, error)
            return True
        self._learn(key, member)
        if member:
            await self._note(key, self._clock())
        return member

    async def sees(self, guild_id: int, user_id: int, channel_id: int) -> bool:
        """Whether ``user_id`` can see ``channel_id`` of ``guild_id``: its permissions there
        (the channel's overwrites, a thread's parent's; a voice or stage channel's chat needs
        Connect too), and for a private thread its membership (or Manage Threads). Asked of
        Discord when not in the cache; False when Discord cannot say (a game is kept from
        whoever might not see it)."""
        guild = self._client.get_guild(guild_id)
        if guild is None:
            return False
        try:
            member = guild.get_member(user_id)
            if member is None:
                async with self._pacer.turn(None, RequestKind.POST, urgent=True):
                    member = await guild.fetch_member(user_id)
            channel = await self._channel(guild, channel_id)
            if channel is None:
                return False
            allowed = channel.permissions_for(member)
            if not allowed.view_channel or (is_voice_chat(channel) and not allowed.connect):
                return False  # (a voice or stage channel's chat: for those who may join it)
            thread = channel if isinstance(channel, discord.Thread) else None
            if thread is None or not thread.is_private() or allowed.manage_threads:
                return True
            if any(known.id == user_id for known in thread.members):
                return True
            async with self._pacer.turn(None, RequestKind.POST, urgent=True):
                await thread.fetch_member(user_id)
            return True
        except (discord.NotFound, discord.Forbidden):
            return False
        except discord.HTTPException as error:
            log.warning("could not tell whether %s sees channel %s: %s", user_id, channel_id, error)
            return False

    async def open_to_all(self, guild_id: int, channel_id: int) -> bool:
        """Whether every member of ``guild_id`` sees ``channel_id``: ``@everyone`` may view it
        (a thread: its parent; a voice or stage channel's chat: and join it) and it is not a
        private thread. Asked of Discord when not in
        the cache; False when Discord cannot say."""
        guild = self._client.get_guild(guild_id)
        if guild is None:
            return False
        try:
            channel = await self._channel(guild, channel_id)
            if channel is None:
                return False
            if isinstance(channel, discord.Thread) and channel.is_private():
                return False
            everyone = channel.permissions_for(guild.default_role)
            return everyone.view_channel and (everyone.connect or not is_voice_chat(channel))
        except (discord.NotFound, discord.Forbidden):
            return False
        except discord.HTTPException as error:
            log.warning("could not tell whether channel %s is open to all: %s", channel_id, error)
            return False

    async def _channel(
        self, guild: discord.Guild, channel_id: int
    ) -> discord.abc.GuildChannel | discord.Thread | None:
        """A channel or thread of ``guild``, from the cache or else asked of Discord (None: not
        one whose permissions can be read; Discord's refusals are the caller's to handle)."""
        channel = guild.get_channel_or_thread(channel_id)
        if channel is not None:
            return channel
        async with self._pacer.turn(None, RequestKind.POST, urgent=True):
            fetched = await guild.fetch_channel(channel_id)
        if not isinstance(fetched, (discord.abc.GuildChannel, discord.Thread)):
            return None
        return fetched

    async def _note(self, key: tuple[int, int], at: float) -> None:
        """Note in the database that a member was seen (a failure only costs a request later)."""
        if self.store is None:
            return
        try:
            await self.store.saw_member(*key, at)
        except Exception:
            log.exception("could not note that %s was seen in %s", key[1], key[0])

    def _learn(self, key: tuple[int, int], member: bool, *, at: float | None = None) -> None:
        self._known.pop(key, None)  # re-inserted last: the oldest entries go first
        if len(self._known) >= MEMBERS_KEPT:
            self._known.pop(next(iter(self._known)))
        self._known[key] = (self._clock() if at is None else at, member)
