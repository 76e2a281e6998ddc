"""What four kept cards are worth in the play, by their ranks and the seat's role.

Some hands peg well (low cards for the go, pairs to trap with, cards that make fifteens on a
ten-card lead) and some badly; a discard that only counts the show misses it. For each of
the 1,820 rank multisets of four cards and each role this table holds the points the seat
pegs less the points its opponent pegs, averaged over every four-card hand the opponent
may keep:

* the opponent's hand is each rank multiset in turn, weighted by how often a sensible
  player of its role keeps it (the ``keeps`` of :mod:`engine.players.role_crib`), scaled
  down for the cards of those ranks my own hand takes;
* the play is the club player's on both sides (:mod:`engine.players.playout`: the most
  points now, then the rules of thumb), from the pone's lead, which with both hands known
  is one play: no sampling, so the table is exact for that model.

The table is built by the standard two-player game's rules and holds where the role tables
do (:func:`engine.players.role_crib.holds`), whose keeps it weighs the opponent's hands by.

The discard adds the kept hand's value to its hand and crib values. Only differences
within a role matter there; the dealer's average is about +1.2 and the pone's about -1.2
(the dealer plays second and usually takes the last card).

``python -m benchmarks.build_tables peg_table`` writes ``engine/data/peg_table.json`` with
:func:`build_table` (``--check`` compares); a test rebuilds a sample of entries.

>>> pegging_value([5, 5, 10, 10], dealer=True) > pegging_value([1, 6, 11, 13], dealer=True)
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from math import comb
from typing import Any

from engine.cards import PIP_VALUES
from engine.data import shipped
from engine.players.fastscore import peg_scorer
from engine.players.playout import finisher, thumb_choice
from engine.players.role_crib import built_for, keep_key, load_tables

__all__ = ["DATA_FILE", "METHOD", "build_entry", "build_table", "load_table", "pegging_value"]

#: The data file's name inside the ``engine.data`` package.
DATA_FILE = "peg_table.json"
#: How the table is built, stored in the data file with the numbers.
METHOD = (
    "every rank multiset of four kept cards against every rank multiset the opponent may "
    "keep, weighted by the role tables' keep frequencies for the opponent's role and the "
    "cards my hand leaves; both sides play the club player's rules of thumb from the pone's "
    "lead; my pegging less the opponent's, averaged"
)
#: Digits kept in the data file.
DIGITS = 4
_NO_TARGET = (1000, 1000)


def _hands() -> list[tuple[int, ...]]:
    return [
        hand
        for hand in itertools.combinations_with_replacement(range(1, 14), built_for().kept)
        if max(hand.count(rank) for rank in hand) <= 4
    ]


@cache
def _opponents(role: str) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every hand an opponent of ``role`` keeps, with how often (its share of deals)."""
    ratios = load_tables()["keeps"][role]
    total = comb(52, built_for().kept)
    result = []
    for hand in _hands():
        ways = 1
        for rank in set(hand):
            ways *= comb(4, hand.count(rank))
        share = float(ratios[keep_key(hand)]) * ways / total
        if share > 0:
            result.append((hand, share))
    return tuple(result)


def _play(mine: Sequence[int], theirs: Sequence[int], dealer: bool) -> int:
    """My pegging less the opponent's when both play the club's rules of thumb."""
    rules = built_for()
    hands = [list(mine), list(theirs)]
    pone = 1 if dealer else 0
    lead = thumb_choice(hands[pone], [], 0, rules=rules)
    hands[pone].remove(lead)
    points = [0, 0]
    points[pone] = peg_scorer(rules.points)([lead], PIP_VALUES[lead])
    finisher(rules).finish(hands, (0, 1), pone, PIP_VALUES[lead], [lead], points, _NO_TARGET)
    return points[0] - points[1]


def build_entry(kept: Sequence[int], *, dealer: bool) -> float:
    """The table's value for four kept ranks: my net pegging against every hand the
    opponent may keep, weighted (see the module)."""
    mine = sorted(kept)
    opponent_role = "pone" if dealer else "dealer"
    total = 0.0
    weight = 0.0
    for theirs, share in _opponents(opponent_role):
        # Fewer of a rank are left for the opponent when I hold some.
        scale = 1.0
        for rank in set(theirs):
            want = theirs.count(rank)
            scale *= comb(4 - mine.count(rank), want) / comb(4, want)
        if not scale:
            continue
        total += share * scale * _play(mine, theirs, dealer)
        weight += share * scale
    return total / weight


def build_table() -> dict[str, Any]:
    """Every entry for both roles (a few minutes): the content of the data file."""
    return {
        "method": METHOD,
        "dealer": {keep_key(h): round(build_entry(h, dealer=True), DIGITS) for h in _hands()},
        "pone": {keep_key(h): round(build_entry(h, dealer=False), DIGITS) for h in _hands()},
    }


def load_table() -> dict[str, Any]:
    """The shipped table, read once from ``engine/data/peg_table.json``."""
    return shipped(DATA_FILE)


def pegging_value(kept: Sequence[int], *, dealer: bool) -> float:
    """My expected pegging less the opponent's with four kept cards of these ranks."""
    return float(load_table()["dealer" if dealer else "pone"][keep_key(kept)])
