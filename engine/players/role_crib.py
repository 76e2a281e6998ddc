"""The crib's expected value by the two cards thrown and by whose crib it is, as played.

:mod:`engine.players.crib_table` treats the other two crib cards as any two cards. They are
not: a dealer throws good cards to its own crib and a pone throws the worst it can spare to
the dealer's. This module computes, for two players, what the crib is worth when the other
two cards come from a sensible opponent, the way Craig Hessel built his published tables:

1. Every six-card hand, as ranks (the 18,395 rank multisets, each weighted by how many ways
   suits can be dealt to it), is split the sensible way for each role: the four cards kept
   with the best exact average over the 46 unseen starters, plus (dealer) or minus (pone)
   the current crib table's value of the two thrown. Tallying those throws gives how often
   a dealer, and a pone, throws each pair of ranks.
2. The crib table is rebuilt from those throws, as the opponent makes them **given my two
   cards**: for each two ranks I throw, the opponent's six-card rank multisets are
   weighted by the ways the 50 cards I do not hold deal them (holding two 8s, I leave it
   fewer 8s, so it breaks up fewer 7-8-9 hands and throws more of the 6s, 7s and 9s that
   go with mine), and their splits tallied again. For my two cards (suits included, so a
   same-suit pair's crib flush counts) and each pair of ranks the opponent throws so (any
   suit left), the crib is scored with every one of the 48 starters left, exactly.
3. Repeat from 1 with the new table until no crib value moves by a thousandth of a point
   (the opponent then throws as this player would). Each round moves the throws only
   halfway to the new tallies: hands on the edge between two splits otherwise flip back
   and forth for ever.

The first table is the uniform one (other crib cards any cards). Suits enter the splits in
1 only through the chance that a kept jack is his nobs (12/51); a flush kept is ignored
there, as in Hessel's tables.

The result, by the ranks of the two cards thrown (suits aside):

* ``dealer``, my own crib with the pone balking it: 5-5 8.79, 2-3 6.86, 7-8 6.47,
  A-A 5.19, 10-K 2.78;
* ``pone``, the dealer's crib with the dealer loading it: 5-5 9.22, 2-3 7.19, 7-8 7.68,
  A-A 6.03, 10-K 3.88.

The crib the throws of either role make averages 4.7. The tables settle in 21 rounds
(some five minutes on a busy core).

Published tables compared, all 91 rank pairs of each:

* Craig Hessel's table of discards to the opponent's crib (the same iteration, crib flushes
  ignored; Cribbage Forum, "Discarding to opponent's crib",
  http://www.cribbageforum.com/OppCrib.htm): 5-5 9.39, 2-3 7.34, 7-8 7.88,
  A-A 6.07, 10-K 3.99. Our ``pone`` table is lower on every pair, by 0.12 on average and
  0.31 at most (4-5; 0.25 and 0.54 before the opponent's throws were conditioned on my
  cards): Hessel's model dealer throws itself more middle cards than ours does.
* DeLynn Colvert's table of the same (Play Winning Cribbage, from play; in the same
  article) is within about 0.1 of Hessel's: A-A 6.2, 2-3 7.3, 5-5 9.3.
* Cribbage Pro's dealer discard table, from their players' games (Cribbage Pro blog,
  https://blog.cribbagepro.net, "Dealer discard table", 2012): 5-5 8.5, 2-3 6.9, 7-8 6.4,
  A-A 5.2, 10-K 2.7.
  Our ``dealer`` table is within 0.12 of it on average (mean difference +0.02, at most
  0.32, on A-2).

Also kept here, from the same tallies: how often each four-card rank multiset is what a
sensible player keeps, relative to how often four random cards have those ranks (the
``keeps`` ratios), which the expert uses to weigh the hands an opponent may hold.

The tables are built by the standard two-player game's rules (:func:`built_for`: six cards
dealt, four kept, a crib of four) and hold only for rules that deal, keep and score the same
way (:func:`holds`); a player asks before it uses them.

``python -m benchmarks.build_tables role_cribs`` writes ``engine/data/role_cribs.json`` with
:func:`build_tables` (and ``--check`` compares); a test rebuilds a sample of crib entries
from the shipped throws given the cards thrown (``given``).

>>> role_crib_value(4, 17, dealer=True) > role_crib_value(4, 17, dealer=False) - 2
True
>>> round(rank_crib_value(5, 5, dealer=False), 2), round(rank_crib_value(10, 13, dealer=True), 2)
(9.22, 2.78)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import cache
from math import comb
from typing import Any

from engine.cards import JACK
from engine.data import shipped
from engine.players.base import deals_alike
from engine.players.crib_table import crib_value_of_ranks, two_key, two_keys
from engine.players.fastscore import RANK, SUIT, card_index, fast_show
from engine.rules import Rules
from engine.scoring import RANK_CODE

__all__ = [
    "DATA_FILE",
    "METHOD",
    "ROLES",
    "build_crib_entry",
    "build_tables",
    "built_for",
    "given_throw_chances",
    "given_throws",
    "holds",
    "keep_key",
    "keep_ratio",
    "load_tables",
    "pair_key",
    "rank_crib_value",
    "role_crib_value",
]

#: The data file's name inside the ``engine.data`` package.
DATA_FILE = "role_cribs.json"
#: The two roles, named by the seat that throws: the dealer into its own crib, the pone
#: into the dealer's.
ROLES = ("dealer", "pone")
#: How the tables are built, stored in the data file with the numbers.
METHOD = (
    "Hessel's iteration: every six-card rank multiset (18,395, weighted by suit ways) split "
    "for the best exact hand average over the 46 unseen starters (a kept jack is nobs with "
    "chance 12/51) plus (dealer) or minus (pone) the current crib table; the throws of each "
    "role, tallied again over the six-card hands dealt from the 50 cards the thrower does not "
    "hold, give the opponent's two crib cards (rank pairs, every suit left), and the crib is "
    "scored exactly with every starter left; repeated from the uniform table until the "
    "throws do not change"
)
#: Digits kept in the data file.
DIGITS = 6
#: The tables have settled when no crib value moves as much as this in a round (a
#: thousandth of a point: the hands on the edge between two splits keep a few values
#: wobbling below that).
SETTLED = 1e-3
#: Give up iterating after this many rounds (the tables settle in about a dozen).
MAX_ROUNDS = 40

# The chance that a kept jack matches the starter's suit when the other hand cards' suits
# are unknown: the starter is as likely as any other card to share the jack's suit.
_NOBS_CHANCE = 12 / 51


def built_for() -> Rules:
    """The rules the tables are built by: the standard two-player game's."""
    return Rules.standard(2)


