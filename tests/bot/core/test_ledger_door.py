"""The ledger behind a narrow port (issue 55): the wings deliver through the port of their own need
(:mod:`bot.core.base.delivery`) and import nothing of the ledger; the concrete
:class:`MessageLedger` is named only where the bot is assembled; it forwards nothing (a caller
that needs a part is handed that part at assembly), and nothing in the bot reaches a part through
it (``ledger.copies.mirrors``, ``ledger.writes.flush``). Tests and benchmarks hold the parts as
the assembly hands them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[3]
CORE = ROOT / "bot" / "core"
LEDGER = CORE / "ledger"
#: The ledger's own module, where its parts are made.
OWN = LEDGER / "ledger.py"
#: The names a ledger goes by where it is used.
LEDGER_NAMES = frozenset({"ledger", "_ledger"})
#: Where the bot is assembled: the one place outside the ledger that names the concrete ledger.
ASSEMBLY = frozenset({CORE / "services.py", ROOT / "bot" / "assembly.py"})
#: The most methods, and lines, the ledger's class may have.
MOST_METHODS, MOST_LINES = 25, 400


def _reaches(source: str) -> list[str]:
    """The reach-through paths in ``source``: ``<ledger>.<part>.<name>`` (an attribute of what
    a ledger attribute gives, rather than a call of it), and any private name of a ledger."""
    found: list[str] = []
    for node in ast.walk(parsed(source)):
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Attribute):
            continue
        inner = node.value
        held = inner.value
        name = held.attr if isinstance(held, ast.Attribute) else getattr(held, "id", None)
        if name in LEDGER_NAMES:
            found.append(f"{name}.{inner.attr}.{node.attr}")
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            held = node.value
            name = held.attr if isinstance(held, ast.Attribute) else getattr(held, "id", None)
            if name in LEDGER_NAMES:
                found.append(f"{name}.{node.attr}")
    return found


def _forwards(source: str, cls: str) -> list[str]:
    """The methods of class ``cls`` in ``source`` whose body (its docstring aside) is one call
    of a part: ``self.<part>.<name>(...)``, returned or awaited or not."""
    tree = parsed(source)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or node.name != cls:
            continue
        for method in node.body:
            if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            body = [
                s
                for s in method.body
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
            ]
            if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
                continue
            call = body[0].value
            if isinstance(call, ast.Await):
                call = call.value
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Attribute)
                and isinstance(call.func.value.value, ast.Name)
                and call.func.value.value.id == "self"
            ):
                found.append(method.name)
    return found


def _imports_the_ledger(source: str) -> list[str]:
    """The modules of the ledger ``source`` imports."""
    found = []
    for node in ast.walk(parsed(source)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.startswith("bot.core.ledger"):
                found.append(module)
            elif module == "bot.core" and any(a.name == "ledger" for a in node.names):
                found.append("bot.core.ledger")
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("bot.core.ledger")]
    return found


def _wings() -> list[Path]:
    """Every module of the core's wings but the ledger (the folders of ``bot/core``)."""
    return [
        path
        for wing in CORE.iterdir()
        if wing.is_dir() and wing != LEDGER and wing.name != "__pycache__"
        for path in wing.rglob("*.py")
    ]


def test_the_checks_see_what_they_look_for() -> None:
    assert _reaches("crew.ledger.copies.mirrors(owner, key)") == ["ledger.copies.mirrors"]
    assert _reaches("await self._ledger._writes.flush()") == [
        "_ledger._writes.flush",
        "_ledger._writes",
    ]
    assert _reaches("await self._ledger.owed(owner)\nledger.settled(owner)") == []
    forwarding = (
        "class L:\n"
        "    async def flush(self):\n        '''Doc.'''\n        return await self.writes.flush()\n"
        "    def asked(self, o):\n        self._copies.asked(o)\n"
        "    def own(self, o):\n        self._lives.of(o).read_again()\n"
        "    def two(self, o):\n        x = self.a.b(o)\n        return x\n"
    )
    assert _forwards(forwarding, "L") == ["flush", "asked"]
    assert _imports_the_ledger(
        "from bot.core.ledger.life import Owing\nimport bot.core.ledger\n"
        "from bot.core import ledger\nfrom bot.core.base.delivery import Owed\n"
    ) == ["bot.core.ledger.life", "bot.core.ledger", "bot.core.ledger"]


def test_nothing_in_the_bot_reaches_a_part_through_the_ledger() -> None:
    reached: dict[str, list[str]] = {}
    for path in (ROOT / "bot").rglob("*.py"):
        if path == OWN:
            continue
        found = _reaches(path.read_text(encoding="utf-8"))
        if found:
            reached[str(path.relative_to(ROOT))] = found
    assert reached == {}


def test_no_wing_imports_the_ledger_but_through_the_port() -> None:
    importing = {
        str(path.relative_to(ROOT)): found
        for path in _wings()
        if (found := _imports_the_ledger(path.read_text(encoding="utf-8")))
    }
    assert importing == {}


def test_the_concrete_ledger_is_named_only_where_the_bot_is_assembled() -> None:
    naming = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "bot").rglob("*.py")
        if not path.is_relative_to(LEDGER)
        and path not in ASSEMBLY
        and "MessageLedger" in path.read_text(encoding="utf-8")
    )
    assert naming == []


def test_the_ledger_forwards_nothing_and_stays_small() -> None:
    source = OWN.read_text(encoding="utf-8")
    assert _forwards(source, "MessageLedger") == []
    [cls] = [
        n for n in parsed(source).body if isinstance(n, ast.ClassDef) and n.name == "MessageLedger"
    ]
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert len(methods) <= MOST_METHODS
    assert (cls.end_lineno or 0) - cls.lineno + 1 <= MOST_LINES
