"""Pytest plugin: fixtures that start the emulator and a bot, and fail tests the bot hurts.

Loaded from `tests/conftest.py` with `pytest_plugins = ["fakediscord.testing"]`. Fixtures:

- `fake_discord`: a started `FakeDiscord` (closed after the test).
- `bots`: a `BotLauncher` bound to it. `await bots.in_process(factory)` runs a discord.py
  client made by `factory()` in the test's event loop; `await bots.process(...)` runs
  `python -m bot` (or any args) as a separate process with DISCORD_TOKEN, DISCORD_API_BASE,
  DISCORD_GATEWAY_URL, DATABASE_PATH and DEV_GUILD_ID pointed at the emulator. Both return once
  the bot is connected, has every GUILD_CREATE and has synced commands; `await bot.restart()`
  stops it and starts it again against the same emulator and database.

Any ERROR or CRITICAL log record (in-process), any ERROR/CRITICAL line or traceback on the
process's output, and a client task or process that dies on its own, make the next emulator call
(`slash`, `click`, `wait_for`, ...) raise `BotFailure`, and fail the test at teardown otherwise.
A test that provokes an error on purpose calls `bot.allow_errors("regex")` first. When a test
fails, the last lines each bot process printed are shown with it (what it was doing then).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator

import pytest

from fakediscord.runner import BotLauncher, BotProcess, InProcessBot, RunningBot
from fakediscord.server import FakeDiscord

__all__ = ["BotLauncher", "BotProcess", "InProcessBot", "RunningBot", "bots", "fake_discord"]

#: How many of a bot process's last lines a failed test shows.
SHOWN_LINES = 40
_failed = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Note a test that failed, for its `bots` fixture to show the bots' output."""
    report = yield
    if report.failed:
        item.stash[_failed] = True
    return report


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started emulator on 127.0.0.1."""
    async with FakeDiscord() as fd:
        yield fd


@pytest.fixture
async def bots(
    fake_discord: FakeDiscord, request: pytest.FixtureRequest
) -> AsyncIterator[BotLauncher]:
    """Start bots against `fake_discord`; the test fails if one logged an error or died."""
    launcher = BotLauncher(fake_discord)
    yield launcher
    if request.node.stash.get(_failed, False):
        for number, bot in enumerate(launcher.bots, 1):
            if isinstance(bot, BotProcess):
                tail = "\n".join(bot.output[-SHOWN_LINES:])
                print(f"--- bot process {number} ({' '.join(bot.args)}), its last lines:\n{tail}")
    problems = await launcher.close()
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)
