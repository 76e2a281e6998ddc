"""Who counts as a moderator is said as the checks decide it: the game's (who may cancel any
game: ``is_moderator``) in ``WHO_MAY_CANCEL``, the tournaments' (``is_organiser``) in their
refusal. Each permission a sentence names lets its holder through alone, and nothing else does."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core.games.rules_help import WHO_MAY_CANCEL
from bot.core.tournaments.tournaments import MODERATORS_ONLY
from bot.discord.interactions import is_organiser
from bot.discord.places import is_moderator

#: Discord's client's names for the permissions discord.py names otherwise.
_CLIENT_NAMES = {"manage_server": "manage_guild"}


def _named(sentence: str) -> set[str]:
    """The permissions ``sentence`` names ("Manage Messages", "Manage Server"), as flags."""
    names = re.findall(r"\b(Manage [A-Z][a-z]+)", sentence)
    flags = {
        _CLIENT_NAMES.get(n.lower().replace(" ", "_"), n.lower().replace(" ", "_")) for n in names
    }
    assert flags <= set(discord.Permissions.VALID_FLAGS), flags
    return flags


def _with(*flags: str) -> Any:
    """An interaction in a server channel by a member holding ``flags`` there."""
    return SimpleNamespace(
        guild_id=5, permissions=discord.Permissions(**dict.fromkeys(flags, True))
    )


@pytest.mark.parametrize(
    ("sentence", "check"),
    [(WHO_MAY_CANCEL, is_moderator), (MODERATORS_ONLY, is_organiser)],
    ids=["who may cancel a game", "who may run a tournament"],
)
def test_a_moderator_is_who_the_sentence_names(sentence: str, check: Callable[[Any], bool]) -> None:
    named = _named(sentence)
    assert len(named) == 2, named
    for flag in named:
        assert check(_with(flag)), flag
    others = set(discord.Permissions.VALID_FLAGS) - named - {"administrator"}
    assert not check(_with(*others)), sentence
