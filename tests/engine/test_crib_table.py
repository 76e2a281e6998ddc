"""The shipped crib table: the builder still produces it, and its figures make sense."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engine.players.crib_table import (
    DIGITS,
    METHOD,
    build_single,
    build_two,
    crib_value,
    crib_value_of_ranks,
    load_table,
    single_key,
    two_key,
)

# A sample of entries spread over the table: pairs, suited and offsuit, fives, jacks, kings.
TWO_SAMPLE = [
    (5, 5, False),
    (1, 2, True),
    (4, 6, False),
    (5, 11, True),
    (10, 13, False),
    (7, 8, True),
]
ONE_SAMPLE = [1, 5, 11, 13]


def test_the_data_file_states_its_method_and_has_every_entry() -> None:
    text = resources.files("engine.data").joinpath("crib_table.json").read_text(encoding="utf-8")
    table = json.loads(text)
    assert table["method"] == METHOD
    # 13 pairs + 78 rank pairs twice (same suit or not) = 169; one card: 13 ranks.
    assert len(table["two"]) == 169
    assert len(table["one"]) == 13


@pytest.mark.parametrize(("low", "high", "suited"), TWO_SAMPLE)
def test_rebuilding_two_card_entries_matches_the_shipped_file(
    low: int, high: int, suited: bool
) -> None:
    shipped = load_table()["two"][two_key(low, high, suited)]
    assert round(build_two(low, high, suited), DIGITS) == shipped


@pytest.mark.parametrize("rank", ONE_SAMPLE)
def test_rebuilding_one_card_entries_matches_the_shipped_file(rank: int) -> None:
    assert round(build_single(rank), DIGITS) == load_table()["one"][single_key(rank)]


def test_two_fives_are_the_best_throw_and_ten_king_the_worst() -> None:
    two = load_table()["two"]
    assert max(two, key=two.get) == "5-5"
    assert min(two, key=two.get) == "10-13o"


def test_a_same_suit_pair_is_worth_a_little_more_than_an_offsuit_one() -> None:
    # Only a five-card crib flush tells them apart: rare, so the gap is small but positive.
    for low, high in [(2, 7), (4, 9), (10, 12)]:
        gap = crib_value_of_ranks(low, high, suited=True) - crib_value_of_ranks(low, high)
        assert 0 < gap < 0.1


def test_keys_ignore_card_order_and_lookups_take_indexes() -> None:
    assert two_key(6, 5, False) == two_key(5, 6, False) == "5-6o"
    assert two_key(9, 9, False) == "9-9"
    # 5♣ is index 4, 5♦ index 17.
    assert crib_value([4, 17]) == crib_value_of_ranks(5, 5)
    assert crib_value([4]) == crib_value_of_ranks(5)


def test_two_cards_of_one_rank_cannot_share_a_suit() -> None:
    with pytest.raises(ValueError):
        build_two(5, 5, True)
