"""The expert's choice of card in the play: each candidate played out to the end, many times.

For each guess at the other seats' hands (:mod:`engine.players.hand_guess`), each card this
seat may play (one per rank: suits do not matter in the play) is played and the rest of the
play simulated with every seat following the club player's rules of thumb
(:meth:`engine.players.playout.Finisher.finish`). Every guess is used for every candidate, so
the candidates are compared on the same hands (and played out by the game's rules). A
candidate's value is the weighted average, over the guesses, of what its play-out is worth
(:data:`Outcome`, or one per guess, :data:`GuessOutcome`): by default the points my side pegs
less the points the others peg (with three sides, less their average), and the game's end
when a side reaches the target during the play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import PIP_VALUES, Card
from engine.players.fastscore import peg_scorer
from engine.players.hand_guess import view_guesses
from engine.players.play_history import view_history
from engine.players.playout import finisher
from engine.views import SeatView

__all__ = ["GuessOutcome", "Outcome", "net_points", "pegged_points", "play_values"]

#: What a play-out is worth to the seat: given the points each side pegged and the side that
#: reached the target (-1 for none).
Outcome = Callable[[Sequence[int], int], float]
#: The :data:`Outcome` of the play-outs against one guess at the hands (the ranks each seat
#: holds), for values that depend on the hands guessed as well as on the points.
GuessOutcome = Callable[[Sequence[Sequence[int]]], Outcome]
#: The value of winning the game in the play, in points (and minus it for losing).
GAME_POINTS = 100.0


def pegged_points(view: SeatView) -> Outcome:
    """Points my side pegs less the others' (their average with three sides or more), and
    nothing more: a side that reaches the target counts the points it pegged to get there.
    (What a review measures a play in where no table of chances to win holds.)"""
    mine = view.sides[view.seat]
    sides = view.num_sides

    def outcome(points: Sequence[int], winner: int) -> float:
        theirs = sum(points) - points[mine]
        return points[mine] - theirs / (sides - 1)

    return outcome


def net_points(view: SeatView) -> Outcome:
    """:func:`pegged_points`, but reaching the target counts as :data:`GAME_POINTS` (the
    expert's play: winning in the play is worth more than any points)."""
    mine = view.sides[view.seat]
    pegged = pegged_points(view)

    def outcome(points: Sequence[int], winner: int) -> float:
        if winner >= 0:
            return GAME_POINTS if winner == mine else -GAME_POINTS
        return pegged(points, winner)

    return outcome


def play_values(
    view: SeatView,
    rng: random.Random,
    *,
    samples: int,
    outcome: Outcome | None = None,
    per_guess: GuessOutcome | None = None,
) -> list[tuple[Card, float]]:
    """Each playable card (one of each rank) with its average play-out value: by
    ``per_guess`` when given (the outcome of each guess), else by ``outcome`` (by default
    :func:`net_points`)."""
    cards: dict[int, Card] = {}
    for card in sorted(view.playable, key=Card.sort_key):
        cards.setdefault(card.rank, card)
    if len(cards) == 1:
        return [(card, 0.0) for card in cards.values()]
    plain = outcome if outcome is not None else net_points(view)
    guesses = view_guesses(view, view_history(view), samples, rng)
    me = view.seat
    sides = view.sides
    my_side = sides[me]
    needs = [view.target - score for score in view.scores]
    series = [card.rank for card in view.series]
    count = view.count
    rules = view.rules
    peg = peg_scorer(rules.points)
    finish = finisher(rules).finish
    totals = dict.fromkeys(cards, 0.0)
    weight_sum = 0.0
    for hands, weight in guesses:
        weight_sum += weight
        value_of = plain if per_guess is None else per_guess(hands)
        for rank in cards:
            played = [hand[:] for hand in hands]
            played[me].remove(rank)
            new_count = count + PIP_VALUES[rank]
            run = [*series, rank]
            points = [0] * view.num_sides
            points[my_side] = peg(run, new_count)
            if points[my_side] >= needs[my_side]:
                winner = my_side
            else:
                winner = finish(played, sides, me, new_count, run, points, needs)
            totals[rank] += weight * value_of(points, winner)
    return [(card, totals[rank] / weight_sum) for rank, card in cards.items()]
