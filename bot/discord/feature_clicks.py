"""The clicks on the controls around the games (and, passed on, a hand's and a lobby's): a
leaderboard's pages, a tournament's Join and Leave, a review's pages, a result's *Rematch*
(and a finished game's last hand's), the discard of the day's menu, the privacy buttons, a
ranked card's buttons, and Yes or No under a question asked before something that cannot be
taken back. Each is one call on the core, run and answered as every click is
(:meth:`bot.discord.interactions.DiscordIO.click`)."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.core.base.replies import Click
from bot.core.base.views import ConfirmAction, Pool
from bot.core.faces import DiscordFace
from bot.discord.game_io import GameIO
from bot.discord.interactions import (
    Call,
    DiscordIO,
    clicked_of,
    is_organiser,
    send_error,
    user_of,
)
from bot.discord.places import cannot_post, cannot_post_in, is_moderator, place_of
from bot.discord.ranked_commands import search_here

__all__ = ["NOT_YOUR_DATA", "FeatureClicks"]

#: The answer to a click on another person's privacy buttons.
NOT_YOUR_DATA = "These buttons are someone else's: use `/cribbage privacy` for yours."


class FeatureClicks:
    """Turns the clicks on the controls around the games into calls on ``services``, run and
    answered through ``io``, and hands a hand's and a lobby's controls to ``game`` (the bot's
    :class:`~bot.discord.clicks.Clicks`)."""

    def __init__(self, services: DiscordFace, io: DiscordIO, game: GameIO) -> None:
        self._services = services
        self._io = io
        self._game = game

    async def hand_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A hand's control: a discard, a card played, a count claimed, muggins called."""
        await self._game.hand_click(interaction, click)

    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, action: str
    ) -> None:
        """A lobby button, or a level chosen in its "Add computer" menu."""
        await self._game.lobby_click(interaction, game_id, action)

    async def page_click(
        self, interaction: discord.Interaction[Any], table: Pool, page: int, variant: str
    ) -> None:
        """A leaderboard's Previous, Next or other-table button (of ``variant``'s tables):
        that page, in place (where ``/cribbage leaderboard`` works: a server)."""
        acts, place, user_id = self._services.acts, place_of(interaction), interaction.user.id
        await self._io.click(
            interaction,
            lambda: acts.leaderboard_page(place, user_id, table=table, page=page, variant=variant),
        )

    async def tournament_click(
        self, interaction: discord.Interaction[Any], tournament_id: int, action: str
    ) -> None:
        """A tournament message's Join or Leave button, or a club night's Check in (answered
        privately; the message is edited by the keeper)."""
        user, guild_id = user_of(interaction), interaction.guild_id
        tournaments, attendance = self._services.tournaments, self._services.attendance
        if action == "checkin":
            await self._io.click(
                interaction,
                lambda: attendance.check_in_click(tournament_id, user, guild_id=guild_id),
            )
            return
        await self._io.click(
            interaction, lambda: tournaments.click(tournament_id, action, user, guild_id=guild_id)
        )

    async def review_click(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int | None, page: int
    ) -> None:
        """A result's Review button: the clicker's own review, privately, as a command's
        answer; or a review page's Previous / Next: that page, in place."""
        # (Where it was clicked: a game outside servers is found only in its conversation.)
        user, place = user_of(interaction), place_of(interaction)
        reviews = self._services.reviews
        if seat is None:
            await self._io.command(
                interaction,
                lambda: reviews.review(place, place.channel_id, user, game_id),
                ephemeral=True,
            )
            return
        await self._io.click(interaction, lambda: reviews.page(place, user, game_id, seat, page))

    async def rematch_click(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A result's *Rematch* or *Play again*: the rematch's lobby as the click's answer, a
        message of its own in the channel (the result stays as it was), as ``/cribbage
        new``'s answer is, and refused where ``/cribbage new`` is for the presser and the place
        (:meth:`~bot.core.which_game.WhichGame.run_rematch`: where the answer would be the
        presser's alone, or their ranked match is played); or, once it is open, the presser's
        seat taken in it, said to them alone (the keeper brings the lobby up to date)."""
        lacking = cannot_post(interaction)
        if lacking is not None:
            await send_error(interaction, lacking)
            return
        user, place, token = user_of(interaction), place_of(interaction), interaction.token
        acts = self._services.acts
        await self._io.command(
            interaction, lambda: acts.rematch(place, user, game_id, token=token), ephemeral=False
        )

    async def hand_rematch_click(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """*Rematch* or *Play again* on a player's last hand message of a game, by DM: the
        rematch opened (or their kept seat taken in it) at the game's table, its lobby posted
        there by the bot, and the presser told privately where it is
        (:meth:`~bot.core.play.rematch.Rematches.press_on_hand`); refused where the bot may
        no longer post at that table, or ``/cribbage new`` there would be refused them
        (:meth:`~bot.core.which_game.WhichGame.seat_refusal`: their ranked match)."""
        user, client, acts = user_of(interaction), interaction.client, self._services.acts

        def lacking(channel_id: int, guild_id: int | None) -> str | None:
            return cannot_post_in(client, guild_id, channel_id)

        await self._io.click(interaction, lambda: acts.rematch_on_hand(user, game_id, lacking))

    async def daily_click(
        self, interaction: discord.Interaction[Any], stamp: str, cards: tuple[str, ...]
    ) -> None:
        """The discard of the day chosen: the answer replaces the menu's message (where
        ``/cribbage daily`` works: a server)."""
        user, place, acts = user_of(interaction), place_of(interaction), self._services.acts
        await self._io.click(interaction, lambda: acts.daily_choose(place, user, stamp, cards))

    async def privacy_click(
        self, interaction: discord.Interaction[Any], subject: int, action: str
    ) -> None:
        """``/cribbage privacy``'s buttons: the file of ``subject``'s data, or the question
        before it is deleted (in place)."""
        if action == "data":
            await self._data_file(interaction, subject)
            return
        user, privacy = user_of(interaction), self._services.privacy
        await self._io.click(interaction, lambda: privacy.ask_forget(subject, user))

    async def confirm_click(
        self,
        interaction: discord.Interaction[Any],
        subject: int,
        action: ConfirmAction,
        yes: bool,
    ) -> None:
        """Yes or No under a question asked before something that cannot be taken back: the
        question's message says what was done, in place. Who may do it is asked again now (a
        moderator's permissions as they are at the click)."""
        user = user_of(interaction)
        guild_id = interaction.guild_id
        services = self._services
        call: Call
        if action == "resign":
            call = lambda: services.moves.confirm_resign(  # noqa: E731
                subject, user, yes, guild_id=guild_id
            )
        elif action == "cancel":
            moderator = is_moderator(interaction)
            call = lambda: services.lobbies.confirm_cancel(  # noqa: E731
                subject, user, yes, moderator=moderator, guild_id=guild_id
            )
        elif action == "withdraw":
            call = lambda: services.tournaments.confirm_withdraw(  # noqa: E731
                subject, user, yes, guild_id=guild_id
            )
        elif action == "forget":
            privacy = services.privacy
            call = lambda: privacy.confirm_forget(subject, user, yes)  # noqa: E731
        elif action == "leave_match":
            call = lambda: services.ranked.confirm_leave(subject, user, yes)  # noqa: E731
        else:
            organiser = is_organiser(interaction)
            call = lambda: services.cancellations.confirm_cancel(  # noqa: E731
                subject, user, yes, moderator=organiser, guild_id=guild_id
            )
        await self._io.click(interaction, call)

    async def ranked_click(
        self, interaction: discord.Interaction[Any], entry_id: int, action: str
    ) -> None:
        """A ranked card's *Stop searching* or *Play the expert instead*: the card says what
        was done, in place; the expert's game is opened at the card's place, its table sent as
        any game's (where the bot is not a member, the click's token carries it there). A
        decided match's *Find a ranked match*: ``/cribbage ranked play``, from here."""
        if action == "again":
            await search_here(self._services, self._io, interaction)
            return
        user, place = user_of(interaction), place_of(interaction)
        ranked, clicked = self._services.ranked, clicked_of(interaction)
        if action != "expert":
            await self._io.click(interaction, lambda: ranked.stop(entry_id, user, clicked))
            return
        lacking = cannot_post(interaction)
        if lacking is not None:
            await send_error(interaction, lacking)
            return
        await self._io.click(
            interaction, lambda: ranked.expert(entry_id, user, clicked, place=place)
        )
        # (At a private place the expert's game is a private table: this token posts it.)
        await self._io.carry(interaction, None, moved=False, shown=clicked)

    async def _data_file(self, interaction: discord.Interaction[Any], subject: int) -> None:
        """*Send me my data* (``/cribbage privacy``): everything kept about the person who
        clicked, as a file in a reply only they see (the interaction is deferred first: a
        long record takes a while to gather). Someone else's button is refused."""

        async def send() -> None:
            user = user_of(interaction)
            if subject != user.id:
                await send_error(interaction, NOT_YOUR_DATA)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            made = await self._services.privacy.data_file(user)
            attached = discord.File(io.BytesIO(made.data), filename=made.filename)
            await interaction.followup.send(made.line, file=attached, ephemeral=True)

        await self._io.entered(interaction, send())
