"""Data files the engine ships, each written by its module's builder (``crib_table.json``,
``role_cribs.json``, ``peg_table.json``, ``win_chance.json`` in :mod:`engine.players`;
``show_tables.json`` in :mod:`engine.scoring`), :func:`shipped`, which reads one and keeps it,
and :func:`read`, which reads one for a caller that keeps only what it makes of it."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["read", "shipped"]


def read(name: str) -> dict[str, Any]:
    """The shipped data file ``name`` (e.g. ``"show_tables.json"``), read now."""
    data: dict[str, Any] = json.loads(
        resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    )
    return data


@cache
def shipped(name: str) -> dict[str, Any]:
    """The shipped data file ``name`` (e.g. ``"crib_table.json"``), read once."""
    return read(name)
