"""Cards: values, names, and reading every form people type (DESIGN.md section 3)."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.cards import Card, Suit, cards_str, full_deck, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("5H", 5, Suit.HEARTS),
        ("5h", 5, Suit.HEARTS),
        ("10D", 10, Suit.DIAMONDS),
        ("10d", 10, Suit.DIAMONDS),
        ("TD", 10, Suit.DIAMONDS),
        ("td", 10, Suit.DIAMONDS),
        ("JC", 11, Suit.CLUBS),
        ("qs", 12, Suit.SPADES),
        ("KH", 13, Suit.HEARTS),
        ("AS", 1, Suit.SPADES),
        ("as", 1, Suit.SPADES),
        ("5♥", 5, Suit.HEARTS),
        ("10♦", 10, Suit.DIAMONDS),
        ("J♣", 11, Suit.CLUBS),
        ("a♠", 1, Suit.SPADES),
        ("q♡", 12, Suit.HEARTS),
        ("  7s ", 7, Suit.SPADES),
        # What shows as a card is one: pasted with a zero-width space or a direction mark, a
        # suit from a phone's emoji keyboard (with its variation selector), full-width.
        ("5H\u200b", 5, Suit.HEARTS),
        ("\u200e10D", 10, Suit.DIAMONDS),
        ("\ufeffqs", 12, Suit.SPADES),
        ("5♥\ufe0f", 5, Suit.HEARTS),
        ("K♠️", 13, Suit.SPADES),
        ("５Ｈ", 5, Suit.HEARTS),
    ],
)
def test_parse_accepts_what_people_type(text: str, rank: int, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (Card.parse, "", "No card given"),
        (Card.parse, "   ", "No card given"),
        (Card.parse, "5X", "no suit I know"),
        (Card.parse, "10", "no suit I know"),
        (Card.parse, "11H", "is not a card"),
        (Card.parse, "ZZ", "is not a card"),
        (Card.parse, "5", "is not a card"),
        (Card.parse, "0H", "is not a card"),
        (Card.parse, "five of hearts", "is not a card"),
        (parse_cards, "", "No cards given: write them like 5H JD"),
        (functools.partial(parse_cards, count=1), "", r"No card given: write it like 7C\."),
        (functools.partial(parse_cards, count=4), "", "write them like 5H 5D JC QS"),
        (Card.parse, "", r"No card given: write it like 7C\."),
        (parse_cards, " , ", "No cards given"),
        (parse_cards, "5H 5h", "5♥ is named twice"),
        (parse_cards, "5H XX", "“XX” is not a card"),
        (parse_cards, "5H 9Z", "no suit I know"),
    ],
)
def test_parse_rejects_anything_else_with_a_reason(
    parse: Callable[[str], object], text: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        parse(text)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(ValueError, match="as text"):
        Card.parse(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="as text"):
        parse_cards(None)  # type: ignore[arg-type]


def test_parse_error_quotes_what_was_typed_shortened() -> None:
    with pytest.raises(ValueError) as caught:
        Card.parse("this is far too long to be a card")
    assert "“this is far …”" in str(caught.value)


#: Characters that show nothing or turn the text around them: a refusal must not quote them back
#: (a right-to-left override would show the rest of its sentence backwards).
_UNSEEN = (
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    "\ufeff\x00\x1b"
)
_TYPED = st.text(alphabet=st.sampled_from([*_UNSEEN, *"5HJD10♥ ,xX*@<>#`"]), max_size=30)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(_TYPED, st.text(max_size=40)))
@example(text="\u202eH5")
@example(text="5H \u202eDJ")
@example(text="\x00")
def test_a_refusal_quotes_only_what_can_be_seen(text: str) -> None:
    """Whatever is typed, cards are read or refused in one short sentence that quotes no
    character that shows nothing, controls the text's direction or breaks the line."""
    try:
        parse_cards(text)
    except ValueError as refused:
        said = str(refused)
        assert said and len(said) <= 120, said
        assert all(ch.isprintable() and unicodedata.category(ch) != "Cf" for ch in said), said
        assert "“”" not in said, said


@pytest.mark.parametrize(
    "text",
    [
        "5H JD QS",
        "5h,jd,qs",
        "5H, JD, QS",
        "  5♥ J♦   Q♠ ",
        "5H,JD QS",
        "5h\tjd\nqs",
        "5H\u200b JD\u200b QS",
    ],
)
def test_parse_cards_spaces_or_commas(text: str) -> None:
    assert parse_cards(text) == (
        Card(5, Suit.HEARTS),
        Card(11, Suit.DIAMONDS),
        Card(12, Suit.SPADES),
    )


def test_parse_cards_keeps_the_order_typed() -> None:
    assert [c.code for c in parse_cards("QS 5H AC")] == ["QS", "5H", "AC"]


def test_str_is_short_and_readable() -> None:
    assert [str(c) for c in parse_cards("5H 10D JC AS")] == ["5♥", "10♦", "J♣", "A♠"]
    assert cards_str(parse_cards("5H 10D")) == "5♥ 10♦"


def test_code_is_ascii_and_parses_back() -> None:
    for card in full_deck():
        assert card.code.isascii()
        assert Card.parse(card.code) == card
        assert Card.parse(str(card)) == card


def test_values_ace_one_faces_ten() -> None:
    values = {card.rank: card.value for card in full_deck()}
    assert values == {1: 1, **{r: r for r in range(2, 11)}, 11: 10, 12: 10, 13: 10}


def test_index_round_trip_and_full_deck() -> None:
    deck = full_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert sorted(card.index for card in deck) == list(range(52))
    assert all(Card.from_index(card.index) == card for card in deck)
    assert full_deck() is not deck  # a fresh list each time, safe to shuffle
    with pytest.raises(ValueError, match="0 to 51"):
        Card.from_index(52)


def test_sort_key_orders_by_rank_then_suit() -> None:
    cards = sorted(parse_cards("KS 2H 2C AD"), key=Card.sort_key)
    assert [c.code for c in cards] == ["AD", "2C", "2H", "KS"]


def test_invalid_cards_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="rank must be 1 to 13"):
        Card(14, Suit.SPADES)
    with pytest.raises(ValueError, match="suit must be a Suit"):
        Card(5, "H")  # type: ignore[arg-type]


def test_cards_are_frozen_values() -> None:
    card = Card.parse("5H")
    assert card == Card(5, Suit.HEARTS)
    assert hash(card) == hash(Card(5, Suit.HEARTS))
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]
    assert Suit.HEARTS.symbol == "♥"
