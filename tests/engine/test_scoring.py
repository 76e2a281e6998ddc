"""The show: each rule of hand and crib scoring, the worked examples of the rules documents."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.scoring
from engine.cards import Card, full_deck, parse_cards
from engine.scoring import Score, ScoreItem, hand_total, rank_points, score_hand


def show(hand: str, starter: str, *, crib: bool = False) -> Score:
    return score_hand(parse_cards(hand), Card.parse(starter), crib=crib)


def points_of(score: Score, *kinds: str) -> int:
    return sum(item.points for item in score.items if item.kind in kinds)


def kinds_of(score: Score) -> list[str]:
    return [item.kind for item in score.items]


# --- worked examples from /work/shared/rules/ ------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "runs_and_pairs", "runs", "pairs"),
    [
        # 003: 4,5,6,7,7 = (2x4) + 2 = 10, two runs of four and one pair
        ("4H 5C 6D 7S", "7H", 10, [4, 4], 1),
        # 003: 3,3,3,4,5 = (3x3) + (2x3) = 15, three runs of three and three pairs (a pair royal)
        ("3H 3C 3S 4D", "5D", 15, [3, 3, 3], 0),
        # 003: 5,5,6,6,7 = (4x3) + (2x2) = 16, four runs of three and two pairs
        ("5H 5C 6S 6D", "7D", 16, [3, 3, 3, 3], 2),
    ],
)
def test_runs_with_pairs_multiply(
    hand: str, starter: str, runs_and_pairs: int, runs: list[int], pairs: int
) -> None:
    score = show(hand, starter)
    sets = points_of(score, "pair", "pair_royal", "double_pair_royal")
    assert sets + points_of(score, "run") == runs_and_pairs
    assert sorted(len(item.cards) for item in score.items if item.kind == "run") == runs
    assert kinds_of(score).count("pair") == pairs


def test_runs_with_pairs_full_totals() -> None:
    # The examples above only count runs and pairs; the whole shows also hold fifteens.
    assert show("4H 5C 6D 7S", "7H").total == 12  # + 4-5-6
    assert show("3H 3C 3S 4D", "5D").total == 21  # + three 3-3-4-5
    assert show("5H 5C 6S 6D", "7D").total == 16  # no fifteen


def test_fifteens_each_combination_scores_two() -> None:
    # 000: hand A 7 8 3, starter 7: 7 & 8 from the hand, and 8 with the starter 7. (The rules
    # text stops there; A-7-7 is a third fifteen, and the two sevens are a pair.)
    score = show("AH 7C 8D 3S", "7H")
    fifteens = {frozenset(item.cards) for item in score.items if item.kind == "fifteen"}
    assert frozenset(parse_cards("7C 8D")) in fifteens
    assert frozenset(parse_cards("8D 7H")) in fifteens
    assert fifteens == {
        frozenset(parse_cards("7C 8D")),
        frozenset(parse_cards("8D 7H")),
        frozenset(parse_cards("AH 7C 7H")),
    }
    assert all(item.points == 2 for item in score.items if item.kind == "fifteen")
    assert score.total == 8


def test_fifteens_four_ways_plus_a_pair() -> None:
    # 001: Q♣ 10♠ 5♦ 5♥ scores 8 for four fifteens, plus two for the pair of fives.
    score = show("QC 10S 5D 5H", "AS")
    assert kinds_of(score) == ["fifteen"] * 4 + ["pair"]
    assert score.total == 10


def test_pair_royal_cannot_be_split_into_pairs() -> None:
    # 000: 4 5 5 5 3 scores 6 for the three fives, and no pairs.
    score = show("4H 5C 5S 5D", "3H")
    assert kinds_of(score).count("pair_royal") == 1
    assert "pair" not in kinds_of(score)
    assert points_of(score, "pair_royal") == 6


def test_double_pair_royal_scores_twelve() -> None:
    score = show("8H 8C 8S 8D", "KH")
    assert [(i.kind, i.points) for i in score.items if i.kind != "fifteen"] == [
        ("double_pair_royal", 12)
    ]
    assert score.total == 12


def test_double_run_counts_each_run() -> None:
    # 000: hand A 2 3 7, starter 2: two runs of three, 6.
    score = show("AH 2C 3D 7S", "2S")
    runs = [item for item in score.items if item.kind == "run"]
    assert [item.points for item in runs] == [3, 3]
    assert {frozenset(item.cards) for item in runs} == {
        frozenset(parse_cards("AH 2C 3D")),
        frozenset(parse_cards("AH 2S 3D")),
    }


def test_run_of_four_is_not_two_runs_of_three() -> None:
    # 001, footnote 10: a run of four scores 4, not 6.
    score = show("2H 3C 4D 5S", "9H")
    assert [(i.kind, i.points) for i in score.items if i.kind == "run"] == [("run", 4)]


def test_run_of_five() -> None:
    score = show("9H 10C JD QS", "KH")
    assert [(i.kind, i.points) for i in score.items if i.kind == "run"] == [("run", 5)]


def test_ace_is_low_so_queen_king_ace_is_no_run() -> None:
    assert "run" not in kinds_of(show("QH KC AD 7S", "3H"))


# --- flush ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "flush"),
    [
        ("AH 3H 7H 9H", "QS", False, 4),  # hand flush of four, starter another suit
        ("AH 3H 7H 9H", "QH", False, 5),  # hand flush of five
        ("AH 3H 7H 9H", "QS", True, 0),  # a four-card crib flush scores nothing
        ("AH 3H 7H 9H", "QH", True, 5),  # a crib flush needs all five
        ("AH 3H 7H 9S", "QH", False, 0),  # the starter cannot complete a hand flush
        ("AH 3H 7H 9S", "QH", True, 0),
    ],
)
def test_flush(hand: str, starter: str, crib: bool, flush: int) -> None:
    score = show(hand, starter, crib=crib)
    assert points_of(score, "flush") == flush
    assert hand_total(parse_cards(hand), Card.parse(starter), crib=crib) == score.total
    if flush:
        (item,) = (item for item in score.items if item.kind == "flush")
        assert len(item.cards) == flush


# --- nobs -----------------------------------------------------------------------------------


def test_nobs_jack_of_the_starters_suit() -> None:
    score = show("JH 2C 4D 9S", "KH")
    assert [(i.kind, i.cards, i.points) for i in score.items if i.kind == "nobs"] == [
        ("nobs", (Card.parse("JH"),), 1)
    ]


def test_nobs_needs_the_same_suit() -> None:
    assert "nobs" not in kinds_of(show("JH 2C 4D 9S", "KS"))


def test_jack_starter_is_heels_not_nobs() -> None:
    # A turned-up jack scores 2 for the dealer at the cut; in the show it is no nobs for anyone.
    for hand in ("2H 4C 6D 8S", "JC 2H 4D 9S", "JC JD JS 2H"):
        score = show(hand, "JH")
        assert "nobs" not in kinds_of(score), hand
        assert hand_total(parse_cards(hand), Card.parse("JH")) == score.total


def test_twenty_nine_hand() -> None:
    score = show("5H 5C 5S JD", "5D")
    assert score.total == 29
    assert kinds_of(score) == ["fifteen"] * 8 + ["double_pair_royal", "nobs"]
    assert hand_total(parse_cards("5H 5C 5S JD"), Card.parse("5D")) == 29


def test_zero_hand_is_empty() -> None:
    score = show("AH 3C 6D JS", "QH")
    assert score.items == ()
    assert score.total == 0


# --- the order players say it, and item shapes ---------------------------------------------


_ORDER = {"fifteen": 0, "pair": 1, "pair_royal": 1, "double_pair_royal": 1, "run": 2}
_ORDER |= {"flush": 3, "nobs": 4}


@pytest.mark.parametrize(
    ("hand", "starter", "kinds"),
    [
        ("JC 4H 5H 6D", "5C", {"fifteen", "pair", "run", "nobs"}),
        ("JH 4H 5H 6H", "2H", {"fifteen", "run", "flush", "nobs"}),
    ],
)
def test_items_in_spoken_order(hand: str, starter: str, kinds: set[str]) -> None:
    score = show(hand, starter)
    order = [_ORDER[item.kind] for item in score.items]
    assert order == sorted(order)
    assert set(kinds_of(score)) == kinds


def test_score_is_frozen() -> None:
    score = show("5H 5C JD 8S", "2C")
    with pytest.raises(AttributeError):
        score.items = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        score.items[0].points = 3  # type: ignore[misc]


# --- input validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starter", "message"),
    [
        ("5H 5C JD", "2C", "4 cards, not 3"),
        ("5H 5C JD 8S 9S", "2C", "4 cards, not 5"),
        ("5H 5C JD 8S", "5H", "appears twice"),
    ],
)
def test_bad_hands_are_rejected(hand: str, starter: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_hand(parse_cards(hand), Card.parse(starter))
    with pytest.raises(ValueError, match=message):
        hand_total(parse_cards(hand), Card.parse(starter))


def test_a_card_repeated_within_the_hand_is_rejected() -> None:
    five = Card.parse("5H")
    hand = [five, Card(5, five.suit), Card.parse("JD"), Card.parse("8S")]
    with pytest.raises(ValueError, match="appears twice"):
        score_hand(hand, Card.parse("2C"))
    with pytest.raises(ValueError, match="appears twice"):
        hand_total(hand, Card.parse("2C"))


def test_non_cards_are_rejected() -> None:
    with pytest.raises(ValueError, match="must be cards"):
        score_hand(["5H", "5C", "JD", "8S"], Card.parse("2C"))  # type: ignore[list-item]


def test_rank_points_rejects_five_of_a_rank_and_ranks_off_the_deck() -> None:
    assert rank_points([5, 5, 5, 5, 11]) == 28
    with pytest.raises(ValueError, match="five times"):
        rank_points([5, 5, 5, 5, 5])
    with pytest.raises(ValueError, match="from 1 to 13"):
        rank_points([5, 5, 14, 5, 5])


# --- properties -----------------------------------------------------------------------------

_FIVE = st.lists(st.sampled_from(full_deck()), min_size=5, max_size=5, unique=True)


def _check_item(item: ScoreItem, hand: list[Card], starter: Card, crib: bool) -> None:
    cards = item.cards
    ranks = sorted(card.rank for card in cards)
    assert len(set(cards)) == len(cards)
    assert set(cards) <= {*hand, starter}
    if item.kind == "fifteen":
        assert sum(card.value for card in cards) == 15
        assert item.points == 2
    elif item.kind in ("pair", "pair_royal", "double_pair_royal"):
        assert len(set(ranks)) == 1
        assert item.points == {2: 2, 3: 6, 4: 12}[len(cards)]
    elif item.kind == "run":
        assert len(cards) >= 3
        assert ranks == list(range(ranks[0], ranks[0] + len(cards)))
        assert item.points == len(cards)
    elif item.kind == "flush":
        assert len({card.suit for card in cards}) == 1
        assert item.points == len(cards) == (5 if crib else len(cards))
        assert set(hand) <= set(cards)
    elif item.kind == "nobs":
        (jack,) = cards
        assert jack in hand
        assert jack.rank == 11
        assert jack.suit is starter.suit
        assert item.points == 1
    else:
        pytest.fail(f"unexpected kind {item.kind}")


@given(_FIVE, st.booleans())
def test_property_hand_total_equals_itemised_total(cards: list[Card], crib: bool) -> None:
    hand, starter = cards[:4], cards[4]
    score = score_hand(hand, starter, crib=crib)
    assert hand_total(hand, starter, crib=crib) == score.total
    assert sum(item.points for item in score.items) == score.total


@given(_FIVE, st.booleans())
def test_property_every_item_is_what_its_kind_says(cards: list[Card], crib: bool) -> None:
    hand, starter = cards[:4], cards[4]
    score = score_hand(hand, starter, crib=crib)
    for item in score.items:
        _check_item(item, hand, starter, crib)
    # No item is counted twice.
    keys = [(item.kind, frozenset(item.cards)) for item in score.items]
    assert len(keys) == len(set(keys))


@given(_FIVE)
def test_property_hand_order_does_not_matter(cards: list[Card]) -> None:
    hand, starter = cards[:4], cards[4]
    assert score_hand(hand, starter) == score_hand(hand[::-1], starter)


def test_docstring_examples() -> None:
    # The >>> examples in engine.scoring are documentation that must stay true.
    assert doctest.testmod(engine.scoring).failed == 0
