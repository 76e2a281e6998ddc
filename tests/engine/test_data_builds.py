"""The shipped data files are exactly what their builders make (what
``python -m benchmarks.build_tables TABLE --check`` checks). The computer's tables take minutes
each: run with ``pytest -m exhaustive``; the fast tests rebuild a sample of each table
(test_role_crib, test_peg_table, test_win_chance, test_crib_table). The shows' tables take a
second or two, and are checked whole in every run."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from engine import scoring
from engine.players import peg_table, role_crib, win_chance
from engine.rules import Rules
from engine.variants import listed


def _shipped_text(data_file: str) -> str:
    return resources.files("engine.data").joinpath(data_file).read_text(encoding="utf-8")


def _as_written(table: dict[str, Any]) -> str:
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


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
    assert _as_written(build()) == _shipped_text(data_file)


def test_the_show_tables_are_what_their_builder_makes_and_are_read_as_built() -> None:
    built = scoring.build_show_tables()
    assert _as_written(built) == _shipped_text(scoring.DATA_FILE), (
        "engine/data/show_tables.json is stale: python -m benchmarks.build_tables show_tables"
    )
    # The scorer reads the file (the standard points' shows) as the builder worked it out.
    points = Rules.standard().points
    for size, show in built["shows"].items():
        ranks = {int(key, 8): n for key, n in show["ranks"].items()}
        assert scoring.rank_table(int(size) + 1, points) == ranks
        assert scoring._scorer(points).total_parts(int(size)) == scoring._TotalParts(
            frozenset(show["mixed"]),
            frozenset(show["flush"]),
            frozenset(show["flush_with_starter"]),
        )


def test_every_show_a_variant_has_is_shipped() -> None:
    # A variant whose shows the file lacks would work its tables out in its first game, in
    # the middle of the interaction that deals it (a second of CPU for a six-card show).
    built_for = Rules.standard().points
    for variant in listed():
        for seats in variant.seats:
            rules = variant.rules(seats)
            assert rules.points == built_for, variant.name
            for crib in (False, True):
                assert rules.show_size(crib=crib) in scoring.SHIPPED_SIZES, (variant.name, crib)
