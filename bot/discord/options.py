"""Option choices that more than one slash command offers (a game's and a tournament's)."""

from __future__ import annotations

from discord import app_commands

from engine.rules import Rules

__all__ = ["TARGET_CHOICES"]

#: What each length of the standard game is called in the menus.
_TARGET_NAMES = {121: "121 points (full game)", 61: "61 points (short game)"}
#: The points a game is played to: the standard game's lengths.
TARGET_CHOICES = [
    app_commands.Choice(name=_TARGET_NAMES[target], value=target)
    for target in Rules.STANDARD_TARGETS
]
