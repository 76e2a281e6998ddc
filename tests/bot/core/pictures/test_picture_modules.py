"""The picture modules stand alone: they import nothing from the rest of the bot (so the bot's
restructuring never touches them), and their docstring examples run and hold."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers.imports import imported_modules

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

PICTURES = Path(__file__).resolve().parents[4] / "bot" / "core" / "pictures"
NAMES = sorted(f"bot.core.pictures.{path.stem}" for path in PICTURES.glob("[!_]*.py"))


def test_the_pictures_import_only_themselves_pillow_and_the_standard_library() -> None:
    assert {"bot.core.pictures.board", "bot.core.pictures.charts"} <= set(NAMES)
    outside = {
        f"{path.name}:{line}: {name}"
        for path in PICTURES.glob("*.py")
        for line, name in imported_modules(path.read_text(encoding="utf-8"), str(path))
        if name.split(".")[0] not in ("PIL", "__future__")
        and not name.startswith("bot.core.pictures")
        and name.split(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()


@pytest.mark.parametrize("module", [importlib.import_module(n) for n in NAMES], ids=NAMES)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    if module.__name__.endswith(("board", "charts", "axes")):
        assert result.attempted > 0
    assert result.failed == 0
