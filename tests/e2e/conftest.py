"""End-to-end fixtures: a fakediscord world (a server, #general, four players and a spectator)
and the bot started as `python -m bot` against it, with its own database file.

The `bots` fixture (fakediscord.testing) fails a test on any ERROR the bot logs, any traceback
it prints, or the process dying on its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fakediscord import FakeDiscord, Limits
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.table_driver import NAMES, World


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """The emulator with every Discord limit on except new messages per channel (5 per 5 s).

    Today's bot posts one channel message per card played, so under that limit a whole game
    takes minutes; the table issue (issue 9: one live message per deal, edited in place)
    switches it back on here. The global limit, token expiry, uploads and invalid-request
    counting stay on for every end-to-end test.
    """
    async with FakeDiscord(limits=Limits(channel_messages=False)) as fd:
        yield fd


@pytest.fixture
def world(fake_discord: FakeDiscord, tmp_path: Path) -> World:
    """A server with #general, Al, Bea, Cy and Di, Eve watching, and Mo the moderator."""
    fd = fake_discord
    guild = fd.add_guild("Cribbage Club")
    general = guild.add_text_channel("general")
    players = [fd.add_user(name) for name in NAMES]
    for user in players:
        guild.add_member(user)
    spectator = fd.add_user("Eve")
    guild.add_member(spectator)
    moderator = fd.add_user("Mo")
    guild.add_member(moderator, moderator=True)
    return World(fd, guild, general, players, spectator, moderator, tmp_path / "bot.db")


@pytest.fixture
async def bot(world: World, bots: BotLauncher) -> BotProcess:
    """The bot as it really runs: `python -m bot` with a database file, commands synced."""
    return await bots.process(database_path=world.db_path, dev_guild=world.guild.id)
