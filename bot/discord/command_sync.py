"""Syncing the bot's commands with Discord, done by the process that sends: to a development
server at once (``DEV_GUILD_ID``), else globally; with the Activity on, its Entry Point command
too (:func:`bot.discord.activity.sync_entry_point`). A sync Discord does not take for now (a 5xx,
Cloudflare's 429, the network) is said in one line and tried again in the background, the pause
doubling each time (the commands synced before stay meanwhile)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord.activity import sync_entry_point
from bot.discord.courier import unavailable
from bot.settings import StartupError

__all__ = ["MISSING_ACCESS", "SYNC_RETRY", "SYNC_RETRY_MAX", "CommandSync"]

log = logging.getLogger(__name__)

#: Discord's code for an API call on a server the application is not in.
MISSING_ACCESS = 50001
#: A command sync Discord did not take for now (a 5xx, Cloudflare's 429, the network) is
#: tried again after this long, the pause doubling each time up to the most.
SYNC_RETRY = 5.0
SYNC_RETRY_MAX = 300.0


class CommandSync:
    """Syncs ``tree``'s commands for ``client``: to ``guild_id`` (None: globally), with the
    Activity's Entry Point command when ``entry_point``; tried again later while
    ``still_sending()`` says this process sends."""

    def __init__(
        self,
        client: discord.Client,
        tree: app_commands.CommandTree[Any],
        *,
        guild_id: int | None,
        entry_point: bool,
        still_sending: Callable[[], bool],
    ) -> None:
        self._client = client
        self._tree = tree
        self._guild_id = guild_id
        #: Whether the Activity's Entry Point command is synced with the others.
        self.entry_point = entry_point
        self._still_sending = still_sending
        #: Syncing the commands again, after Discord did not take them for now.
        self.again: asyncio.Task[None] | None = None

    async def soon(self) -> None:
        """Sync the commands; when Discord does not take the request for now, say so in one
        line and try again in the background, the pause doubling each time."""
        try:
            await self.sync()
        except Exception as error:
            refused = unavailable(error)
            if refused is None:
                raise
            log.warning(
                "could not sync the commands (%s): trying again in %.0f s", refused, SYNC_RETRY
            )
            self.again = asyncio.create_task(self._later(SYNC_RETRY), name="crib-sync")

    async def _later(self, pause: float) -> None:
        """Sync the commands after ``pause`` seconds, and again, the pause doubling, for as long
        as Discord does not take the request (while this process sends)."""
        while True:
            await asyncio.sleep(pause)
            if not self._still_sending():
                return  # (the process that sends now syncs them)
            try:
                await self.sync()
                return
            except Exception as error:
                refused = unavailable(error)
                if refused is None:
                    log.exception("could not sync the commands")
                    return
                pause = min(SYNC_RETRY_MAX, pause * 2)
                log.info("could not sync the commands (%s): trying again in %.0f s", refused, pause)

    async def sync(self) -> None:
        """Sync the commands now (a :class:`StartupError` when Discord refuses them in the
        development server, which the bot is not in)."""
        if self._guild_id is not None:
            await self._to_guild(self._guild_id)
        elif self.entry_point:
            # A bulk overwrite replaces every global command: the Entry Point goes with them.
            payload = [command.to_dict(self._tree) for command in self._tree.get_commands()]
            await sync_entry_point(self._client, with_globals=payload)
            log.info("synced %d global commands and the Activity's Entry Point", len(payload))
        else:
            synced = await self._tree.sync()
            log.info("synced %d global commands", len(synced))

    async def _to_guild(self, guild_id: int) -> None:
        # A development guild gets the commands at once; global sync can take a while.
        guild = discord.Object(guild_id)
        self._tree.copy_global_to(guild=guild)
        try:
            synced = await self._tree.sync(guild=guild)
        except discord.Forbidden as error:
            if error.code != MISSING_ACCESS:
                raise
            raise StartupError(
                f"DEV_GUILD_ID={guild_id}: the bot is not in that server, so Discord "
                "refused its commands there (403, Missing Access). Invite the bot to it "
                "(README, step 3), or leave DEV_GUILD_ID empty to sync the commands "
                "globally."
            ) from None
        log.info("synced %d commands to guild %s", len(synced), guild_id)
        if not self.entry_point:
            return
        # (An Entry Point command is global only: made alone, the others left be.)
        try:
            await sync_entry_point(self._client, with_globals=None)
        except discord.HTTPException as error:
            log.warning(
                "could not sync the Activity's Entry Point command (%s): an app has one "
                "at most; name it launch in the developer portal, or delete it",
                error,
            )
        else:
            log.info("synced the Activity's Entry Point command")
