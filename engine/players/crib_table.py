"""The expected value of the crib, given the cards one seat throws into it.

How the table is computed (by exact enumeration, no sampling):

* **Two cards thrown** (2 players): the two cards are fixed; the two other crib cards are every
  pair of the remaining 50 cards, and the starter every one of the 48 left after that. The crib
  is scored with crib rules (a flush needs all five cards) and the average taken over all
  1,225 x 48 = 58,800 cases. The seat's own four kept cards are not excluded, so one table
  serves every hand.
* **One card thrown** (3 and 4 players): the card is fixed; the three other crib cards (the
  other players' throws, or in 3 players two throws and the deck card) are every triple of the
  remaining 51 cards, and the starter every one of the 48 left: 20,825 x 48 = 999,600 cases.

So the other crib cards are treated as unknown and uniformly drawn; opponents who throw with
care give a slightly different crib, which this model ignores on purpose (it is simple, exact
and reproducible). Suits matter only through flushes and nobs, so two thrown cards are keyed by
their ranks and whether they share a suit; one card by its rank.

The table is built by the standard game's rules (:func:`built_for`) and holds for any rules
with a crib of that size scored the same way (:func:`holds`: five-card, seven-card and
five-hand cribbage too); a player asks before it uses it.

The shipped table lives in ``engine/data/crib_table.json``;
``python -m benchmarks.build_tables crib_table`` rebuilds it with :func:`build_table` and a test
rebuilds a sample of entries and compares.

>>> round(crib_value_of_ranks(5, 5), 2) > round(crib_value_of_ranks(10, 13), 2)
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from engine.data import shipped
from engine.players.fastscore import RANK, SUIT, card_index, fast_show
from engine.rules import Rules

__all__ = [
    "DATA_FILE",
    "METHOD",
    "build_single",
    "build_table",
    "build_two",
    "built_for",
    "crib_value",
    "crib_value_of_ranks",
    "holds",
    "load_table",
    "single_key",
    "two_key",
    "two_keys",
]

#: The data file's name inside the ``engine.data`` package.
DATA_FILE = "crib_table.json"
#: How the table is built, stored in the data file so the numbers carry their method.
METHOD = (
    "exact enumeration: thrown cards fixed; the other crib cards are every combination of the "
    "remaining cards (2 others of 50 for two thrown, 3 others of 51 for one thrown) and the "
    "starter every card left; scored with crib rules and averaged"
)
#: Digits kept in the data file.
DIGITS = 6


def built_for() -> Rules:
    """The rules the table is built by: the standard game's."""
    return Rules.standard()


def holds(rules: Rules) -> bool:
    """Whether the table holds for ``rules``: a crib of the size it was built for, scored the
    same way, with one or two cards thrown by the seat."""
    built = built_for()
    return (
        rules.crib_size == built.crib_size
        and rules.points == built.points
        and 1 <= rules.others.to_crib <= 2
    )


def two_key(rank_a: int, rank_b: int, suited: bool) -> str:
    """The table key for two thrown cards: ``"5-5"``, ``"5-6s"`` (same suit), ``"5-6o"``."""
    low, high = sorted((rank_a, rank_b))
    if low == high:
        return f"{low}-{high}"
    return f"{low}-{high}{'s' if suited else 'o'}"


def single_key(rank: int) -> str:
    """The table key for one thrown card: its rank as text."""
    return str(rank)


def _crib_average(thrown: Sequence[int], others: int) -> float:
    """Average crib over every ``others`` further crib cards and every starter left."""
    rest = [i for i in range(52) if i not in thrown]
    by_rank = [0] * 14
    by_suit = [0, 0, 0, 0]
    for card in rest:
        by_rank[RANK[card]] += 1
        by_suit[SUIT[card]] += 1
    starters = len(rest) - others
    show = fast_show(built_for())
    total = 0
    cases = 0
    for extra in itertools.combinations(rest, others):
        # The starter is any card of ``rest`` not taken into the crib.
        for card in extra:
            by_rank[RANK[card]] -= 1
            by_suit[SUIT[card]] -= 1
        total += show.grouped_sum((*thrown, *extra), by_rank, by_suit, starters, True)
        for card in extra:
            by_rank[RANK[card]] += 1
            by_suit[SUIT[card]] += 1
        cases += starters
    return total / cases


def build_two(rank_a: int, rank_b: int, suited: bool) -> float:
    """Expected crib from two thrown cards of these ranks, by enumeration (see the module)."""
    if rank_a == rank_b and suited:
        raise ValueError("Two cards of one rank cannot share a suit.")
    second_suit = 0 if suited else 1
    return _crib_average((card_index(rank_a, 0), card_index(rank_b, second_suit)), 2)


def build_single(rank: int) -> float:
    """Expected crib from one thrown card of this rank, by enumeration (see the module)."""
    return _crib_average((card_index(rank, 0),), 3)


def two_keys() -> list[tuple[int, int, bool]]:
    """Every two thrown cards the table has a value for, as (low rank, high rank, suited):
    by low rank then high rank, the unsuited before the suited."""
    keys = []
    for low in range(1, 14):
        for high in range(low, 14):
            keys.append((low, high, False))
            if low != high:
                keys.append((low, high, True))
    return keys


def build_table() -> dict[str, Any]:
    """Compute the whole table (a few seconds): the content of the data file."""
    return {
        "method": METHOD,
        "two": {two_key(a, b, s): round(build_two(a, b, s), DIGITS) for a, b, s in two_keys()},
        "one": {single_key(r): round(build_single(r), DIGITS) for r in range(1, 14)},
    }


def load_table() -> dict[str, Any]:
    """The shipped table, read once from ``engine/data/crib_table.json``."""
    return shipped(DATA_FILE)


def crib_value_of_ranks(*ranks: int, suited: bool = False) -> float:
    """Expected crib points from thrown cards given by rank (one or two of them)."""
    table = load_table()
    if len(ranks) == 1:
        return float(table["one"][single_key(ranks[0])])
    if len(ranks) == 2:
        return float(table["two"][two_key(ranks[0], ranks[1], suited)])
    raise ValueError("The crib table knows one or two thrown cards.")


def crib_value(thrown: Sequence[int]) -> float:
    """Expected crib points from thrown card indexes (one or two cards)."""
    if len(thrown) == 2:
        a, b = thrown
        return crib_value_of_ranks(RANK[a], RANK[b], suited=SUIT[a] == SUIT[b])
    return crib_value_of_ranks(*(RANK[c] for c in thrown))
