"""Every shuffle of a game, recorded as it is made, so a finished game can be replayed.

The deals come from a secure random source that cannot be seeded again, so the engine's
promise ("the same seed and the same action log give the same game") is kept by recording
what the source did instead: each time the engine shuffles (the cut for deal, every deal),
the order the cards came out in is written down, one letter a card. Replaying the action log
with :class:`ScriptedRandom`, which hands those orders back in turn, rebuilds the game exactly
(:mod:`bot.core.games.archive`). The record is as secret as the deck in the snapshot beside it.

>>> import random
>>> from engine.cards import full_deck
>>> shuffles: list[str] = []
>>> deck = full_deck()
>>> RecordingRandom(random.Random(7), shuffles).shuffle(deck)
>>> again = full_deck()
>>> ScriptedRandom(shuffles).shuffle(again)
>>> again == deck
True
"""

from __future__ import annotations

import random
import string
from collections.abc import MutableSequence, Sequence
from typing import Any

from engine.cards import Card, full_deck

__all__ = ["RecordingRandom", "ScriptedRandom", "ShufflesExhausted", "decode", "encode"]

#: One letter for each card, by its index (0..51).
_LETTERS = string.ascii_uppercase + string.ascii_lowercase
_CARDS = {card.index: card for card in full_deck()}


def encode(cards: Sequence[Card]) -> str:
    """Cards in order as one letter each: ``"AB..."``."""
    return "".join(_LETTERS[card.index] for card in cards)


def decode(text: str) -> list[Card]:
    """The cards :func:`encode` wrote, in order (``ValueError`` for a letter that is not one)."""
    try:
        return [_CARDS[_LETTERS.index(letter)] for letter in text]
    except ValueError:
        raise ValueError(f"{text!r} is not a recorded shuffle.") from None


class ShufflesExhausted(ValueError):
    """A replay asked for more shuffles than were recorded, or for a different set of cards:
    the record does not belong to this action log."""


class RecordingRandom(random.Random):
    """Draws from ``source``, and appends the result of every shuffle to ``record``."""

    def __init__(self, source: random.Random, record: list[str]) -> None:
        super().__init__(0)  # its own state is never used: every draw is the source's
        self._source = source
        self.record = record

    def random(self) -> float:
        """The source's next float."""
        return self._source.random()

    def getrandbits(self, k: int, /) -> int:
        """The source's next ``k`` bits."""
        return self._source.getrandbits(k)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle with the source, and write down the order the cards came out in."""
        self._source.shuffle(x)
        self.record.append(encode(x))


class ScriptedRandom(random.Random):
    """Hands back recorded shuffles, in order: a replay's random source. Anything else it is
    asked for is a sign the record and the log do not match."""

    def __init__(self, record: Sequence[str]) -> None:
        super().__init__(0)
        self._record = list(record)
        self._next = 0

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Put ``x`` in the next recorded order (it must hold the same cards)."""
        if self._next >= len(self._record):
            raise ShufflesExhausted("The replay shuffled more often than the game did.")
        order = decode(self._record[self._next])
        self._next += 1
        if sorted(order, key=lambda c: c.index) != sorted(x, key=lambda c: c.index):
            raise ShufflesExhausted("A recorded shuffle holds other cards than the replay's.")
        x[:] = order

    def random(self) -> float:
        """Not used by a replay: the engine only shuffles."""
        raise ShufflesExhausted("A replay only shuffles.")

    def more(self, record: Sequence[str]) -> None:
        """Hand back ``record`` too, after the shuffles given before (a game still being
        played, replayed as it goes: the shuffle of each deal it deals next)."""
        self._record.extend(record)

    @property
    def recorded(self) -> int:
        """How many shuffles it was given."""
        return len(self._record)

    @property
    def used_all(self) -> bool:
        """Whether every recorded shuffle was handed back."""
        return self._next == len(self._record)
