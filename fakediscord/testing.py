"""Pytest plugin: fixtures that start the emulator and a bot, and fail tests the bot hurts.

Loaded from `tests/conftest.py` with `pytest_plugins = ["fakediscord.testing"]`. Fixtures:

- `fake_discord`: a started `FakeDiscord` (closed after the test); with the internet's latency
  (`fakediscord.latency`) for a test marked `@pytest.mark.latency` (`seed=` for its draws),
  or for every test when the environment sets `FAKEDISCORD_LATENCY` to a seed.
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

import os
from collections.abc import AsyncIterator, Generator, Iterator

import pytest

from fakediscord.latency import Latency
from fakediscord.runner import REPO_ROOT, BotLauncher, BotProcess, InProcessBot, RunningBot
from fakediscord.server import FakeDiscord
from fakediscord.warm import WarmStarts

__all__ = ["BotLauncher", "BotProcess", "InProcessBot", "RunningBot", "bots", "fake_discord"]

#: How many of a bot process's last lines a failed test shows.
SHOWN_LINES = 40
#: Set to a seed, every test's emulator has the internet's latency (a sweep for the races it
#: brings); a test marked ``@pytest.mark.latency`` has it whatever this says.
LATENCY_ENV = "FAKEDISCORD_LATENCY"
_failed = pytest.StashKey[bool]()


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``latency`` marker."""
    config.addinivalue_line(
        "markers",
        "latency(seed=0): the emulator has the internet's latency (fakediscord.latency)",
    )


def latency_for(item: pytest.Item) -> Latency | None:
    """The latency a test's emulator has: its ``latency`` marker's, or the environment's
    (:data:`LATENCY_ENV`), or none."""
    marker = item.get_closest_marker("latency")
    if marker is not None:
        return Latency(seed=int(marker.kwargs.get("seed", 0)))
    seed = os.environ.get(LATENCY_ENV, "")
    return Latency(seed=int(seed)) if seed.strip() else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Note a test that failed, for its `bots` fixture to show the bots' output."""
    report = yield
    if report.failed:
        item.stash[_failed] = True
    return report


#: What Discord's OpenAPI description judged in this process: requests, refusals, operations.
_judged: dict[str, int] = {"requests": 0, "refused": 0}
_operations: set[str] = set()


def _tally(fd: FakeDiscord) -> None:
    _judged["requests"] += fd.spec_verdicts.checked
    _judged["refused"] += len(fd.spec_verdicts.refused)
    _operations.update(fd.spec_verdicts.by_operation)


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started emulator on 127.0.0.1 (with the internet's latency: :func:`latency_for`)."""
    async with FakeDiscord(latency=latency_for(request.node)) as fd:
        yield fd
        _tally(fd)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker of pytest-xdist hands its tally to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["fakediscord_judged"] = dict(_judged)
        output["fakediscord_operations"] = sorted(_operations)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The controller adds up each worker's tally (pytest-xdist's hook)."""
    output = getattr(node, "workeroutput", {})
    for key, value in output.get("fakediscord_judged", {}).items():
        _judged[key] += value
    _operations.update(output.get("fakediscord_operations", []))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many requests Discord's OpenAPI description judged in the run, and refused."""
    if _judged["requests"]:
        terminalreporter.write_line(
            f"fakediscord: Discord's OpenAPI description judged {_judged['requests']} requests "
            f"({len(_operations)} operations) and refused {_judged['refused']} (each refusal "
            "fails its test unless the test sends it on purpose)"
        )


#: What ``python -m bot`` imports before it runs the bot (what its ``__main__`` imports, and
#: what that imports to run it): a warm start forks a process that imported them already. And
#: the bot's own warm-up (``bot.discord.app.warm_up``: the engine's tables, the boards' fonts),
#: which each bot, forked, finds done as it starts (it built the tables again, 20 ms of a
#: start's CPU where it was 60, and drew its first board 47 ms slower than the next).
BOT_IMPORTS = ("bot.early_stop", "bot.settings", "bot.launch", "bot.discord.app:warm_up")


@pytest.fixture(scope="session")
def warm_starts() -> Iterator[WarmStarts]:
    """This test process's warm starts of ``python -m bot`` (fakediscord.warm)."""
    starts = WarmStarts("bot", BOT_IMPORTS, REPO_ROOT)
    yield starts
    starts.close()


@pytest.fixture
async def bots(
    fake_discord: FakeDiscord, request: pytest.FixtureRequest, warm_starts: WarmStarts
) -> AsyncIterator[BotLauncher]:
    """Start bots against `fake_discord` (processes warm: `warm_starts`); the test fails if
    one logged an error or died."""
    launcher = BotLauncher(fake_discord, warm_starts)
    yield launcher
    if request.node.stash.get(_failed, False):
        for number, bot in enumerate(launcher.bots, 1):
            if isinstance(bot, BotProcess):
                tail = "\n".join(bot.output[-SHOWN_LINES:])
                print(f"--- bot process {number} ({' '.join(bot.args)}), its last lines:\n{tail}")
    problems = await launcher.close()
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)
