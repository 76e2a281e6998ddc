"""The chance-to-win tables: the shipped tables follow from the shipped distributions, and
they behave as chances do."""

from __future__ import annotations

import pytest

from engine.players.win_chance import (
    DIGITS,
    METHOD,
    NEEDS,
    TABLES,
    counted_chance,
    deal_chance,
    load_table,
    shown_chance,
    solve,
)


def test_the_data_file_states_its_method_and_its_tallies() -> None:
    data = load_table()
    assert data["method"] == METHOD
    assert set(data["tallies"]) >= {"play", "pone_hand", "dealer_show"}
    for name in TABLES:
        assert len(data[name]) == NEEDS + 1


def test_solving_the_shipped_distributions_gives_the_shipped_tables() -> None:
    # Only the simulation (``build_tables.py win_chance``, about a minute) is left to the script.
    data = load_table()
    tables = solve(data["tallies"])
    for name in TABLES:
        for d in range(1, NEEDS + 1):
            for p in range(1, NEEDS + 1):
                if d + p >= 2:
                    assert round(tables[name][d][p], DIGITS) == data[name][d][p]


def test_a_side_that_needs_less_is_likelier_to_win() -> None:
    for chance in (deal_chance, shown_chance, counted_chance):
        for need in (5, 20, 40):
            assert chance(need, 30) > chance(need + 10, 30)
            assert chance(30, need) < chance(30, need + 10)


def test_the_dealer_at_the_start_of_a_game_is_the_favourite() -> None:
    # The first dealer wins about 56% of games between equal players.
    assert deal_chance(121, 121) == pytest.approx(0.56, abs=0.02)


def test_needs_outside_the_table_are_clamped() -> None:
    assert deal_chance(0, 50) == deal_chance(1, 50)
    assert deal_chance(500, 50) == deal_chance(NEEDS, 50)
