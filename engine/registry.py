"""A registry of named things (the tournament formats, the variants): one per name, listed in
the order menus show them, found by name, or refused in a sentence that names the choices.

>>> from engine.errors import RuleError
>>> colours = Registry[str]("colour", RuleError, name=str)
>>> colours.register("red") and colours.register("blue")
'blue'
>>> colours.choices_text(default="red")
'red (default) or blue'
>>> colours.named("green")
Traceback (most recent call last):
    ...
engine.errors.RuleError: There is no 'green' colour: choose red or blue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from engine.errors import RuleError

__all__ = ["Registry", "say_or"]

T = TypeVar("T")


def say_or(items: list[str]) -> str:
    """``a, b or c``, as the end of a sentence."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


class Registry(Generic[T]):
    """Things of one kind by name (``name`` says a thing's). ``unknown`` is the
    :class:`RuleError` a name no thing has raises; ``order``, if given, sorts the listing
    (else things are listed as registered)."""

    def __init__(
        self,
        kind: str,
        unknown: type[RuleError],
        *,
        name: Callable[[T], str],
        order: Callable[[T], Any] | None = None,
    ) -> None:
        self._kind = kind
        self._unknown = unknown
        self._name = name
        self._order = order
        self._things: dict[str, T] = {}

    def register(self, thing: T, *, same: Callable[[T, T], bool] | None = None) -> T:
        """Hold ``thing`` under its name, which must be new (or held by a thing ``same`` says
        is this one: registering again is harmless)."""
        key = self._name(thing)
        held = self._things.get(key)
        if held is not None and not (same or (lambda a, b: a == b))(held, thing):
            raise ValueError(f"Two {self._kind}s are named {key!r}: {held!r} and {thing!r}.")
        self._things[key] = thing
        return thing

    def unregister(self, name: str) -> None:
        """Forget the thing named ``name`` (a test's own, once the test is done)."""
        self._things.pop(name, None)

    def listed(self) -> tuple[T, ...]:
        """Every thing held, in the order lists and choices show them."""
        things = tuple(self._things.values())
        return things if self._order is None else tuple(sorted(things, key=self._order))

    def find(self, name: str) -> T | None:
        """The thing named ``name``, or None."""
        return self._things.get(name)

    def named(self, name: str) -> T:
        """The thing named ``name``; raises ``unknown``, naming the choices there are."""
        found = self.find(name)
        if found is None:
            raise self._unknown(f"There is no {name!r} {self._kind}: choose {self.choices_text()}.")
        return found

    def choices_text(self, *, default: str | None = None) -> str:
        """The names as the end of a sentence, ``default``'s marked as the default."""
        names = [self._name(t) for t in self.listed()]
        return say_or([f"{n} (default)" if n == default else n for n in names])
