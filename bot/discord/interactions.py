"""Turning interactions into service calls, and service outcomes into Discord messages.

The flow for every command and click is the same: call the game service (answering the
interaction within Discord's 3 seconds, deferring if the call is slow), send the reply, then hand
the rest of the outcome (lobby, channel lines, DMs) to a per-channel sender so that a channel's
messages go out in the order the service produced them while other channels carry on in parallel.

Known errors become one short ephemeral sentence; anything else is logged with its traceback and
the user gets a short apology. Nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.core.replies import Lobby, Outcome, Prompt, Reply, User
from bot.discord.components import lobby_view, prompt_view

if TYPE_CHECKING:
    from bot.core.service import GameService
    from bot.discord.app import CribbageBot

__all__ = ["SORRY", "DiscordIO", "is_moderator", "known_error_text", "send_error", "user_of"]

log = logging.getLogger(__name__)

#: What a user sees when something failed on our side (the traceback goes to the log).
SORRY = "Sorry, something went wrong on my side. Please try again."
#: Answer the interaction by then at the latest; Discord gives up on it after 3 seconds.
DEFER_AFTER = 2.0
#: How many outcomes may be sending at once (across channels). Answers to interactions have a
#: 3-second deadline and channel lines and DMs do not: keeping the senders few keeps the event
#: loop's queue short, so a new interaction's answer is not stuck behind a burst of sends.
SEND_CONCURRENCY = 8
#: Discord's limit for one message's content.
MAX_CONTENT = 2000
#: Discord's JSON error code for "Cannot send messages to this user" (closed DMs).
DMS_CLOSED = 50007

ServiceCall = Callable[[], Awaitable[Outcome]]


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The acting user as the service knows them: id and the name shown at the table."""
    return User(interaction.user.id, interaction.user.display_name)


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may cancel other people's games here (manage messages or server)."""
    perms = interaction.permissions
    return bool(perms.manage_messages or perms.manage_guild)


def known_error_text(error: BaseException) -> str | None:
    """The sentence to show for an error a user can cause, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works in a server channel, not in DMs."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.TransformerError):
        return "I couldn't understand one of the options; please choose from the list."
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "That command has changed; Discord will offer the new one in a moment."
    return None


async def send_error(interaction: discord.Interaction[Any], text: str) -> None:
    """Tell the user ``text`` privately, whether or not the interaction was answered yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        # The interaction expired or was answered elsewhere; nothing more we can do for it.
        log.warning("could not deliver an error message to %s", interaction.user.id)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


