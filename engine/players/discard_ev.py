"""Expected points of every way to split a dealt hand into kept cards and crib cards.

The kept hand's value is exact: its average over every starter the seat has not seen (the
52 cards minus the dealt hand). The thrown cards' value comes from the crib table
(:mod:`engine.players.crib_table`), added when the crib is the seat's side's and subtracted
when it is an opponent's.

>>> from engine.cards import parse_cards
>>> best = discard_choices(parse_cards("5H 5C JD QS 9C 2D"), 2, crib_sign=1)[0]
>>> " ".join(str(c) for c in best.kept), " ".join(str(c) for c in best.thrown)
('5♥ 5♣ J♦ Q♠', '9♣ 2♦')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.players.crib_table import crib_value
from engine.players.fastscore import hand_points, starter_sum
from engine.rules import SHOW_SIZE

__all__ = ["DiscardChoice", "discard_choices", "hand_ev", "hand_points_by_starter"]


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One split of the dealt hand, with its expected points.

    ``hand`` is the kept cards' average show over the unseen starters; ``crib`` the expected
    crib from ``thrown``; ``crib_sign`` is +1 when the crib belongs to the seat's side, -1 when
    it belongs to an opponent, 0 when the crib is ignored.
    """

    kept: tuple[Card, ...]
    thrown: tuple[Card, ...]
    hand: float
    crib: float
    crib_sign: int

    @property
    def total(self) -> float:
        """Expected points of this choice counting the crib with its sign."""
        return self.hand + self.crib_sign * self.crib


def _unseen(known: Sequence[Card]) -> list[int]:
    held = {card.index for card in known}
    return [i for i in range(52) if i not in held]


def hand_ev(kept: Sequence[Card], known: Sequence[Card]) -> float:
    """The kept four cards' average show over every starter not among ``known`` cards.

    ``known`` is every card the seat has seen (at the discard: the whole dealt hand).
    """
    unseen = _unseen(known)
    return starter_sum([c.index for c in kept], unseen) / len(unseen)


def hand_points_by_starter(kept: Sequence[Card], known: Sequence[Card]) -> list[int]:
    """The kept hand's show total for each unseen starter, one entry per starter."""
    hand = [c.index for c in kept]
    return [hand_points(hand, s) for s in _unseen(known)]


def discard_choices(
    hand: Sequence[Card], discard_count: int, *, crib_sign: int
) -> list[DiscardChoice]:
    """Every split of ``hand`` into kept and thrown cards, best expected total first.

    ``crib_sign`` is +1 when the seat's side owns the crib (dealer, or the dealer's partner),
    -1 when an opponent does, 0 to ignore the crib. Ties keep the hand's own card order, so
    the result is deterministic.
    """
    if discard_count not in (1, 2) or len(hand) != SHOW_SIZE + discard_count:
        raise ValueError(f"A hand of {len(hand)} cards cannot throw {discard_count}.")
    unseen = _unseen(hand)
    indexes = [c.index for c in hand]
    choices = []
    for thrown_at in itertools.combinations(range(len(hand)), discard_count):
        kept_at = [i for i in range(len(hand)) if i not in thrown_at]
        hand_value = starter_sum([indexes[i] for i in kept_at], unseen) / len(unseen)
        crib = crib_value([indexes[i] for i in thrown_at]) if crib_sign else 0.0
        choices.append(
            DiscardChoice(
                kept=tuple(hand[i] for i in kept_at),
                thrown=tuple(hand[i] for i in thrown_at),
                hand=hand_value,
                crib=crib,
                crib_sign=crib_sign,
            )
        )
    # sorted() is stable: equal totals keep the enumeration order.
    return sorted(choices, key=lambda choice: -choice.total)
