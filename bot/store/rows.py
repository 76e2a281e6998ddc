"""Records kept as one row each, whose columns are the record's fields, in order.

``columns(TournamentRecord)`` is the SELECT list, and ``reader(TournamentRecord)`` makes the
record from a row of it, each value converted to its field's type (a value kept as text is read
with its type's ``parse``: a message's key): both come from the one dataclass, so a query and its
reader cannot disagree on the columns or their order.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, Union, get_args, get_origin, get_type_hints

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["columns", "reader"]

R = TypeVar("R", bound="DataclassInstance")

#: The plain types a column's value is converted to (an enum's value is converted too, and a
#: value kept by its name is read with its type's ``from_name``: a tournament's format).
_PLAIN: tuple[type, ...] = (int, float, str, bool)


def columns(record: type[DataclassInstance]) -> str:
    """The record's fields as a list of columns: ``"id, guild_id, channel_id, ..."``."""
    return ", ".join(field.name for field in dataclasses.fields(record))


def _converter(hint: Any) -> Callable[[Any], Any]:
    """What makes a column's value into a field of type ``hint``; ``None`` is kept for a
    field that may be None (``int | None``)."""
    if get_origin(hint) in (Union, types.UnionType):
        kinds = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(kinds) != 1 or len(get_args(hint)) != 2:
            raise TypeError(f"A column is one type or None, not {hint}.")
        convert = _converter(kinds[0])
        return lambda value: None if value is None else convert(value)
    if isinstance(hint, type) and (hint in _PLAIN or issubclass(hint, Enum)):
        return hint
    from_name = getattr(hint, "from_name", None)
    if isinstance(hint, type) and callable(from_name):
        return lambda value: from_name(str(value))
    parse = getattr(hint, "parse", None)
    if isinstance(hint, type) and callable(parse):
        return lambda value: parse(str(value))
    raise TypeError(
        f"A column holds an int, float, str, bool or enum (or text its type parses), not {hint}."
    )


def reader(record: type[R]) -> Callable[[Iterable[Any]], R]:
    """A function that makes a ``record`` (a dataclass) from a row of :func:`columns`.

    The field types are read once, here: a field no column can hold fails at import, not
    on the first row.
    """
    hints = get_type_hints(record)
    converters = [_converter(hints[field.name]) for field in dataclasses.fields(record)]

    def read(row: Iterable[Any]) -> R:
        values = [convert(value) for convert, value in zip(converters, row, strict=True)]
        return record(*values)

    return read
