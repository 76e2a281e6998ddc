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

Something read from elsewhere (the store) with awaits in between is kept with
:meth:`Recent.keep_read`, given what :meth:`Recent.changes` said as the read began: a change
told meanwhile (an entry kept or forgotten otherwise) may be one the read began before and
missed, and kept, the read would stand over it for good.

>>> began = kept.changes()
>>> kept.forget("a")  # (told while the read was on its way)
>>> kept.keep_read("a", 0, began), kept.get("a")
(False, None)
>>> kept.keep_read("a", 5, kept.changes()), kept.get("a")
(True, 5)
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

    __slots__ = ("_changes", "_entries", "_size")

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        #: How many entries were kept (but by :meth:`keep_read`) or forgotten, or all dropped.
        self._changes = 0

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
        self._changes += 1
        self._put(key, value)

    def changes(self) -> int:
        """How many changes were told so far (entries kept but by :meth:`keep_read`, or
        forgotten, or all dropped): taken as a read from elsewhere begins, for
        :meth:`keep_read` as it ends."""
        return self._changes

    def keep_read(self, key: K, value: V, began: int) -> bool:
        """Keep ``value``, read from elsewhere since :meth:`changes` said ``began``, unless a
        change was told meanwhile (of any key): the read may have begun before what that change
        told of, and kept, it would stand over it until the next. Whether it was kept."""
        if self._changes != began:
            return False
        self._put(key, value)
        return True

    def _put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def forget(self, key: K) -> None:
        """Drop the entry under ``key``, if there is one."""
        self._changes += 1
        self._entries.pop(key, None)

    def clear(self) -> None:
        """Drop every entry."""
        self._changes += 1
        self._entries.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
