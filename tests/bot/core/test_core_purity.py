"""The bot's core stays Discord-free: nothing under bot/core/ imports discord.py, a database
driver, the store's implementation or the Discord layer.

So every rule of what the bot says and does runs, and is tested, without Discord; the store is
reached only through the ``GameStore`` protocol. Every ``.py`` file under ``bot/core/`` is parsed
(not imported), so a module nothing imports yet is checked too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.imports import forbidden_imports, offences

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

CORE = Path(__file__).resolve().parents[3] / "bot" / "core"
FORBIDDEN = (
    "discord",
    "aiosqlite",
    "sqlite3",
    "asyncpg",
    "psycopg",
    "fakediscord",
    "bot.discord",
    "bot.store",
)


def test_the_core_imports_no_discord_no_driver_and_no_outer_layer() -> None:
    held = {"services.py", "moves.py", "life.py", "keeper.py", "replies.py", "records.py"}
    assert offences(CORE, FORBIDDEN, held) == {}


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("import discord", True),
        ("from discord import ui", True),
        ("from bot.store import Store", True),
        ("import bot.store.sqlite", True),
        ("from bot.discord.app import CribbageBot", True),
        ("import sqlite3", True),
        ("from bot.core.standings.records import GameRecord", False),
        ("import bot.storefront", False),
        ("import json", False),
    ],
)
def test_the_check_catches_the_outer_layers_and_allows_the_core_and_the_standard_library(
    source: str, caught: bool
) -> None:
    assert bool(forbidden_imports(source, FORBIDDEN)) is caught
