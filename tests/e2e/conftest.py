"""End-to-end fixtures: a fakediscord world (a server, #general, four players and a spectator)
and the bot started as `python -m bot` against it, with its own database file.

The emulator (`fake_discord`, from fakediscord.testing) enforces every limit Discord does: the
global 50 requests per second, 5 new messages and 5 edits per 5 s in a channel, token expiry,
uploads, invalid-request counting: the bot must pace itself within them.

The `bots` fixture (fakediscord.testing) fails a test on any ERROR the bot logs, any traceback
it prints, or the process dying on its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.table_driver import NAMES, World


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
