"""Scoring in the play: the points the last card played earns.

The pile is the cards played since the count was last reset, in the order played. The go and
the last card of the play are not scored here: they depend on who can still play, which the
game knows and the pile does not.

>>> from engine.cards import parse_cards
>>> [(str(item.kind), item.points) for item in score_pegging(parse_cards("AS 3D 5C 7H 6S")).items]
[('run', 3)]
>>> score_pegging(parse_cards("5S JD 6C 7H")).total
0
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.rules import (
    FIFTEEN,
    FIFTEEN_POINTS,
    MAX_COUNT,
    MIN_RUN,
    SET_POINTS,
    THIRTY_ONE_POINTS,
)
from engine.scoring import SET_KINDS, Score, ScoreItem, ScoreKind

__all__ = ["pile_count", "score_pegging"]


def pile_count(pile: Sequence[Card]) -> int:
    """The count: the sum of the pip values of the cards in ``pile``."""
    return sum(card.value for card in pile)


def _check(pile: Sequence[Card]) -> int:
    if not pile:
        raise ValueError("No card has been played since the count was reset.")
    if not all(isinstance(card, Card) for card in pile):
        raise ValueError("A pile holds cards only.")
    if len(set(pile)) != len(pile):
        raise ValueError("A card appears twice in the pile.")
    count = pile_count(pile)
    if count > MAX_COUNT:
        raise ValueError(f"The count would be {count}, and it may not pass {MAX_COUNT}.")
    return count


def _set_length(pile: Sequence[Card]) -> int:
    """How many cards at the end of the pile share the last card's rank (1 if none do)."""
    rank = pile[-1].rank
    length = 1
    while length < len(pile) and pile[-1 - length].rank == rank:
        length += 1
    return length


def _run_length(pile: Sequence[Card]) -> int:
    """The longest run of three or more that the last cards make, in any order, or 0.

    A run counts only if it is made by the most recent cards with nothing else among them:
    no card of another rank and no repeated rank.
    """
    for length in range(len(pile), MIN_RUN - 1, -1):
        ranks = {card.rank for card in pile[-length:]}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            return length
    return 0


def score_pegging(pile: Sequence[Card]) -> Score:
    """The points earned by the last card of ``pile``: fifteen, thirty-one, sets and runs.

    Items come in the order they are called: ``fifteen`` or ``thirty_one`` (2), then ``pair``
    (2), ``pair_royal`` (6) or ``double_pair_royal`` (12), then ``run`` (one point a card).
    Raises ``ValueError`` for an empty pile, a repeated card, or a count over 31.

    >>> from engine.cards import parse_cards
    >>> [(str(i.kind), i.points) for i in score_pegging(parse_cards("10S 5D 5C 5H 6S")).items]
    [('thirty_one', 2)]
    >>> [(str(i.kind), i.points) for i in score_pegging(parse_cards("7D 8C 7S")).items]
    []
    >>> [(str(i.kind), i.points) for i in score_pegging(parse_cards("4D 5C 6S")).items]
    [('fifteen', 2), ('run', 3)]
    """
    count = _check(pile)
    items: list[ScoreItem] = []
    if count == FIFTEEN:
        items.append(ScoreItem(ScoreKind.FIFTEEN, tuple(pile), FIFTEEN_POINTS))
    elif count == MAX_COUNT:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, tuple(pile), THIRTY_ONE_POINTS))
    same = _set_length(pile)
    if same >= 2:
        items.append(ScoreItem(SET_KINDS[same], tuple(pile[-same:]), SET_POINTS[same]))
    run = _run_length(pile)
    if run:
        items.append(ScoreItem(ScoreKind.RUN, tuple(pile[-run:]), run))
    return Score(tuple(items))
