"""Every command the bot declares is one the core has a scope for (which game it acts on, where:
:mod:`bot.core.base.places`), and no scope names a command the bot no longer has: each act of
the core holds its command's :class:`~bot.core.base.places.Ask`, named as the command is (a
``/cribbage`` command's under ``/cribbage``, a ``/club`` one's by its whole name)."""

from __future__ import annotations

from discord import app_commands

from bot.core.base.places import SCOPES, Ask
from tests.helpers.commands import the_club, the_commands


def _names(group: app_commands.Group, prefix: str = "") -> list[str]:
    """The commands under ``group``, each named ``prefix`` and its name under the group
    (``tournament new`` under ``/cribbage``)."""
    found: list[str] = []
    for command in group.commands:
        name = f"{prefix}{command.name}"
        if isinstance(command, app_commands.Group):
            found += _names(command, f"{name} ")
        else:
            found.append(name)
    return found


def test_every_command_has_a_scope_and_every_scope_a_command() -> None:
    declared = _names(the_commands()) + _names(the_club(), "club ")
    assert sorted(declared) == sorted(ask.value for ask in Ask)
    assert set(SCOPES) == set(Ask)
