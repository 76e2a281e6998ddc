"""The ``/cribbage`` group as users see it, for the tests that read what the commands are (their
names, options and descriptions), not what they do."""

from __future__ import annotations

from typing import Any, cast

from bot.discord.club_commands import ClubCommands
from bot.discord.commands import CribbageCommands

__all__ = ["the_club", "the_commands"]


def the_commands() -> CribbageCommands:
    """The ``/cribbage`` group, made on no core (a command of it run would fail: none is)."""
    nothing = cast(Any, None)
    return CribbageCommands(nothing, nothing, nothing)


def the_club() -> ClubCommands:
    """The ``/club`` group (club nights), made on no core."""
    nothing = cast(Any, None)
    return ClubCommands(nothing, nothing)
