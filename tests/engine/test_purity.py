"""The engine stays pure: no module under engine/ imports discord, aiosqlite or asyncio.

Every ``.py`` file under ``engine/`` is parsed (not imported), subpackages included, so a
module added later is checked too, even one nothing imports yet.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = frozenset({"discord", "aiosqlite", "asyncio"})


def forbidden_imports(source: str, filename: str = "<source>") -> list[str]:
    """``"line: module"`` for each forbidden import in ``source``, however it is written."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args:
            # importlib.import_module("asyncio") and __import__("asyncio") import too.
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in ("import_module", "__import__") and isinstance(first, ast.Constant):
                names = [str(first.value)]
        for name in names:
            if name.split(".")[0] in FORBIDDEN:
                found.append(f"{getattr(node, 'lineno', 0)}: {name}")
    return found


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_engine_imports_no_discord_aiosqlite_or_asyncio() -> None:
    files = engine_files()
    # Guard against a wrong path making this pass on nothing.
    assert {"__init__.py", "cards.py", "scoring.py", "pegging.py"} <= {f.name for f in files}
    offences = {
        str(path.relative_to(ENGINE.parent)): found
        for path in files
        if (found := forbidden_imports(path.read_text(encoding="utf-8"), str(path)))
    }
    assert offences == {}


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
    assert forbidden_imports(source)


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
    assert forbidden_imports(source) == []