def holds(rules: Rules) -> bool:
    """Whether the tables hold for ``rules``: two seats dealt, throwing and keeping as the
    standard two-player game does, the crib and every combination scored the same way."""
    return deals_alike(rules, built_for())


_HAND = built_for().others.dealt
_KEEP = built_for().kept
_UNSEEN = 52 - _HAND
# The ranks of the rank-pair keys, in the order the tables list them.
_PAIRS = [(a, b) for a in range(1, 14) for b in range(a, 14)]


def pair_key(rank_a: int, rank_b: int) -> str:
    """The key of two thrown ranks, suits aside: ``"5-5"``, ``"5-6"``."""
    low, high = sorted((rank_a, rank_b))
    return f"{low}-{high}"


def keep_key(ranks: Sequence[int]) -> str:
    """The key of four kept ranks: ``"1-5-5-11"``."""
    return "-".join(str(rank) for rank in sorted(ranks))


def _hands() -> Iterator[tuple[tuple[int, ...], int]]:
    """Every six-card rank multiset (no rank five times) with the number of ways to deal it."""
    for hand in itertools.combinations_with_replacement(range(1, 14), _HAND):
        ways = 1
        for rank in set(hand):
            held = hand.count(rank)
            if held > 4:
                ways = 0
                break
            ways *= comb(4, held)
        if ways:
            yield hand, ways


