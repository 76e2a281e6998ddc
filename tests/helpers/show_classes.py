"""Every (hand, starter) combination of a hand size, in classes that score alike by the rules.

There are C(52, 5) * 47 = 122,151,120 five-card hands with a starter (seven-card cribbage):
too many to score one by one in the default test run. By the rules a show is worth what its
ranks make (fifteens, pairs, runs: ranks alone) plus a flush (every hand card of one suit;
the starter of that suit or not) plus nobs (a jack in the hand of the starter's suit), and
nothing else about the suits counts. So every combination falls in exactly one class, named
by

- the hand's ranks (a multiset) and the starter's rank, and
- its suit pattern: :data:`FLUSH_WITH_STARTER`, :data:`FLUSH_NOT_STARTER` (every hand card of
  one suit, the starter of it or not), :data:`NOBS` (no flush, a jack of the starter's suit in
  the hand) or :data:`PLAIN` (neither),

and :func:`classes` gives each class once, with one concrete combination of it (its suits
varied from class to class) and how many combinations it holds, counted from the numbers of
ways to choose suits. The counts are checked to add up to every combination, and against a
count of every suit choice for all three-card classes and for sampled five-card ones
(``tests/engine/test_variant_shows.py``); a scorer checked on each class's combination and
weighted by its count is checked on every combination, provided suits matter only as the
rules say (that test also renames suits on sampled hands, and ``-m exhaustive`` scores every
five-card combination one by one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod

from tests.helpers.reference_cribbage import (
    JACK,
    RANKS,
    SUITS,
    RefCard,
    fifteens,
    flush_points,
    maximal_runs,
    nobs_points,
    pairs,
)

__all__ = [
    "FLUSH_NOT_STARTER",
    "FLUSH_WITH_STARTER",
    "NOBS",
    "PATTERNS",
    "PLAIN",
    "ShowClass",
    "classes",
    "pattern_counts",
    "pattern_of",
    "reference_show",
]

FLUSH_WITH_STARTER = "flush with the starter"
FLUSH_NOT_STARTER = "flush, the starter of another suit"
NOBS = "no flush, nobs"
PLAIN = "no flush, no nobs"
PATTERNS = (FLUSH_WITH_STARTER, FLUSH_NOT_STARTER, NOBS, PLAIN)


@dataclass(frozen=True)
class ShowClass:
    """One class: ``hand`` and ``starter`` one combination of it, ``weight`` how many
    combinations of the 52 cards it holds."""

    ranks: tuple[int, ...]
    starter_rank: int
    pattern: str
    hand: tuple[RefCard, ...]
    starter: RefCard
    weight: int


def pattern_of(hand: tuple[RefCard, ...], starter: RefCard) -> str:
    """The suit pattern of one combination (see the module)."""
    suits = {card.suit for card in hand}
    if len(suits) == 1:
        return FLUSH_WITH_STARTER if starter.suit in suits else FLUSH_NOT_STARTER
    if any(card.rank == JACK and card.suit == starter.suit for card in hand):
        return NOBS
    return PLAIN


def pattern_counts(ranks: tuple[int, ...], starter_rank: int) -> dict[str, int]:
    """How many combinations with these hand ranks and this starter rank have each pattern.

    Every way: the suits of each rank's cards (C(4, n) for n cards of a rank) and a suit for
    the starter among those its rank has left. A flush needs distinct ranks in one suit (4
    suits), with the starter of that suit (only if its rank is not in the hand) or of one of
    the 3 others. Nobs: for each of the 4 starter suits, the jacks' suits must include it
    (C(3, jacks - 1) ways) and the starter's rank's cards in the hand must leave it (C(3, n)),
    which a flush with the starter and a jack also does (so those are taken out of NOBS).
    """
    held = Counter(ranks)
    total = prod(comb(4, n) for n in held.values()) * (4 - held[starter_rank])
    distinct = all(n == 1 for n in held.values())
    with_starter = 4 if distinct and not held[starter_rank] else 0
    not_starter = 12 if distinct else 0
    jacks = held[JACK]
    if jacks and starter_rank != JACK:
        others = prod(comb(4, n) for rank, n in held.items() if rank not in (JACK, starter_rank))
        nobs = 4 * comb(3, jacks - 1) * comb(3, held[starter_rank]) * others
        nobs -= with_starter
    else:
        nobs = 0
    plain = total - with_starter - not_starter - nobs
    return {FLUSH_WITH_STARTER: with_starter, FLUSH_NOT_STARTER: not_starter, NOBS: nobs,
            PLAIN: plain}  # fmt: skip


def _example(
    ranks: tuple[int, ...], starter_rank: int, pattern: str, turn: int
) -> tuple[tuple[RefCard, ...], RefCard]:
    """One combination with this pattern, its suits tried in an order turned by ``turn``
    (so that every suit is the flush's, the starter's and the jack's in some classes)."""
    suits = SUITS[turn % 4 :] + SUITS[: turn % 4]
    held = Counter(ranks)
    order = sorted(held)
    choices = [list(combinations(suits, held[rank])) for rank in order]
    for chosen in product(*choices):
        hand = tuple(
            RefCard(rank, suit)
            for rank, picked in zip(order, chosen, strict=True)
            for suit in picked
        )
        for suit in suits:
            starter = RefCard(starter_rank, suit)
            if starter not in hand and pattern_of(hand, starter) == pattern:
                return hand, starter
    raise AssertionError(f"no combination of {ranks} and {starter_rank} is {pattern}")


def classes(size: int) -> Iterator[ShowClass]:
    """Every class of ``size``-card hands with a starter that holds a combination, once."""
    turn = 0
    for ranks in combinations_with_replacement(RANKS, size):
        if any(ranks.count(rank) > 4 for rank in set(ranks)):
            continue
        for starter_rank in RANKS:
            if ranks.count(starter_rank) == 4:
                continue
            for pattern, weight in pattern_counts(ranks, starter_rank).items():
                if weight:
                    turn += 1
                    hand, starter = _example(ranks, starter_rank, pattern, turn)
                    yield ShowClass(ranks, starter_rank, pattern, hand, starter, weight)


@cache
def _rank_show(ranks: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """The reference's fifteens, pairs and runs of some ranks (a hand's with its starter)."""
    return fifteens(ranks), pairs(ranks), tuple(maximal_runs(ranks))


def reference_show(
    hand: tuple[RefCard, ...], starter: RefCard, *, crib: bool
) -> tuple[int, int, tuple[int, ...], int, int]:
    """What the reference says ``hand`` with ``starter`` holds: (fifteens, pairs, run lengths,
    flush points, nobs points), by the reference's own functions (those of the ranks, which
    read ranks only, remembered by the sorted ranks)."""
    fifteen, pair, runs = _rank_show(tuple(sorted([*(card.rank for card in hand), starter.rank])))
    return (fifteen, pair, runs, flush_points(hand, starter, crib=crib),
            nobs_points(hand, starter))  # fmt: skip
