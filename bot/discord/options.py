"""Option choices that more than one slash command offers (a game's and a tournament's)."""

from __future__ import annotations

from discord import app_commands

__all__ = ["TARGETS"]

#: The points a game is played to.
TARGETS = [
    app_commands.Choice(name="121 points (full game)", value=121),
    app_commands.Choice(name="61 points (short game)", value=61),
]
