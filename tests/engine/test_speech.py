"""Saying scores aloud: the show with a running total, and the calls in the play."""

from __future__ import annotations

import doctest
import re
from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine.speech
from engine.cards import Card, full_deck, parse_cards
from engine.pegging import score_pegging
from engine.scoring import Score, ScoreItem, ScoreKind, score_hand
from engine.speech import number_word, say_pegging, say_score
from engine.variants import SEVEN_CARD, STANDARD, Variant


def said(hand: str, starter: str, *, crib: bool = False) -> str:
    return say_score(score_hand(parse_cards(hand), Card.parse(starter), crib=crib))


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "words"),
    [
        (
            "5H 5C JD 8S",
            "2C",
            False,
            "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten",
        ),
        ("AH 3C 6D JS", "QH", False, "nothing"),
        ("AH 3H 7H 9H", "QS", True, "nothing"),  # a four-card crib flush is nothing
        ("AH 3H 7H 9H", "QS", False, "a flush is four"),
        ("AH 3H 7H 9H", "QH", True, "a flush is five"),
        ("AH 3C 6D JS", "QS", False, "one for his nobs"),
        ("7S 8D AH 2C", "3D", False, "fifteen two, and a run of three is five"),
        ("8S 7D 2H 2C", "KC", False, "fifteen two, and a pair is four"),
        ("AH 2C 3D 7S", "2S", False, "fifteen two, and a double run is ten"),
        ("6H 7C 8D 9S", "KH", False, "fifteen two, fifteen four, and a run of four is eight"),
        ("5H 5C 6S 6D", "7D", False, "a double double run is sixteen"),
        (
            "3H 3C 3S 4D",
            "5D",
            False,
            "fifteen two, fifteen four, fifteen six, and a triple run is twenty-one",
        ),
        (
            "5H 5C 5S JD",
            "5D",
            False,
            "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
            "fifteen fourteen, fifteen sixteen, four of a kind is twenty-eight, "
            "and one for his nobs is twenty-nine",
        ),
        ("7C 8C 9C 2C", "JS", False, "fifteen two, a run of three is five, and a flush is nine"),
    ],
)
def test_show_said_with_a_running_total(hand: str, starter: str, crib: bool, words: str) -> None:
    assert said(hand, starter, crib=crib) == words


@pytest.mark.parametrize(
    ("hand", "starter", "words"),
    [
        # Issue 25: "a pair is two, and a double run of three is eight" sounded like a pair
        # and a double run worth eight, ten in all; the hand is worth eight.
        ("9H 9C TD JS", "2H", "a double run is eight"),
        ("AH 2C 3D 7S", "2S", "fifteen two, and a double run is ten"),
        ("5H 6C 7D 8S", "8H", "fifteen two, fifteen four, and a double run of four is fourteen"),
        (
            "3H 3C 3S 4D",
            "5D",
            "fifteen two, fifteen four, fifteen six, and a triple run is twenty-one",
        ),
        ("5H 5C 6S 6D", "7D", "a double double run is sixteen"),
    ],
)
def test_a_double_run_is_said_with_its_pair_as_players_count_it(
    hand: str, starter: str, words: str
) -> None:
    assert said(hand, starter) == words


def test_a_pair_beside_a_single_run_is_said_apart() -> None:
    words = "fifteen two, fifteen four, fifteen six, a pair is eight, and a run of three is eleven"
    assert said("2H 2C 5D 6S", "7H") == words


def test_only_fifteens_end_on_the_last_fifteen() -> None:
    assert said("KH QC 8D 5S", "AH") == "fifteen two, fifteen four"


@pytest.mark.parametrize(
    ("pile", "words"),
    [
        ("7S 8D", "fifteen for 2"),
        ("KS QD 9C 2H", "31 for 2"),
        ("9S 9D", "a pair for 2"),
        ("9S 9D 9C", "three of a kind for 6"),
        ("2S 2D 2C 2H", "four of a kind for 12"),
        ("3S 5D 2C 4H", "a run of 4 for 4"),
        ("7D 4S 4C", "fifteen and a pair for 4"),
        ("4S 6D 5C", "fifteen and a run of 3 for 5"),
        ("5S 5D 5C", "fifteen and three of a kind for 8"),
        ("KS 9D 2C 5H 5S", "31 and a pair for 4"),
        ("5S JD 6C 7H", ""),
    ],
)
def test_play_called_with_points(pile: str, words: str) -> None:
    score = score_pegging(parse_cards(pile))
    assert say_pegging(score.items, score.total) == words


def test_play_call_joins_three_items_naturally() -> None:
    card = Card.parse("5S")
    kinds = (ScoreKind.FIFTEEN, ScoreKind.PAIR, ScoreKind.FIFTEEN)
    items = [ScoreItem(kind, (card,), 2) for kind in kinds]
    assert say_pegging(items, 6) == "fifteen, a pair and fifteen for 6"


@pytest.mark.parametrize(
    ("number", "word"),
    [
        (0, "zero"),
        (2, "two"),
        (15, "fifteen"),
        (20, "twenty"),
        (24, "twenty-four"),
        (99, "ninety-nine"),
    ],
)
def test_number_words(number: int, word: str) -> None:
    assert number_word(number) == word


