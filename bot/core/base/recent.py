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

Something read from elsewhere (the store) is kept in :class:`Newest`, with the version it was
read at: an entry only moves forward, so a read that a change overtook while it was on its way
(older than what is kept, or than a version told since) is kept for nothing.

>>> settings: Newest[str, bool] = Newest(2)
>>> settings.keep("al", 1, True)
True
>>> settings.told("al", 2)  # (a change to version 2, written here or heard on the feed)
>>> settings.get("al") is None, settings.keep("al", 1, True)
(True, False)
>>> settings.keep("al", 2, False), settings.get("al")
(True, False)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["Newest", "Recent"]

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


#: The newest version of a key told elsewhere (the change feed's ``latest``), None: none.
Heard = Callable[[K], "int | None"]


class Newest(Generic[K, V]):
    """At most ``size`` values by key, each with the version it is of, that only move forward:
    a value older than the one kept, or than a version told since (:meth:`told`, or ``heard``:
    the change feed, which hears every process's changes), is never kept, and a value kept is
    given only while no newer version of its key is known.

    A read from elsewhere that a change overtook on its way is so recognised by its version,
    whatever else changed meanwhile: a busy cache keeps every read that is still the newest.
    Equal versions are one state: the value kept last stands (a value read again)."""

    __slots__ = ("_heard", "_kept", "_told")

    def __init__(self, size: int, *, heard: Heard[K] | None = None, told_kept: int = 0) -> None:
        """``told_kept``: how many versions told are remembered by key (a version is a few
        bytes, a value may be kilobytes: by default as many as values)."""
        self._kept: Recent[K, tuple[int, V]] = Recent(size)
        self._told: Recent[K, int] = Recent(told_kept or size)
        self._heard = heard

    def known(self, key: K) -> int | None:
        """The newest version of ``key`` known (told, heard, or kept); None: none."""
        kept = self._kept.peek(key)
        found = [v for v in (self._told.peek(key), self._heard_of(key)) if v is not None]
        if kept is not None:
            found.append(kept[0])
        return max(found, default=None)

    def _heard_of(self, key: K) -> int | None:
        return None if self._heard is None else self._heard(key)

    def at(self, key: K) -> tuple[int, V] | None:
        """The value kept under ``key`` and its version, made the newest entry, while no newer
        version of it is known (None: nothing current is kept)."""
        kept = self._kept.get(key)
        if kept is None:
            return None
        told = self._told.peek(key)
        heard = self._heard_of(key)
        if (told is not None and told > kept[0]) or (heard is not None and heard > kept[0]):
            return None
        return kept

    def get(self, key: K) -> V | None:
        """The value kept under ``key`` while it is current (see :meth:`at`)."""
        kept = self.at(key)
        return None if kept is None else kept[1]

    def version(self, key: K) -> int | None:
        """The version of the value kept under ``key``, while it is current."""
        kept = self.at(key)
        return None if kept is None else kept[0]

    def keep(self, key: K, version: int, value: V) -> bool:
        """Keep ``value``, of ``key`` at ``version``, unless a newer version of it is known
        (kept, told or heard): whether it was kept."""
        known = self.known(key)
        if known is not None and version < known:
            return False
        self._kept.keep(key, (version, value))
        return True

    def told(self, key: K, version: int) -> None:
        """``key`` changed to ``version`` (written here, or heard of): a value kept of an
        earlier version is dropped, and none older is kept from now on."""
        told = self._told.peek(key)
        self._told.keep(key, version if told is None else max(told, version))
        kept = self._kept.peek(key)
        if kept is not None and kept[0] < version:
            self._kept.forget(key)

    def drop(self, key: K) -> None:
        """Drop the value kept under ``key`` (the versions told of it stay: a value about to
        change, or read again)."""
        self._kept.forget(key)

    def forget(self, key: K) -> None:
        """Drop the value kept under ``key`` and every version told of it (it starts over: a
        person's data deleted)."""
        self._kept.forget(key)
        self._told.forget(key)

    def clear(self) -> None:
        """Drop every value kept (versions told stay: they still refuse older reads)."""
        self._kept.clear()

    def __contains__(self, key: object) -> bool:
        return key in self._kept

    def __len__(self) -> int:
        return len(self._kept)
