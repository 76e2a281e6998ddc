"""Scoring a show: a hand (or the crib) of four cards plus the starter.

Fifteens, pairs and runs depend only on the five ranks, so each of the 6,175 possible rank
multisets is worked out once (lazily) and kept: as an itemised template of card positions for
:func:`score_hand`, and as a plain number for the fast :func:`hand_total`. Flush and nobs depend
on suits and are worked out per call.

>>> from engine.cards import Card, parse_cards
>>> score = score_hand(parse_cards("5H 5C JD 8S"), Card.parse("2C"))
>>> score.total
10
>>> [str(item.kind) for item in score.items]
['fifteen', 'fifteen', 'fifteen', 'fifteen', 'pair']
>>> hand_total(parse_cards("5H 5C 5S JD"), Card.parse("5D"))
29
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import JACK, PIP_VALUES, Card
from engine.rules import (
    FIFTEEN,
    FIFTEEN_POINTS,
    MIN_RUN,
    NOBS_POINTS,
    SET_POINTS,
    SHOW_SIZE,
    flush_points,
)

__all__ = [
    "HAND_SIZE",
    "RANK_CODE",
    "SET_KINDS",
    "Score",
    "ScoreItem",
    "ScoreKind",
    "hand_total",
    "rank_points",
    "rank_table",
    "score_distribution",
    "score_hand",
]

#: Cards in a hand or crib at the show (the starter is the fifth card).
HAND_SIZE = SHOW_SIZE


class ScoreKind(StrEnum):
    """What a scoring combination is. Members equal their values (``"pair"``), which is what
    JSON stores and the bot's wording keys on."""

    FIFTEEN = "fifteen"
    THIRTY_ONE = "thirty_one"
    PAIR = "pair"
    PAIR_ROYAL = "pair_royal"
    DOUBLE_PAIR_ROYAL = "double_pair_royal"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"


#: The kind of a set of n cards of one rank (its points are ``rules.SET_POINTS[n]``).
SET_KINDS = {2: ScoreKind.PAIR, 3: ScoreKind.PAIR_ROYAL, 4: ScoreKind.DOUBLE_PAIR_ROYAL}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its ``kind``, the cards that make it, and its points.

    Kinds in a show: fifteen, pair, pair royal, double pair royal, run, flush, nobs; in the
    play also thirty-one (see :class:`ScoreKind`).
    """

    kind: ScoreKind
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Score:
    """The itemised points of a show or of one card in the play."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        """The sum of every item's points."""
        return sum(item.points for item in self.items)


# A template is what the five ranks alone score, as (kind, positions, points) where positions
# index the five cards sorted by rank (ties broken by suit, which the template never looks at).
_Template = tuple[tuple[ScoreKind, tuple[int, ...], int], ...]

# Position subsets of five cards with at least two cards, smallest first: the order fifteens
# are usually counted in.
_SUBSETS = tuple(
    subset for size in range(2, 6) for subset in itertools.combinations(range(5), size)
)
#: A rank multiset as one int: three bits of count per rank (a count is at most 4), so adding
#: the codes of five ranks keys :func:`rank_table`.
RANK_CODE: tuple[int, ...] = tuple(1 << (3 * rank) for rank in range(14))

_templates: dict[tuple[int, ...], _Template] = {}
_base_totals: dict[int, int] = {}


def _build_template(ranks: tuple[int, ...]) -> _Template:
    """Itemise what five ranks (sorted ascending) score as fifteens, sets and runs."""
    items: list[tuple[ScoreKind, tuple[int, ...], int]] = []
    for subset in _SUBSETS:
        if sum(PIP_VALUES[ranks[i]] for i in subset) == FIFTEEN:
            items.append((ScoreKind.FIFTEEN, subset, FIFTEEN_POINTS))
    positions: dict[int, list[int]] = {}
    for i, rank in enumerate(ranks):
        positions.setdefault(rank, []).append(i)
    for same in positions.values():
        if len(same) >= 2:
            items.append((SET_KINDS[len(same)], tuple(same), SET_POINTS[len(same)]))
    # A run is a stretch of three or more consecutive ranks; every way of taking one card of
    # each rank in the stretch is a distinct run (a double run is two runs, and so on).
    distinct = sorted(positions)
    start = 0
    for end in range(1, len(distinct) + 1):
        if end == len(distinct) or distinct[end] != distinct[end - 1] + 1:
            stretch = distinct[start:end]
            if len(stretch) >= MIN_RUN:
                for run in itertools.product(*(positions[r] for r in stretch)):
                    items.append((ScoreKind.RUN, run, len(stretch)))
            start = end
    return tuple(items)


def _template(ranks: tuple[int, ...]) -> _Template:
    template = _templates.get(ranks)
    if template is None:
        template = _templates[ranks] = _build_template(ranks)
    return template


def rank_table() -> dict[int, int]:
    """Rank-multiset code (sum of five :data:`RANK_CODE` entries) -> points from fifteens,
    sets and runs, for all 6,175 multisets that one deck allows. Built once, on first use."""
    if not _base_totals:
        table: dict[int, int] = {}
        for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
            if ranks[0] == ranks[4]:
                continue  # five of a rank cannot happen with one deck
            table[sum(RANK_CODE[r] for r in ranks)] = sum(p for _, _, p in _template(ranks))
        _base_totals.update(table)
    return _base_totals


