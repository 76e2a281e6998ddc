"""Data files the engine ships, each written by its module's builder (``crib_table.json``,
``role_cribs.json``, ``peg_table.json``, ``win_chance.json`` in :mod:`engine.players`), and
:func:`shipped`, which reads one."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["shipped"]


@cache
def shipped(name: str) -> dict[str, Any]:
    """The shipped data file ``name`` (e.g. ``"crib_table.json"``), read once."""
    data: dict[str, Any] = json.loads(
        resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
    )
    return data
