"""The pegging table of kept ranks: loads, rebuilds a sample, and says what players know."""

from __future__ import annotations

import pytest

from engine.players.peg_table import METHOD, build_entry, load_table, pegging_value
from engine.players.role_crib import keep_key

SAMPLE = [(1, 2, 3, 4), (5, 5, 10, 13), (7, 7, 8, 8), (6, 9, 12, 13)]


def test_the_data_file_states_its_method_and_has_every_hand_for_both_roles() -> None:
    table = load_table()
    assert table["method"] == METHOD
    # Four ranks with repeats: C(16, 4) = 1,820 multisets.
    assert len(table["dealer"]) == len(table["pone"]) == 1820


@pytest.mark.parametrize("kept", SAMPLE)
@pytest.mark.parametrize("dealer", [True, False])
def test_rebuilding_entries_matches_the_shipped_file(kept: tuple[int, ...], dealer: bool) -> None:
    role = "dealer" if dealer else "pone"
    assert round(build_entry(kept, dealer=dealer), 4) == load_table()[role][keep_key(kept)]


def test_the_dealer_pegs_more_than_the_pone_on_average() -> None:
    # The dealer plays second and usually takes the last card.
    table = load_table()
    assert sum(table["dealer"].values()) > 0 > sum(table["pone"].values())


def test_low_cards_peg_better_than_high_ones() -> None:
    for dealer in (True, False):
        assert pegging_value([1, 2, 3, 4], dealer=dealer) > pegging_value(
            [10, 11, 12, 13], dealer=dealer
        )