def rank_points(ranks: Sequence[int]) -> int:
    """Points five ranks score from fifteens, pairs and runs alone (no flush, no nobs).

    >>> rank_points([5, 5, 5, 5, 11])
    28
    """
    if len(ranks) != 5 or any(not 1 <= r <= 13 for r in ranks):
        raise ValueError("Five ranks from 1 to 13 are needed.")
    key = sum(RANK_CODE[r] for r in ranks)
    points = rank_table().get(key)
    if points is None:
        raise ValueError("No rank appears five times in one deck.")
    return points


def _check(hand: Sequence[Card], starter: Card) -> None:
    if len(hand) != HAND_SIZE:
        raise ValueError(f"A hand to show has {HAND_SIZE} cards, not {len(hand)}.")
    cards = (*hand, starter)
    if not all(isinstance(card, Card) for card in cards):
        raise ValueError("A hand and a starter must be cards.")
    # Suits are enum singletons, so their ids tell them apart; hashing the enum itself would
    # cost more than the rest of hand_total.
    if len({(card.rank, id(card.suit)) for card in cards}) != HAND_SIZE + 1:
        raise ValueError("A card appears twice among the hand and the starter.")


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    suit = hand[0].suit
    if hand[1].suit is not suit or hand[2].suit is not suit or hand[3].suit is not suit:
        return 0
    return flush_points(starter_matches=starter.suit is suit, crib=crib)


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> Score:
    """Score a hand (or, with ``crib=True``, the crib) of four cards with the starter.

    Items come in the order players say them: fifteens, pairs, runs, flush, nobs. Raises
    ``ValueError`` unless ``hand`` is four distinct cards and ``starter`` is not among them.

    >>> from engine.cards import Card, parse_cards
    >>> score_hand(parse_cards("AH 3H 7H 9H"), Card.parse("QS")).total
    4
    >>> score_hand(parse_cards("AH 3H 7H 9H"), Card.parse("QS"), crib=True).total
    0
    """
    _check(hand, starter)
    cards = sorted((*hand, starter), key=Card.sort_key)
    template = _template(tuple(card.rank for card in cards))
    items = [
        ScoreItem(kind, tuple(cards[i] for i in where), points) for kind, where, points in template
    ]
    flush = _flush_points(hand, starter, crib)
    if flush:
        flush_cards = (*hand, starter) if starter.suit is hand[0].suit else tuple(hand)
        items.append(
            ScoreItem(ScoreKind.FLUSH, tuple(sorted(flush_cards, key=Card.sort_key)), flush)
        )
    for card in hand:
        # A jack that is the starter is "his heels" (scored at the cut), never nobs.
        if card.rank == JACK and card.suit is starter.suit:
            items.append(ScoreItem(ScoreKind.NOBS, (card,), NOBS_POINTS))
    return Score(tuple(items))


def hand_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The total of :func:`score_hand` without building the items: the fast path.

    >>> from engine.cards import Card, parse_cards
    >>> hand_total(parse_cards("JH 2C 3D 9S"), Card.parse("5H"))
    5
    """
    _check(hand, starter)
    code = RANK_CODE
    points = rank_table()[
        code[hand[0].rank]
        + code[hand[1].rank]
        + code[hand[2].rank]
        + code[hand[3].rank]
        + code[starter.rank]
    ]
    points += _flush_points(hand, starter, crib)
    suit = starter.suit
    for card in hand:
        if card.rank == JACK and card.suit is suit:
            points += NOBS_POINTS
    return points


def score_distribution(*, crib: bool = False, deck: Iterable[Card] | None = None) -> dict[int, int]:
    """How many (four-card hand, starter) combinations score each total, 0 to 29.

    With no ``deck`` that is all 12,994,800 combinations of the 52 cards; ``deck`` limits the
    enumeration to some cards. Every combination is scored, one by one, with the same rank
    table and the same flush and nobs rules as :func:`hand_total`, working on card indexes
    instead of ``Card`` objects so the whole enumeration takes seconds.

    >>> from engine.cards import parse_cards
    >>> totals = score_distribution(deck=parse_cards("5H 5C 5S 5D JD"))
    >>> totals[29], totals[28], sum(totals.values())
    (1, 4, 5)
    """
    indexes = list(range(52)) if deck is None else sorted({card.index for card in deck})
    base = rank_table()
    code = [RANK_CODE[i % 13 + 1] for i in range(52)]
    suit_of = [i // 13 for i in range(52)]
    is_jack = [i % 13 + 1 == JACK for i in range(52)]
    counts = [0] * 30
    for a, b, c, d in itertools.combinations(indexes, 4):
        key = code[a] + code[b] + code[c] + code[d]
        # Flush and nobs depend only on the starter's suit: extra[s] for a starter of suit s.
        extra = [0, 0, 0, 0]
        sa = suit_of[a]
        if sa == suit_of[b] == suit_of[c] == suit_of[d]:
            extra = [flush_points(starter_matches=s == sa, crib=crib) for s in range(4)]
        for card in (a, b, c, d):
            if is_jack[card]:
                extra[suit_of[card]] += NOBS_POINTS
        for s in indexes:
            if s != a and s != b and s != c and s != d:
                counts[base[key + code[s]] + extra[suit_of[s]]] += 1
    return dict(enumerate(counts))
