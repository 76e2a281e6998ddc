"""The outer layers reach the core through its doors (issue 48): ``bot/discord`` and ``bot/web``
each import at most a few core modules: ``Services``, the ports (:mod:`bot.core.ports`), the
vocabulary (:mod:`bot.core.vocabulary`), a message's look and a person's reply, and a wing's face
(:mod:`bot.core.messages`, the review's), never a wing's insides."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
#: The most distinct ``bot.core`` modules one outer package may import.
MOST = 8


def core_modules(package: Path) -> set[str]:
    """The distinct ``bot.core`` modules the package's files import."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.core"):
                module = node.module or ""
                if module == "bot.core":
                    found.update(f"bot.core.{alias.name}" for alias in node.names)
                else:
                    found.add(module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith("bot.core"))
    return found


@pytest.mark.parametrize("package", ["discord", "web"])
def test_an_outer_layer_reaches_the_core_through_its_doors(package: str) -> None:
    modules = core_modules(BOT / package)
    assert len(modules) <= MOST, sorted(modules)


def test_the_count_sees_every_kind_of_import(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "from bot.core.services import Services\nimport bot.core.ports\n"
        "from bot.core import vocabulary\nfrom bot.web import pages\n",
        encoding="utf-8",
    )
    assert core_modules(tmp_path) == {"bot.core.services", "bot.core.ports", "bot.core.vocabulary"}