@cache
def _hand_splits() -> tuple[tuple[int, tuple[tuple[tuple[int, ...], str, float], ...]], ...]:
    """Per six-card rank multiset: its deal ways, and per split the kept ranks, the thrown
    pair's key and the kept hand's exact average over the unseen starters."""
    show = fast_show(built_for())
    base = show.hand_base
    nobs = built_for().points.nobs
    result = []
    for hand, ways in _hands():
        unseen = [4 - hand.count(rank) for rank in range(14)]
        splits = []
        for thrown_at in itertools.combinations(range(_HAND), _HAND - _KEEP):
            kept = tuple(hand[i] for i in range(_HAND) if i not in thrown_at)
            code = sum(RANK_CODE[rank] for rank in kept)
            total = 0
            for rank in range(1, 14):
                if unseen[rank]:
                    total += unseen[rank] * base[code + RANK_CODE[rank]]
            average = total / _UNSEEN + nobs * _NOBS_CHANCE * kept.count(JACK)
            thrown = pair_key(*(hand[i] for i in thrown_at))
            splits.append((kept, thrown, average))
        result.append((ways, tuple(splits)))
    return tuple(result)


def _best_splits(rank_table: dict[str, float], sign: int) -> tuple[tuple[str, str], ...]:
    """Per six-card rank multiset (in :func:`_hand_splits`' order), the split a seat throwing
    with ``sign`` (+1 own crib, -1 the opponent's) and this crib table makes: the thrown
    pair's key and the kept ranks' key."""
    best_splits = []
    for _ways, splits in _hand_splits():
        best = max(splits, key=lambda split: split[2] + sign * rank_table[split[1]])
        best_splits.append((best[1], keep_key(best[0])))
    return tuple(best_splits)


def _throws(best: Sequence[tuple[str, str]]) -> tuple[dict[str, float], dict[str, float]]:
    """How often each rank pair is thrown, and each rank multiset kept (chances summing to
    1), over every deal, when each six-card hand is split as ``best`` says."""
    throws = dict.fromkeys((pair_key(a, b) for a, b in _PAIRS), 0.0)
    keeps: dict[str, float] = {}
    total = 0
    for (ways, _splits), (thrown, kept) in zip(_hand_splits(), best, strict=True):
        throws[thrown] += ways
        keeps[kept] = keeps.get(kept, 0.0) + ways
        total += ways
    return (
        {key: count / total for key, count in throws.items()},
        {key: count / total for key, count in keeps.items()},
    )


@cache
def _hand_ranks() -> tuple[tuple[int, ...], ...]:
    """Per six-card rank multiset (in :func:`_hand_splits`' order), how many of each rank it
    holds (index 1 to 13)."""
    return tuple(tuple(hand.count(rank) for rank in range(14)) for hand, _ways in _hands())


@cache
def _holding(rank: int) -> tuple[int, ...]:
    """The indexes of the six-card rank multisets that hold ``rank``."""
    return tuple(i for i, counts in enumerate(_hand_ranks()) if counts[rank])


def _given(best: Sequence[tuple[str, str]]) -> dict[str, dict[str, float]]:
    """Per two ranks I throw (the key ``"5-8"``), how often the opponent throws each rank
    pair when its six cards are dealt from the 50 I do not hold (chances summing to 1): each
    of its rank multisets weighted by the ways the cards left deal it, split as ``best``
    says."""
    hands = _hand_splits()
    counts = _hand_ranks()
    overall = dict.fromkeys((pair_key(a, b) for a, b in _PAIRS), 0.0)
    for (ways, _splits), (thrown, _kept) in zip(hands, best, strict=True):
        overall[thrown] += ways
    given = {}
    for a, b in _PAIRS:
        # Only the hands holding my ranks are dealt fewer ways: start from every deal and
        # take off what my two cards leave out.
        tally = dict(overall)
        left = [4] * 14
        left[a] -= 1
        left[b] -= 1
        for i in sorted(set(_holding(a)) | set(_holding(b))):
            ways = hands[i][0]
            held = counts[i]
            now = ways
            for rank in {a, b}:
                now = now * comb(left[rank], held[rank]) // comb(4, held[rank])
            if now != ways:
                tally[best[i][0]] += now - ways
        total = sum(tally.values())
        given[pair_key(a, b)] = {key: count / total for key, count in tally.items()}
    return given


def _halfway(old: dict[str, float], new: dict[str, float]) -> dict[str, float]:
    return {key: (old.get(key, 0.0) + new.get(key, 0.0)) / 2 for key in old.keys() | new.keys()}


