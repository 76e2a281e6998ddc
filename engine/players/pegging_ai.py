"""How the computer players value each card they may play.

Two evaluators, from the seat's view alone:

* :func:`simple_play_values` (medium): the points the card scores now, then simple rules of
  thumb as tie-breaks: do not leave the count on 5 or 21 (a ten-card makes 15 or 31), do not
  lead a five, lead a card under five when possible.
* :func:`lookahead_play_values` (hard): the points the card scores now, minus what the next
  player can expect to score in reply, net of what this seat can score back. The next
  player's hand is unknown: it holds ``k`` cards drawn from the ``N`` cards this seat has not
  seen, and it is assumed to play the reply that scores most. The chance that its best reply
  is a given rank is exact under that model (hypergeometric: the chance it holds none of the
  better-scoring cards, less the chance it holds none of those nor this rank). The danger
  counts (5, 10 and 21, where a ten-card scores), pairing traps (the pair a reply would make
  is worth a pair royal back) and the chance that the opponent cannot play at all (the go
  comes back to this seat) all fall out of that one calculation. Near the end, a card that
  reaches the target beats everything, and a reply that would let the opponent reach the
  target costs as much as a lost game. A small tie-break keeps low cards for the go.
"""

from __future__ import annotations

from math import comb

from engine.cards import PIP_VALUES, Card
from engine.players.base import unseen_cards
from engine.players.fastscore import RANK, PegScorer, peg_scorer
from engine.players.playout import danger_counts
from engine.rules import Points
from engine.views import SeatView

__all__ = ["immediate_points", "lookahead_play_values", "simple_play_values"]

#: The value of reaching the target now: more than any number of points.
WIN_VALUE = 1000.0
#: What letting the opponent reach the target with its reply costs, in points.
LOSS_COST = 60.0
#: Per pip of the card played: prefer shedding high cards and keeping low ones for the go.
_KEEP_LOW = 0.03


def immediate_points(view: SeatView, card: Card) -> int:
    """Points ``card`` scores now: 15, 31, pairs, runs, and the last card of the play."""
    rules = view.rules.points
    count = view.count + card.value
    points = peg_scorer(rules)([*(c.rank for c in view.series), card.rank], count)
    if sum(view.hand_sizes) == 1 and count != rules.max_count:
        points += rules.last_card  # the last card of the whole play
    return points


def simple_play_values(view: SeatView) -> list[tuple[Card, float]]:
    """Points now plus rule-of-thumb tie-breaks (each worth less than one point)."""
    # Counts where any ten-card (a third of the deck) replies for fifteen or thirty-one.
    danger = danger_counts(view.rules.points)
    values = []
    for card in view.playable:
        count = view.count + card.value
        value = float(immediate_points(view, card))
        if count in danger:
            value -= 0.5
        if view.count == 0:
            if card.value < 5:
                value += 0.3  # nothing can make 15 on it
            elif card.rank == 5:
                value -= 0.4
        value += _KEEP_LOW * card.value
        values.append((card, value))
    return values


def _next_seat(view: SeatView) -> int | None:
    """The next seat after this one that still holds cards, or None."""
    seats = len(view.players)
    for step in range(1, seats):
        seat = (view.seat + step) % seats
        if view.hand_sizes[seat] > 0:
            return seat
    return None


def lookahead_play_values(view: SeatView) -> list[tuple[Card, float]]:
    """Each playable card with its value: points now minus the expected net reply."""
    my_side = view.sides[view.seat]
    my_score = view.scores[my_side]
    ranks = [card.rank for card in view.series]
    unseen = unseen_cards(view)
    unseen_by_rank = [0] * 14
    for index in unseen:
        unseen_by_rank[RANK[index]] += 1
    nxt = _next_seat(view)
    points_of = view.rules.points
    values = []
    for card in view.playable:
        points = immediate_points(view, card)
        if my_score + points >= view.target:
            values.append((card, WIN_VALUE + points))
            continue
        count = view.count + card.value
        value = points + _KEEP_LOW * card.value
        if nxt is not None and count < points_of.max_count:
            rest = [c for c in view.hand if c != card]
            reply = _expected_reply(
                points_of,
                [*ranks, card.rank],
                count,
                rest,
                unseen_by_rank,
                len(unseen),
                view.hand_sizes[nxt],
                view.scores[view.sides[nxt]],
                view.target,
            )
            # A partner's reply (4 players, when the opponent between is out) helps us.
            value += reply if view.sides[nxt] == my_side else -reply
        values.append((card, value))
    return values


def _expected_reply(
    rules: Points,
    ranks: list[int],
    count: int,
    rest: list[Card],
    unseen_by_rank: list[int],
    unseen: int,
    held: int,
    their_score: int,
    target: int,
) -> float:
    """Expected net points of the next player's reply (their points less our comeback), by
    the rules' ``points``.

    The reply player holds ``held`` of the ``unseen`` cards and plays its best-scoring rank;
    when it holds no card that fits, it says go and the point comes back (counted as -1).
    """
    peg: PegScorer = peg_scorer(rules)
    max_count = rules.max_count
    options = []
    for rank in range(1, 14):
        if not unseen_by_rank[rank]:
            continue
        new_count = count + PIP_VALUES[rank]
        if new_count > max_count:
            continue
        after = [*ranks, rank]
        theirs = peg(after, new_count)
        back = 0
        if new_count < max_count:
            for card in rest:
                if new_count + card.value <= max_count:
                    back = max(back, peg([*after, card.rank], new_count + card.value))
        net = LOSS_COST if their_score + theirs >= target else float(theirs - back)
        options.append((theirs, net, unseen_by_rank[rank]))
    # The reply player takes its best immediate score; on ties assume the worst for us.
    options.sort(key=lambda option: (-option[0], -option[1]))
    total_hands = comb(unseen, held)
    expected = 0.0
    covered = 0
    none_yet = 1.0  # chance the reply player holds none of the options looked at so far
    for _theirs, net, cards in options:
        covered += cards
        none_now = comb(unseen - covered, held) / total_hands
        expected += (none_yet - none_now) * net
        none_yet = none_now
    # No card fits: they say go, and the go point (at least) comes back to our side.
    return expected - none_yet
