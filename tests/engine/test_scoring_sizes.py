"""The show scored for hands of any size the rules give: three kept cards (five-card
cribbage), four (the standard game) and five (seven-card), with the starter; the crib its own
size. Checked against a scorer written independently here, the slow way, from the rules as
players say them."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from engine.cards import JACK, Card, Suit, full_deck, parse_cards
from engine.rules import Points, Rules, Share
from engine.scoring import (
    claim_values,
    hand_total,
    possible_totals,
    rank_points,
    score_distribution,
    score_hand,
)

FIVE_CARD = Rules(dealer=Share(5, 2), others=Share(5, 2), target=61)
SEVEN_CARD = Rules(dealer=Share(7, 2), others=Share(7, 2), target=181)


def kept(n: int) -> Rules:
    return Rules(dealer=Share(n + 2, 2), others=Share(n + 2, 2))


def naive(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """Every subset that adds to 15 (2), every pair of cards of a rank (2), every run of three
    or more cards of consecutive ranks not inside a longer one (a point a card), a flush of
    the hand (a point a card, one more with the starter; the crib only with the starter) and
    nobs (1)."""
    cards = [*hand, starter]
    values = [min(card.rank, 10) for card in cards]
    points = 0
    for size in range(2, len(cards) + 1):
        for subset in itertools.combinations(range(len(cards)), size):
            if sum(values[i] for i in subset) == 15:
                points += 2
    points += 2 * sum(1 for a, b in itertools.combinations(cards, 2) if a.rank == b.rank)
    runs = []
    for size in range(3, len(cards) + 1):
        for chosen in itertools.combinations(cards, size):
            ranks = sorted(card.rank for card in chosen)
            if ranks == list(range(ranks[0], ranks[0] + size)):
                runs.append(set(chosen))
    points += sum(len(run) for run in runs if not any(run < other for other in runs))
    suits = {card.suit for card in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += sum(1 for card in hand if card.rank == JACK and card.suit is starter.suit)
    return points


@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_hand_size_scores_as_the_independent_count_says(size: int) -> None:
    rules, rng, deck = kept(size), random.Random(size), full_deck()
    for _ in range(1500 if size <= 4 else 300):
        cards = rng.sample(deck, size + 1)
        hand, starter = cards[:-1], cards[-1]
        assert score_hand(hand, starter, rules=rules).total == naive(hand, starter, False)
        assert hand_total(hand, starter, rules=rules) == naive(hand, starter, False)


def test_a_crib_of_four_scores_by_the_crib_flush_rule_whatever_the_hands_kept() -> None:
    rng, deck = random.Random(9), full_deck()
    for rules in (FIVE_CARD, SEVEN_CARD):
        for _ in range(500):
            cards = rng.sample(deck, 5)
            crib, starter = cards[:4], cards[4]
            expected = naive(crib, starter, True)
            assert hand_total(crib, starter, crib=True, rules=rules) == expected
            assert score_hand(crib, starter, crib=True, rules=rules).total == expected


def test_seven_card_two_runs_of_three_in_six_cards_both_count() -> None:
    hand, starter = parse_cards("AH 2C 3D 7S 8H"), Card.parse("9C")
    score = score_hand(hand, starter, rules=SEVEN_CARD)
    assert [item.points for item in score.items if item.kind == "run"] == [3, 3]
    assert score.total == naive(hand, starter, False)


def test_seven_card_a_run_of_six_and_a_flush_of_five_and_six() -> None:
    hand = parse_cards("4H 5H 6H 7H 8H")
    assert hand_total(hand, Card.parse("9H"), rules=SEVEN_CARD) == 6 + 6 + naive_fifteens(
        [*hand, Card.parse("9H")]
    )
    assert hand_total(hand, Card.parse("9S"), rules=SEVEN_CARD) == 6 + 5 + naive_fifteens(
        [*hand, Card.parse("9S")]
    )


def naive_fifteens(cards: Sequence[Card]) -> int:
    values = [min(card.rank, 10) for card in cards]
    return 2 * sum(
        1
        for size in range(2, len(cards) + 1)
        for subset in itertools.combinations(values, size)
        if sum(subset) == 15
    )


def test_five_card_a_three_card_flush_is_three_four_with_the_starter_never_in_the_crib() -> None:
    hand = parse_cards("2H 4H 8H")
    assert score_hand(hand, Card.parse("KS"), rules=FIVE_CARD).total == 3
    assert score_hand(hand, Card.parse("KH"), rules=FIVE_CARD).total == 4
    crib = parse_cards("2H 4H 8H QH")
    assert score_hand(crib, Card.parse("KS"), crib=True, rules=FIVE_CARD).total == 0
    flush = [
        item.points
        for item in score_hand(crib, Card.parse("KH"), crib=True, rules=FIVE_CARD).items
        if item.kind == "flush"
    ]
    assert flush == [5]


def test_a_hand_of_the_wrong_size_for_the_rules_is_refused() -> None:
    with pytest.raises(ValueError, match="3 cards, not 4"):
        score_hand(parse_cards("2H 6H 9H 10S"), Card.parse("KS"), rules=FIVE_CARD)
    with pytest.raises(ValueError, match="5 cards, not 4"):
        hand_total(parse_cards("2H 6H 9H 10S"), Card.parse("KS"), rules=SEVEN_CARD)


# Hearts (flushes), jacks (nobs and heels) and some fives (fifteens and sets): fewer cards for
# the bigger hands, whose independent count is slow.
SMALL_DECKS = {
    3: (*(Card(rank, Suit.HEARTS) for rank in range(1, 14)), *parse_cards("JC JD 5C 5D")),
    4: (*(Card(rank, Suit.HEARTS) for rank in range(1, 14)), *parse_cards("JC JD 5C 5D")),
    5: (*(Card(rank, Suit.HEARTS) for rank in (1, 2, 3, 4, 5, 6, 9, 11)), *parse_cards("JC 5C 5D")),
}


@pytest.mark.parametrize("rules", [FIVE_CARD, SEVEN_CARD], ids=["three kept", "five kept"])
@pytest.mark.parametrize("crib", [False, True])
def test_the_enumeration_agrees_with_the_independent_count_on_a_smaller_deck(
    rules: Rules, crib: bool
) -> None:
    size = rules.show_size(crib=crib)
    deck = SMALL_DECKS[size]
    counts: Counter[int] = Counter()
    for hand in itertools.combinations(deck, size):
        for starter in deck:
            if starter not in hand:
                counts[naive(hand, starter, crib)] += 1
    found = score_distribution(crib=crib, deck=deck, rules=rules)
    assert {total: n for total, n in found.items() if n} == dict(counts)


def test_five_card_every_hand_of_three_and_a_starter() -> None:
    # All 1,082,900 combinations: every total the enumeration finds is a possible total, and
    # every possible total is found.
    counts = score_distribution(rules=FIVE_CARD)
    assert sum(counts.values()) == 22_100 * 49
    assert {total for total, n in counts.items() if n} == possible_totals(FIVE_CARD, crib=False)
    assert max(possible_totals(FIVE_CARD, crib=False)) == 20  # 5-5-5 with the fourth five


def test_the_standard_claims_are_0_to_29_but_19_25_26_and_27() -> None:
    assert set(range(30)) - set(claim_values(Rules())) == {19, 25, 26, 27}
    assert len(claim_values(Rules.standard(4))) == 26


def test_rank_points_of_six_ranks() -> None:
    # Four fives and a ten: 4 pairs-worth (12) and fifteens (4 ways with a ten, 4 of 5+5+5).
    assert rank_points([5, 5, 5, 5, 10, 1]) == 12 + 8 + 8 + naive_ace_fifteens()


def naive_ace_fifteens() -> int:
    cards = parse_cards("5H 5C 5D 5S 10H AH")
    return naive_fifteens(cards) - 16


def test_points_the_shipped_tables_were_not_built_for_are_worked_out() -> None:
    # The shows' numbers are shipped for the standard points (engine/data/show_tables.json);
    # a fifteen for 3 is worked out: 5-5-5-5 and a jack make eight fifteens and four of a
    # kind (36), with nobs 37, and nothing from 31 to 35.
    fifteen_for_3 = Points(fifteen_points=3)
    rules = dataclasses.replace(Rules(), points=fifteen_for_3)
    assert rank_points([5, 5, 5, 5, 11], fifteen_for_3) == 36
    assert rank_points([5, 5, 5, 5, 11]) == 28
    assert claim_values(rules)[-1] == 37
    assert set(range(38)) - set(claim_values(rules)) == {31, 32, 33, 34, 35}
