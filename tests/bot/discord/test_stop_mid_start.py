"""A stop while the bot is still bringing its games up to date at start-up: the
reconciliation is cancelled before the store it reads is closed, and one that would begin once
the stop has begun (discord.py dispatches ``on_ready`` when READY's delay runs out, closed or
not) does not (either logged "Connection closed" from on_ready when a SIGTERM came then); the
next start reconciles again."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot import assembly, early_stop
from bot.core.base.owners import Owner
from bot.core.ledger import MessageKeeper
from bot.discord.app import CribbageBot
from bot.launch import run_bot
from bot.settings import Settings
from fakediscord import FakeDiscord
from fakediscord.testing import BotLauncher


async def test_a_stop_during_the_start_ups_reconciliation_cancels_it_before_the_store_closes(
    bots: BotLauncher, fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake_discord.add_guild("Club")
    entered = asyncio.Event()
    gate = asyncio.Event()
    ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    original = MessageKeeper.reconcile

    async def held(self: MessageKeeper, *args: Any, **kwargs: Any) -> list[Owner]:
        # The reconciliation has begun and waits here until the test lets it go on; how it
        # ended is noted: cancelled, or what reading the store then did.
        entered.set()
        try:
            await gate.wait()
            owners = await original(self, *args, **kwargs)
        except asyncio.CancelledError:
            ended.set_result("cancelled")
            raise
        except Exception as error:
            ended.set_result(f"raised {error!r}")
            raise
        ended.set_result("read the store")
        return owners

    monkeypatch.setattr(MessageKeeper, "reconcile", held)
    settings = Settings(
        discord_token=fake_discord.bot_token,
        dev_guild_id=guild.id,
        database_path=str(tmp_path / "bot.db"),
    )
    running = await bots.in_process(lambda: assembly.client(settings))
    await asyncio.wait_for(entered.wait(), timeout=30)

    await running.stop()  # closes the bot, and the store it opened
    gate.set()
    assert await asyncio.wait_for(ended, timeout=30) == "cancelled"


async def test_on_ready_after_a_stop_began_reads_nothing(
    bots: BotLauncher, fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake_discord.add_guild("Club")
    settings = Settings(
        discord_token=fake_discord.bot_token,
        dev_guild_id=guild.id,
        database_path=str(tmp_path / "bot.db"),
    )
    running = await bots.in_process(lambda: assembly.client(settings))
    bot: CribbageBot = running.client
    await running.stop()  # closes the bot, and the store it opened
    asked: list[str] = []

    async def reconcile(self: MessageKeeper) -> list[Owner]:
        asked.append("reconcile")
        return await original(self)

    original = MessageKeeper.reconcile
    monkeypatch.setattr(MessageKeeper, "reconcile", reconcile)
    await bot.on_ready()  # as discord.py dispatches it when READY's delay runs out
    assert asked == [], "nothing is reconciled once the bot is stopping"


async def test_a_stop_signal_whose_exit_python_dropped_stops_the_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SIGTERM while `python -m bot` imports raised SystemExit inside an import's weakref
    # callback, where Python ignores exceptions: the bot then started and ran on, its one
    # stop signal spent (seen in the start-up SIGTERM test under load). The request is noted;
    # start-up honours it before it opens or reaches anything.
    monkeypatch.setattr(early_stop, "_requested", True)
    database = tmp_path / "never.db"
    settings = Settings(
        discord_token="never-used",
        database_path=str(database),
        # Nothing listens there: a start that tried to log in would fail to reach it.
        discord_api_base="http://127.0.0.1:9/api/v10",
    )
    # run_bot sets up the root logger as the bot's process wants it: put back as it was, so
    # that the tests run after it in this process log as they expect.
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        await run_bot(settings)
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers
    assert not database.exists()
