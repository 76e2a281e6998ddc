"""The ``/cribbage`` slash-command group: every command of the game, made on the core handed in.

The commands are written by subject, each subject a class of its own bound to the core it calls
(the core, what answers interactions, a game's table): a game's (:mod:`bot.discord.
game_commands`), those around the games (:mod:`bot.discord.feature_commands`), and the
``tournament`` and ``ranked`` subgroups (:mod:`bot.discord.tournament_commands`,
:mod:`bot.discord.ranked_commands`). :class:`CribbageCommands` is the one group users see: a
subject's commands are added to it as they are (discord.py's ``Group.add_command`` makes the
group their parent; each still calls its own subject), in the order they are written.
"""

from __future__ import annotations

from discord import app_commands

from bot.core.faces import DiscordFace
from bot.discord.feature_commands import FeatureCommands
from bot.discord.game_commands import GameCommands
from bot.discord.game_io import GameIO
from bot.discord.interactions import DiscordIO
from bot.discord.places import INSTALLS, PLACES
from bot.discord.ranked_commands import RankedCommands
from bot.discord.tournament_commands import TournamentCommands

__all__ = ["CribbageCommands"]


class CribbageCommands(app_commands.Group):
    """``/cribbage ...``: every command of the game, run on ``services`` and answered through
    ``io`` (``game``: a game's table, for ``/cribbage hand``)."""

    def __init__(self, services: DiscordFace, io: DiscordIO, game: GameIO) -> None:
        super().__init__(
            name="cribbage",
            description="Play cribbage in this channel",
            allowed_installs=INSTALLS,
            allowed_contexts=PLACES,
        )
        for subject in (GameCommands(services, io, game), FeatureCommands(services, io)):
            for command in subject.commands:
                self.add_command(command)
        self.add_command(TournamentCommands(services, io))
        self.add_command(RankedCommands(services, io))
