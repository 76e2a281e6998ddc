"""The run's first collection: compiling what the run's worker processes will import, before
they start, where most test modules have no bytecode yet (a clean clone, or the run's own
folder for it where ``PYTHONDONTWRITEBYTECODE`` is set: ``tests/conftest.py``).

The workers start together and each collects every test: each found no bytecode and compiled
everything it imported, the standard library and the installed packages too when the bytecode
is kept in the run's folder, and rewrote the test modules' assertions, some 11 s of CPU a
worker of which 7 the rewriting (2.8 s a worker once they are compiled). So one collection a
core, each over every other test module, compiles it all first (:func:`compile_modules`: on the
2-core test machine one collection of the 336 took 13.3 s, one core idle, where two take
8.3 s).

``tests/setup.sh`` runs it too, once ``.venv`` is made, while the system's programs are still
installing (on a fresh machine, downloads: the cores are free meanwhile)::

    .venv/bin/python -m tests.helpers.first_compile

and the run then finds the bytecode made (:data:`UNCOMPILED_AT_MOST`). Where the environment
keeps no bytecode beside the sources, each run compiles into a folder of its own, so there is
nothing to make ahead, and it does nothing.

The emulator's checks of each request's body against Discord's OpenAPI description are made
with them (:func:`keep_emulator_checks`): each process that judged a request compiled the
checks it needed, some 1 s of CPU in every test process and every playground.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = [
    "COMPILERS",
    "UNCOMPILED_AT_MOST",
    "compile_modules",
    "keep_emulator_checks",
    "uncompiled",
]

#: How many test modules may lack their bytecode before a run's workers are started (with
#: assertions rewritten: 20 ms of CPU a module) and every worker still compiles them itself,
#: rather than one collection compiling them for all first (some 3 s of CPU once they are).
UNCOMPILED_AT_MOST = 30
#: The collection that compiles, the run's paths and ini settings its own (its options on
#: the command line aside: it runs nothing).
_COLLECTION = ("-m", "pytest", "--collect-only", "-q", "-n", "0", "-p", "no:cacheprovider")
#: The collections that compile first, side by side: one a core.
COMPILERS = max(1, min(2, os.cpu_count() or 1))
#: The project's folder.
ROOT = Path(__file__).resolve().parents[2]


def uncompiled(paths: Iterable[Path]) -> list[Path]:
    """The test modules in ``paths`` (files, or folders searched for ``test_*.py``) without
    the bytecode pytest writes for them (their assertions rewritten)."""
    from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

    modules = [
        found for path in paths for found in (path.rglob("test_*.py") if path.is_dir() else [path])
    ]
    return [m for m in modules if not (get_cache_dir(m) / (m.stem + PYC_TAIL)).exists()]


def compile_modules(modules: list[Path], folder: Path) -> None:
    """Collect ``modules`` (run from ``folder``), :data:`COMPILERS` collections side by side,
    each of every other module: each compiles what they all import (the same bytecode,
    whichever writes a file last) and rewrites the assertions of its share of the modules.
    What a collection finds wrong is left to the run, which collects again and says it."""
    collections = [
        subprocess.Popen(
            [sys.executable, *_COLLECTION, *map(str, modules[start::COMPILERS])],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for start in range(COMPILERS)
    ]
    for collection in collections:
        collection.wait()


def main() -> None:
    """Compile the whole suite's test modules that have no bytecode yet (see the module)."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return
    modules = uncompiled([ROOT / "tests"])
    if len(modules) > UNCOMPILED_AT_MOST:
        compile_modules(modules, ROOT)
    keep_emulator_checks()


def keep_emulator_checks() -> None:
    """Make the emulator's compiled checks of the requests' bodies, kept beside its bytecode
    for the run's processes (:meth:`fakediscord.openapi.Judge.keep_checks`)."""
    from fakediscord.openapi import load

    load().keep_checks()


if __name__ == "__main__":
    main()
