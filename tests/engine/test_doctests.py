"""The examples in the engine's docstrings run and hold, in every module that has them."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import engine


def _engine_modules() -> list[ModuleType]:
    names = [engine.__name__] + [
        info.name for info in pkgutil.walk_packages(engine.__path__, prefix="engine.")
    ]
    return [importlib.import_module(name) for name in sorted(names)]


MODULES = _engine_modules()
WITH_EXAMPLES = [
    module
    for module in MODULES
    if any(test.examples for test in doctest.DocTestFinder().find(module))
]


def test_the_modules_that_promise_examples_have_them() -> None:
    # Guards the walk itself: these modules are known to carry examples.
    names = {module.__name__ for module in WITH_EXAMPLES}
    assert {"engine.cards", "engine.scoring", "engine.game", "engine.coach"} <= names


@pytest.mark.parametrize("module", WITH_EXAMPLES, ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
