"""Hands the other seats may hold in the play, guessed to fit everything the seat has seen.

The cards another seat still holds are among the cards this seat has not seen (not its own,
not the starter, not played), and each is worth at least the floor its goes set
(:mod:`engine.players.play_history`). Two more things make a guess likelier or less likely:

* **What a sensible player keeps** (where the role tables hold,
  :func:`engine.players.role_crib.holds`: the standard two-player game): the opponent's
  four kept cards, played and held, weigh by how much likelier a sensible player of its
  role keeps those ranks than four random cards have them
  (:func:`engine.players.role_crib.keep_ratio`), mixed with a little of the plain chance
  (:data:`KEEP_MIX`) so that a hand no model would keep is unlikely, never impossible.
* **How it has played**: each earlier card of the seat that a club player holding the
  guessed cards would not have played (:func:`engine.players.playout.thumb_value`) makes
  the guess :data:`UNLIKE_PLAY` times as likely.

Pegging needs ranks only, so a guess is a list of ranks per seat. When one other seat holds
cards, every rank combination it may hold is listed with its exact weight (at most 1,820 for
four cards): all of them when they are no more than ``samples``, else ``samples`` picked from
them in proportion to their weights with the injected random source, so the play-outs go to
the likely hands (a hand picked more than once is listed once, weighing its picks). With more
seats holding cards, ``DRAWS`` times ``samples`` guesses are drawn at random and ``samples`` of
them picked the same way.

>>> import random
>>> from engine.rules import Rules
>>> guesses = rank_guesses(
...     unseen=[5, 5, 10], floors=(1, 1), held=(1, 2), me=1, my_ranks=[2, 3],
...     played=((), ()), keep=None, samples=8, rng=random.Random(1), rules=Rules())
>>> sorted((hands[0], weight) for hands, weight in guesses)
[([5], 2.0), ([10], 1.0)]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from functools import cache
from math import comb

from engine.cards import PIP_VALUES
from engine.players.base import unseen_cards
from engine.players.fastscore import RANK
from engine.players.play_history import Play, PlayHistory
from engine.players.playout import thumb_value
from engine.players.role_crib import built_for, holds, keep_ratio
from engine.rules import Rules
from engine.scoring import RANK_CODE
from engine.views import SeatView

__all__ = [
    "DRAWS",
    "KEEP_MIX",
    "UNLIKE_PLAY",
    "Guess",
    "KeepWeights",
    "rank_guesses",
    "view_guesses",
]

#: One guess: the ranks each seat holds (the asking seat's own included), and its weight.
Guess = tuple[list[list[int]], float]
#: The keep weights of a seat's four cards by their rank-multiset code (the sum of
#: :data:`engine.scoring.RANK_CODE`), or None to weigh every hand alike.
KeepWeights = Callable[[int], dict[int, float] | None]
#: How much of the plain chance is mixed into the keep-model weight (the model's ratios
#: average 1 over random hands). Chosen with :data:`UNLIKE_PLAY` by how likely the guesses
#: made the hands opponents really held, at 3,000 decisions against ``hard`` and ``club``
#: (the ``book`` yardstick kept out): 0.05 and 0.25 beat 0.25 and 0.5 there.
KEEP_MIX = 0.05
#: Guesses drawn for each one kept (more seats than one holding cards).
DRAWS = 4
#: How much likelier a guess is made by each earlier card of the seat that a club player
#: holding the guessed cards would not have played. Chosen with :data:`KEEP_MIX`.
UNLIKE_PLAY = 0.25

# A seat's earlier card, for weighing guesses: (rank, series before, count before, the ranks
# it played from then on).
_Earlier = tuple[int, tuple[int, ...], int, tuple[int, ...]]


@cache
def _keep_weights(dealer: bool) -> dict[int, float]:
    """Keep ratio by the rank-multiset code of four ranks, mixed (see the module)."""
    weights = {}
    for ranks in itertools.combinations_with_replacement(range(1, 14), built_for().kept):
        code = sum(RANK_CODE[rank] for rank in ranks)
        weights[code] = (1 - KEEP_MIX) * keep_ratio(ranks, dealer=dealer) + KEEP_MIX
    return weights


def _plays_weight(held: Sequence[int], earlier: Sequence[_Earlier], rules: Rules) -> float:
    """How well a guess of a seat's ``held`` ranks explains its ``earlier`` cards."""
    max_count = rules.points.max_count
    weight = 1.0
    for rank, series, count, later in earlier:
        # What it held then: the card it played, the cards it played later and those it
        # still holds.
        hand = [rank, *held, *later]
        run = list(series)
        best = chosen = -1e9
        for option in set(hand):
            if count + PIP_VALUES[option] > max_count:
                continue
            value = thumb_value(option, run, count, hand.count(option) > 1, rules=rules)
            best = max(best, value)
            if option == rank:
                chosen = value
        if chosen < best - 1e-9:
            weight *= UNLIKE_PLAY
    return weight


def _exact(pool: Sequence[int], held: int) -> list[tuple[list[int], int]]:
    """Every rank multiset of ``held`` cards from ``pool`` (ranks, one per card) with the
    number of ways to draw it."""
    available = [0] * 14
    for rank in pool:
        available[rank] += 1
    ranks = [rank for rank in range(1, 14) if available[rank]]
    result = []
    for combo in itertools.combinations_with_replacement(ranks, held):
        ways = 1
        for rank in set(combo):
            ways *= comb(available[rank], combo.count(rank))
        if ways:
            result.append((list(combo), ways))
    return result


