"""Fixtures for the emulator's own tests: a small world and the tiny bot connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher, InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.tinybot import make_bot


@pytest.fixture
def table(fake_discord: FakeDiscord) -> TinyWorld:
    """The world most tests need."""
    guild = fake_discord.add_guild("TinyWorld")
    general = guild.add_text_channel("general")
    al, bea, cy = (fake_discord.add_user(n) for n in ("Al", "Bea", "Cy"))
    guild.add_member(al)
    guild.add_member(bea)
    return TinyWorld(fake_discord, guild, general, al, bea, cy)


@pytest.fixture
async def tiny(table: TinyWorld, bots: BotLauncher) -> InProcessBot:
    """The tiny bot, in this process, synced to the table's guild."""
    return await bots.in_process(lambda: make_bot(table.guild.id))


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A raw HTTP session authorised as the bot, for checking status codes on the wire (what
    it sends may be refused on purpose, by Discord's OpenAPI description too)."""
    fake_discord.allow_refusals()
    headers = {"Authorization": f"Bot {fake_discord.bot_token}"}
    async with aiohttp.ClientSession(fake_discord.api_base + "/", headers=headers) as session:
        yield session
