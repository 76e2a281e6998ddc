"""The bot in the test's own process against fakediscord, on a service the test made (a slow
one, one with a clock the test moves): a server "Club" with #general and its members, and the
bot started on it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from bot import assembly
from bot.core.services import Services
from bot.discord.app import CribbageBot
from bot.settings import Settings
from bot.store import Store
from fakediscord import Channel, FakeDiscord, Guild, User
from fakediscord.testing import BotLauncher, InProcessBot
from tests.helpers.bot_db import Database
from tests.helpers.core_build import build_core

__all__ = [
    "InClub",
    "bot_core",
    "clocked_service",
    "club",
    "everywhere",
    "in_club",
    "slowed",
    "start_in_process",
]


def club(fd: FakeDiscord, *names: str) -> tuple[Guild, Channel, list[User]]:
    """A server "Club" with #general and a member for each of ``names``."""
    guild = fd.add_guild("Club")
    general = guild.add_text_channel("general")
    users = [fd.add_user(name) for name in names]
    for user in users:
        guild.add_member(user)
    return guild, general, users


def bot_core(store: Store) -> Services:
    """The core as the bot builds it with the default settings (a week's idle expiry)."""
    return build_core(store, idle_expiry=timedelta(days=7))


def clocked_service(store: Store, now: list[datetime]) -> Services:
    """A real core whose clock reads ``now[0]`` (the test moves it)."""
    return build_core(
        store,
        rng_factory=lambda key: random.Random(key),
        clock=lambda: now[0],
        idle_expiry=timedelta(days=7),
    )


def slowed(
    part: object,
    name: str,
    seconds: float,
    *,
    fails: Callable[..., bool] | None = None,
) -> None:
    """Make ``part.name`` (a call on one part of the core) take ``seconds`` longer than it
    does; with ``fails``, raise instead when ``fails(*args, **kwargs)`` says so (a bug)."""
    call: Callable[..., Awaitable[Any]] = getattr(part, name)

    @functools.wraps(call)
    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        if fails is not None and fails(*args, **kwargs):
            raise RuntimeError(f"{name} broke")
        return await call(*args, **kwargs)

    setattr(part, name, slow)


async def start_in_process(
    bots: BotLauncher,
    fd: FakeDiscord,
    guild: Guild,
    store: Store,
    service: Services,
    *,
    defer_after: float | None = None,
) -> InProcessBot:
    """The bot on ``service`` (and its ``store``), its commands synced to ``guild``; with
    ``defer_after``, the seconds a call may take before its interaction is deferred."""
    settings = Settings(discord_token=fd.bot_token, dev_guild_id=guild.id)

    def make() -> CribbageBot:
        if defer_after is None:
            return assembly.client(settings, store=store, services=service)
        return assembly.client(settings, store=store, services=service, defer_after=defer_after)

    return await bots.in_process(make)


class InClub(NamedTuple):
    """What :func:`in_club` made: the server, its channel and members, the bot's store, the bot."""

    fd: FakeDiscord
    guild: Guild
    general: Channel
    members: list[User]
    store: Store
    running: InProcessBot


@contextlib.asynccontextmanager
async def in_club(
    bots: BotLauncher,
    database: Database,
    *names: str,
    service: Callable[[Store], Services] = bot_core,
    defer_after: float | None = None,
) -> AsyncIterator[InClub]:
    """The common opening of a test with the bot in its own process: a server "Club" with a
    member for each of ``names`` (:func:`club`), and the bot started (:func:`start_in_process`)
    on a store of ``database`` and the core ``service`` builds on it. When the block ends the
    bot is stopped before its store is closed (so it never writes to a closed store)."""
    fd = bots.fd
    guild, general, members = club(fd, *names)
    async with await Store.open(database) as store:
        running = await start_in_process(
            bots, fd, guild, store, service(store), defer_after=defer_after
        )
        try:
            yield InClub(fd, guild, general, members, store, running)
        finally:
            await running.stop()


@contextlib.asynccontextmanager
async def everywhere(
    bots: BotLauncher, database: Database, service: Callable[[Store], Services] = bot_core
) -> AsyncIterator[Services]:
    """The bot in this process, its commands global (user installs reach them: a DM, a group
    DM, a server that did not invite it), on the core ``service`` builds on a store of
    ``database``; when the block ends the bot is stopped before its store is closed."""
    async with await Store.open(database) as store:
        core = service(store)
        settings = Settings(discord_token=bots.fd.bot_token)
        running = await bots.in_process(
            lambda: assembly.client(settings, store=store, services=core)
        )
        try:
            yield core
        finally:
            await running.stop()
