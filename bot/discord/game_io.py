"""A game's table, as Discord reaches it: its hand's controls and its lobby's, a private
table's *Your hand* and ``/cribbage hand`` (the hand, privately, kept up to date through that
interaction's token), and *Play at the table* and the Entry Point command (the Activity). Each
is one call on the core, run and answered as every interaction is
(:class:`~bot.discord.interactions.DiscordIO`)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.core.base.replies import Click, Clicked
from bot.core.base.views import HAND_BUTTON, RESIGN_BUTTON, TABLE_BUTTON
from bot.core.faces import DiscordFace
from bot.discord.interactions import (
    Call,
    DiscordIO,
    clicked_of,
    in_time,
    reached,
    send_error,
    user_of,
)
from bot.discord.places import activity_runs_in, is_moderator, place_of
from bot.discord.rendering import message_payload

__all__ = ["LAUNCH_REFUSED", "NO_TABLE", "NO_TABLE_ON_STAGE", "GameIO"]

log = logging.getLogger(__name__)

#: *Play at the table* (or the Entry Point command) where Discord would not open the Activity.
LAUNCH_REFUSED = (
    "Discord couldn't open the table here: play with the buttons and `/cribbage` commands."
)
#: *Play at the table* in a stage channel's chat, where Discord runs no Activity.
NO_TABLE_ON_STAGE = (
    "Discord has no Activities in stage channels, so the table can't open here: play with the"
    " buttons and `/cribbage` commands, or open a game in a voice or text channel to play at"
    " the table."
)
#: *Play at the table* (or the Entry Point command) where the Activity is off.
NO_TABLE = (
    "The table inside Discord isn't open on this bot (its owner hasn't set up the Activity): "
    "play here with the buttons and `/cribbage` commands."
)


class GameIO:
    """The interactions of a game's table, run on ``services`` and answered through ``io``."""

    def __init__(self, services: DiscordFace, io: DiscordIO, *, activity: bool = False) -> None:
        """``activity``: the game's Activity is on (*Play at the table* and the Entry Point
        command open it)."""
        self._services = services
        self._io = io
        self._activity = activity

    async def own_hand(self, interaction: discord.Interaction[Any], call: Call) -> None:
        """``/cribbage hand``: the hand, privately, as the command's answer, which the bot keeps
        up to date through the command's token from then on: at a private table or a ranked
        place, that seat's hand message; at a server's game, a copy of the one by DM."""
        await self._io.entered(interaction, self._own_hand_typed(interaction, call))

    async def _own_hand_typed(self, interaction: discord.Interaction[Any], call: Call) -> None:
        answer = await self._io.call(interaction, call, update=False, ephemeral=True)
        if answer is None:
            return
        self._services.sequels.opening(answer)
        try:
            await in_time(interaction, self._io.reply(interaction, answer.reply))
            if not answer.ok or answer.reply.view is None:
                await self._io.carry(interaction, None, moved=False)
                return
            message = await interaction.original_response()
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("a hand asked for did not reach Discord (%s)", error)
            await self._services.sequels.opened(answer, shown=None, clicked=None)
            return
        shown = reached(interaction, message)
        await self._services.sequels.opened(answer, shown=shown, clicked=None)
        await self._io.carry(interaction, answer, moved=False)

    async def hand_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A hand's control: the crib select, a card button, a count menu, Muggins!, Hint."""
        user, guild_id = user_of(interaction), interaction.guild_id
        if click.kind == "hint":
            hints = self._services.hints
            call: Call = lambda: hints.hint(click, user, guild_id=guild_id)  # noqa: E731
            await self._io.entered(interaction, self._hinted(interaction, call))
            return
        clicked = clicked_of(interaction)
        moves = self._services.moves
        await self._io.click(
            interaction, lambda: moves.click(click, user, clicked, guild_id=guild_id)
        )

    async def _hinted(self, interaction: discord.Interaction[Any], call: Call) -> None:
        """*Hint*: the click's own answer, a message only the clicker sees (deferred, so
        privately, when the expert takes long), and nothing else: the hand clicked is left
        as it is, and no table is brought back through the click's token."""
        answer = await self._io.call(interaction, call, update=False, ephemeral=True)
        if answer is None:
            return
        try:
            await in_time(interaction, self._io.reply(interaction, answer.reply))
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("a hint did not reach Discord (%s)", error)
            return
        # (A hint from an older hand: that message is looked at again.)
        await self._services.sequels.answered(answer, landed=True, shown=clicked_of(interaction))

    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, action: str
    ) -> None:
        """A lobby button or the lobby's "Add computer" menu."""
        if action == HAND_BUTTON:
            await self._io.entered(interaction, self._own_hand(interaction, game_id))
            return
        if action == TABLE_BUTTON:
            await self.launch(interaction)
            return
        if action == RESIGN_BUTTON:
            await self._resign(interaction, game_id)
            return
        user, moderator = user_of(interaction), is_moderator(interaction)
        clicked, place, acts = clicked_of(interaction), place_of(interaction), self._services.acts
        # (Join is refused where /cribbage join would be: where the clicker's ranked match is.)
        await self._io.click(
            interaction,
            lambda: acts.lobby_click(place, user, game_id, action, clicked, moderator=moderator),
        )

    async def _resign(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A private table's *Resign*: the question `/cribbage resign` asks, privately, about
        the table's game (Yes resigns it; someone who may not is told why, as every control
        of the game tells them)."""
        user, moves, guild_id = user_of(interaction), self._services.moves, interaction.guild_id
        await self._io.click(
            interaction, lambda: moves.ask_resign_at(game_id, user, guild_id=guild_id)
        )

    async def launch(self, interaction: discord.Interaction[Any]) -> None:
        """*Play at the table*, or the Entry Point command: open the Activity for whoever
        acted, in this channel (answered with ``LAUNCH_ACTIVITY``; the Activity finds the
        channel's game itself, and who may see what there)."""
        await self._io.entered(interaction, self._launched(interaction))

    async def _launched(self, interaction: discord.Interaction[Any]) -> None:
        if not self._activity:
            await send_error(interaction, NO_TABLE)
            return
        if not activity_runs_in(interaction.channel):
            # (The App Launcher is not offered there; a table's button may be, where the
            # channel was not known when it was drawn.)
            await send_error(interaction, NO_TABLE_ON_STAGE)
            return

        async def launch() -> None:
            await interaction.response.launch_activity()

        try:
            await in_time(interaction, launch())
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("the Activity could not be launched (%s)", error)
            if not interaction.response.is_done():
                await send_error(interaction, LAUNCH_REFUSED)
            return
        # Where the bot is not a member the chat's table follows the moves made at the table
        # through interactions' tokens alone, and those moves are none of Discord's: opening
        # the table is one, whose token brings the chat's table back after a pause and keeps
        # it following for its 15 minutes. (Its answer is no message: it only carries.)
        if interaction.channel is not None:
            shown = Clicked(interaction.channel.id, 0, interaction.token)
            await self._io.carry(interaction, None, moved=False, shown=shown)

    async def _own_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A private table's *Your hand*: the click is answered by a deferred update of the
        table (so its token may edit the table), then the hand goes to the clicker alone as
        the click's ephemeral follow-up; both are reached through that token from then on."""
        user, guild_id = user_of(interaction), interaction.guild_id
        table = self._services.table
        answer = await self._io.call(
            interaction,
            lambda: table.own_hand(game_id, user, guild_id=guild_id),
            update=True,
            ephemeral=True,
        )
        if answer is None:
            return
        view = answer.reply.view
        if not answer.ok or view is None:
            await self._io.reply(interaction, answer.reply)
            await self._io.carry(interaction, None, moved=False)
            return
        self._services.sequels.opening(answer)
        try:
            if not interaction.response.is_done():

                async def defer() -> None:
                    await interaction.response.defer()

                await in_time(interaction, defer())
            payload = await message_payload(view, editing=False)
            sent = await interaction.followup.send(ephemeral=True, wait=True, **payload)
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("a hand opened from the table did not reach Discord (%s)", error)
            await self._services.sequels.opened(answer, shown=None, clicked=None)
            return
        shown = reached(interaction, sent)
        await self._services.sequels.opened(answer, shown=shown, clicked=clicked_of(interaction))
        # (Clicked on the table, the click's token now edits it, and nothing more is done;
        # on an older copy of it, the table comes back if no token reaches it. The deferred
        # update made the clicked message the click's original response.)
        await self._io.carry(interaction, answer, moved=False, shown=clicked_of(interaction))