def test_number_words_out_of_range() -> None:
    with pytest.raises(ValueError, match="0 to 99"):
        number_word(100)
    with pytest.raises(ValueError, match="0 to 99"):
        number_word(-1)


_WORD_VALUES = {number_word(n): n for n in range(100)}


@given(st.lists(st.sampled_from(full_deck()), min_size=5, max_size=5, unique=True), st.booleans())
def test_property_show_ends_on_the_total(cards: list[Card], crib: bool) -> None:
    score = score_hand(cards[:4], cards[4], crib=crib)
    words = say_score(score)
    if score.total == 0:
        assert words == "nothing"
        return
    if words == "one for his nobs":  # nobs alone says its total first
        assert score.total == 1
        return
    assert _WORD_VALUES[words.split()[-1]] == score.total
    # Every number said after "fifteen" or "is" is a running total, so they go up.
    totals = [_WORD_VALUES[m] for m in re.findall(r"\b(?:fifteen|is) ([a-z-]+)", words)]
    assert totals == sorted(set(totals))


def test_empty_score_is_nothing() -> None:
    assert say_score(Score()) == "nothing"


def test_docstring_examples() -> None:
    # The >>> examples in engine.speech are documentation that must stay true.
    assert doctest.testmod(engine.speech).failed == 0


# --- every show shape's words against its points ------------------------------------------

_SUITS = "CDHS"
_SET_WORDS = {
    "a pair": 2,
    "two pairs": 4,
    "three pairs": 6,
    "three of a kind": 6,
    "four of a kind": 12,
    "two times three of a kind": 12,
}


def _named(phrase: str, *, crib: bool) -> set[int]:
    """What a phrase of the show is worth by its name alone, as a player reckons it (the
    values a flush may have: four or five): independent of the engine's items."""
    if phrase in _SET_WORDS:
        return {_SET_WORDS[phrase]}
    if phrase == "a flush":
        return {5} if crib else {4, 5}
    if phrase == "one for his nobs":
        return {1}
    runs = re.fullmatch(r"(a|another) run of ([a-z]+)", phrase)
    if runs:
        return {_WORD_VALUES[runs[2]]}
    multiple = re.fullmatch(r"a (double|triple|double double) run(?: of ([a-z]+))?", phrase)
    if multiple:
        length = _WORD_VALUES[multiple[2] or "three"]
        held, inside = {"double": (2, 2), "triple": (3, 6), "double double": (4, 4)}[multiple[1]]
        return {held * length + inside}
    parts = re.fullmatch(r"([a-z]+) runs of ([a-z]+) with (.+)", phrase)
    if parts:
        named = re.split(r", | and ", parts[3])
        return {_WORD_VALUES[parts[1]] * _WORD_VALUES[parts[2]] + sum(_SET_WORDS[s] for s in named)}
    raise AssertionError(f"a phrase no player says: {phrase!r}")


def _check_words(words: str, total: int, *, crib: bool) -> None:
    """Each phrase of ``words`` is worth, by its name, what the running total gains there."""
    if words == "nothing":
        assert total == 0
        return
    running = 0
    for phrase in words.split(", "):
        phrase = phrase.removeprefix("and ")
        if phrase.startswith("fifteen "):
            now = _WORD_VALUES[phrase.removeprefix("fifteen ")]
            assert now == running + 2, words
        elif phrase == "one for his nobs" and running == 0:
            now = 1
        else:
            named, _, said = phrase.rpartition(" is ")
            now = _WORD_VALUES[said]
            assert now - running in _named(named, crib=crib), (named, now - running, words)
        running = now
    assert running == total, words


def _shapes(size: int) -> list[tuple[list[Card], Card]]:
    """One hand and starter for every multiset of ``size`` + 1 ranks (suits dealt in turn,
    so no rank repeats a suit and no hand is a flush)."""
    shapes = []
    for ranks in combinations_with_replacement(range(1, 14), size + 1):
        if any(ranks.count(rank) > 4 for rank in ranks):
            continue
        seen: dict[int, int] = {}
        cards: list[Card] = []
        for rank in ranks:
            suit = _SUITS[seen.get(rank, 0) if ranks.count(rank) > 1 else len(cards) % 4]
            seen[rank] = seen.get(rank, 0) + 1
            cards.append(Card.parse(f"{_RANK_CODES[rank]}{suit}"))
        shapes.append((cards[:-1], cards[-1]))
    return shapes


_RANK_CODES = {1: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}


@pytest.mark.parametrize(("size", "variant"), [(4, STANDARD), (5, SEVEN_CARD)])
def test_every_show_shape_is_said_in_words_worth_its_points(size: int, variant: Variant) -> None:
    # Five cards with the starter (the standard game) and six (seven-card cribbage, whose
    # shapes five cannot hold: two separate runs are two runs, never "a double run").
    rules = variant.rules()
    shapes = _shapes(size)
    assert len(shapes) > 6000
    for hand, starter in shapes:
        score = score_hand(hand, starter, rules=rules)
        _check_words(say_score(score), score.total, crib=False)


def test_two_separate_runs_are_said_as_two_runs() -> None:
    score = score_hand(parse_cards("2H 3C 4H 10D QD"), Card.parse("JC"), rules=SEVEN_CARD.rules())
    assert say_score(score) == (
        "fifteen two, fifteen four, fifteen six, a run of three is nine, "
        "and another run of three is twelve"
    )
