"""Scoring in the play: what the last card of the pile earns, rule by rule."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.pegging
from engine.cards import Card, full_deck, parse_cards
from engine.pegging import pile_count, score_pegging
from engine.rules import Rules

MAX_COUNT = Rules().points.max_count


def called(pile: str) -> list[tuple[str, int]]:
    return [(item.kind, item.points) for item in score_pegging(parse_cards(pile)).items]


# --- worked examples from /work/shared/rules/ ------------------------------------------------


def test_run_in_any_order_among_the_latest_cards() -> None:
    # 000: A 3 5 7 6 -- the 5, 7 and 6 form a run of three.
    score = score_pegging(parse_cards("AS 3D 5C 7H 6S"))
    assert [(i.kind, i.points) for i in score.items] == [("run", 3)]
    assert score.items[0].cards == parse_cards("5C 7H 6S")


# --- fifteen and thirty-one -----------------------------------------------------------------


def test_thirty_one_scores_two_not_three() -> None:
    # The go point for 31 is not on top of it: exactly 31 is 2, nothing more.
    score = score_pegging(parse_cards("KS QD 9C 2H"))
    assert [(i.kind, i.points) for i in score.items] == [("thirty_one", 2)]
    assert score.total == 2


def test_count_over_thirty_one_is_rejected() -> None:
    with pytest.raises(ValueError, match="32"):
        score_pegging(parse_cards("KS QD 9C 3H"))


def test_empty_or_repeated_pile_is_rejected() -> None:
    with pytest.raises(ValueError, match="No card"):
        score_pegging(())
    five = Card.parse("5H")
    with pytest.raises(ValueError, match="twice"):
        score_pegging([five, Card(5, five.suit)])


# --- runs -----------------------------------------------------------------------------------


def test_run_grows_card_by_card() -> None:
    pile = parse_cards("6S 4D 5C 3H 7S")
    expected = [0, 0, 3 + 2, 4, 5]  # 6-4-5 is fifteen and a run
    assert [score_pegging(pile[: n + 1]).total for n in range(len(pile))] == expected


# --- the calls, rule by rule ---------------------------------------------------------------

#: Piles whose last card earns exactly these calls, each named after the rule it checks.
CALLS = [
    # Worked example 000: 5 J 6 7 -- the jack is foreign, so 5, 6 and 7 are no run.
    pytest.param("5S JD 6C 7H", [], id="foreign card breaks the run"),
    # Fifteen and thirty-one.
    pytest.param("7S 8D", [("fifteen", 2)], id="fifteen scores two (1)"),
    pytest.param("KS 2D 3C", [("fifteen", 2)], id="fifteen scores two (2)"),
    # Pairs.
    pytest.param("9S 9D", [("pair", 2)], id="pair scores two"),
    pytest.param("9S 9D 9C", [("pair_royal", 6)], id="pair royal scores six"),
    pytest.param("2S 2D 2C 2H", [("double_pair_royal", 12)], id="double pair royal scores twelve"),
    pytest.param("9S 8D 9C", [], id="pair must be consecutive"),
    # A ten and a king are both worth ten but are not a pair.
    pytest.param("10S KD", [], id="pair is by rank not value"),
    # The first 4 is cut off by the 6: the last three cards are a pair, not a pair royal.
    pytest.param("4S 6D 4C 4H", [("pair", 2)], id="pair royal counts only the consecutive cards"),
    pytest.param(
        "5S 5D 5C", [("fifteen", 2), ("pair_royal", 6)], id="fifteen and pair royal on one card"
    ),
    pytest.param(
        "KS 9D 2C 5H 5S", [("thirty_one", 2), ("pair", 2)], id="thirty one and a pair on one card"
    ),
    # Runs.
    pytest.param("2S 3D 4C", [("run", 3)], id="run of three"),
    # 3, 5, 2, 4: the 4 completes a run of four.
    pytest.param("3S 5D 2C 4H", [("run", 4)], id="runs out of order"),
    # A run of four is 4, not 4 + 3.
    pytest.param("AS 2D 3C 4H", [("run", 4)], id="longest run counts once (1)"),
    pytest.param("AS 2D 3C 4H 5S", [("fifteen", 2), ("run", 5)], id="longest run counts once (2)"),
    pytest.param("9S 3D 4C 5H", [("run", 3)], id="run after a foreign card"),
    # The second 6 pairs the first; 4-5-6 is not a run any more because a repeated rank sits
    # inside it. The card scores the pair only.
    pytest.param("4S 5D 6C 6H", [("pair", 2)], id="run and a pair never come from the same card"),
    # 3, 4, 4, 5: the second 4 is foreign to any run through the 5.
    pytest.param("3S 4D 4C 5H", [], id="run broken by a pair"),
    # 4, 4, 5, 6: the latest three (4, 5, 6) are a run.
    pytest.param("4S 4D 5C 6H", [("run", 3)], id="run resumes after the pair is left behind"),
    pytest.param("QS KD AC", [], id="ace is low in runs (1)"),
    pytest.param("AS 2D 3C", [("run", 3)], id="ace is low in runs (2)"),
    pytest.param("4S 6D 5C", [("fifteen", 2), ("run", 3)], id="fifteen and run on one card"),
]


@pytest.mark.parametrize(("pile", "calls"), CALLS)
def test_the_last_card_earns_what_the_rules_say(pile: str, calls: list[tuple[str, int]]) -> None:
    assert called(pile) == calls


# --- properties -----------------------------------------------------------------------------


@st.composite
def piles(draw: st.DrawFn) -> list[Card]:
    """A legal pile: cards in a random order, stopping before the count would pass 31."""
    order = draw(st.permutations(full_deck()))
    length = draw(st.integers(min_value=1, max_value=13))
    pile: list[Card] = []
    for card in order:
        if len(pile) == length or pile_count(pile) + card.value > MAX_COUNT:
            break
        pile.append(card)
    return pile


def _is_run(cards: list[Card] | tuple[Card, ...]) -> bool:
    ranks = sorted(card.rank for card in cards)
    return len(ranks) >= 3 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


@given(piles())
def test_property_run_has_no_foreign_card_and_is_longest(pile: list[Card]) -> None:
    score = score_pegging(pile)
    runs = [item for item in score.items if item.kind == "run"]
    longest = max((n for n in range(3, len(pile) + 1) if _is_run(pile[-n:])), default=0)
    if longest:
        (run,) = runs
        # The run is exactly the latest cards, with nothing foreign among them.
        assert run.cards == tuple(pile[-longest:])
        assert _is_run(run.cards)
        assert run.points == longest
    else:
        assert runs == []


@given(piles())
def test_property_points_match_the_rules(pile: list[Card]) -> None:
    score = score_pegging(pile)
    count = pile_count(pile)
    kinds = {item.kind: item.points for item in score.items}
    assert ("fifteen" in kinds) == (count == 15)
    assert ("thirty_one" in kinds) == (count == MAX_COUNT)
    same = 1
    while same < len(pile) and pile[-1 - same].rank == pile[-1].rank:
        same += 1
    sets = {"pair": 2, "pair_royal": 3, "double_pair_royal": 4}
    assert [sets[k] for k in kinds if k in sets] == ([same] if same >= 2 else [])
    assert score.total == sum(item.points for item in score.items)
    assert all(item.cards[-1] == pile[-1] for item in score.items)


def test_docstring_examples() -> None:
    # The >>> examples in engine.pegging are documentation that must stay true.
    assert doctest.testmod(engine.pegging).failed == 0
