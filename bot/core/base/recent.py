"""A small keyed cache that holds the most recently used entries and forgets the oldest.

The core and the game pages keep many things read or drawn once per game (a loaded game, what
its messages owe, a replay, a picture); each is kept by key up to a bound, so memory stays the
same however many games a server has played.

>>> kept: Recent[str, int] = Recent(2)
>>> kept.keep("a", 1)
>>> kept.keep("b", 2)
>>> kept.get("a")
1
>>> kept.keep("c", 3)
>>> kept.get("b") is None
True
>>> sorted(kept)
['a', 'c']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["Recent"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` entries by key: keeping an entry, or getting it, makes it the newest;
    keeping one past ``size`` forgets the least recently used."""

    __slots__ = ("_entries", "_size")

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry kept under ``key``, made the newest (None when nothing is kept)."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def peek(self, key: K) -> V | None:
        """The entry kept under ``key`` without making it the newest (None when nothing is)."""
        return self._entries.get(key)

    def keep(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` as the newest entry, forgetting the oldest past the
        bound."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def forget(self, key: K) -> None:
        """Drop the entry under ``key``, if there is one."""
        self._entries.pop(key, None)

    def clear(self) -> None:
        """Drop every entry."""
        self._entries.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
