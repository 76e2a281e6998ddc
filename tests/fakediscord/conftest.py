"""Fixtures for the emulator's own tests: a small world and the tiny bot connected to it."""

from __future__ import annotations

import pytest
from fakediscord_tinybot import make_bot
from fakediscord_world import Table

from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher, InProcessBot


@pytest.fixture
def table(fake_discord: FakeDiscord) -> Table:
    """The world most tests need."""
    guild = fake_discord.add_guild("Table")
    general = guild.add_text_channel("general")
    al, bea, cy = (fake_discord.add_user(n) for n in ("Al", "Bea", "Cy"))
    guild.add_member(al)
    guild.add_member(bea)
    return Table(fake_discord, guild, general, al, bea, cy)


@pytest.fixture
async def tiny(table: Table, bots: BotLauncher) -> InProcessBot:
    """The tiny bot, in this process, synced to the table's guild."""
    return await bots.in_process(lambda: make_bot(table.guild.id))
