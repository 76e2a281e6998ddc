"""The small world the emulator's tests use, importable by name from every test module.

(Test modules import from here rather than from `conftest`, whose module name is shared by
every conftest.py in the project.)
"""

from __future__ import annotations

from dataclasses import dataclass

from fakediscord import Channel, FakeDiscord, Guild, User
from fakediscord.testing import InProcessBot
from tests.helpers.tinybot import TinyBot


@dataclass
class TinyWorld:
    """A guild with #general, two members (Al, Bea) and an outsider (Cy)."""

    fd: FakeDiscord
    guild: Guild
    general: Channel
    al: User
    bea: User
    cy: User

    @property
    def posts(self) -> str:
        """The REST path of #general's messages (relative to the API's base)."""
        return f"/channels/{self.general.id}/messages"


def client_of(bot: InProcessBot) -> TinyBot:
    """The running tiny bot client."""
    assert isinstance(bot.client, TinyBot)
    return bot.client
