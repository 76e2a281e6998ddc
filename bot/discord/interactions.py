"""Turning interactions into service calls, and their outcomes into answers.

The flow for every command and click: call the game service (answering within Discord's 3
seconds, deferring with the final answer's visibility if the call is slow), then answer: a
click on a message the game owns (the lobby, a hand) is answered by updating that message (an
interaction response, outside the bot's global rate limit), anything else with a reply. If the
game changed, the table keeper then brings its messages up to date, paced within Discord's
limits. While the bot shuts down it takes no new moves, so nothing is half done.

Known errors become one short ephemeral sentence; anything else is logged with its traceback and
the user gets a short apology. Nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.core.messages import MessageView, Table
from bot.core.records import DmLink
from bot.core.replies import Clicked, Outcome, Reply, User
from bot.discord.components import controls_view
from bot.discord.courier import Courier, board_attachment
from bot.discord.keeper import TableKeeper
from bot.discord.members import DiscordMembers
from bot.discord.pacing import Pacer

if TYPE_CHECKING:
    from bot.core.service import GameService
    from bot.discord.app import CribbageBot

__all__ = [
    "NEEDS_A_SERVER",
    "RESTARTING",
    "SORRY",
    "DiscordIO",
    "is_moderator",
    "known_error_text",
    "send_error",
    "user_of",
]

log = logging.getLogger(__name__)

#: What a user sees when something failed on our side (the traceback goes to the log).
SORRY = "Sorry, something went wrong on my side. Please try again."
#: A leaderboard or stats asked for outside a server.
NEEDS_A_SERVER = "Leaderboards and stats are kept per server: use this command in a server."
#: What a user sees while the bot is shutting down.
RESTARTING = "I'm restarting — try again in a few seconds."
#: Answer the interaction by then at the latest; Discord gives up on it after 3 seconds.
DEFER_AFTER = 2.0
#: Discord's limit for one message's content.
MAX_CONTENT = 2000
#: Marks (in ``Interaction.extras``) a command deferred publicly: its "thinking" message
#: becomes the answer, visible to the channel.
PUBLIC_DEFERRAL = "cribbage:public-deferral"

ServiceCall = Callable[[], Awaitable[Outcome]]


def clicked_of(interaction: discord.Interaction[Any]) -> Clicked | None:
    """The message a component was used on, and the interaction's token, for the service."""
    message = interaction.message
    if message is None or message.channel is None:
        return None
    return Clicked(message.channel.id, message.id, interaction.token)


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The acting user as the service knows them: id and the name shown at the table."""
    return User(interaction.user.id, interaction.user.display_name)


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user is a moderator here, who may cancel any game at any time: Manage
    Messages in this channel, or Manage Server (``interaction.permissions`` are the member's
    permissions in the channel, overwrites included)."""
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


async def _unshare(interaction: discord.Interaction[Any]) -> None:
    """Before a private answer to a command deferred publicly: delete the public "thinking"
    message, which the first follow-up would otherwise become (keeping its visibility, as
    Discord does), so the answer goes as a message of its own, seen only by the user."""
    if interaction.extras.pop(PUBLIC_DEFERRAL, False):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


async def send_error(interaction: discord.Interaction[Any], text: str) -> None:
    """Tell the user ``text`` privately, whether or not the interaction was answered yet."""
    try:
        if interaction.response.is_done():
            await _unshare(interaction)
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        # The interaction expired or was answered elsewhere; nothing more we can do for it.
        log.warning("could not deliver an error message to %s", interaction.user.id)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


async def _message_kwargs(view: MessageView) -> dict[str, Any]:
    """A message the game owns as discord.py's keyword arguments (components, picture)."""
    kwargs: dict[str, Any] = {
        "content": _clip(view.content),
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    components = controls_view(view)
    if components is not None:
        kwargs["view"] = components
    if view.board is not None:
        kwargs["file"] = await board_attachment(view.board)
    if view.pictures:
        kwargs["files"] = [
            discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt_text)
            for p in view.pictures
        ]
    return kwargs


