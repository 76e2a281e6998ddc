"""The expert's choice of card in the play: each candidate followed to the end of the play,
against many guesses at the other hands.

Each card this seat may play (one per rank: suits do not matter in the play) is played, then
the rest of the play followed for each guess at the other seats' hands
(:mod:`engine.players.hand_guess`), by the game's rules. Against one opponent it is searched
(:class:`engine.players.play_search.PlaySearch`): the opponent plays each guessed hand by the
club player's rules of thumb, and this seat chooses each later card as well as it can from
what it will have seen by then. With more seats every seat plays by the rules of thumb
(:meth:`engine.players.playout.Finisher.finish`). Every guess is used for every candidate, so
the candidates are compared on the same hands. A candidate's value is the weighted average,
over the guesses, of what the rest of the play is worth (:data:`Outcome`, or one per guess,
:data:`GuessOutcome`): by default the points my side pegs less the points the others peg
(with three sides, less their average), and the game's end when a side reaches the target
during the play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import PIP_VALUES, Card
from engine.players.fastscore import peg_scorer
from engine.players.hand_guess import view_guesses
from engine.players.play_history import view_history
from engine.players.play_search import PlaySearch
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
    """Each playable card (one of each rank) with its average value over the guesses (see
    the module): by ``per_guess`` when given (the outcome of each guess), else by
    ``outcome`` (by default :func:`net_points`)."""
    cards: dict[int, Card] = {}
    for card in sorted(view.playable, key=Card.sort_key):
        cards.setdefault(card.rank, card)
    if len(cards) == 1:
        return [(card, 0.0) for card in cards.values()]
    plain = outcome if outcome is not None else net_points(view)
    guesses = [
        (hands, weight, plain if per_guess is None else per_guess(hands))
        for hands, weight in view_guesses(view, view_history(view), samples, rng)
    ]
    weight_sum = sum(weight for _, weight, _ in guesses)
    rest = _searched(view, guesses) if len(view.hand_sizes) == 2 else _played_out(view, guesses)
    my_side = view.sides[view.seat]
    need = view.target - view.scores[my_side]
    series = [card.rank for card in view.series]
    peg = peg_scorer(view.rules.points)
    values = []
    for rank, card in cards.items():
        count = view.count + PIP_VALUES[rank]
        run = [*series, rank]
        points = [0] * view.num_sides
        points[my_side] = peg(run, count)
        if points[my_side] >= need:
            total = sum(weight * value_of(points, my_side) for _, weight, value_of in guesses)
        else:
            total = rest(rank, count, run, points)
        values.append((card, total / weight_sum))
    return values


#: The guesses with their weights and outcomes.
_Guesses = Sequence[tuple[list[list[int]], float, Outcome]]
#: The weighted sum of the guesses' outcomes after this seat plays a rank: given the rank,
#: the count and series it leaves, and the points it pegged.
_Rest = Callable[[int, int, list[int], list[int]], float]


def _searched(view: SeatView, guesses: _Guesses) -> _Rest:
    """The rest of a two-player play, searched over every guess at once."""
    other = 1 - view.seat
    needs = [view.target - score for score in view.scores]
    search = PlaySearch(view.rules, view.sides, view.seat, needs)
    beliefs = [(tuple(sorted(hands[other])), weight, value_of) for hands, weight, value_of in
               guesses]  # fmt: skip
    held = [card.rank for card in view.hand]

    def rest(rank: int, count: int, series: list[int], points: list[int]) -> float:
        mine = held[:]
        mine.remove(rank)
        return search.value(mine, beliefs, count, series, points)

    return rest


def _played_out(view: SeatView, guesses: _Guesses) -> _Rest:
    """The rest of the play played out for each guess, every seat by the rules of thumb."""
    finish = finisher(view.rules).finish
    me, sides = view.seat, view.sides
    needs = [view.target - score for score in view.scores]

    def rest(rank: int, count: int, series: list[int], points: list[int]) -> float:
        total = 0.0
        for hands, weight, value_of in guesses:
            played = [hand[:] for hand in hands]
            played[me].remove(rank)
            pegged = points[:]
            winner = finish(played, sides, me, count, series[:], pegged, needs)
            total += weight * value_of(pegged, winner)
        return total

    return rest
