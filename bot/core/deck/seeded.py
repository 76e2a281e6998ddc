"""A shuffle anyone can check: every deck comes from a secret seed by a written procedure.

Each time a game shuffles (every cut for deal, every deal), a fresh seed of 32 random bytes is
drawn from the secure source, and the deck is put in the order the seed gives:

1. Start from the 52 cards in the fixed order of :func:`engine.cards.full_deck`: clubs, then
   diamonds, hearts, spades, each from ace to king (card *k* has index *k*, 0..51).
2. The seed gives a stream of bytes: SHA-256(seed ‖ 0), SHA-256(seed ‖ 1), ... one after
   another, where the counter is 8 bytes, big-endian. The stream is read 4 bytes at a time
   as big-endian unsigned numbers *u* (0 ≤ *u* < 2³²).
3. Fisher-Yates, from the end: for *i* = 51 down to 1, take the next *u* from the stream; if
   *u* ≥ 2³² − (2³² mod (*i* + 1)) it is thrown away and the next one taken (so every *j* is
   equally likely); then *j* = *u* mod (*i* + 1), and the cards at *i* and *j* change places.
4. The deck is dealt from the front: one card at a time from the dealer's left, then (three
   players) one card to the crib, then the next card is the starter.

The table shows SHA-256(seed) (the seal) when the cards are dealt, and the seed once the deal
has been shown, so anyone can check that the deck was fixed before anyone played and that it is
the deck the seed gives (:func:`verify_command` writes the command that checks a deal). The
standard library's ``random`` is not used for the order: its algorithms may change between
Python versions.

>>> seed = bytes(range(32))
>>> deck = deck_from_seed(seed)
>>> len(deck), len(set(deck))
(52, 52)
>>> deck == deck_from_seed(seed)
True
>>> seal_of(seed.hex()) == hashlib.sha256(seed).hexdigest()
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, full_deck
from engine.rules import Rules
from engine.variants import STANDARD, Variant

__all__ = [
    "SEED_BYTES",
    "DealtFromSeed",
    "Seal",
    "SeedDealer",
    "deal_from_seed",
    "deck_from_seed",
    "parse_seed",
    "permutation",
    "seal_of",
    "verify_command",
]

#: How long a seed is, in bytes (shown as twice as many hex digits).
SEED_BYTES = 32
_RANGE = 1 << 32


def _stream(seed: bytes) -> Iterator[int]:
    """The seed's numbers: SHA-256 in counter mode, read 4 bytes at a time."""
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for at in range(0, len(block), 4):
            yield int.from_bytes(block[at : at + 4], "big")
        counter += 1


def permutation(seed: bytes, size: int) -> list[int]:
    """The order of ``size`` things the seed gives (Fisher-Yates from the end, see above)."""
    order = list(range(size))
    numbers = _stream(seed)
    for i in range(size - 1, 0, -1):
        bound = i + 1
        limit = _RANGE - _RANGE % bound
        u = next(numbers)
        while u >= limit:
            u = next(numbers)
        j = u % bound
        order[i], order[j] = order[j], order[i]
    return order


def deck_from_seed(seed: bytes) -> list[Card]:
    """The whole deck, top first, that ``seed`` gives."""
    deck = full_deck()
    return [deck[i] for i in permutation(seed, len(deck))]


