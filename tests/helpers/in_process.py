"""The bot in the test's own process against fakediscord, on a service the test made (a slow
one, one with a clock the test moves): a server "Club" with #general and its members, and the
bot started on it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from bot.core.service import GameService
from bot.discord.app import CribbageBot
from bot.settings import Settings
from bot.store import Store
from fakediscord import Channel, FakeDiscord, Guild, User
from fakediscord.testing import BotLauncher, InProcessBot

__all__ = ["clocked_service", "club", "start_in_process"]


def club(fd: FakeDiscord, *names: str) -> tuple[Guild, Channel, list[User]]:
    """A server "Club" with #general and a member for each of ``names``."""
    guild = fd.add_guild("Club")
    general = guild.add_text_channel("general")
    users = [fd.add_user(name) for name in names]
    for user in users:
        guild.add_member(user)
    return guild, general, users


def clocked_service(store: Store, now: list[datetime]) -> GameService:
    """A real service whose clock reads ``now[0]`` (the test moves it)."""
    return GameService(
        store,
        rng_factory=lambda key: random.Random(key),
        clock=lambda: now[0],
        idle_expiry=timedelta(days=7),
    )


async def start_in_process(
    bots: BotLauncher,
    fd: FakeDiscord,
    guild: Guild,
    store: Store,
    service: GameService,
    *,
    defer_after: float | None = None,
) -> InProcessBot:
    """The bot on ``service`` (and its ``store``), its commands synced to ``guild``; with
    ``defer_after``, the seconds a call may take before its interaction is deferred."""
    settings = Settings(discord_token=fd.bot_token, dev_guild_id=guild.id)

    def make() -> CribbageBot:
        bot = CribbageBot(settings, store=store, service=service)
        if defer_after is not None:
            bot.io.defer_after = defer_after
        return bot

    return await bots.in_process(make)