def build_crib_entry(rank_a: int, rank_b: int, suited: bool, throws: dict[str, float]) -> float:
    """The expected crib when I throw two cards of these ranks (of one suit or not) and the
    opponent's two cards come from ``throws`` (rank pair key -> chance, the opponent's
    throws given my two ranks: :func:`given_throws`): exact over every suit the opponent's
    ranks can come in from the cards I do not hold, and every starter left."""
    if rank_a == rank_b and suited:
        raise ValueError("Two cards of one rank cannot share a suit.")
    mine = (card_index(rank_a, 0), card_index(rank_b, 0 if suited else 1))
    rest = [i for i in range(52) if i not in mine]
    by_rank_cards: list[list[int]] = [[] for _ in range(14)]
    for card in rest:
        by_rank_cards[RANK[card]].append(card)
    by_rank = [len(cards) for cards in by_rank_cards]
    by_suit = [0, 0, 0, 0]
    for card in rest:
        by_suit[SUIT[card]] += 1
    starters = len(rest) - 2
    show = fast_show(built_for())
    weighted = 0.0
    weight = 0.0
    for c, d in _PAIRS:
        chance = throws.get(pair_key(c, d), 0.0)
        if not chance:
            continue
        if c == d:
            pairs = list(itertools.combinations(by_rank_cards[c], 2))
        else:
            pairs = list(itertools.product(by_rank_cards[c], by_rank_cards[d]))
        if not pairs:
            continue
        # The chance is the opponent's given my two ranks (its hands dealt from the cards I
        # do not hold); its suits are any of those left.
        share = chance
        total = 0
        for x, y in pairs:
            for card in (x, y):
                by_rank[RANK[card]] -= 1
                by_suit[SUIT[card]] -= 1
            total += show.grouped_sum((*mine, x, y), by_rank, by_suit, starters, True)
            for card in (x, y):
                by_rank[RANK[card]] += 1
                by_suit[SUIT[card]] += 1
        weighted += share * total / (len(pairs) * starters)
        weight += share
    return weighted / weight


def _rank_table(suited_table: dict[str, float]) -> dict[str, float]:
    """Suits aside: a pair of ranks is of one suit 4 times in 16."""
    table = {}
    for low, high in _PAIRS:
        if low == high:
            value = suited_table[two_key(low, high, False)]
        else:
            value = (
                12 * suited_table[two_key(low, high, False)]
                + 4 * suited_table[two_key(low, high, True)]
            ) / 16
        table[pair_key(low, high)] = value
    return table


def _crib_tables(given: dict[str, dict[str, float]]) -> dict[str, float]:
    return {
        two_key(a, b, s): build_crib_entry(a, b, s, given[pair_key(a, b)]) for a, b, s in two_keys()
    }


def given_throws(rank_a: int, rank_b: int, role: str) -> dict[str, float]:
    """The shipped throws of the opponent of ``role`` when I throw these two ranks (rank pair
    key -> chance): what :func:`build_crib_entry` takes to rebuild my crib as ``role``."""
    chances = given_throw_chances(rank_a, rank_b, role)
    return {pair_key(c, d): x for (c, d), x in zip(_PAIRS, chances, strict=True)}


@cache
def given_throw_chances(rank_a: int, rank_b: int, role: str) -> tuple[float, ...]:
    """The chances of :func:`given_throws` alone, in the order of their rank pairs: the low
    rank from ace to king, and for each the high rank from the low one to king (1-1, 1-2,
    ..., 1-13, 2-2, ..., 13-13), for the loops that read them for every split judged."""
    other = "pone" if role == "dealer" else "dealer"
    return tuple(float(x) for x in load_tables()["given"][other][pair_key(rank_a, rank_b)])


def _keep_ratios(keeps: dict[str, float]) -> dict[str, float]:
    """How much likelier each kept rank multiset is than four random cards' ranks."""
    ratios = {}
    total_ways = comb(52, _KEEP)
    for ranks in itertools.combinations_with_replacement(range(1, 14), _KEEP):
        ways = 1
        for rank in set(ranks):
            ways *= comb(4, ranks.count(rank))
        key = keep_key(ranks)
        ratios[key] = keeps.get(key, 0.0) / (ways / total_ways)
    return ratios


