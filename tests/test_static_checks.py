"""The static checks run with the tests, so CI enforces them: types (``mypy``, strict on
``engine`` and ``bot``: among other things it fails when an engine event kind is left
unhandled by a ``match`` that ends in ``assert_never``; begun ahead by the set-up:
``tests/helpers/type_check.py``), lint and format (``ruff``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.helpers import type_check

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_the_code_type_checks() -> None:
    done = type_check.run()
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_linted_and_formatted() -> None:
    lint = _run("ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    form = _run("ruff", "format", "--check", ".")
    assert form.returncode == 0, form.stdout + form.stderr


def test_no_test_waits_for_quiet() -> None:
    """A test waits for the event that proves its point, and asserts what must never happen
    once the bots have stopped (``fd.at_the_end``), never after a quiet spell (``fd.quiet``),
    which a busy machine makes pass vacuously."""
    tests = Path(__file__).resolve().parent
    waits = [
        f"{path.relative_to(tests)}:{number}"
        for path in sorted(tests.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.quiet\(", line) and path != Path(__file__).resolve()
    ]
    assert waits == [], waits


def test_every_test_module_has_a_name_of_its_own() -> None:
    """pytest imports test modules by their file name (the test folders are not packages),
    so two with one name in different folders would stop the whole run."""
    tests = Path(__file__).resolve().parent
    names = [path.name for path in tests.rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
