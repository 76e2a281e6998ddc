"""The keyed cache that the core and the game pages keep their most recently used things in."""

from __future__ import annotations

import doctest

from bot.core.base import recent
from bot.core.base.recent import Recent


def test_keeping_past_the_bound_forgets_the_least_recently_used() -> None:
    kept: Recent[int, str] = Recent(2)
    kept.keep(1, "one")
    kept.keep(2, "two")
    assert kept.get(1) == "one"  # 1 is now newer than 2
    kept.keep(3, "three")
    assert list(kept) == [1, 3]
    assert kept.get(2) is None
    assert len(kept) == 2


def test_a_peek_leaves_the_order_alone() -> None:
    kept: Recent[int, str] = Recent(2)
    kept.keep(1, "one")
    kept.keep(2, "two")
    assert kept.peek(1) == "one"
    kept.keep(3, "three")
    assert 1 not in kept
    assert list(kept) == [2, 3]


def test_keeping_a_key_again_replaces_it_and_makes_it_newest() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.keep("a", 1)
    kept.keep("b", 2)
    kept.keep("a", 10)
    kept.keep("c", 3)
    assert list(kept) == ["a", "c"]
    assert kept.get("a") == 10


def test_forget_and_clear() -> None:
    kept: Recent[str, int] = Recent(4)
    kept.keep("a", 1)
    kept.keep("b", 2)
    kept.forget("a")
    kept.forget("missing")
    assert list(kept) == ["b"]
    kept.clear()
    assert len(kept) == 0


def test_the_module_example_holds() -> None:
    assert doctest.testmod(recent).failed == 0
