"""Parts are handed what they need (issue 69): no part of the core makes a part it was not
given. The composition happens at the root (``bot/assembly.py``, through
:meth:`bot.core.services.Services.build` and each wing's wiring); a constructor that falls
back on ``faults or Faults()`` or ``sight or OpenChannels()``, or takes a part with a default,
silently makes its own, and two parts that should share one (the faults noted once per cause,
the members who left a server) each have their own.

A *part* here is a class of ``bot/core`` that does a job: not a value (a dataclass, a named
tuple, an enum, an error)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[3]
CORE = ROOT / "bot" / "core"

#: What a class built on one of these is: a value, not a part.
VALUE_BASES = {"NamedTuple", "Enum", "StrEnum", "IntEnum", "TypedDict", "Exception", "Fault"}


def _is_value(node: ast.ClassDef) -> bool:
    decorated = {ast.unparse(d).split("(")[0].split(".")[-1] for d in node.decorator_list}
    bases = {ast.unparse(b).split("[")[0].split(".")[-1] for b in node.bases}
    return "dataclass" in decorated or bool(bases & VALUE_BASES) or node.name.endswith("Error")


def core_parts(core: Path = CORE) -> set[str]:
    """The names of the classes of ``bot/core`` that are parts (see the module)."""
    parts: set[str] = set()
    for path in core.rglob("*.py"):
        for node in ast.walk(parsed(path.read_text())):
            if isinstance(node, ast.ClassDef) and not _is_value(node):
                parts.add(node.name)
    return parts


def _names(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def defaults_made(core: Path = CORE) -> list[str]:
    """Every place in ``core`` a part is made when none was given: ``x or Part()``, and a
    constructor's parameter typed as a part with a default (``faults: Faults | None = None``,
    ``meters: Meters = NO_METERS``): ``file:line: what``."""
    parts = core_parts(core)
    found: list[str] = []
    for path in sorted(core.rglob("*.py")):
        where = path.relative_to(core.parents[1])
        for node in ast.walk(parsed(path.read_text())):
            if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
                last = node.values[-1]
                if isinstance(last, ast.Call) and _names(last.func) & parts:
                    found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                args = node.args
                positional = args.posonlyargs + args.args
                defaulted = positional[len(positional) - len(args.defaults) :]
                given = list(zip(defaulted, args.defaults, strict=True))
                given += [
                    (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d
                ]
                for arg, default in given:
                    if _names(arg.annotation) & parts:
                        typed = ast.unparse(arg.annotation) if arg.annotation else ""
                        found.append(
                            f"{where}:{arg.lineno}: {arg.arg}: {typed} = {ast.unparse(default)}"
                        )
    return found


def test_no_part_of_the_core_makes_a_part_it_was_not_given() -> None:
    made = defaults_made()
    assert not made, "Hand these parts in (the root makes them):\n" + "\n".join(made)


def test_the_guard_sees_a_default_part(tmp_path: Path) -> None:
    core = tmp_path / "bot" / "core"
    core.mkdir(parents=True)
    (core / "parts.py").write_text(
        "from dataclasses import dataclass\n"
        "class Faults:\n    def note(self) -> None: ...\n"
        "@dataclass\nclass Value:\n    n: int\n"
        "class Meters:\n    pass\n"
        "NO_METERS = Meters()\n"
        "class Keeper:\n"
        "    def __init__(self, faults: Faults | None = None, value: Value | None = None,\n"
        "                 *, meters: Meters = NO_METERS) -> None:\n"
        "        self.faults = faults or Faults()\n"
        "        self.value = value or Value(1)\n"
    )
    made = defaults_made(core)
    assert [line.split(": ", 1)[1] for line in made] == [
        "faults: Faults | None = None",
        "meters: Meters = NO_METERS",
        "faults or Faults()",
    ]
