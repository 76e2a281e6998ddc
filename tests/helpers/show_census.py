"""Every hand of a given size with every starter, scored by the reference, counted by total.

:func:`census` counts what :func:`tests.helpers.reference_cribbage.show` gives for every hand of
``size`` cards from the 52 with each of the other cards as its starter: C(52, 3) * 49 =
1,082,900 combinations for five-card cribbage's three-card hands, C(52, 4) * 48 = 12,994,800
for the standard game, C(52, 5) * 47 = 122,151,120 for seven-card cribbage's five-card hands.

It is the reference's scoring, counted faster than one call a combination, by two facts of
the rules and nothing else:

- fifteens, pairs and runs read only ranks, so the hand's ranks with each starter rank are
  scored once (:func:`tests.helpers.reference_cribbage.rank_points`, remembered by the
  hand's sorted ranks) and serve every hand and starter with those ranks;
- the flush and nobs read only the starter's suit, and only a hand of one suit can have a
  flush and only a hand with a jack nobs: any other hand adds nothing to any starter, and a
  hand that may adds, for each suit, what the reference's own functions give with a starter
  of that suit.

The tests check :func:`starter_counts` (one hand, every starter) against plain
:func:`~tests.helpers.reference_cribbage.show_score` calls on sampled hands, and the whole
four-card census against the published distribution (DESIGN.md section 2). The recorded
figures below are what ``benchmarks/show_census.py`` printed for three- and five-card hands;
the engine's scorer is to be checked against them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from tests.helpers.reference_cribbage import (
    JACK,
    RANKS,
    SUITS,
    RefCard,
    deck,
    flush_points,
    nobs_points,
    rank_points,
)

__all__ = [
    "FIVE_CARD_HANDS",
    "FOUR_CARD_CRIBS_MEAN",
    "FOUR_CARD_CRIBS_ZERO",
    "FOUR_CARD_HANDS",
    "RECORDED_HANDS",
    "THREE_CARD_HANDS",
    "census",
    "matches_recorded",
    "mean",
    "starter_counts",
    "starter_totals",
]

#: The published distribution of four-card hands with the starter (DESIGN.md section 2; the
#: engine's own test, tests/engine/test_distribution.py, checks the engine against it).
FOUR_CARD_HANDS = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508,
    6: 1_800_268, 7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680,
    12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168, 16: 58_248, 17: 11_196, 18: 2_708,
    20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680, 28: 76, 29: 4,
}  # fmt: skip
#: Under the crib's flush rule only the zero count changes there, and the mean.
FOUR_CARD_CRIBS_ZERO = 1_022_208
FOUR_CARD_CRIBS_MEAN = 4.734819

#: Five-card cribbage: every three-card hand with every starter (1,082,900), hand rules
#: (no crib has three cards): mean 2.592350, highest 20 (5-5-5 with a 5). Recorded from
#: benchmarks/show_census.py (0.5 s).
THREE_CARD_HANDS = {
    0: 260_220, 1: 18_180, 2: 403_032, 3: 63_288, 4: 144_716, 5: 69_300, 6: 72_928, 7: 16_832,
    8: 18_668, 9: 5_964, 10: 4_044, 11: 824, 12: 4_372, 13: 164, 14: 268, 15: 96, 20: 4,
}  # fmt: skip

#: Seven-card cribbage: every five-card hand with every starter (122,151,120), hand rules:
#: mean 8.189653, highest 46 (4-4-5-5-6 with a 6). Recorded from benchmarks/show_census.py
#: (about a minute on one core).
FIVE_CARD_HANDS = {
    0: 1_774_800, 1: 183_600, 2: 9_957_948, 3: 2_432_568, 4: 13_320_708, 5: 4_068_132,
    6: 17_624_764, 7: 5_467_580, 8: 16_386_996, 9: 8_158_580, 10: 12_862_764, 11: 5_053_628,
    12: 7_799_368, 13: 2_136_456, 14: 5_231_408, 15: 779_096, 16: 4_407_312, 17: 719_424,
    18: 1_559_468, 19: 88_128, 20: 997_528, 21: 156_620, 22: 252_168, 23: 95_040, 24: 213_904,
    25: 25_436, 26: 163_280, 27: 38_100, 28: 113_464, 29: 13_864, 30: 46_476, 31: 1_308,
    32: 4_764, 33: 36, 34: 2_544, 36: 1_284, 37: 60, 38: 9_960, 39: 12, 40: 1_248, 46: 1_296,
}  # fmt: skip

#: The distributions above by the hand's size (hand rules).
RECORDED_HANDS = {3: THREE_CARD_HANDS, 4: FOUR_CARD_HANDS, 5: FIVE_CARD_HANDS}


@cache
def _by_starter_rank(hand_ranks: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """For each rank a starter can still have: (that rank, the fifteens, pairs and runs of the
    hand with it, how many cards of it are left)."""
    return tuple(
        (starter, rank_points([*hand_ranks, starter]), 4 - hand_ranks.count(starter))
        for starter in RANKS
        if hand_ranks.count(starter) < 4
    )


def _tally(hand: Sequence[RefCard], crib: bool, tally: list[int]) -> None:
    """Add to ``tally[total]`` each starter left for ``hand``, at the total it makes."""
    by_rank = _by_starter_rank(tuple(sorted(card.rank for card in hand)))
    if len({card.suit for card in hand}) > 1 and all(card.rank != JACK for card in hand):
        # No flush and no nobs whatever the starter: ranks decide it all.
        for _, total, free in by_rank:
            tally[total] += free
        return
    held = set(hand)
    extra = {}
    for suit in SUITS:
        # Any card of the suit stands for them all: flush and nobs read the starter's suit.
        starter = next(RefCard(rank, suit) for rank in RANKS if RefCard(rank, suit) not in held)
        extra[suit] = flush_points(hand, starter, crib=crib) + nobs_points(hand, starter)
    for rank, total, _ in by_rank:
        for suit in SUITS:
            if RefCard(rank, suit) not in held:
                tally[total + extra[suit]] += 1


#: Room for every total a hand of up to five cards and its starter can make; a total past it
#: would raise IndexError, never be miscounted.
_TALLY_SIZE = 128


def starter_counts(hand: Sequence[RefCard], *, crib: bool = False) -> Counter[int]:
    """How many of the cards not in ``hand`` make it score each total as its starter."""
    tally = [0] * _TALLY_SIZE
    _tally(hand, crib, tally)
    return Counter({total: n for total, n in enumerate(tally) if n})


def starter_totals(hand: Sequence[RefCard], *, crib: bool = False) -> dict[RefCard, int]:
    """What ``hand`` scores with each card not in it as its starter, card by card (the
    reference's total, by the same two facts as :func:`census`)."""
    by_rank = [0] * 14
    for rank, total, _ in _by_starter_rank(tuple(sorted(c.rank for c in hand))):
        by_rank[rank] = total
    held = set(hand)
    totals = {}
    for cards in _BY_SUIT:
        left = [card for card in cards if card not in held]
        # Flush and nobs read only the starter's suit: any card of the suit stands for all.
        extra = flush_points(hand, left[0], crib=crib) + nobs_points(hand, left[0])
        for starter in left:
            totals[starter] = by_rank[starter.rank] + extra
    return totals


#: The cards of each suit.
_BY_SUIT = tuple(tuple(RefCard(rank, suit) for rank in RANKS) for suit in SUITS)


def census(size: int, *, crib: bool = False) -> dict[int, int]:
    """Every hand of ``size`` cards with every starter left: how many score each total."""
    tally = [0] * _TALLY_SIZE
    for hand in combinations(deck(), size):
        _tally(hand, crib, tally)
    return {total: n for total, n in enumerate(tally) if n}


def mean(counts: dict[int, int]) -> float:
    """The average total of a distribution."""
    return sum(total * n for total, n in counts.items()) / sum(counts.values())


def matches_recorded(counts: dict[int, int], size: int, *, crib: bool = False) -> bool:
    """Whether a census of ``size``-card hands is the one recorded here: the whole distribution
    by hand rules, or by the crib's flush rule the zero count and the mean (recorded for four
    cards only: every variant's crib has four)."""
    if crib:
        zero, average = counts.get(0), round(mean(counts), 6)
        return size == 4 and zero == FOUR_CARD_CRIBS_ZERO and average == FOUR_CARD_CRIBS_MEAN
    return counts == RECORDED_HANDS[size]
