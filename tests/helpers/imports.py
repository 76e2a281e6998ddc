"""Which modules a source file imports, however the import is written (parsed, not run)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.helpers.parsed import parsed


def imported_modules(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """``(line, module)`` for every absolute import in ``source``: ``import x``, ``from x import
    y``, and ``importlib.import_module("x")`` / ``__import__("x")`` with a literal name, at any
    depth (inside functions and ``try`` blocks too). Relative imports are our own modules."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(parsed(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in ("import_module", "__import__") and isinstance(first, ast.Constant):
                names = [str(first.value)]
        found += [(getattr(node, "lineno", 0), name) for name in names]
    return found


def forbidden_imports(
    source: str, forbidden: Iterable[str], filename: str = "<source>"
) -> list[str]:
    """``"line: module"`` for each import of a ``forbidden`` module or of one inside it
    (forbidding ``bot.store`` forbids ``bot.store.sqlite``, not ``bot.storefront``)."""
    banned = tuple(forbidden)
    return [
        f"{line}: {name}"
        for line, name in imported_modules(source, filename)
        if any(name == ban or name.startswith(ban + ".") for ban in banned)
    ]


def offences(
    package: Path, forbidden: Iterable[str], must_hold: Iterable[str]
) -> dict[str, list[str]]:
    """Every ``.py`` file under ``package`` (subpackages too, imported or not) with the
    forbidden imports it makes; empty when there are none. ``must_hold`` names files the
    package has, so a wrong path cannot make the check pass on nothing."""
    banned = tuple(forbidden)
    files = sorted(package.rglob("*.py"))
    assert set(must_hold) <= {f.name for f in files}, f"not the package expected: {package}"
    found = {
        str(path.relative_to(package.parent)): hits
        for path in files
        if (hits := forbidden_imports(path.read_text(encoding="utf-8"), banned, str(path)))
    }
    return found
