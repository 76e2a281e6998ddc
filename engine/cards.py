"""Cards: frozen values parsed from what people type.

>>> Card.parse("5h")
Card(rank=5, suit=<Suit.HEARTS: 'H'>)
>>> str(Card.parse("TD")), str(Card.parse("10♦")), Card.parse("jc").code
('10♦', '10♦', 'JC')
>>> [str(c) for c in parse_cards("5H, 5d JC")]
['5♥', '5♦', 'J♣']
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "JACK",
    "PIP_VALUES",
    "RANK_NAMES",
    "Card",
    "Suit",
    "cards_str",
    "full_deck",
    "parse_cards",
    "visible",
    "written_like",
]


class Suit(enum.Enum):
    """The four suits; the value is the letter people type."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit as a single symbol, as shown to players."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
# A card's order and symbol by its suit's letter (``_value_``, the member's plain attribute):
# hashing a Suit, or reading its ``value`` property, runs Python code, and the scorers and the
# saved games ask for them millions of times.
_SUIT_ORDER = {suit.value: i for i, suit in enumerate(Suit)}
_SYMBOLS = {suit.value: symbol for suit, symbol in _SUIT_SYMBOLS.items()}

#: The rank of the jack (ace 1 ... king 13): the card of nobs and of his heels.
JACK = 11
#: Pip value by rank (index 0 unused): ace 1, two to ten face value, jack, queen, king 10.
#: A card's own value, the same in every variant (what counts and fifteens add up).
PIP_VALUES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: Short rank labels, index = rank (index 0 unused).
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_INPUT = {name: rank for rank, name in enumerate(RANK_NAMES) if rank}
_RANK_INPUT.update({"T": 10, "1": 1})
_SUIT_INPUT = {
    "C": Suit.CLUBS,
    "D": Suit.DIAMONDS,
    "H": Suit.HEARTS,
    "S": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
}
_CARD_RE = re.compile(r"^(10|[2-9]|[AJQKT1])(.)$")
_SPLIT_RE = re.compile(r"[\s,]+")
#: What a card quoted back in a refusal is cut to.
_SHOWN = 12


def visible(text: str) -> str:
    """``text`` as its reader sees it: without the characters that show nothing (Unicode's
    format characters: zero-width spaces and joiners, direction marks and overrides, a byte
    order mark) and the variation selectors a phone's emoji keyboard puts after a suit
    (``5♥️``), and with full-width letters and digits as their own (``５Ｈ``)."""
    if text.isascii():
        return text
    return "".join(
        ch
        for ch in unicodedata.normalize("NFKC", text)
        if unicodedata.category(ch) != "Cf" and not "\ufe00" <= ch <= "\ufe0f"
    )


