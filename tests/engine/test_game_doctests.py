"""The examples in the game modules' docstrings run and hold."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import engine.errors
import engine.events
import engine.game
import engine.outcome


@pytest.mark.parametrize(
    "module", [engine.game, engine.events, engine.outcome, engine.errors], ids=lambda m: m.__name__
)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
