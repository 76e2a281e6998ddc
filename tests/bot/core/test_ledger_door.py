"""The ledger is one door (issue 48): whoever uses it asks :class:`MessageLedger` itself, never
one of its parts (``ledger.copies.mirrors``, ``ledger.writes.flush``), which are the ledger's
own collaborators, free to change behind it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
#: The ledger's own module, the one place its parts are named.
OWN = ROOT / "bot" / "core" / "ledger" / "ledger.py"
#: The names a ledger goes by where it is used.
LEDGER_NAMES = frozenset({"ledger", "_ledger"})


def _reaches(source: str) -> list[str]:
    """The reach-through paths in ``source``: ``<ledger>.<part>.<name>`` (an attribute of what
    a ledger attribute gives, rather than a call of it), and any private name of a ledger."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Attribute):
            continue
        inner = node.value
        held = inner.value
        name = held.attr if isinstance(held, ast.Attribute) else getattr(held, "id", None)
        if name in LEDGER_NAMES:
            found.append(f"{name}.{inner.attr}.{node.attr}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            held = node.value
            name = held.attr if isinstance(held, ast.Attribute) else getattr(held, "id", None)
            if name in LEDGER_NAMES:
                found.append(f"{name}.{node.attr}")
    return found


def test_the_check_sees_a_reach_through() -> None:
    assert _reaches("crew.ledger.copies.mirrors(owner, key)") == ["ledger.copies.mirrors"]
    assert _reaches("await self._ledger._writes.flush()") == [
        "_ledger._writes.flush",
        "_ledger._writes",
    ]
    assert _reaches("await self._ledger.flush()\nledger.kept(owner)") == []


def test_nothing_but_the_ledger_reaches_its_parts() -> None:
    reached: dict[str, list[str]] = {}
    for folder in ("bot", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == OWN:
                continue
            found = _reaches(path.read_text(encoding="utf-8"))
            if found:
                reached[str(path.relative_to(ROOT))] = found
    assert reached == {}
