"""``/cribbage ranked ...``: ranked play across servers, a thin line over the core's
``services.ranked`` (:class:`bot.core.ranked.ranked.Ranked`).

``play`` works wherever the app reaches: a server's channel (that invited the bot or not), the
bot's DM, a DM or group DM between people through the user install; not where the player is
seated in a game not over, nor where the server lets the app answer only privately (Use
External Apps off: nobody else would see the tables), as the core's rule for it says
(:mod:`bot.core.base.places`). The player's card is the command's answer there, public (their
match's tables come below it), and everything of their match is sent there through their own
interactions' tokens. A player goes by their own Discord name and picture here, not a
server's nickname or picture for them (:func:`~bot.discord.interactions.own_identity`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.choices import LADDER_SHOWN, LadderSeason
from bot.core.base.replies import Answer, Choice, User
from bot.core.faces import DiscordFace
from bot.discord.interactions import DiscordIO, own_identity
from bot.discord.places import place_of

__all__ = ["RankedCommands", "search_here"]

_SEASONS = [
    app_commands.Choice(name="this season (the ladder now)", value="this"),
    app_commands.Choice(name="last season's final standings", value="last"),
    app_commands.Choice(name="every season's champion", value="champions"),
]


async def search_here(
    services: DiscordFace, io: DiscordIO, interaction: discord.Interaction[Any]
) -> None:
    """``/cribbage ranked play``, or *Find a ranked match* on a decided match's table:
    the person joins the queue from where they are, refused where the command would be; their
    card is the interaction's answer, public, kept up to date through its token."""
    (user, avatar), place = own_identity(interaction), place_of(interaction)
    acts, token = services.acts, interaction.token
    await io.command(
        interaction,
        lambda: acts.ranked_play(place, user, avatar=avatar, token=token),
        ephemeral=False,
    )


class RankedCommands(app_commands.Group):
    """``/cribbage ranked``: play, leave, ladder, block, unblock; run on ``services`` and
    answered through ``io``."""

    def __init__(self, services: DiscordFace, io: DiscordIO) -> None:
        super().__init__(name="ranked", description="Ranked matches against players anywhere")
        self._core = services
        self._io = io
        self._add_on_a_player(
            "block",
            "Never be matched with this player again",
            "Someone you've met in a ranked match",
            lambda core: core.ranked.block,
            lambda core: core.ranked.opponents,
        )
        self._add_on_a_player(
            "unblock",
            "Let a player you blocked be matched again",
            "Someone you blocked",
            lambda core: core.ranked.unblock,
            lambda core: core.ranked.blocked,
        )

    @app_commands.command(
        name="play", description="Find a ranked opponent from any server or DM: a best of three"
    )
    async def play(self, interaction: discord.Interaction[Any]) -> None:
        """Join the queue from here; the card that answers stays here, with your match's
        tables below it."""
        await search_here(self._core, self._io, interaction)

    @app_commands.command(
        name="leave", description="Stop searching, or leave your ranked match (which loses it)"
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """A search stops at once; a match asks first, privately."""
        user, _ = own_identity(interaction)
        ranked = self._core.ranked
        await self._io.command(interaction, lambda: ranked.ask_leave(user))

    @app_commands.command(
        name="ladder",
        description=f"The ranked ladder: the top {LADDER_SHOWN}, your place, your matches",
    )
    @app_commands.describe(season="This season (default), last season's standings, champions")
    @app_commands.choices(season=_SEASONS)
    async def ladder(
        self,
        interaction: discord.Interaction[Any],
        season: app_commands.Choice[str] | None = None,
    ) -> None:
        """The season's top players with your place and latest matches, publicly."""
        user, _ = own_identity(interaction)
        which: LadderSeason = "this"
        if season is not None and season.value in ("last", "champions"):
            which = "last" if season.value == "last" else "champions"
        ranked = self._core.ranked
        await self._io.command(interaction, lambda: ranked.ladder(user, which), ephemeral=False)

    def _add_on_a_player(
        self,
        name: str,
        description: str,
        whom: str,
        act: Callable[[DiscordFace], Callable[[User, str], Awaitable[Answer]]],
        offered: Callable[[DiscordFace], Callable[[int, str], Awaitable[list[Choice]]]],
    ) -> None:
        """Add the command ``name`` on a player (``block``, ``unblock``): the core's ``act``
        on the one chosen, answered privately, the ``player`` option offering the core's
        ``offered`` list."""
        core, io = self._core, self._io

        @app_commands.command(name=name, description=description)
        @app_commands.describe(player=whom)
        async def on_a_player(interaction: discord.Interaction[Any], player: str) -> None:
            user, _ = own_identity(interaction)
            await io.command(interaction, lambda: act(core)(user, player))

        @on_a_player.autocomplete("player")
        async def offer(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            return await io.offered(interaction, offered(core)(interaction.user.id, current))

        self.add_command(on_a_player)
