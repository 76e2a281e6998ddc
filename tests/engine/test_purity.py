"""The engine stays pure: no module under engine/ imports discord, aiosqlite or asyncio.

Every ``.py`` file under ``engine/`` is parsed (not imported), subpackages included, so a
module added later is checked too, even one nothing imports yet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.imports import forbidden_imports, offences

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("discord", "aiosqlite", "asyncio")


def test_engine_imports_no_discord_aiosqlite_or_asyncio() -> None:
    held = {"__init__.py", "cards.py", "scoring.py", "pegging.py"}
    assert offences(ENGINE, FORBIDDEN, held) == {}


@pytest.mark.parametrize(
    "source",
    [
        "import asyncio",
        "import os, discord",
        "import discord.ext.commands as commands",
        "from aiosqlite import connect",
        "from asyncio.locks import Lock",
        "def f():\n    import asyncio\n",
        "try:\n    import discord\nexcept ImportError:\n    pass\n",
        "import importlib\nimportlib.import_module('aiosqlite')",
        "__import__('asyncio')",
    ],
)
def test_the_check_catches_every_way_of_importing(source: str) -> None:
    assert forbidden_imports(source, FORBIDDEN)


@pytest.mark.parametrize(
    "source",
    [
        "import random",
        "from . import cards",
        "from .asyncio import helper",  # a module of our own, relative: not the stdlib one
        "import asyncio_helpers",
        "text = 'import asyncio'",
    ],
)
def test_the_check_allows_other_imports(source: str) -> None:
    assert forbidden_imports(source, FORBIDDEN) == []
