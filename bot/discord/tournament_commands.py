"""``/cribbage tournament ...``: a server's tournaments, a thin line over
:class:`bot.core.tournaments.tournaments.Tournaments` (``services.tournaments``).

Opening a tournament needs a moderator (Manage Server or Manage Events); starting one, its
organiser or a moderator, and the bot's permission to make threads in the channel (each
pairing is played in a thread: Create Public Threads, Send Messages in Threads), checked
before anything starts, so a channel without them gets one clear line and nothing else. Which
tournament a command acts on, and where none is, the core's rule says
(:mod:`bot.core.base.places`): a server that did not invite the bot (reached through someone's
user install) has none, nor a voice or stage channel's chat (Discord starts no thread there,
whatever permissions the interaction carries: those of threads apply to text channels only).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.choices import (
    DEFAULT_FORMAT,
    DEFAULT_ROUND_HOURS,
    ROUND_HOURS,
    ROUND_HOURS_SAID,
    tournament_variants,
)
from bot.core.base.places import Place
from bot.core.base.replies import Answer, User
from bot.core.faces import DiscordFace
from bot.discord.interactions import DiscordIO, is_organiser, user_of
from bot.discord.options import TARGET_CHOICES, targets_said, variant_choices, variants_said
from bot.discord.places import place_of
from engine import formats
from engine.outcome import Scoring
from engine.tournament import LURCH_POINTS, MAX_SWISS_ROUNDS
from engine.variants import STANDARD

__all__ = [
    "THREADS_NEEDED",
    "TournamentCommands",
    "format_choices",
    "format_described",
    "is_organiser",
    "threads_lacking",
]

#: Said when the bot may not make the threads a tournament is played in.
THREADS_NEEDED = (
    "I can't run a tournament here: each game is played in a thread, and I need the"
    " **Create Public Threads** and **Send Messages in Threads** permissions in this channel."
)


def format_choices() -> list[app_commands.Choice[str]]:
    """The ``format`` option's choices: every registered format (:mod:`engine.formats`)."""
    return [
        app_commands.Choice(name=f"{kind.title}: {kind.summary}", value=kind.name)
        for kind in formats.listed()
    ]


def format_described() -> str:
    """The ``format`` option's description: the formats' names, the default marked."""
    return formats.choices_text(default=DEFAULT_FORMAT)


#: The variants a tournament may play: those for two players.
_VARIANTS = variant_choices(tournament_variants())
#: The widest margin a result can have: the longest game a tournament plays (seven-card
#: cribbage's 181). Discord's client refuses a number past the option's range before the bot
#: hears of it; the core holds a margin to its own tournament's target.
_WIDEST_MARGIN = max(target for variant in tournament_variants() for target in variant.targets)
#: How long a round may take, as the option's range (the core's bounds).
_SHORTEST_ROUND, _LONGEST_ROUND = ROUND_HOURS
_MATCHES = [
    app_commands.Choice(name="a single game", value=1),
    app_commands.Choice(name="best of 3", value=3),
]
_PLAYOFFS = [
    app_commands.Choice(name="top 4 into a best-of-3 knockout", value=4),
    app_commands.Choice(name="top 8 into a best-of-3 knockout", value=8),
]
_SCORING = [
    app_commands.Choice(
        name=f"{kind}: {LURCH_POINTS} game points for a win by a {kind}", value=kind
    )
    for kind in Scoring
]
#: A tournament command's act in the core, where it was used, by whom.
Act = Callable[[Place, User], Awaitable[Answer]]


def threads_lacking(interaction: discord.Interaction[Any]) -> str | None:
    """Why the bot may not start the threads a tournament is played in where
    ``interaction`` was made (:data:`THREADS_NEEDED`), or None: it may."""
    perms = interaction.app_permissions
    if perms.create_public_threads and perms.send_messages_in_threads:
        return None
    return THREADS_NEEDED