class DiscordIO:
    """Runs service calls for interactions and sends their outcomes."""

    def __init__(self, bot: CribbageBot) -> None:
        self.bot = bot
        self._queues: dict[int, deque[Outcome]] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._send_slots = asyncio.Semaphore(SEND_CONCURRENCY)
        self._dm_channels: dict[int, int] = {}
        #: Seconds a service call may take before the interaction is deferred.
        self.defer_after = DEFER_AFTER

    @property
    def service(self) -> GameService:
        """The bot's game service (created in ``setup_hook``)."""
        return self.bot.service

    # -- entry points -------------------------------------------------------------------------

    async def command(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        """A slash command: run ``call``, reply, and send the rest of its outcome."""
        outcome = await self._call(interaction, call, update=False)
        if outcome is not None:
            await self._reply(interaction, outcome.reply)
            self.submit(outcome)

    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, action: str
    ) -> None:
        """A lobby button: the lobby message itself is updated in the click's answer."""
        user = user_of(interaction)
        moderator = is_moderator(interaction) if interaction.guild_id else False
        await self._guard(
            interaction,
            self._lobby_click(
                interaction,
                lambda: self.service.click_lobby(game_id, action, user, moderator=moderator),
            ),
        )

    async def _lobby_click(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        outcome = await self._call(interaction, call, update=True)
        if outcome is None:
            return
        lobby = outcome.lobby
        message = interaction.message
        if (
            outcome.ok
            and lobby is not None
            and message is not None
            and lobby.message_id in (None, message.id)
        ):
            # Answer the click by editing the lobby in place (callback type 7).
            await self._update(interaction, lobby.text, lobby_view(lobby))
            if lobby.message_id is None:
                await self.service.lobby_posted(lobby.game_id, message.id)
            outcome.lobby = None
            if not outcome.reply.ephemeral:
                await self._reply(interaction, outcome.reply)
        else:
            await self._reply(interaction, outcome.reply)
        self.submit(outcome)

    async def discard_click(
        self, interaction: discord.Interaction[Any], game_id: int, stamp: int, codes: Sequence[str]
    ) -> None:
        """The crib select menu of a prompt."""
        user = user_of(interaction)
        chosen = list(codes)
        await self._guard(
            interaction,
            self._prompt_click(
                interaction, lambda: self.service.click_discard(game_id, stamp, user, chosen)
            ),
        )

    async def play_click(
        self, interaction: discord.Interaction[Any], game_id: int, stamp: int, code: str
    ) -> None:
        """A card button of a prompt."""
        user = user_of(interaction)
        await self._guard(
            interaction,
            self._prompt_click(
                interaction, lambda: self.service.click_play(game_id, stamp, user, code)
            ),
        )

    async def _prompt_click(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        outcome = await self._call(interaction, call, update=True)
        if outcome is None:
            return
        message = interaction.message
        if outcome.ok and message is not None:
            # Replace the used controls by what happened (callback type 7), keeping the hand text.
            text = (
                f"{message.content}\n{outcome.reply.text}"
                if message.content
                else outcome.reply.text
            )
            controls = outcome.reply.controls
            await self._update(interaction, text, prompt_view(controls) if controls else None)
        else:
            await self._reply(interaction, outcome.reply)
        self.submit(outcome)

    async def _guard(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        """Run a component's work; errors become a sentence for the user (components' errors
        never reach the command tree's handler, and discord.py would only log them)."""
        try:
            await work
        except Exception as error:
            await self.report(interaction, error)

    async def _update(
        self, interaction: discord.Interaction[Any], text: str, view: discord.ui.View | None
    ) -> None:
        """Edit the message the clicked component is on: in the answer (type 7), or, when the
        click was already deferred because the service was slow, through the original."""
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=_clip(text), view=view)
        else:
            await interaction.edit_original_response(content=_clip(text), view=view)

    # -- calling the service ------------------------------------------------------------------

    async def _call(
        self, interaction: discord.Interaction[Any], call: ServiceCall, *, update: bool
    ) -> Outcome | None:
        """Run ``call``; defer the interaction if it takes long; None if it failed (reported)."""
        task = asyncio.ensure_future(call())
        try:
            done, _ = await asyncio.wait({task}, timeout=self.defer_after)
            if not done:
                # Keep the interaction alive: a slow call must not cost the user their action.
                if update:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)
            return await task
        except Exception as error:
            await self.report(interaction, error)
            return None

    async def report(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Show a known error as its sentence; log anything else with its traceback."""
        text = known_error_text(error)
        if text is None:
            log.error("error handling an interaction from %s", interaction.user.id, exc_info=error)
            text = SORRY
        await send_error(interaction, text)

    # -- sending ------------------------------------------------------------------------------

    async def _reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        view = prompt_view(reply.controls) if reply.controls is not None else None
        text = _clip(reply.text)
        if not interaction.response.is_done():
            if view is None:
                await interaction.response.send_message(text, ephemeral=reply.ephemeral)
            else:
                await interaction.response.send_message(text, ephemeral=reply.ephemeral, view=view)
        elif view is None:
            await interaction.followup.send(text, ephemeral=reply.ephemeral)
        else:
            await interaction.followup.send(text, ephemeral=reply.ephemeral, view=view)

    def submit(self, outcome: Outcome) -> None:
        """Queue the lobby, channel lines and DMs of ``outcome`` for sending, in order.

        Called right after the service returns (no await in between), so a channel's outcomes
        are queued in the order the service applied them.
        """
        if not (outcome.lobby or outcome.channel or outcome.prompts):
            return
        key = outcome.channel_id or (outcome.lobby.channel_id if outcome.lobby else 0)
        self._queues.setdefault(key, deque()).append(outcome)
        if key not in self._senders:
            self._senders[key] = asyncio.create_task(self._drain(key), name=f"crib-send-{key}")

    async def _drain(self, key: int) -> None:
        queue = self._queues[key]
        try:
            while queue:
                outcome = queue.popleft()
                try:
                    async with self._send_slots:
                        await self._send(outcome)
                except Exception:
                    log.exception("error sending an outcome of game %s", outcome.game_id)
        finally:
            del self._senders[key]
            if not queue:
                del self._queues[key]

    async def flush(self, timeout: float = 10.0) -> None:
        """Wait until everything queued has been sent (used when shutting down)."""
        senders = list(self._senders.values())
        if senders:
            await asyncio.wait(senders, timeout=timeout)

    async def _send(self, outcome: Outcome) -> None:
        if outcome.lobby is not None:
            await self._send_lobby(outcome.lobby)
        if outcome.channel:
            channel_id = outcome.channel_id or (outcome.lobby.channel_id if outcome.lobby else 0)
            await self._send_lines(channel_id, outcome.channel)
        for prompt in outcome.prompts:
            await self._send_prompt(prompt)

    async def _send_lines(self, channel_id: int, lines: Sequence[str]) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        for line in lines:
            await channel.send(_clip(line))

    async def _send_lobby(self, lobby: Lobby) -> None:
        channel = self.bot.get_partial_messageable(lobby.channel_id)
        view = lobby_view(lobby)
        text = _clip(lobby.text)
        if lobby.message_id is not None:
            try:
                await channel.get_partial_message(lobby.message_id).edit(content=text, view=view)
                return
            except discord.NotFound:
                if not lobby.buttons:
                    return  # a closed lobby that someone deleted: nothing left to show
                # Someone deleted an open lobby: post it again so people can still join.
        message = await channel.send(text, view=view)
        await self.service.lobby_posted(lobby.game_id, message.id)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with a user. discord.py keeps only the 128 most recent DM channels,
        so with more players than that it would open the DM again for every prompt; the id of
        a DM channel never changes, so it is kept here (one int per player)."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            dm = await self.bot.create_dm(discord.Object(user_id))
            self._dm_channels[user_id] = channel_id = dm.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _send_prompt(self, prompt: Prompt) -> None:
        try:
            dm = await self._dm_channel(prompt.user_id)
            await dm.send(_clip(prompt.text), view=prompt_view(prompt))
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                raise
            outcome = await self.service.dm_failed(prompt.game_id, prompt.user_id)
            if outcome.channel and outcome.channel_id:
                await self._send_lines(outcome.channel_id, outcome.channel)