def _quoted(raw: str) -> str:
    """What was typed, quoted back in a refusal: shortened, and without characters that would
    garble the sentence around it (a control character, a line break)."""
    shown = "".join(ch for ch in raw if ch.isprintable())
    if not shown:
        return "That"
    return f"“{shown if len(shown) <= _SHOWN else shown[:_SHOWN] + '…'}”"


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: ``rank`` 1 (ace) to 13 (king) and a ``suit``.

    Ranks, not values, decide pairs and runs; ``value`` is the pip value used for counts
    and fifteens (ace 1, face cards 10).
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise ValueError(f"A card's rank must be 1 to 13, not {self.rank!r}.")
        if not isinstance(self.suit, Suit):
            raise ValueError(f"A card's suit must be a Suit, not {self.suit!r}.")

    @property
    def value(self) -> int:
        """Pip value: ace 1, two to ten face value, jack, queen and king 10."""
        return PIP_VALUES[self.rank]

    @property
    def code(self) -> str:
        """ASCII code such as ``5H`` or ``10D``: used in JSON and custom ids."""
        return RANK_NAMES[self.rank] + self.suit._value_

    @property
    def index(self) -> int:
        """A number 0..51 unique to the card (suit-major)."""
        return _SUIT_ORDER[self.suit._value_] * 13 + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card whose :attr:`index` is ``index``."""
        if not 0 <= index < 52:
            raise ValueError(f"A card index must be 0 to 51, not {index}.")
        return _DECK[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card as people type it: ``5H``, ``5h``, ``10D``, ``TD``, ``AS``, ``5♥``.

        Raises ``ValueError`` with a sentence saying what was wrong.
        """
        # A code as the bot writes it (every saved game, action and button: hundreds of
        # thousands a run of the tests) is looked up; anything else is read as typed.
        found = _BY_CODE.get(text) if text.__class__ is str else None
        if found is not None:
            return found
        if not isinstance(text, str):
            raise ValueError("A card must be written as text, like 5H or QS.")
        raw = visible(text).strip()
        if not raw:
            raise ValueError(f"No card given: write it like {written_like(1)}.")
        match = _CARD_RE.match(raw.upper())
        if match is None:
            raise ValueError(
                f"{_quoted(raw)} is not a card: write the rank (A, 2-10, J, Q, K) then the suit "
                "(C, D, H, S), like 5H or 10D."
            )
        rank_text, suit_text = match.groups()
        suit = _SUIT_INPUT.get(suit_text)
        if suit is None:
            raise ValueError(f"{_quoted(raw)} has no suit I know: use C, D, H or S (or ♣ ♦ ♥ ♠).")
        return cls(_RANK_INPUT[rank_text], suit)

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + _SYMBOLS[self.suit._value_]

    def sort_key(self) -> tuple[int, int]:
        """Key for showing cards in order: by rank, then suit."""
        return (self.rank, _SUIT_ORDER[self.suit._value_])


_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))
#: Each card by its :attr:`Card.code` (``"10D"``), which :meth:`Card.parse` reads first.
_BY_CODE: dict[str, Card] = {card.code: card for card in _DECK}


def full_deck() -> list[Card]:
    """A new list of the 52 cards in a fixed order (shuffle it with an injected RNG)."""
    return list(_DECK)


#: How the sentences that ask for cards write an example: one card, two, and a hand (its
#: first cards for fewer or more than four).
_ONE_LIKE, _TWO_LIKE = "7C", "5H JD"
_HAND_LIKE = ("5H", "5D", "JC", "QS", "9C", "AS", "KH")


def written_like(count: int) -> str:
    """How ``count`` cards are written in a sentence that asks for them (every sentence that
    shows how to type cards takes its example from here).

    >>> written_like(1), written_like(2), written_like(4)
    ('7C', '5H JD', '5H 5D JC QS')
    """
    if count <= 1:
        return _ONE_LIKE
    if count == 2:
        return _TWO_LIKE
    return " ".join(_HAND_LIKE[:count])


def parse_cards(text: str, *, count: int | None = None) -> tuple[Card, ...]:
    """Read cards separated by spaces and/or commas, e.g. ``"5H 5d, JC"``; ``count``: how many
    the caller asks for, which the sentence for no cards at all shows (it is not checked).

    Raises ``ValueError`` saying which part was not a card, or that a card was repeated.
    """
    like = written_like(2 if count is None else count)
    if not isinstance(text, str):
        raise ValueError(f"Cards must be written as text, like {like}.")
    parts = [p for p in _SPLIT_RE.split(visible(text).strip()) if p]
    if not parts:
        if count == 1:
            raise ValueError(f"No card given: write it like {like}.")
        raise ValueError(f"No cards given: write them like {like}.")
    cards = tuple(Card.parse(p) for p in parts)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"{card} is named twice.")
        seen.add(card)
    return cards


def cards_str(cards: Iterable[Card]) -> str:
    """Cards joined by spaces for display, e.g. ``5♥ 5♦ J♣``."""
    return " ".join(str(c) for c in cards)