class DiscordIO:
    """Runs service calls for interactions, answers them, and keeps the tables."""

    def __init__(self, bot: CribbageBot) -> None:
        self.bot = bot
        self.pacer = Pacer()
        #: Who is still a member of which server (seen in interactions, else asked of Discord).
        self.members = DiscordMembers(
            bot, self.pacer, fresh=bot.settings.member_check.total_seconds()
        )
        #: Seconds a service call may take before the interaction is deferred.
        self.defer_after = DEFER_AFTER
        self._keeper: TableKeeper | None = None
        self._in_flight: set[asyncio.Task[Any]] = set()
        self.closing = False

    @property
    def service(self) -> GameService:
        """The bot's game service (created in ``setup_hook``)."""
        return self.bot.service

    @property
    def keeper(self) -> TableKeeper:
        """The table keeper (made on first use, once the service exists)."""
        if self._keeper is None:
            courier = Courier(self.bot, self.service, self.pacer)
            self._keeper = TableKeeper(self.service, courier, self.pacer)
        return self._keeper

    # -- entry points -------------------------------------------------------------------------
    async def command(
        self, interaction: discord.Interaction[Any], call: ServiceCall, *, ephemeral: bool = True
    ) -> None:
        """A slash command: run ``call`` and answer it (``ephemeral``: how its answer will be
        seen, which a slow call's deferral must know in advance)."""
        await self._entered(interaction, self._command(interaction, call, ephemeral))

    async def _command(
        self, interaction: discord.Interaction[Any], call: ServiceCall, ephemeral: bool
    ) -> None:
        outcome = await self._call(interaction, call, update=False, ephemeral=ephemeral)
        if outcome is None:
            return
        await self._reply(interaction, outcome.reply)
        if outcome.update_key == "lobby" and outcome.reply.view is not None and outcome.ok:
            # /cribbage new: the answer is the lobby; the game keeps it as its message.
            message = await interaction.original_response()
            assert outcome.game_id is not None
            await self.service.answered(
                outcome.game_id,
                "lobby",
                message.channel.id,
                message.id,
                outcome.reply.view,
                interaction.token,
                version=outcome.version,
            )
        await self._after_answer(outcome)

    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, action: str
    ) -> None:
        """A lobby button or the lobby's "Add computer" menu."""
        user = user_of(interaction)
        guild_id = interaction.guild_id
        moderator = is_moderator(interaction) if guild_id else False
        await self._click(
            interaction,
            lambda: self.service.click_lobby(
                game_id, action, user, guild_id=guild_id, moderator=moderator
            ),
        )

    async def discard_click(
        self, interaction: discord.Interaction[Any], game_id: int, stamp: int, codes: Sequence[str]
    ) -> None:
        """The crib select menu of a hand."""
        user, guild_id = user_of(interaction), interaction.guild_id
        clicked = clicked_of(interaction)
        chosen = list(codes)
        await self._click(
            interaction,
            lambda: self.service.click_discard(
                game_id, stamp, user, chosen, clicked, guild_id=guild_id
            ),
        )

    async def play_click(
        self, interaction: discord.Interaction[Any], game_id: int, stamp: int, code: str
    ) -> None:
        """A card button of a hand."""
        user, guild_id = user_of(interaction), interaction.guild_id
        clicked = clicked_of(interaction)
        await self._click(
            interaction,
            lambda: self.service.click_play(game_id, stamp, user, code, clicked, guild_id=guild_id),
        )

    async def count_click(
        self, interaction: discord.Interaction[Any], game_id: int, stamp: int, value: str
    ) -> None:
        """A count menu of a hand (manual counting): claim the chosen value."""
        user, guild_id = user_of(interaction), interaction.guild_id
        clicked = clicked_of(interaction)
        await self._click(
            interaction,
            lambda: self.service.click_count(
                game_id, stamp, user, value, clicked, guild_id=guild_id
            ),
        )

    async def muggins_click(
        self, interaction: discord.Interaction[Any], game_id: int, stamp: int
    ) -> None:
        """The Muggins! button of a hand."""
        user, guild_id = user_of(interaction), interaction.guild_id
        clicked = clicked_of(interaction)
        await self._click(
            interaction,
            lambda: self.service.click_muggins(game_id, stamp, user, clicked, guild_id=guild_id),
        )

    async def page_click(
        self, interaction: discord.Interaction[Any], table: Table, page: int
    ) -> None:
        """A leaderboard's Previous, Next or other-table button: that page, in place."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await send_error(interaction, NEEDS_A_SERVER)
            return
        await self._click(
            interaction, lambda: self.service.leaderboard(guild_id, table=table, page=page)
        )

    async def _click(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        await self._entered(interaction, self._clicked(interaction, call))

    async def _clicked(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        await self._remember_dm(interaction)
        outcome = await self._call(interaction, call, update=True, ephemeral=True)
        if outcome is None:
            return
        message = interaction.message
        if outcome.ok and outcome.update is not None and message is not None:
            # Answer by updating the clicked message itself (free of the global limit).
            try:
                await self._update(interaction, outcome.update)
            except BaseException:
                if outcome.answer_kept and outcome.game_id and outcome.update_key:
                    # Kept as shown with the move, but it never got there: edit it again.
                    await self.service.unanswered(
                        outcome.game_id, outcome.update_key, outcome.version
                    )
                    self._changed(outcome)
                raise
            if outcome.answer_kept:
                pass  # the service kept what it shows with the move
            elif outcome.game_id is not None and outcome.update_key is not None:
                channel_id = message.channel.id if message.channel else interaction.channel_id
                assert channel_id is not None
                await self.service.answered(
                    outcome.game_id,
                    outcome.update_key,
                    channel_id,
                    message.id,
                    outcome.update,
                    interaction.token,
                    version=outcome.version,
                )
        else:
            await self._reply(interaction, outcome.reply)
        await self._after_answer(outcome)

    async def _entered(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        """Run an interaction's work, counted so that shutting down waits for it; errors become
        a sentence for the user (components' errors never reach the command tree's handler)."""
        self.members.saw(interaction)  # one from a server is proof of membership, for free
        if self.closing:
            if asyncio.iscoroutine(work):
                work.close()
            await send_error(interaction, RESTARTING)
            return
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            await work
        except Exception as error:
            await self.report(interaction, error)
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def _remember_dm(self, interaction: discord.Interaction[Any]) -> None:
        """A click in a DM: its webhook may post the player's next hand there, for free."""
        channel = interaction.channel
        if interaction.guild_id is not None or channel is None:
            return
        link = DmLink(interaction.user.id, channel.id, interaction.token, time.time())
        await self.service.dm_linked(link)

    async def _after_answer(self, outcome: Outcome) -> None:
        """The user has their answer: now the computer's reply to their move, if one is owed
        (its thinking never delays the answer), then the game's messages. Should the reply
        fail, the keeper makes it on a later look at the game (``GameService.owed``)."""
        try:
            if outcome.computer_owes and outcome.game_id is not None:
                await self.service.computer_turn(outcome.game_id)
        finally:
            self._changed(outcome)

    def _changed(self, outcome: Outcome) -> None:
        self.keeper_touch(outcome)

    def keeper_touch(self, outcome: Outcome) -> None:
        """If ``outcome`` changed its game, have the keeper bring the game's messages up to date."""
        if outcome.changed and outcome.game_id is not None and outcome.channel_id is not None:
            self.touch(outcome.game_id, outcome.channel_id)

    def touch(self, game_id: int, channel_id: int) -> None:
        """The game changed: if this process is the one that sends, bring its messages up to
        date (another process hears of the change from the database, see ``cluster``)."""
        if self.bot.cluster.sender:
            self.keeper.touch(game_id, channel_id)

    # -- calling the service ------------------------------------------------------------------
    async def _call(
        self,
        interaction: discord.Interaction[Any],
        call: ServiceCall,
        *,
        update: bool,
        ephemeral: bool,
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
                    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                    interaction.extras[PUBLIC_DEFERRAL] = not ephemeral
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

    # -- answering ----------------------------------------------------------------------------
    async def _reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        kwargs = (
            await _message_kwargs(reply.view)
            if reply.view is not None
            else {"content": _clip(reply.text)}
        )
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=reply.ephemeral, **kwargs)
            return
        if reply.ephemeral:
            await _unshare(interaction)
        await interaction.followup.send(ephemeral=reply.ephemeral, **kwargs)

    async def _update(self, interaction: discord.Interaction[Any], view: MessageView) -> None:
        """Edit the message the clicked component is on: in the answer (type 7), or, when the
        click was already deferred because the service was slow, through the original."""
        kwargs = await _message_kwargs(view)
        kwargs.setdefault("view", None)
        if "file" in kwargs:
            kwargs["attachments"] = [kwargs.pop("file")]
        if "files" in kwargs:
            kwargs["attachments"] = kwargs.pop("files")
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.edit_original_response(**kwargs)

    # -- start-up and shutdown ----------------------------------------------------------------
    async def reconcile(self) -> None:
        """Bring every open or recently ended game's messages up to date (start-up)."""
        count = await self.keeper.reconcile()
        log.info("reconciling %d games with their messages", count)

    async def shut_down(self, timeout: float = 10.0) -> None:
        """Take no new moves, let the ones in flight finish, send what is owed; log the rest."""
        self.closing = True
        if self._in_flight:
            await asyncio.wait(list(self._in_flight), timeout=timeout / 2)
        unsent = await self.keeper.flush(timeout / 2)
        if unsent:
            log.warning("shutting down with messages still owed to games %s", unsent)
