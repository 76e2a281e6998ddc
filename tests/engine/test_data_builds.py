"""The shipped data files are exactly what their builders make (what
``python -m benchmarks.build_tables TABLE --check`` checks). Minutes each: run with
``pytest -m exhaustive``; the fast tests rebuild a sample of each table (test_role_crib,
test_peg_table, test_win_chance, test_crib_table)."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from engine.players import peg_table, role_crib, win_chance


@pytest.mark.exhaustive
@pytest.mark.parametrize(
    ("data_file", "build"),
    [
        (role_crib.DATA_FILE, role_crib.build_tables),
        (peg_table.DATA_FILE, peg_table.build_table),
        (win_chance.DATA_FILE, win_chance.build_tables),
    ],
)
def test_a_data_file_is_what_its_builder_makes(
    data_file: str, build: Callable[[], dict[str, Any]]
) -> None:
    shipped = resources.files("engine.data").joinpath(data_file).read_text(encoding="utf-8")
    assert json.dumps(build(), indent=1, sort_keys=True) + "\n" == shipped
