"""Every hand + starter combination against the published distribution (DESIGN.md section 2).

The whole enumeration (12,994,800 combinations, hand rules and crib rules) runs by default
through :func:`engine.scoring.score_distribution`. Other tests here tie that fast path to the
public scorers: the rank table against a brute-force count written independently here, and
``hand_total`` / ``score_hand`` against the enumeration on every combination of a smaller deck.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engine.cards import Card, Suit, full_deck, parse_cards
from engine.scoring import hand_total, rank_points, score_distribution, score_hand

#: One worker process runs this module: its two enumerations (a few seconds each) are made
#: once for all the tests that use them.
pytestmark = pytest.mark.xdist_group("distribution")

ALL_COMBINATIONS = 12_994_800

PUBLISHED = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508,
    6: 1_800_268, 7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680,
    12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168, 16: 58_248, 17: 11_196, 18: 2_708,
    19: 0, 20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680, 25: 0, 26: 0, 27: 0,
    28: 76, 29: 4,
}  # fmt: skip


@pytest.fixture(scope="module")
def hand_counts() -> dict[int, int]:
    return score_distribution()


@pytest.fixture(scope="module")
def crib_counts() -> dict[int, int]:
    return score_distribution(crib=True)


def mean(counts: dict[int, int]) -> float:
    return sum(total * n for total, n in counts.items()) / sum(counts.values())


def test_every_hand_matches_the_published_distribution(hand_counts: dict[int, int]) -> None:
    assert sum(hand_counts.values()) == ALL_COMBINATIONS
    assert hand_counts == PUBLISHED
    assert round(mean(hand_counts), 6) == 4.769152


def test_crib_flush_rule_zero_count_and_mean(crib_counts: dict[int, int]) -> None:
    assert sum(crib_counts.values()) == ALL_COMBINATIONS
    assert crib_counts[0] == 1_022_208
    assert round(mean(crib_counts), 6) == 4.734819
    # Only flushes differ: four-card crib flushes score nothing, so no crib total is higher.
    assert crib_counts[29] == PUBLISHED[29]


def test_nineteen_is_impossible(hand_counts: dict[int, int], crib_counts: dict[int, int]) -> None:
    for counts in (hand_counts, crib_counts):
        assert counts[19] == counts[25] == counts[26] == counts[27] == 0
        assert max(total for total, n in counts.items() if n) == 29


def naive_rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs counted the slow way: every subset, every pair of cards."""
    values = [min(rank, 10) for rank in ranks]
    subsets = [subset for size in range(2, 6) for subset in itertools.combinations(range(5), size)]
    points = 2 * sum(1 for s in subsets if sum(values[i] for i in s) == 15)
    # Three of a kind is three pairs, four of a kind six: counting pairs of cards covers both.
    points += 2 * sum(1 for s in itertools.combinations(ranks, 2) if s[0] == s[1])
    for size in (5, 4, 3):
        runs = 0
        for subset in itertools.combinations(ranks, size):
            ordered = sorted(subset)
            if ordered == list(range(ordered[0], ordered[0] + size)):
                runs += 1
        if runs:  # a longer run hides the shorter runs inside it
            points += runs * size
            break
    return points


def test_rank_table_matches_a_naive_count_for_all_6175_rank_sets() -> None:
    rank_sets = [
        ranks
        for ranks in itertools.combinations_with_replacement(range(1, 14), 5)
        if ranks[0] != ranks[4]
    ]
    assert len(rank_sets) == 6175
    for ranks in rank_sets:
        assert rank_points(ranks) == naive_rank_points(ranks), ranks


# Hearts (for flushes), every jack (for nobs and heels) and some fives (for fifteens and sets).
SMALL_DECK = (
    *(Card(rank, Suit.HEARTS) for rank in range(1, 14)),
    *parse_cards("JC JD JS 5C 5D 5S 4S"),
)


@pytest.mark.parametrize("crib", [False, True])
def test_enumeration_agrees_with_hand_total_on_every_combination_of_a_smaller_deck(
    crib: bool,
) -> None:
    counts: Counter[int] = Counter()
    for combo in itertools.combinations(SMALL_DECK, 4):
        for starter in SMALL_DECK:
            if starter not in combo:
                counts[hand_total(combo, starter, crib=crib)] += 1
    assert sum(counts.values()) == 4845 * 16
    expected = score_distribution(crib=crib, deck=SMALL_DECK)
    assert {total: counts.get(total, 0) for total in range(30)} == expected


def test_score_hand_agrees_with_hand_total_on_a_smaller_deck() -> None:
    for combo in itertools.combinations(SMALL_DECK[:15], 4):
        for starter in SMALL_DECK[15:]:
            for crib in (False, True):
                score = score_hand(combo, starter, crib=crib)
                assert score.total == hand_total(combo, starter, crib=crib)


@pytest.mark.exhaustive
def test_hand_total_on_all_combinations_matches_the_published_distribution() -> None:
    # The slow twin of the first test: the public, Card-based hand_total on all 12,994,800.
    deck = full_deck()
    counts: Counter[int] = Counter()
    for combo in itertools.combinations(deck, 4):
        for starter in deck:
            if starter not in combo:
                counts[hand_total(combo, starter)] += 1
    assert {total: counts.get(total, 0) for total in range(30)} == PUBLISHED
