"""Expected points of every way to split a dealt hand into kept cards and crib cards.

The kept hand's value is exact: its average over every starter the seat has not seen (the
52 cards minus the dealt hand), as the game's rules score it. The thrown cards' value comes
from the crib table (:mod:`engine.players.crib_table`), added when the crib is the seat's
side's and subtracted when it is an opponent's; where the table does not hold for the rules,
the crib is left out (every split alike).

>>> from engine.cards import parse_cards
>>> from engine.rules import Rules
>>> best = discard_choices(parse_cards("5H 5C JD QS 9C 2D"), 2, crib_sign=1, rules=Rules())[0]
>>> " ".join(str(c) for c in best.kept), " ".join(str(c) for c in best.thrown)
('5♥ 5♣ J♦ Q♠', '9♣ 2♦')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.players import crib_table
from engine.players.fastscore import fast_show
from engine.rules import Rules

__all__ = [
    "DiscardChoice",
    "check_split",
    "discard_choices",
    "hand_ev",
    "hand_points_by_starter",
    "split_places",
    "unseen_starters",
]


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


def unseen_starters(known: Sequence[Card]) -> list[int]:
    """Indexes of the cards not among ``known``: the starters a seat that has seen only
    ``known`` (at the discard: its dealt hand) may yet be cut, in card order."""
    held = {card.index for card in known}
    return [i for i in range(52) if i not in held]


def split_places(size: int, discard_count: int) -> Iterator[tuple[list[int], tuple[int, ...]]]:
    """Every way to throw ``discard_count`` of a hand of ``size`` cards: the places of the
    cards kept and of those thrown, in the order of :func:`itertools.combinations` of the
    thrown places (the order ties keep).

    >>> list(split_places(3, 1))
    [([1, 2], (0,)), ([0, 2], (1,)), ([0, 1], (2,))]
    """
    for thrown_at in itertools.combinations(range(size), discard_count):
        yield [i for i in range(size) if i not in thrown_at], thrown_at


def hand_ev(kept: Sequence[Card], known: Sequence[Card], rules: Rules) -> float:
    """The kept cards' average show by ``rules`` over every starter not among ``known``.

    ``known`` is every card the seat has seen (at the discard: the whole dealt hand).
    """
    unseen = unseen_starters(known)
    return fast_show(rules).starter_sum([c.index for c in kept], unseen) / len(unseen)


def hand_points_by_starter(kept: Sequence[Card], known: Sequence[Card], rules: Rules) -> list[int]:
    """The kept hand's show total by ``rules`` for each unseen starter, one per starter."""
    hand = [c.index for c in kept]
    show = fast_show(rules)
    return [show.hand_points(hand, s) for s in unseen_starters(known)]


def check_split(hand: Sequence[Card], discard_count: int, rules: Rules) -> None:
    """Raise ``ValueError`` unless ``hand`` keeps the rules' cards when it throws
    ``discard_count`` (at least one)."""
    if discard_count < 1 or len(hand) != rules.kept + discard_count:
        raise ValueError(f"A hand of {len(hand)} cards cannot throw {discard_count}.")


def discard_choices(
    hand: Sequence[Card], discard_count: int, *, crib_sign: int, rules: Rules
) -> list[DiscardChoice]:
    """Every split of ``hand`` into kept and thrown cards, best expected total first, in a
    game played by ``rules``.

    ``crib_sign`` is +1 when the seat's side owns the crib (dealer, or the dealer's partner),
    -1 when an opponent does, 0 to ignore the crib. Ties keep the hand's own card order, so
    the result is deterministic.
    """
    check_split(hand, discard_count, rules)
    unseen = unseen_starters(hand)
    indexes = [c.index for c in hand]
    show = fast_show(rules)
    weigh_crib = crib_sign != 0 and crib_table.holds(rules)
    choices = []
    for kept_at, thrown_at in split_places(len(hand), discard_count):
        hand_value = show.starter_sum([indexes[i] for i in kept_at], unseen) / len(unseen)
        thrown = [indexes[i] for i in thrown_at]
        crib = crib_table.crib_value(thrown) if weigh_crib else 0.0
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