class TournamentCommands(app_commands.Group):
    """``/cribbage tournament``: open, enter, leave, start, cancel, standings, withdraw,
    result; run on ``services`` and answered through ``io``."""

    def __init__(self, services: DiscordFace, io: DiscordIO) -> None:
        super().__init__(name="tournament", description="Tournaments on this server")
        self._core = services
        self._io = io

    @app_commands.command(name="new", description="Open a tournament in this channel (moderators)")
    @app_commands.describe(
        format=format_described(),
        rounds=(
            f"Swiss rounds (default: enough for one unbeaten player, at most {MAX_SWISS_ROUNDS})"
        ),
        target=f"Points to win each game ({targets_said(tournament_variants())})",
        scoring="Game points: lurch (default) or skunk",
        round_hours=(
            f"How long a round may take, {ROUND_HOURS_SAID}; default {DEFAULT_ROUND_HOURS:g}"
        ),
        match="Each pairing plays a single game (default) or a best of 3",
        playoff="After the Swiss rounds, the top 4 or 8 play a best-of-3 knockout",
        variant=f"Every game in: {variants_said(tournament_variants())}",
    )
    @app_commands.choices(format=format_choices(), scoring=_SCORING)
    @app_commands.choices(target=TARGET_CHOICES, match=_MATCHES, playoff=_PLAYOFFS)
    @app_commands.choices(variant=_VARIANTS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        format: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, MAX_SWISS_ROUNDS] | None = None,
        target: app_commands.Choice[int] | None = None,
        scoring: app_commands.Choice[str] | None = None,
        round_hours: app_commands.Range[float, _SHORTEST_ROUND, _LONGEST_ROUND] | None = None,
        match: app_commands.Choice[int] | None = None,
        playoff: app_commands.Choice[int] | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        """Open a tournament; its message takes entrants with Join and Leave."""
        user, place, tours = user_of(interaction), place_of(interaction), self._core.tournament_acts
        moderator, lacking = is_organiser(interaction), threads_lacking(interaction)
        await self._io.command(
            interaction,
            lambda: tours.new(
                place,
                user,
                moderator=moderator,
                lacking=lacking,
                format=format.value if format else DEFAULT_FORMAT,
                rounds=rounds or 0,
                target=target.value if target else None,
                scoring=scoring.value if scoring else Scoring.LURCH,
                round_hours=DEFAULT_ROUND_HOURS if round_hours is None else round_hours,
                match_games=match.value if match else 1,
                playoff=playoff.value if playoff else 0,
                variant=variant.value if variant else STANDARD.name,
            ),
        )

    async def _here(self, interaction: discord.Interaction[Any], act: Act) -> None:
        """A command on the tournament here: ``act`` with the place and the person."""
        place, user = place_of(interaction), user_of(interaction)
        await self._io.command(interaction, lambda: act(place, user))

    @app_commands.command(name="join", description="Enter this channel's tournament")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Enter the tournament."""
        await self._here(interaction, self._core.tournament_acts.join)

    @app_commands.command(
        name="leave", description="Leave this channel's tournament (before it starts)"
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave before the start."""
        await self._here(interaction, self._core.tournament_acts.leave)

    @app_commands.command(
        name="start", description="Start this channel's tournament (its organiser or a moderator)"
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        """Start: round 1 is paired and dealt in threads."""
        mod, lacking, tours = (
            is_organiser(interaction),
            threads_lacking(interaction),
            self._core.tournament_acts,
        )
        await self._here(
            interaction,
            lambda place, user: tours.start(place, user, moderator=mod, lacking=lacking),
        )

    @app_commands.command(
        name="cancel", description="Cancel this channel's tournament (its organiser or a moderator)"
    )
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        """Cancel: games being played end without a result; the standings so far stay."""
        mod, tours = is_organiser(interaction), self._core.tournament_acts
        await self._here(interaction, lambda place, user: tours.cancel(place, user, moderator=mod))

    @app_commands.command(
        name="standings", description="This channel's tournament standings, privately"
    )
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        """Everyone's line, privately."""
        await self._here(interaction, self._core.tournament_acts.standings)

    @app_commands.command(name="withdraw", description="Withdraw from this channel's tournament")
    async def withdraw(self, interaction: discord.Interaction[Any]) -> None:
        """Withdraw: remaining games are forfeited, past results stand."""
        await self._here(interaction, self._core.tournament_acts.withdraw)

    @app_commands.command(
        name="result", description="Record or correct a result of this round (moderators)"
    )
    @app_commands.describe(
        winner="The player who won",
        loser="The player who lost",
        margin=f"Points between them: 0 to the game's target ({_WIDEST_MARGIN} at most)",
    )
    async def result(
        self,
        interaction: discord.Interaction[Any],
        winner: discord.User,
        loser: discord.User,
        margin: app_commands.Range[int, 0, _WIDEST_MARGIN] | None = None,
    ) -> None:
        """A moderator sets the result between two players of the round being played."""
        moderator, tours = is_organiser(interaction), self._core.tournament_acts
        won = User(winner.id, winner.display_name)
        lost = User(loser.id, loser.display_name)
        await self._here(
            interaction,
            lambda place, user: tours.result(
                place, user, moderator=moderator, winner=won, loser=lost, margin=margin or 0
            ),
        )
