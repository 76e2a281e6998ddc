"""The keyed cache that the core and the game pages keep their most recently used things in."""

from __future__ import annotations

import doctest

from bot.core.base import recent
from bot.core.base.recent import Newest, Recent


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


def test_a_read_older_than_the_value_kept_is_never_kept_over_it() -> None:
    kept: Newest[str, str] = Newest(4)
    assert kept.keep("al", 3, "clicked")
    assert not kept.keep("al", 2, "read before the click"), "older: not kept"
    assert kept.get("al") == "clicked"
    assert kept.keep("al", 3, "read again"), "the same version: the same state"
    assert kept.keep("al", 4, "newer") and kept.at("al") == (4, "newer")


def test_a_version_told_makes_what_is_kept_stale_and_refuses_what_is_older() -> None:
    kept: Newest[str, str] = Newest(4)
    kept.keep("al", 1, "before")
    kept.told("al", 2)  # (the change, written here; its value is read next)
    assert kept.get("al") is None and kept.version("al") is None
    assert not kept.keep("al", 1, "a read the change overtook")
    assert kept.keep("al", 2, "after") and kept.get("al") == "after"


def test_a_busy_cache_keeps_every_read_nothing_overtook() -> None:
    """Others' changes while a read is on its way leave it alone: only a newer version of its
    own key refuses it (a cache that dropped a read whenever anything changed kept nothing)."""
    kept: Newest[int, str] = Newest(100)
    for other in range(1, 50):
        kept.told(other, 5)
        kept.keep(other, 5, "someone else's")
    assert kept.keep(0, 1, "mine") and kept.get(0) == "mine"


def test_the_versions_the_feed_heard_make_a_kept_value_stale() -> None:
    heard: dict[str, int] = {}
    kept: Newest[str, bool] = Newest(4, heard=heard.get)
    kept.keep("al", 1, True)
    heard["al"] = 2  # (changed in another process, announced)
    assert kept.get("al") is None
    assert not kept.keep("al", 1, True), "read before that change"
    assert kept.keep("al", 2, False) and kept.get("al") is False


def test_drop_keeps_the_versions_told_and_forget_starts_over() -> None:
    kept: Newest[str, str] = Newest(4)
    kept.keep("al", 3, "x")
    kept.drop("al")
    assert kept.get("al") is None and kept.known("al") is None
    kept.told("al", 3)
    kept.drop("al")
    assert not kept.keep("al", 2, "older"), "dropped, its version told still refuses older"
    kept.forget("al")
    assert kept.keep("al", 0, "a person's data deleted: their defaults")


def test_newest_keeps_at_most_its_size() -> None:
    kept: Newest[int, int] = Newest(3)
    for key in range(10):
        kept.keep(key, 1, key)
    assert len(kept) == 3 and 9 in kept and 0 not in kept
