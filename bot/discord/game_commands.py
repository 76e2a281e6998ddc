"""The ``/cribbage`` commands of a game: its lobby (``new``, ``join``, ``leave``, ``start``,
``cancel``) and its play (``hand``, ``discard``, ``play``, ``count``, ``status``, ``resign``).

Each command is a thin line over the core: it says where it was used (a place,
:func:`bot.discord.places.place_of`), the core says what the command acts on there for the
person who used it, or why nothing (:meth:`WhichGame.run <bot.core.which_game.WhichGame.run>`,
by the command's scope), and :class:`bot.discord.interactions.DiscordIO` answers the
interaction and sends the outcome. They are the ``/cribbage`` group's own
(:class:`bot.discord.commands.CribbageCommands`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.choices import DEFAULT_LEVEL, LEVEL_BLURBS
from bot.core.base.places import Place
from bot.core.base.replies import Answer, Choice, TableAsked, User
from bot.core.faces import DiscordFace
from bot.discord.game_io import GameIO
from bot.discord.interactions import DiscordIO, send_error, user_of
from bot.discord.options import (
    CLAIMS_SAID,
    HIGHEST_CLAIM,
    TARGET_CHOICES,
    VARIANT_CHOICES,
    targets_said,
    variants_said,
)
from bot.discord.places import cannot_post, place_of
from engine.counting import Counting
from engine.outcome import Scoring
from engine.players import LEVELS
from engine.variants import listed

__all__ = ["DIFFICULTY_ALONE", "PLAYERS", "GameCommands"]

#: How many players ``/cribbage new`` offers (a variant seats some of them).
PLAYERS = [
    app_commands.Choice(name="2 players", value=2),
    app_commands.Choice(name="3 players", value=3),
    app_commands.Choice(name="4 players (two teams of partners)", value=4),
    app_commands.Choice(name="5 players (five-hand: each for themselves)", value=5),
    app_commands.Choice(name="6 players (six-hand: two teams of three, or teams:pairs)", value=6),
]
_TEAMS = [
    app_commands.Choice(name="threes: two teams of three, in alternate seats", value="threes"),
    app_commands.Choice(name="pairs: three teams of two, partners opposite", value="pairs"),
]
#: Strongest first, as the menu reads best.
_DIFFICULTIES = [
    app_commands.Choice(name=f"{level} ({LEVEL_BLURBS[level].lower()})"[:100], value=level)
    for level in reversed(LEVELS)
]
#: ``difficulty`` only means something against the computer.
DIFFICULTY_ALONE = (
    "`difficulty` is for games against the computer: use `vs_computer:True`, or open the game "
    "and add computer players from the lobby's menu."
)
_SCORING = [
    app_commands.Choice(name="lurch: 2 game points when the loser is short of half", value="lurch"),
    app_commands.Choice(name="skunk: 2 under 91, 3 under 61 (61 games: 2 under 31)", value="skunk"),
]
_COUNTING = [
    app_commands.Choice(name="auto: the bot counts every hand", value="auto"),
    app_commands.Choice(name="manual: count your own hands, with muggins", value="manual"),
]

#: A player's command: the core's act for it (:class:`bot.core.acts.Acts`), by the user in
#: their place.
Act = Callable[[Place, User], Awaitable[Answer]]
#: What an autocomplete offers a user in the game a command would act on.
Offer = Callable[[Place, int, str], Awaitable[list[Choice]]]


class GameCommands(app_commands.Group):
    """The commands of a game, run on ``services`` and answered through ``io`` (``game``:
    ``/cribbage hand``'s answer, kept up to date as a private table's *Your hand* is)."""

    def __init__(self, services: DiscordFace, io: DiscordIO, game: GameIO) -> None:
        super().__init__()
        self._core = services
        self._io = io
        self._game = game

    async def _by_player(
        self, interaction: discord.Interaction[Any], act: Act, *, ephemeral: bool = True
    ) -> None:
        """A command of the user who used it, on the game it acts on for them here (their
        ranked game where they play it, else the place's): the core's act, ``act(place, user)``."""
        place, user = place_of(interaction), user_of(interaction)
        await self._io.command(interaction, lambda: act(place, user), ephemeral=ephemeral)

    async def _completions(
        self, interaction: discord.Interaction[Any], offer: Offer, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete for a card option: what the core's ``offer`` gives this user in the
        game the command would act on (nothing where it would be refused)."""
        found = offer(place_of(interaction), interaction.user.id, current)
        return await self._io.offered(interaction, found)

    # -- lobby --------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a cribbage game in this channel")
    @app_commands.describe(
        players="How many players (default 2; 4 play as partners, 5 five-hand, 6 in teams)",
        target=f"Points to win ({targets_said(listed())})",
        vs_computer="Play the computer: it takes the other seats and the game deals at once",
        difficulty=f"How well the computer plays (default {DEFAULT_LEVEL}); implies vs_computer",
        scoring="Game points: lurch (default, 2 for a loser short of half) or the skunk scale",
        counting="Who counts the show: auto (default) or manual, you count, with muggins",
        variant=variants_said(listed()).capitalize(),
        teams="Six players only: two teams of three (default) or three teams of two",
        hints="Every player may ask the expert for a hint (default off; always on against "
        "the computer alone)",
    )
    @app_commands.choices(players=PLAYERS, target=TARGET_CHOICES)
    @app_commands.choices(difficulty=_DIFFICULTIES, scoring=_SCORING, counting=_COUNTING)
    @app_commands.choices(variant=VARIANT_CHOICES, teams=_TEAMS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Choice[int] | None = None,
        target: app_commands.Choice[int] | None = None,
        vs_computer: bool | None = None,
        difficulty: app_commands.Choice[str] | None = None,
        scoring: app_commands.Choice[str] | None = None,
        counting: app_commands.Choice[str] | None = None,
        variant: app_commands.Choice[str] | None = None,
        teams: app_commands.Choice[str] | None = None,
        hints: bool | None = None,
    ) -> None:
        """Open a game; you take the first seat (against the computer: it deals at once)."""
        if difficulty is not None and vs_computer is False:
            await send_error(interaction, DIFFICULTY_ALONE)
            return
        lacking = cannot_post(interaction)
        if lacking is not None:
            # (The lobby is the command's answer, but the deals' tables are the bot's posts.)
            await send_error(interaction, lacking)
            return
        user = user_of(interaction)
        asked = TableAsked(
            # Left out, the variant's own (the standard game: two players to 121).
            players=players.value if players else None,
            target=target.value if target else None,
            variant=variant.value if variant else None,
            teams=teams.value if teams else None,
            # Choosing a difficulty says you want to play the computer.
            vs_computer=bool(vs_computer) or difficulty is not None,
            level=difficulty.value if difficulty else DEFAULT_LEVEL,
            scoring=scoring.value if scoring else Scoring.LURCH,
            counting=counting.value if counting else Counting.AUTO,
            hints=bool(hints),
        )
        place, acts = place_of(interaction), self._core.acts
        await self._io.command(
            interaction,
            lambda: acts.new(
                place,
                user,
                asked,
                token=interaction.token,
            ),
            ephemeral=False,  # the answer is the lobby, in the channel
        )

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Join the lobby."""
        await self._by_player(interaction, self._core.acts.join)

    @app_commands.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby."""
        await self._by_player(interaction, self._core.acts.leave)

    @app_commands.command(name="start", description="Deal the first hand once every seat is taken")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start the game."""
        await self._by_player(interaction, self._core.acts.start)

    @app_commands.command(
        name="cancel",
        description=(
            "End this game with no result (its creator in the lobby; after the deal, moderators)"
        ),
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Cancel the game with no result: its creator in the lobby, a moderator at any time
        (Manage Messages in the channel, or Manage Server)."""
        await self._by_player(interaction, self._core.acts.cancel)

    # -- the game -----------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your hand privately, with its controls")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """Your hand, ephemerally (the fallback when DMs are closed; at a private table or a
        ranked place, kept up to date as the table's Your hand is)."""
        acts, user, place = self._core.acts, user_of(interaction), place_of(interaction)
        await self._game.own_hand(interaction, lambda: acts.hand(place, user))

    @app_commands.command(name="discard", description="Put cards from your hand in the crib")
    @app_commands.describe(cards="The card(s) to throw, e.g. 5H JD (2 cards with 2 players)")
    async def discard(self, interaction: discord.Interaction[Any], cards: str) -> None:
        """Discard to the crib."""
        acts = self._core.acts
        await self._by_player(interaction, lambda place, user: acts.discard(place, user, cards))

    @discard.autocomplete("cards")
    async def _discard_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._completions(interaction, self._core.acts.offer_discard, current)

    @app_commands.command(name="play", description="Play a card in the pegging")
    @app_commands.describe(card="The card to play, e.g. 5H; only cards you may play are offered")
    async def play(self, interaction: discord.Interaction[Any], card: str) -> None:
        """Play one card."""
        acts = self._core.acts
        await self._by_player(interaction, lambda place, user: acts.play(place, user, card))

    @play.autocomplete("card")
    async def _play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._completions(interaction, self._core.acts.offer_play, current)

    @app_commands.command(
        name="count", description="Claim what your hand (or crib) is worth, with manual counting"
    )
    @app_commands.describe(
        points=f"Your count, {CLAIMS_SAID}, claimed once: too few or too many costs points"
    )
    async def count(
        self,
        interaction: discord.Interaction[Any],
        points: app_commands.Range[int, 0, HIGHEST_CLAIM],
    ) -> None:
        """Claim the count of the hand you must count now."""
        acts = self._core.acts
        await self._by_player(interaction, lambda place, user: acts.count(place, user, points))

    @app_commands.command(
        name="status", description="Show the table: scores, dealer, whose turn, the count"
    )
    @app_commands.describe(show="Show it to the whole channel (default: only you see it)")
    async def status(self, interaction: discord.Interaction[Any], show: bool | None = None) -> None:
        """The table, with a picture of the board: privately unless ``show``."""
        acts, public = self._core.acts, bool(show)
        await self._by_player(
            interaction,
            lambda place, user: acts.status(place, user, public=public),
            ephemeral=not public,
        )

    @app_commands.command(name="resign", description="Concede this channel's game (a loss)")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        """Concede."""
        await self._by_player(interaction, self._core.acts.resign)
