"""Fast show and pegging arithmetic on card indexes (0..51), for the computer players.

The players evaluate thousands of (hand, starter) pairs per decision, so they work on card
indexes and look up what the ranks score in a table built once from
:func:`engine.scoring.rank_table` (the scorer stays the one authority on fifteens, pairs
and runs). Flush and nobs are added here by the same rules as :func:`engine.scoring.hand_total`;
tests check both functions agree on random hands.

>>> from engine.cards import parse_cards, Card
>>> hand = [c.index for c in parse_cards("5H 5C JD QS")]
>>> hand_points(hand, Card.parse("10S").index)
17
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import JACK
from engine.rules import (
    FIFTEEN,
    FIFTEEN_POINTS,
    FIVE_CARD_FLUSH_POINTS,
    FOUR_CARD_FLUSH_POINTS,
    MAX_COUNT,
    MIN_RUN,
    NOBS_POINTS,
    SET_POINTS,
    THIRTY_ONE_POINTS,
    flush_points,
)
from engine.scoring import RANK_CODE, rank_table

__all__ = [
    "CODE",
    "RANK",
    "SUIT",
    "base_points",
    "card_index",
    "grouped_sum",
    "hand_points",
    "peg_points",
    "starter_sum",
]

#: Rank 1..13 of each card index.
RANK: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))
#: Suit number 0..3 of each card index (same order as :class:`engine.cards.Suit`).
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))
#: Rank code of each card index: the sum of five codes keys the scorer's rank table.
CODE: tuple[int, ...] = tuple(RANK_CODE[r] for r in RANK)


def card_index(rank: int, suit: int) -> int:
    """The index of the card of ``rank`` (1..13) and suit number ``suit`` (0..3): the inverse
    of :data:`RANK` and :data:`SUIT`.

    >>> card_index(RANK[40], SUIT[40])
    40
    """
    return suit * 13 + rank - 1


#: Rank-multiset code -> fifteens, pairs and runs: the scorer's own table, not a copy.
base_points = rank_table


def hand_points(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """What four card indexes score with the starter index: same total as ``hand_total``."""
    a, b, c, d = hand
    points = base_points()[CODE[a] + CODE[b] + CODE[c] + CODE[d] + CODE[starter]]
    suit = SUIT[a]
    if SUIT[b] == suit and SUIT[c] == suit and SUIT[d] == suit:
        points += flush_points(starter_matches=SUIT[starter] == suit, crib=crib)
    for card in hand:
        if RANK[card] == JACK and SUIT[card] == SUIT[starter]:
            points += NOBS_POINTS
    return points


def starter_sum(hand: Sequence[int], starters: Sequence[int], crib: bool = False) -> int:
    """The sum of :func:`hand_points` over every starter in ``starters`` (none in ``hand``).

    Fifteens, pairs and runs depend only on the starter's rank, so the starters are grouped
    by rank: 13 table look-ups instead of one per starter. Flush and nobs depend only on the
    starter's suit and are counted per suit.
    """
    by_rank = [0] * 14
    by_suit = [0, 0, 0, 0]
    for s in starters:
        by_rank[RANK[s]] += 1
        by_suit[SUIT[s]] += 1
    return grouped_sum(hand, by_rank, by_suit, len(starters), crib)


def grouped_sum(
    hand: Sequence[int], by_rank: Sequence[int], by_suit: Sequence[int], n: int, crib: bool
) -> int:
    """Sum of the four cards' show over ``n`` starters, given as counts per rank and suit."""
    base = base_points()
    a, b, c, d = hand
    key = CODE[a] + CODE[b] + CODE[c] + CODE[d]
    total = 0
    for rank in range(1, 14):
        if by_rank[rank]:
            total += by_rank[rank] * base[key + RANK_CODE[rank]]
    suit = SUIT[a]
    if SUIT[b] == suit and SUIT[c] == suit and SUIT[d] == suit:
        total += FIVE_CARD_FLUSH_POINTS * by_suit[suit]
        if not crib:
            total += FOUR_CARD_FLUSH_POINTS * (n - by_suit[suit])
    for card in hand:
        if RANK[card] == JACK:
            total += NOBS_POINTS * by_suit[SUIT[card]]
    return total


def peg_points(series: Sequence[int], count: int) -> int:
    """Points the last rank of ``series`` scores (the ranks since the count was reset, the
    new card last) at the new ``count``: fifteen, thirty-one, sets and runs, as
    :func:`engine.pegging.score_pegging` scores them (the go and the last card aside)."""
    if count == FIFTEEN:
        points = FIFTEEN_POINTS
    elif count == MAX_COUNT:
        points = THIRTY_ONE_POINTS
    else:
        points = 0
    n = len(series)
    last = series[n - 1]
    if n > 1 and series[n - 2] == last:
        same = 2
        while same < n and series[n - 1 - same] == last:
            same += 1
        return points + SET_POINTS[same]  # a repeated rank ends any run at once
    # The longest run ending here: walk back while the ranks stay distinct, and note each
    # length whose ranks span exactly that many values.
    seen = 1 << last
    low = high = last
    run = 0
    for i in range(n - 2, -1, -1):
        rank = series[i]
        bit = 1 << rank
        if seen & bit:
            break
        seen |= bit
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        size = n - i
        if size >= MIN_RUN and high - low == size - 1:
            run = size
    return points + run
