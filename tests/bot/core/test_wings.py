"""The core's layout: wings that import one another in one direction only, in the order the
glossary gives them, none too big to find one's way in (see docs/bot-service.md, "The core, by
wing"), each module named in that guide."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[3]
CORE = ROOT / "bot" / "core"


def _wing(parts: tuple[str, ...]) -> str:
    """The wing a module of the core is in (its top-level modules are each their own)."""
    return parts[0] if (CORE / parts[0]).is_dir() else f"core.{parts[0]}"


def _arrows() -> dict[str, set[str]]:
    """wing -> the other wings its modules import."""
    arrows: dict[str, set[str]] = defaultdict(set)
    for path in CORE.rglob("*.py"):
        source = _wing(path.relative_to(CORE).with_suffix("").parts)
        for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.core"):
                named = (node.module or "").split(".")[2:]
                for parts in [named] if named else [[a.name] for a in node.names]:
                    target = _wing(tuple(parts))
                    if target != source:
                        arrows[source].add(target)
    return arrows


def test_no_wing_imports_another_in_a_circle() -> None:
    arrows = _arrows()
    circles: list[list[str]] = []

    def walk(wing: str, path: list[str]) -> None:
        for next_wing in sorted(arrows.get(wing, ())):
            if next_wing in path:
                circles.append([*path[path.index(next_wing) :], next_wing])
            elif len(path) < len(arrows) + 1:
                walk(next_wing, [*path, next_wing])

    for wing in sorted(arrows):
        walk(wing, [wing])
    assert circles == []


def test_the_core_and_each_wing_stay_small() -> None:
    assert len(list(CORE.glob("*.py"))) <= 15
    for wing in (p for p in CORE.iterdir() if p.is_dir() and p.name != "__pycache__"):
        for folder in [
            wing,
            *(p for p in wing.iterdir() if p.is_dir() and p.name != "__pycache__"),
        ]:
            assert len(list(folder.glob("*.py"))) <= 20, folder


def _glossary_order() -> list[str]:
    """The wings as docs/glossary.md lists them, lowest first (its **wing** entry)."""
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    entry = re.search(r"^- \*\*wing\*\*:(.*?)(?=^- \*\*)", text, re.S | re.M)
    assert entry is not None, "the glossary has no **wing** entry"
    listed = re.search(r"lowest first, each importing only wings before it:(.*?)\(", entry[1], re.S)
    assert listed is not None, "the **wing** entry lists no wings in order"
    return re.findall(r"`(\w+)`", listed[1])


def test_the_glossary_lists_every_wing_in_an_order_the_imports_keep() -> None:
    order = _glossary_order()
    wings = sorted(p.name for p in CORE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert sorted(order) == wings
    upward = [
        f"{wing} imports {other}"
        for wing, imported in _arrows().items()
        if wing in order
        for other in imported
        if other in order and order.index(other) > order.index(wing)
    ]
    assert upward == []


def test_the_developers_guide_names_every_module_of_a_wing_it_lists_modules_of() -> None:
    # docs/bot-service.md's table of the wings left out base/choices.py, base/audience.py,
    # base/meters.py, games/hand_count.py, games/everyone.py, play/everyone.py,
    # messages/answers.py and ledger/life.py: a wing's row that names its modules names them
    # all, there or in the section it sends to ("see *Delivery* below"); pictures/'s says
    # what the wing draws, naming none.
    text = (ROOT / "docs" / "bot-service.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)/` \| (.*) \|$", text, re.M))
    wings = sorted(p.name for p in CORE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert sorted(rows) == wings
    unnamed = []
    for wing, row in rows.items():
        if ".py`" not in row:
            continue
        for title in re.findall(r"see \*(\w+)\* below", row):
            start = text.index(f"\n## {title}")
            row += text[start : text.index("\n## ", start + 1)]
        unnamed += [
            f"{wing}/{module.name}"
            for module in sorted((CORE / wing).glob("*.py"))
            if module.name != "__init__.py" and f"`{module.name}`" not in row
        ]
    assert unnamed == []