def seal_of(seed_hex: str) -> str:
    """The seal of a seed written in hex: SHA-256 of its bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def parse_seed(text: str) -> bytes:
    """A seed as people paste it (64 hex digits); ``ValueError`` with a sentence otherwise."""
    cleaned = text.strip().strip("`").lower()
    if len(cleaned) != 2 * SEED_BYTES or any(c not in "0123456789abcdef" for c in cleaned):
        raise ValueError(f"A seed is {2 * SEED_BYTES} hex digits (0-9, a-f).")
    return bytes.fromhex(cleaned)


@dataclass(frozen=True, slots=True)
class DealtFromSeed:
    """What a seed deals to a table playing by some rules: each hand in the order it was
    dealt (the first is left of the dealer, the last the dealer's), the cards the pack gives
    the crib (three players: one), the starter, and the whole deck."""

    hands: tuple[tuple[Card, ...], ...]
    crib_cards: tuple[Card, ...]
    starter: Card
    deck: tuple[Card, ...]


def deal_from_seed(seed: bytes, rules: Rules) -> DealtFromSeed:
    """The hands, the crib's cards from the pack and the starter ``seed`` deals to a table
    playing by ``rules`` (as the game deals: one card at a time from the dealer's left).

    >>> dealt = deal_from_seed(bytes(32), Rules.standard(2))
    >>> [len(hand) for hand in dealt.hands]
    [6, 6]
    >>> dealt.starter == dealt.deck[12]
    True
    """
    deck = deck_from_seed(seed)
    # Seats by their place from the dealer's left: the dealer is the last.
    order = rules.deal_order(rules.seats - 1)
    hands: list[list[Card]] = [[] for _ in range(rules.seats)]
    for seat, card in zip(order, deck, strict=False):
        hands[seat].append(card)
    rest = deck[len(order) :]
    crib = tuple(rest[: rules.crib_from_pack])
    starter = rest[rules.crib_from_pack]
    return DealtFromSeed(tuple(tuple(hand) for hand in hands), crib, starter, tuple(deck))


@dataclass(frozen=True, slots=True)
class Seal:
    """What the table shows of one deal's shuffle: the seal, and the seed once it may be
    shown (None before). A game begun before shuffles were sealed has neither
    (:data:`UNSEALED`): the table says its deals cannot be checked."""

    seal: str | None
    seed: str | None


#: The shuffle of a game begun before shuffles were sealed: no seal, no seed, nothing to check.
UNSEALED = Seal(None, None)


class SeedDealer(random.Random):
    """A random source whose every shuffle comes from a fresh seed (drawn from ``source``),
    by the procedure above; each seed is appended to ``seeds`` in hex. Anything else it is
    asked for comes from ``source``."""

    def __init__(self, source: random.Random, seeds: list[str] | None = None) -> None:
        super().__init__(0)  # its own state is never used
        self.source = source
        self.seeds: list[str] = [] if seeds is None else seeds

    def random(self) -> float:
        """The source's next float."""
        return self.source.random()

    def getrandbits(self, k: int, /) -> int:
        """The source's next ``k`` bits."""
        return self.source.getrandbits(k)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Put the cards of ``x`` in the order a fresh seed gives (they are first put in the
        fixed order of the full deck, so the seed alone decides)."""
        seed = self.source.randbytes(SEED_BYTES)
        cards: Sequence[Card] = sorted(x, key=lambda card: card.index)
        x[:] = [cards[i] for i in permutation(seed, len(cards))]
        self.seeds.append(seed.hex())


def verify_command(
    seed: str,
    seal: str,
    rules: Rules,
    starter: Card | None = None,
    hands: Sequence[Sequence[Card]] = (),
) -> str:
    """The one command that checks a deal, complete as the table, ``/cribbage verify`` and
    docs/shuffle.md write it: the seed, the seal, the game's variant (unless standard) and
    its players, and, given them, the starter and each hand shown, from the dealer's left
    to the dealer (``python -m bot verify`` in :mod:`bot.tools.verify` runs it).

    >>> verify_command("ab", "cd", Rules.standard(3), Card.parse("5H"), [[Card.parse("JC")]])
    'python -m bot verify ab cd --players 3 --starter 5H --hand "JC"'
    """
    variant = Variant.of(rules)
    parts = ["python -m bot verify", seed, seal]
    if variant is not None and variant.name != STANDARD.name:
        parts.append(f"--variant {variant.name}")
    parts.append(f"--players {rules.seats}")
    if starter is not None:
        parts.append(f"--starter {starter.code}")
    parts += [f'--hand "{" ".join(card.code for card in hand)}"' for hand in hands]
    return " ".join(parts)
