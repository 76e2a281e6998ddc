"""What a click on one of the bot's controls reaches: :class:`Clicks`, one handler for every
control (a hand's, a lobby's, and those around the games), so that each control in
:mod:`bot.discord.components` hands its click on the same way. The bot's is
:class:`bot.discord.feature_clicks.FeatureClicks`, which passes the hand's and the lobby's on
to a game's table (:class:`bot.discord.game_io.GameIO`)."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.core.base.replies import Click
from bot.core.base.views import ConfirmAction, Pool

__all__ = ["Clicks"]

_Interaction = discord.Interaction[Any]


class Clicks(Protocol):
    """What the bot does with a click on one of its components."""

    async def hand_click(self, interaction: _Interaction, click: Click) -> None:
        """A hand's control: a discard, a card played, a count claimed, muggins called."""
        ...

    async def lobby_click(self, interaction: _Interaction, game_id: int, action: str) -> None:
        """A lobby button, or a level chosen in its "Add computer" menu (``computer:<level>``)."""
        ...

    async def page_click(
        self, interaction: _Interaction, table: Pool, page: int, variant: str
    ) -> None:
        """A leaderboard's Previous, Next or other-table button."""
        ...

    async def tournament_click(
        self, interaction: _Interaction, tournament_id: int, action: str
    ) -> None:
        """A tournament message's Join or Leave button."""
        ...

    async def review_click(
        self, interaction: _Interaction, game_id: int, seat: int | None, page: int
    ) -> None:
        """A game's *Review* button, or a review page's Previous or Next."""
        ...

    async def rematch_click(self, interaction: _Interaction, game_id: int) -> None:
        """A result's *Rematch* or *Play again*."""
        ...

    async def hand_rematch_click(self, interaction: _Interaction, game_id: int) -> None:
        """*Rematch* or *Play again* on a player's last hand message of a game (by DM)."""
        ...

    async def daily_click(
        self, interaction: _Interaction, stamp: str, cards: tuple[str, ...]
    ) -> None:
        """The discard of the day's menu."""
        ...

    async def privacy_click(self, interaction: _Interaction, subject: int, action: str) -> None:
        """A privacy button (a person's data, or forgetting them)."""
        ...

    async def confirm_click(
        self, interaction: _Interaction, subject: int, action: ConfirmAction, yes: bool
    ) -> None:
        """Yes or No under a question asked before something that cannot be taken back."""
        ...

    async def ranked_click(self, interaction: _Interaction, entry_id: int, action: str) -> None:
        """A ranked card's *Stop searching* or *Play the expert instead*, or a decided match's
        *Find a ranked match*."""
        ...
