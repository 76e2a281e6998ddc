"""Fast show and pegging arithmetic on card indexes (0..51), for the computer players.

The players evaluate thousands of (hand, starter) pairs per decision, so they work on card
indexes and look up what the ranks score in the scorer's own tables
(:func:`engine.scoring.rank_table`: the scorer stays the one authority on fifteens, pairs and
runs). Both are made for one game's rules (:func:`fast_show`, :func:`peg_scorer`): hands of
the rules' size, flush and nobs as the rules score them (the same rules as
:func:`engine.scoring.hand_total`; tests check both agree on random hands).

>>> from engine.cards import parse_cards, Card
>>> from engine.rules import Rules
>>> hand = [c.index for c in parse_cards("5H 5C JD QS")]
>>> fast_show(Rules()).hand_points(hand, Card.parse("10S").index)
17
>>> peg = peg_scorer(Rules().points)
>>> peg([5, 10], 15), peg([4, 6, 5], 15), peg([7, 7, 7], 21)
(2, 5, 6)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from functools import cache

from engine.cards import JACK
from engine.rules import Points, Rules
from engine.scoring import RANK_CODE, rank_table

__all__ = [
    "CODE",
    "RANK",
    "SUIT",
    "FastShow",
    "PegScorer",
    "card_index",
    "fast_show",
    "peg_scorer",
]

#: Rank 1..13 of each card index.
RANK: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))
#: Suit number 0..3 of each card index (same order as :class:`engine.cards.Suit`).
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))
#: Rank code of each card index: the sum of the shown cards' codes keys the rank table.
CODE: tuple[int, ...] = tuple(RANK_CODE[r] for r in RANK)

#: The points the last rank of a series scores at a count (see :func:`peg_scorer`).
PegScorer = Callable[[Sequence[int], int], int]


def card_index(rank: int, suit: int) -> int:
    """The index of the card of ``rank`` (1..13) and suit number ``suit`` (0..3): the inverse
    of :data:`RANK` and :data:`SUIT`.

    >>> card_index(RANK[40], SUIT[40])
    40
    """
    return suit * 13 + rank - 1


class FastShow:
    """The show of one game's rules on card indexes: a hand of the rules' kept size (or a
    crib of its size) with a starter."""

    def __init__(
        self,
        points: Points,
        kept: int,
        crib_size: int,
        hand_flush: tuple[int, int],
        crib_flush: tuple[int, int],
    ) -> None:
        self._points = points
        self._crib_size = crib_size
        #: Rank-multiset code -> fifteens, pairs and runs of a hand with the starter: the
        #: scorer's own table, not a copy.
        self.hand_base = rank_table(kept + 1, points)
        self.kept = kept
        self.nobs = points.nobs
        # By crib?: flush points without and with the starter of the hand's suit.
        self._flush = {False: hand_flush, True: crib_flush}

    @functools.cached_property
    def crib_base(self) -> dict[int, int]:
        """The same for a crib with the starter (built when first asked for: a crib of
        another size than the hands' costs seconds and most players never look)."""
        return rank_table(self._crib_size + 1, self._points)

    def hand_points(self, hand: Sequence[int], starter: int, crib: bool = False) -> int:
        """What the card indexes of ``hand`` score with the starter index: the same total as
        ``hand_total``."""
        if len(hand) == 4:
            # Four cards (the standard game's hand and crib), unrolled: the expert calls this
            # some 700 times a discard.
            a, b, c, d = hand
            key = CODE[a] + CODE[b] + CODE[c] + CODE[d]
            suit = SUIT[a]
            if SUIT[b] != suit or SUIT[c] != suit or SUIT[d] != suit:
                suit = -1
        else:
            key, suit = _code_and_suit(hand)
        points = (self.crib_base if crib else self.hand_base)[key + CODE[starter]]
        if suit >= 0:
            points += self._flush[crib][SUIT[starter] == suit]
        for card in hand:
            if RANK[card] == JACK and SUIT[card] == SUIT[starter]:
                points += self.nobs
        return points

    def starter_sum(self, hand: Sequence[int], starters: Sequence[int], crib: bool = False) -> int:
        """The sum of :meth:`hand_points` over every starter in ``starters`` (none in ``hand``).

        Fifteens, pairs and runs depend only on the starter's rank, so the starters are
        grouped by rank: 13 table look-ups instead of one per starter. Flush and nobs depend
        only on the starter's suit and are counted per suit.
        """
        by_rank = [0] * 14
        by_suit = [0, 0, 0, 0]
        for s in starters:
            by_rank[RANK[s]] += 1
            by_suit[SUIT[s]] += 1
        return self.grouped_sum(hand, by_rank, by_suit, len(starters), crib)

    def grouped_sum(
        self,
        hand: Sequence[int],
        by_rank: Sequence[int],
        by_suit: Sequence[int],
        n: int,
        crib: bool,
    ) -> int:
        """Sum of the hand's show over ``n`` starters, given as counts per rank and suit."""
        base = self.crib_base if crib else self.hand_base
        key, suit = _code_and_suit(hand)
        total = 0
        for rank in range(1, 14):
            if by_rank[rank]:
                total += by_rank[rank] * base[key + RANK_CODE[rank]]
        if suit >= 0:
            alone, with_starter = self._flush[crib]
            total += with_starter * by_suit[suit] + alone * (n - by_suit[suit])
        for card in hand:
            if RANK[card] == JACK:
                total += self.nobs * by_suit[SUIT[card]]
        return total


def _code_and_suit(hand: Sequence[int]) -> tuple[int, int]:
    """The hand's rank-multiset code, and its one suit (-1 when its cards are not all of one
    suit: no flush)."""
    key = 0
    suit = SUIT[hand[0]]
    for card in hand:
        key += CODE[card]
        if SUIT[card] != suit:
            suit = -1
    return key, suit


def fast_show(rules: Rules) -> FastShow:
    """The fast show of ``rules`` (made once per kind of show)."""

    def flush(crib: bool) -> tuple[int, int]:
        alone = rules.flush_points(crib=crib, starter_matches=False)
        return alone, rules.flush_points(crib=crib, starter_matches=True)

    return _fast_show(rules.points, rules.kept, rules.crib_size, flush(False), flush(True))


#: One fast show per kind of show.
_fast_show = cache(FastShow)


@cache
def peg_scorer(points: Points) -> PegScorer:
    """The points the last rank of a series (the ranks since the count was reset, the new
    card last) scores at the new count: fifteen, thirty-one, sets and runs, as
    :func:`engine.pegging.score_pegging` scores them by these ``points`` (the go and the last
    card aside)."""
    fifteen, fifteen_points = points.fifteen, points.fifteen_points
    max_count, thirty_one = points.max_count, points.thirty_one_points
    sets, min_run = points.sets, points.min_run

    def peg_points(series: Sequence[int], count: int) -> int:
        if count == fifteen:
            scored = fifteen_points
        elif count == max_count:
            scored = thirty_one
        else:
            scored = 0
        n = len(series)
        last = series[n - 1]
        if n > 1 and series[n - 2] == last:
            same = 2
            while same < n and series[n - 1 - same] == last:
                same += 1
            return scored + sets[same]  # a repeated rank ends any run at once
        # The longest run ending here: walk back while the ranks stay distinct, and note
        # each length whose ranks span exactly that many values.
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
            if size >= min_run and high - low == size - 1:
                run = size
        return scored + run

    return peg_points
