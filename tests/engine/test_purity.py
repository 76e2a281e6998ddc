"""The engine stays pure: no module under engine/ imports discord, aiosqlite or asyncio; and
small: no module over 700 lines, no class over 450.

Every ``.py`` file under ``engine/`` is parsed (not imported), subpackages included, so a
module added later is checked too, even one nothing imports yet.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.imports import forbidden_imports, offences
from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

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


#: The sizes the engine keeps to (issue 34): a module a newcomer can read, a class that does
#: one thing.
MODULE_LINES, CLASS_LINES = 700, 450


def test_no_engine_module_is_over_700_lines_nor_class_over_450() -> None:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ENGINE.parent).as_posix()
        if len(text.splitlines()) > MODULE_LINES:
            found.append(f"{name}: {len(text.splitlines())} lines")
        for node in ast.walk(parsed(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > CLASS_LINES:
                    found.append(f"{name}: class {node.name} {lines} lines")
    assert found == []
