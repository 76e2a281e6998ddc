"""Fixtures for the emulator's own tests: a small world and the tiny bot connected to it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fakediscord_tinybot import TinyBot, make_bot

from fakediscord import Channel, FakeDiscord, Guild, User
from fakediscord.testing import BotLauncher, InProcessBot


@dataclass
class Table:
    """A guild with #general, two members (Al, Bea) and an outsider (Cy)."""

    fd: FakeDiscord
    guild: Guild
    general: Channel
    al: User
    bea: User
    cy: User


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


def client_of(bot: InProcessBot) -> TinyBot:
    """The running tiny bot client."""
    assert isinstance(bot.client, TinyBot)
    return bot.client
