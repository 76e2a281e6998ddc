"""The bot stays in parts a reader can hold (issue 55): no class under ``bot/`` over 400 lines
or 25 methods, no function or method over 80 lines. A part that grows past them is split by
what each piece does, not by line count.

Every ``.py`` file under ``bot/`` is parsed (not imported), so a module added later is checked
too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

BOT = Path(__file__).resolve().parents[2] / "bot"
CLASS_LINES, CLASS_METHODS, FUNCTION_LINES = 400, 25, 80


def oversized(source: str, name: str) -> list[str]:
    """What in ``source`` (the module ``name``) is over the sizes, one line each."""
    found = []
    for node in ast.walk(parsed(source)):
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.end_lineno is None:
            continue
        lines = node.end_lineno - node.lineno + 1
        if isinstance(node, ast.ClassDef):
            methods = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
            if lines > CLASS_LINES or methods > CLASS_METHODS:
                found.append(f"{name}: class {node.name}, {lines} lines, {methods} methods")
        elif lines > FUNCTION_LINES:
            found.append(f"{name}: {node.name}, {lines} lines")
    return found


def test_no_class_in_the_bot_is_over_400_lines_or_25_methods_nor_function_over_80_lines() -> None:
    found = []
    for path in sorted(BOT.rglob("*.py")):
        name = path.relative_to(BOT.parent).as_posix()
        found += oversized(path.read_text(encoding="utf-8"), name)
    assert found == []


def test_the_check_finds_a_long_method_and_a_class_of_many_methods() -> None:
    many = "class C:\n" + "".join(f"    def m{i}(self):\n        pass\n" for i in range(26))
    long = "class D:\n    async def go(self):\n" + "        x = 1\n" * 80
    assert oversized(many, "many.py") == ["many.py: class C, 53 lines, 26 methods"]
    assert oversized(long, "long.py") == ["long.py: go, 81 lines"]