def _resample(guesses: list[Guess], samples: int, rng: random.Random) -> list[Guess]:
    """``samples`` picks among the guesses, each with a chance in proportion to its weight
    (systematic resampling: one random offset, evenly spaced picks), each guess picked
    listed once, weighing the number of times it was picked: the play-outs of a likely hand
    picked three times are made once, not three times alike (a guess in four was such a
    repeat in the expert's games)."""
    total = sum(weight for _, weight in guesses)
    step = total / samples
    point = rng.random() * step
    picked: list[Guess] = []
    taken = 0
    running = 0.0
    for hands, weight in guesses:
        running += weight
        times = 0
        while point < running and taken < samples:
            times += 1
            taken += 1
            point += step
        if times:
            picked.append((hands, float(times)))
    return picked


def rank_guesses(
    *,
    unseen: Sequence[int],
    floors: Sequence[int],
    held: Sequence[int],
    me: int,
    my_ranks: Sequence[int],
    played: Sequence[Sequence[int]],
    keep: KeepWeights | None,
    samples: int,
    rng: random.Random,
    rules: Rules,
    plays: Sequence[Play] = (),
) -> list[Guess]:
    """Guesses at every seat's ranks, from: the ``unseen`` ranks (one per card), each
    seat's ``floors`` and number of cards ``held``, my own ranks, the ranks each seat
    ``played`` this deal, ``keep`` (the keep weights by seat) and the ``plays`` so far, in a
    game played by ``rules``."""
    others = [seat for seat in range(len(held)) if seat != me and held[seat]]

    def blank() -> list[list[int]]:
        hands: list[list[int]] = [[] for _ in held]
        hands[me] = list(my_ranks)
        return hands

    if not others:
        return [(blank(), 1.0)]
    tables = {seat: None if keep is None else keep(seat) for seat in others}
    played_codes = {seat: sum(RANK_CODE[rank] for rank in played[seat]) for seat in others}
    earlier: dict[int, list[_Earlier]] = {}
    for seat in others:
        own = [(rank, series, count) for who, rank, series, count in plays if who == seat]
        ranks = [rank for rank, _, _ in own]
        earlier[seat] = [
            (rank, series, count, tuple(ranks[i + 1 :]))
            for i, (rank, series, count) in enumerate(own)
        ]
    # A guess's weight depends only on the ranks drawn: worked out once per rank multiset.
    known: dict[tuple[int, int], float] = {}

    def weigh(seat: int, drawn: list[int]) -> float:
        code = sum(RANK_CODE[rank] for rank in drawn)
        weight = known.get((seat, code))
        if weight is None:
            weight = 1.0
            table = tables[seat]
            if table is not None:
                weight *= table[played_codes[seat] + code]
            if earlier[seat]:
                weight *= _plays_weight(drawn, earlier[seat], rules)
            known[(seat, code)] = weight
        return weight

    def pool(seat: int, cards: Sequence[int]) -> list[int]:
        fitting = [rank for rank in cards if PIP_VALUES[rank] >= floors[seat]]
        # A floor the cards left cannot meet is forgotten rather than met impossibly.
        return fitting if len(fitting) >= held[seat] else list(cards)

    if len(others) == 1:
        seat = others[0]
        exact = []
        for ranks, ways in _exact(pool(seat, unseen), held[seat]):
            hands = blank()
            hands[seat] = ranks
            exact.append((hands, ways * weigh(seat, ranks)))
        # Few enough to play every one out: each with its weight; else drawn by weight.
        return exact if len(exact) <= samples else _resample(exact, samples, rng)
    # Deal the most constrained seat first, so a tight floor is met from the fullest pool.
    order = sorted(others, key=lambda seat: -floors[seat])
    guesses = []
    for _ in range(samples * DRAWS):
        hands = blank()
        left = list(unseen)
        weight = 1.0
        for seat in order:
            drawn = rng.sample(pool(seat, left), held[seat])
            for rank in drawn:
                left.remove(rank)
            hands[seat] = drawn
            weight *= weigh(seat, drawn)
        guesses.append((hands, weight))
    return _resample(guesses, samples, rng)


def view_guesses(
    view: SeatView, history: PlayHistory, samples: int, rng: random.Random
) -> list[Guess]:
    """:func:`rank_guesses` from a seat's view (the keep model applies where the role tables
    hold for the game's rules: the standard two-player game)."""
    keep: KeepWeights | None = None
    if holds(view.rules):
        dealer = view.dealer

        def keep(seat: int) -> dict[int, float] | None:
            return _keep_weights(seat == dealer)

    return rank_guesses(
        unseen=[RANK[index] for index in unseen_cards(view)],
        floors=history.floors,
        held=view.hand_sizes,
        me=view.seat,
        my_ranks=[card.rank for card in view.hand],
        played=[[card.rank for card in cards] for cards in view.played],
        keep=keep,
        samples=samples,
        rng=rng,
        rules=view.rules,
        plays=history.plays,
    )
