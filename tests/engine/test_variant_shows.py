"""Every variant's show, checked over every hand it can have against the reference scorer.

The hands each variant shows with the starter: three cards in five-card cribbage, four in the
standard game, five-hand and six-hand, five in seven-card cribbage; the crib four cards in
every variant, scored by the crib's flush rule. The engine's scorer (``score_hand``, item by
item, and the fast ``hand_total``) is compared with ``tests/helpers/reference_cribbage.py``,
written from the rules and not from the engine, and the totals with the censuses recorded in
``tests/helpers/show_census.py`` (the four-card one is the published distribution).

- Every size: every class of ``tests/helpers/show_classes.py`` (the hand's ranks, the
  starter's rank, and the suit pattern: flush with or without the starter, nobs, or neither),
  one combination of each scored and weighted by how many combinations the class holds, so
  that every combination is counted once (122,151,120 for five-card hands). That a class
  scores alike is the rules' (suits count only for the flush and nobs); renaming the suits of
  sampled hands checks the engine agrees, and ``-m exhaustive`` scores every combination one
  by one: the 1,082,900 of three-card hands and the 122,151,120 of five-card hands.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement, permutations, product
from math import comb

import pytest

from engine.cards import Card, Suit, full_deck
from engine.rules import Rules
from engine.scoring import ScoreKind, hand_total, score_hand
from engine.variants import FIVE_CARD, SEVEN_CARD, Variant, listed
from tests.helpers.reference_cribbage import SUITS, RefCard, deck
from tests.helpers.show_census import (
    FIVE_CARD_HANDS,
    FOUR_CARD_CRIBS_ZERO,
    FOUR_CARD_HANDS,
    THREE_CARD_HANDS,
    mean,
    starter_totals,
)
from tests.helpers.show_classes import (
    ShowClass,
    classes,
    pattern_counts,
    pattern_of,
    reference_show,
)

#: The recorded census of each hand size, by hand rules.
CENSUS = {3: THREE_CARD_HANDS, 4: FOUR_CARD_HANDS, 5: FIVE_CARD_HANDS}
#: The classes of each size, made once in each process that asks for them.
_classes: dict[int, list[ShowClass]] = {}


def every_class(size: int) -> list[ShowClass]:
    if size not in _classes:
        _classes[size] = list(classes(size))
    return _classes[size]


def engine_show(
    hand: Iterable[Card], starter: Card, *, crib: bool, rules: Rules
) -> tuple[int, int, tuple[int, ...], int, int]:
    """The engine's ``score_hand`` items as the reference says a show: (fifteens, pairs, run
    lengths, flush points, nobs points); a pair royal is three pairs, a double pair royal six."""
    items = score_hand(tuple(hand), starter, crib=crib, rules=rules).items
    pairs_in = {ScoreKind.PAIR: 1, ScoreKind.PAIR_ROYAL: 3, ScoreKind.DOUBLE_PAIR_ROYAL: 6}
    return (
        sum(1 for item in items if item.kind is ScoreKind.FIFTEEN),
        sum(pairs_in.get(item.kind, 0) for item in items),
        tuple(sorted(item.points for item in items if item.kind is ScoreKind.RUN)),
        sum(item.points for item in items if item.kind is ScoreKind.FLUSH),
        sum(item.points for item in items if item.kind is ScoreKind.NOBS),
    )


def total(said: tuple[int, int, tuple[int, ...], int, int]) -> int:
    fifteens, pairs, runs, flush, nobs = said
    return 2 * fifteens + 2 * pairs + sum(runs) + flush + nobs


#: Each variant's rules (a show does not depend on the players, target or options).
VARIANTS = {variant.name: variant.rules() for variant in listed()}
#: The variants by what they show: (hand size, crib?) -> their names.
SHOWS: dict[tuple[int, bool], list[str]] = {}
for _name, _rules in VARIANTS.items():
    for _crib in (False, True):
        SHOWS.setdefault((_rules.show_size(crib=_crib), _crib), []).append(_name)
#: The engine's cards by the reference's.
CARDS = {ref: Card(ref.rank, Suit(ref.suit)) for ref in deck()}


def show_id(key: tuple[int, bool]) -> str:
    size, crib = key
    return f"{'cribs' if crib else 'hands'} of {size}: {' '.join(SHOWS[key])}"


@pytest.mark.parametrize("key", sorted(SHOWS), ids=show_id)
def test_every_show_of_every_variant_scores_as_the_reference_says_item_by_item(
    key: tuple[int, bool],
) -> None:
    size, crib = key
    every_rules = [VARIANTS[name] for name in SHOWS[key]]
    counts: Counter[int] = Counter()
    seen = 0
    for shown in every_class(size):
        hand, starter = tuple(CARDS[ref] for ref in shown.hand), CARDS[shown.starter]
        expected = reference_show(shown.hand, shown.starter, crib=crib)
        points = total(expected)
        for rules in every_rules:
            said = engine_show(hand, starter, crib=crib, rules=rules)
            assert said == expected, (shown.hand, shown.starter, rules)
            assert hand_total(hand, starter, crib=crib, rules=rules) == points
        counts[points] += shown.weight
        seen += shown.weight
    assert seen == comb(52, size) * (52 - size)
    if not crib:
        assert dict(counts) == CENSUS[size]
    else:
        # The crib is four cards in every variant: the census under the crib's flush rule.
        assert counts[0] == FOUR_CARD_CRIBS_ZERO and round(mean(counts), 6) == 4.734819


def test_every_variant_shows_hands_of_three_four_or_five_and_a_crib_of_four() -> None:
    assert {key: names for key, names in SHOWS.items()} == {
        (3, False): ["five_card"],
        (4, False): ["standard", "five_hand", "six_hand", "six_hand_pairs"],
        (5, False): ["seven_card"],
        (4, True): list(VARIANTS),
    }


def census_one_by_one(variant: Variant, size: int) -> Counter[int]:
    """Every hand of ``size`` cards with every starter through the engine's ``hand_total`` by
    ``variant``'s rules, each checked against the reference's total; how many scored each
    total."""
    rules = variant.rules()
    cards = CARDS
    counts: Counter[int] = Counter()
    for hand in combinations(deck(), size):
        engine_hand = tuple(cards[ref] for ref in hand)
        for starter, expected in starter_totals(hand).items():
            assert hand_total(engine_hand, cards[starter], rules=rules) == expected, hand
            counts[expected] += 1
    return counts


@pytest.mark.exhaustive
def test_five_card_every_three_card_hand_with_every_starter_one_by_one() -> None:
    counts = census_one_by_one(FIVE_CARD, 3)
    assert sum(counts.values()) == 1_082_900
    assert dict(counts) == THREE_CARD_HANDS


def test_the_classes_count_every_three_card_combination_once() -> None:
    # Every suit choice of every three-card hand and starter, tallied by class: the counts
    # the classes give.
    tally: Counter[tuple[tuple[int, ...], int, str]] = Counter()
    for hand in combinations(deck(), 3):
        ranks = tuple(sorted(c.rank for c in hand))
        for starter in deck():
            if starter not in hand:
                tally[(ranks, starter.rank, pattern_of(hand, starter))] += 1
    assert tally == Counter(
        {(c.ranks, c.starter_rank, c.pattern): c.weight for c in every_class(3)}
    )


def test_the_classes_count_sampled_five_card_ranks_as_every_suit_choice_does() -> None:
    rng = random.Random(35)
    shapes = [
        (ranks, starter)
        for ranks in combinations_with_replacement(range(1, 14), 5)
        for starter in range(1, 14)
        if max(Counter((*ranks, starter)).values()) <= 4
    ]
    for ranks, starter_rank in rng.sample(shapes, 150):
        tally: Counter[str] = Counter()
        held = Counter(ranks)
        order = sorted(held)
        for chosen in product(*(combinations(SUITS, held[r]) for r in order)):
            hand = tuple(RefCard(r, s) for r, picked in zip(order, chosen, strict=True)
                         for s in picked)  # fmt: skip
            for suit in SUITS:
                starter = RefCard(starter_rank, suit)
                if starter not in hand:
                    tally[pattern_of(hand, starter)] += 1
        assert {k: v for k, v in pattern_counts(ranks, starter_rank).items() if v} == dict(tally)


@pytest.mark.parametrize("crib", [False, True], ids=["hands", "cribs"])
@pytest.mark.parametrize("variant", [FIVE_CARD, SEVEN_CARD], ids=lambda v: v.name)
def test_renaming_the_suits_never_changes_what_a_show_scores(variant: Variant, crib: bool) -> None:
    rules = variant.rules()
    rng = random.Random(f"{variant.name} {crib}")
    every = full_deck()
    for _ in range(400):
        cards = rng.sample(every, rules.show_size(crib=crib) + 1)
        scores = set()
        for renamed in permutations(Suit):
            rename = dict(zip(Suit, renamed, strict=True))
            moved = [Card(c.rank, rename[c.suit]) for c in cards]
            scores.add(hand_total(moved[:-1], moved[-1], crib=crib, rules=rules))
        assert len(scores) == 1


@pytest.mark.exhaustive
@pytest.mark.timeout(7200)
def test_seven_card_every_five_card_hand_with_every_starter_one_by_one() -> None:
    # All 122,151,120 combinations through the engine's public scorer, each against the
    # reference's total for it (about a quarter of an hour on one core).
    counts = census_one_by_one(SEVEN_CARD, 5)
    assert sum(counts.values()) == 122_151_120
    assert dict(counts) == FIVE_CARD_HANDS
