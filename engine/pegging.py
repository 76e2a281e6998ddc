"""Scoring in the play: the points the last card played earns.

The pile is the cards played since the count was last reset, in the order played. What each
combination scores, and how far the count may go, come from the game's rules (the standard
game when none are named). The go and the last card of the play are not scored here: they
depend on who can still play, which the game knows and the pile does not.

>>> from engine.cards import parse_cards
>>> [(str(item.kind), item.points) for item in score_pegging(parse_cards("AS 3D 5C 7H 6S")).items]
[('run', 3)]
>>> score_pegging(parse_cards("5S JD 6C 7H")).total
0
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.rules import Points, Rules
from engine.scoring import SET_KINDS, Score, ScoreItem, ScoreKind

__all__ = ["pile_count", "score_pegging"]


def pile_count(pile: Sequence[Card]) -> int:
    """The count: the sum of the pip values of the cards in ``pile``."""
    return sum(card.value for card in pile)


def _check(pile: Sequence[Card], max_count: int) -> int:
    if not pile:
        raise ValueError("No card has been played since the count was reset.")
    if not all(isinstance(card, Card) for card in pile):
        raise ValueError("A pile holds cards only.")
    if len(set(pile)) != len(pile):
        raise ValueError("A card appears twice in the pile.")
    count = pile_count(pile)
    if count > max_count:
        raise ValueError(f"The count would be {count}, and it may not pass {max_count}.")
    return count


def _set_length(pile: Sequence[Card]) -> int:
    """How many cards at the end of the pile share the last card's rank (1 if none do)."""
    rank = pile[-1].rank
    length = 1
    while length < len(pile) and pile[-1 - length].rank == rank:
        length += 1
    return length


def _run_length(pile: Sequence[Card], min_run: int) -> int:
    """The longest run (``min_run`` cards or more) that the last cards make, in any order, or 0.

    A run counts only if it is made by the most recent cards with nothing else among them:
    no card of another rank and no repeated rank.
    """
    for length in range(len(pile), min_run - 1, -1):
        ranks = {card.rank for card in pile[-length:]}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            return length
    return 0


def score_pegging(pile: Sequence[Card], rules: Rules | None = None) -> Score:
    """The points earned by the last card of ``pile``: fifteen, thirty-one, sets and runs.

    Items come in the order they are called: ``fifteen`` or ``thirty_one`` (2), then ``pair``
    (2), ``pair_royal`` (6) or ``double_pair_royal`` (12), then ``run`` (one point a card).
    ``rules`` say what each scores (the standard game when None). Raises ``ValueError`` for
    an empty pile, a repeated card, or a count over the rules' 31.

    >>> from engine.cards import parse_cards
    >>> [(str(i.kind), i.points) for i in score_pegging(parse_cards("10S 5D 5C 5H 6S")).items]
    [('thirty_one', 2)]
    >>> [(str(i.kind), i.points) for i in score_pegging(parse_cards("7D 8C 7S")).items]
    []
    >>> [(str(i.kind), i.points) for i in score_pegging(parse_cards("4D 5C 6S")).items]
    [('fifteen', 2), ('run', 3)]
    """
    points: Points = (Rules.standard() if rules is None else rules).points
    count = _check(pile, points.max_count)
    items: list[ScoreItem] = []
    if count == points.fifteen:
        items.append(ScoreItem(ScoreKind.FIFTEEN, tuple(pile), points.fifteen_points))
    elif count == points.max_count:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, tuple(pile), points.thirty_one_points))
    same = _set_length(pile)
    if same >= 2:
        items.append(ScoreItem(SET_KINDS[same], tuple(pile[-same:]), points.sets[same]))
    run = _run_length(pile, points.min_run)
    if run:
        items.append(ScoreItem(ScoreKind.RUN, tuple(pile[-run:]), run))
    return Score(tuple(items))