def build_tables(*, report: bool = False) -> dict[str, Any]:
    """Run the iteration (see the module; about a minute): the content of the data file."""
    rank_tables = {
        role: {pair_key(a, b): crib_value_of_ranks(a, b) for a, b in _PAIRS} for role in ROLES
    }
    signs = {"dealer": 1, "pone": -1}
    throws: dict[str, dict[str, float]] = {}
    keeps: dict[str, dict[str, float]] = {}
    given: dict[str, dict[str, dict[str, float]]] = {}
    cribs: dict[str, dict[str, float]] = {}
    rounds = 0
    while True:
        rounds += 1
        best = {role: _best_splits(rank_tables[role], signs[role]) for role in ROLES}
        tallies = {role: _throws(best[role]) for role in ROLES}
        now_given = {role: _given(best[role]) for role in ROLES}
        if throws:
            # Halfway to the new throws: a hand on the edge between two splits would
            # otherwise flip back and forth from one round to the next.
            throws = {role: _halfway(throws[role], tallies[role][0]) for role in ROLES}
            keeps = {role: _halfway(keeps[role], tallies[role][1]) for role in ROLES}
            given = {
                role: {
                    mine: _halfway(given[role][mine], now_given[role][mine]) for mine in given[role]
                }
                for role in ROLES
            }
        else:
            throws = {role: tallies[role][0] for role in ROLES}
            keeps = {role: tallies[role][1] for role in ROLES}
            given = now_given
        # My crib as dealer takes the pone's throws, and the other way round.
        new_cribs = {
            "dealer": _crib_tables(given["pone"]),
            "pone": _crib_tables(given["dealer"]),
        }
        change = (
            max(abs(new_cribs[r][k] - cribs[r][k]) for r in ROLES for k in cribs[r])
            if cribs
            else float("inf")
        )
        cribs = new_cribs
        rank_tables = {role: _rank_table(cribs[role]) for role in ROLES}
        if report:
            print(f"round {rounds}: largest change in a crib value {change:.5f}", flush=True)
        if change < SETTLED or rounds >= MAX_ROUNDS:
            break
    return {
        "method": METHOD,
        "rounds": rounds,
        "cribs": {
            role: {key: round(value, DIGITS) for key, value in cribs[role].items()}
            for role in ROLES
        },
        "throws": {
            role: {key: round(value, DIGITS) for key, value in throws[role].items()}
            for role in ROLES
        },
        # Per two ranks thrown, the other role's throws given them, in the order of _PAIRS.
        "given": {
            role: {
                mine: [round(chances[pair_key(c, d)], DIGITS) for c, d in _PAIRS]
                for mine, chances in given[role].items()
            }
            for role in ROLES
        },
        "keeps": {
            role: {key: round(value, DIGITS) for key, value in _keep_ratios(keeps[role]).items()}
            for role in ROLES
        },
    }


def load_tables() -> dict[str, Any]:
    """The shipped tables, read once from ``engine/data/role_cribs.json``."""
    return shipped(DATA_FILE)


@cache
def _role_lookup(dealer: bool) -> tuple[float, ...]:
    """The crib table of one role by card index pair ``a * 52 + b``, for speed."""
    table = load_tables()["cribs"]["dealer" if dealer else "pone"]
    values = [0.0] * (52 * 52)
    for a in range(52):
        for b in range(52):
            if a != b:
                key = two_key(RANK[a], RANK[b], SUIT[a] == SUIT[b])
                values[a * 52 + b] = float(table[key])
    return tuple(values)


def role_crib_value(card_a: int, card_b: int, *, dealer: bool) -> float:
    """Expected crib points from two thrown card indexes: my own crib when ``dealer``, else
    the dealer's crib I throw into (suits count: a same-suit pair may make a crib flush)."""
    return _role_lookup(dealer)[card_a * 52 + card_b]


@cache
def _rank_lookup(dealer: bool) -> dict[str, float]:
    return _rank_table(load_tables()["cribs"]["dealer" if dealer else "pone"])


def rank_crib_value(rank_a: int, rank_b: int, *, dealer: bool) -> float:
    """Expected crib points from two thrown ranks, suits aside (as published tables give
    them): my own crib when ``dealer``, else the dealer's crib I throw into."""
    return _rank_lookup(dealer)[pair_key(rank_a, rank_b)]


def keep_ratio(ranks: Sequence[int], *, dealer: bool) -> float:
    """How much likelier a sensible player (the dealer when ``dealer``) keeps four cards of
    these ranks than four random cards have them: 0 for hands it never keeps."""
    return float(load_tables()["keeps"]["dealer" if dealer else "pone"][keep_key(ranks)])
