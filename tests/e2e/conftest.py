"""End-to-end fixtures: a fakediscord world (a server, #general, four players and a spectator)
and the bot started as `python -m bot` against it, with its own database file.

Modules that set `pytestmark = BOTH_DATABASES` run each test twice: with the bot on a SQLite
file and on a PostgreSQL database (on the run's throwaway server).

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
from tests.helpers.bot_db import Database
from tests.helpers.migrated import copy_migrated_sqlite
from tests.helpers.pair import Pair, start_pair
from tests.helpers.table_driver import NAMES, World


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database the bot runs on: ``sqlite`` unless a module asks for both, with
    ``pytestmark = BOTH_DATABASES`` (tests.helpers.backends)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def world(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    backend: str,
    request: pytest.FixtureRequest,
) -> World:
    """A server with #general, Al, Bea, Cy and Di, Eve watching, and Mo the moderator; the bot's
    database a file in the test's folder, or a PostgreSQL database of its own, either at
    today's schema already (a copy of one migrated once: tests.helpers.migrated)."""
    database: Database
    if backend == "postgres":
        database = request.getfixturevalue("migrated_postgres_url")
    else:
        database = copy_migrated_sqlite(tmp_path_factory.getbasetemp(), tmp_path / "bot.db")
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
    return World(fd, guild, general, players, spectator, moderator, database)


@pytest.fixture
async def bot(world: World, bots: BotLauncher) -> BotProcess:
    """The bot as it really runs: `python -m bot` with a database file, commands synced."""
    return await bots.process(database=world.database, dev_guild=world.guild.id)


@pytest.fixture
async def pair(fake_discord: FakeDiscord, bots: BotLauncher, postgres_url: str) -> Pair:
    """The bot as two processes on one PostgreSQL database (tests.helpers.pair)."""
    return await start_pair(fake_discord, bots, postgres_url)
