"""Scoring a show: a hand (or the crib) with the starter, as the game's rules count it.

How many cards are shown comes from the rules (:class:`engine.rules.Rules`: four kept cards
in the standard game, three in five-card cribbage, five in seven-card; the crib its own size),
and so does what each combination scores. Fifteens, pairs and runs depend only on the ranks,
so each rank multiset is worked out once (lazily) and kept: as an itemised template of card
positions for :func:`score_hand`, and as a plain number for the fast :func:`hand_total`. Flush
and nobs depend on suits and are worked out per call. A call that names no rules scores the
standard game.

The numbers of every show a registered variant has (three, four or five cards with the
starter) under the standard points are shipped as data, ``engine/data/show_tables.json``: each
rank multiset's points and what a show's total can be (:func:`possible_totals`). Reading them
takes milliseconds, where working out seven-card cribbage's show (five cards and the starter:
18,395 rank multisets) took a second of CPU, paid by its first game in the middle of the
first deal. :func:`build_show_tables` writes the file (``python -m benchmarks.build_tables
show_tables``) and a test checks that it is what the builder makes. Other points (a test's)
are worked out on first use, the same way.

>>> from engine.cards import Card, parse_cards
>>> score = score_hand(parse_cards("5H 5C JD 8S"), Card.parse("2C"))
>>> score.total
10
>>> [str(item.kind) for item in score.items]
['fifteen', 'fifteen', 'fifteen', 'fifteen', 'pair']
>>> hand_total(parse_cards("5H 5C 5S JD"), Card.parse("5D"))
29
>>> from engine.rules import Rules, Share
>>> five_card = Rules(dealer=Share(5, 2), others=Share(5, 2))
>>> hand_total(parse_cards("5H 6H 4H"), Card.parse("5S"), rules=five_card)
15
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from engine.cards import JACK, PIP_VALUES, Card
from engine.data import read
from engine.rules import Points, Rules

__all__ = [
    "DATA_FILE",
    "METHOD",
    "RANK_CODE",
    "SET_KINDS",
    "SHIPPED_SIZES",
    "Score",
    "ScoreItem",
    "ScoreKind",
    "build_show_tables",
    "claim_values",
    "hand_total",
    "possible_totals",
    "rank_points",
    "rank_table",
    "score_distribution",
    "score_hand",
]


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


#: The kind of a set of n cards of one rank (its points are the rules' ``points.sets[n]``).
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


# A template is what the ranks alone score, as (kind, positions, points) where positions index
# the cards sorted by rank (ties broken by suit, which the template never looks at).
_Template = tuple[tuple[ScoreKind, tuple[int, ...], int], ...]

#: A rank multiset as one int: three bits of count per rank (a count is at most 4), so adding
#: the codes of the shown ranks keys :func:`rank_table`. Written in octal, a code is the
#: multiset's count of each rank, one digit a rank, kings first and a last 0 (no rank 0).
RANK_CODE: tuple[int, ...] = tuple(1 << (3 * rank) for rank in range(14))

#: The data file of the shows' numbers in the ``engine.data`` package.
DATA_FILE = "show_tables.json"
#: The shows the data file holds, by the cards shown without the starter: every size a
#: registered variant shows (five-card's three, four, seven-card's five; a test checks).
SHIPPED_SIZES = (3, 4, 5)
#: How the data file is made, stored in it so the numbers carry their method.
METHOD = (
    "for the points named, each show size (the cards shown without the starter): 'ranks' maps "
    "every rank multiset of the shown cards and the starter (one deck: no rank five times), "
    "keyed by its counts of each rank in octal (kings first, a last 0), to what its fifteens, "
    "sets and runs score, every subset and every run counted; 'mixed' is every total with the "
    "shown cards of more than one suit (nobs where a jack of the starter's suit can be held), "
    "'flush' every rank total a flush of the shown cards alone can go with, and "
    "'flush_with_starter' every rank total (with nobs) a flush with the starter can: a show "
    "totals a 'mixed' value, a 'flush' value and the flush's points, or a 'flush_with_starter' "
    "value and the points of the flush with the starter"
)


@cache
def _subsets(size: int) -> tuple[tuple[int, ...], ...]:
    """Position subsets of ``size`` cards with at least two cards, smallest first: the order
    fifteens are usually counted in."""
    return tuple(
        subset for n in range(2, size + 1) for subset in itertools.combinations(range(size), n)
    )


class _RankScorer:
    """What ranks score as fifteens, sets and runs under one :class:`Points`: templates and
    totals by rank multiset, built as they are first asked for."""

    def __init__(self, points: Points) -> None:
        self.points = points
        self.templates: dict[tuple[int, ...], _Template] = {}
        self.tables: dict[int, dict[int, int]] = {}

    def build(self, ranks: tuple[int, ...]) -> _Template:
        """Itemise what ``ranks`` (sorted ascending) score as fifteens, sets and runs."""
        points = self.points
        items: list[tuple[ScoreKind, tuple[int, ...], int]] = []
        for subset in _subsets(len(ranks)):
            if sum(PIP_VALUES[ranks[i]] for i in subset) == points.fifteen:
                items.append((ScoreKind.FIFTEEN, subset, points.fifteen_points))
        positions: dict[int, list[int]] = {}
        for i, rank in enumerate(ranks):
            positions.setdefault(rank, []).append(i)
        for same in positions.values():
            if len(same) >= 2:
                items.append((SET_KINDS[len(same)], tuple(same), points.sets[len(same)]))
        # A run is a stretch of consecutive ranks as long as the shortest run or longer;
        # every way of taking one card of each rank in the stretch is a distinct run (a double
        # run is two runs, and so on).
        distinct = sorted(positions)
        start = 0
        for end in range(1, len(distinct) + 1):
            if end == len(distinct) or distinct[end] != distinct[end - 1] + 1:
                stretch = distinct[start:end]
                if len(stretch) >= points.min_run:
                    for run in itertools.product(*(positions[r] for r in stretch)):
                        items.append((ScoreKind.RUN, run, len(stretch)))
                start = end
        return tuple(items)

    def template(self, ranks: tuple[int, ...]) -> _Template:
        template = self.templates.get(ranks)
        if template is None:
            template = self.templates[ranks] = self.build(ranks)
        return template

    def table(self, size: int) -> dict[int, int]:
        """Rank-multiset code -> points, for every multiset of ``size`` ranks one deck allows:
        shipped, or worked out on first use."""
        table = self.tables.get(size)
        if table is None:
            show = _shipped_show(self.points, size - 1)
            table = self.tables[size] = show.ranks if show is not None else self.work_out(size)
        return table

    def work_out(self, size: int) -> dict[int, int]:
        """:meth:`table`, worked out (some 18,000 multisets of six ranks take a second)."""
        table = {}
        for ranks in _multisets(size):
            table[sum(RANK_CODE[r] for r in ranks)] = sum(p for _, _, p in self.template(ranks))
        return table

    def total_parts(self, size: int) -> _TotalParts:
        """What a show of ``size`` cards can total, apart from the flush's points (see
        :data:`METHOD`): shipped, or worked out on first use."""
        show = _shipped_show(self.points, size)
        return show.parts if show is not None else self.work_out_parts(size)

    def work_out_parts(self, size: int) -> _TotalParts:
        """:meth:`total_parts`, worked out from every rank multiset of the shown cards and
        the starter and what suits can add to it: a flush needs every shown card of one suit
        (so distinct ranks), one more with the starter of that suit (a rank the hand lacks);
        nobs needs a jack of the starter's suit in the hand (never when the starter is itself
        a jack); four jacks in the hand cannot all miss it."""
        nobs = self.points.nobs
        mixed: set[int] = set()
        flush: set[int] = set()
        with_starter: set[int] = set()
        for ranks in _multisets(size + 1):
            base = sum(p for _, _, p in self.template(ranks))
            for starter in set(ranks):
                hand = list(ranks)
                hand.remove(starter)
                jacks = hand.count(JACK)
                if size >= 2:  # a hand of two cards or more can mix suits
                    if jacks != 4:
                        mixed.add(base)
                    if jacks >= 1 and starter != JACK:
                        mixed.add(base + nobs)
                if len(set(hand)) == len(hand):
                    # All one suit, the starter another (no nobs); or the starter too.
                    flush.add(base)
                    if starter not in hand:
                        with_starter.add(base + (nobs if jacks else 0))
        return _TotalParts(frozenset(mixed), frozenset(flush), frozenset(with_starter))


def _multisets(size: int) -> Iterable[tuple[int, ...]]:
    """Every multiset of ``size`` ranks one deck allows (no rank five times), sorted."""
    for ranks in itertools.combinations_with_replacement(range(1, 14), size):
        if not any(ranks[i] == ranks[i + 4] for i in range(size - 4)):
            yield ranks


@dataclass(frozen=True, slots=True)
class _TotalParts:
    """What a show of one size can total under one points value, flush points apart: a
    ``mixed`` total as it is, a ``flush`` value plus the flush's points, a ``with_starter``
    value plus the points of a flush with the starter."""

    mixed: frozenset[int]
    flush: frozenset[int]
    with_starter: frozenset[int]


@dataclass(frozen=True, slots=True)
class _ShippedShow:
    """One show size's numbers, as the data file has them."""

    ranks: dict[int, int]
    parts: _TotalParts


@cache
def _shipped() -> tuple[Points, dict[int, _ShippedShow]]:
    """The data file's points and its shows by size (read once: some 25 ms)."""
    data = read(DATA_FILE)
    points = dict(data["points"])
    points["sets"] = tuple(points["sets"])
    shows = {
        int(size): _ShippedShow(
            {int(key, 8): value for key, value in show["ranks"].items()},
            _TotalParts(
                frozenset(show["mixed"]),
                frozenset(show["flush"]),
                frozenset(show["flush_with_starter"]),
            ),
        )
        for size, show in data["shows"].items()
    }
    return Points(**points), shows


def _shipped_show(points: Points, size: int) -> _ShippedShow | None:
    """The shipped numbers of a show of ``size`` cards under ``points``, if the file has
    them."""
    built_for, shows = _shipped()
    return shows.get(size) if points == built_for else None


def build_show_tables() -> dict[str, Any]:
    """The data file's contents, worked out (a second or two): the standard points, and for
    each of :data:`SHIPPED_SIZES` the rank table and the parts of the totals (see
    :data:`METHOD`)."""
    standard = _standard()
    scorer = _RankScorer(standard.points)  # its own: nothing read from the file
    shows = {}
    for size in SHIPPED_SIZES:
        parts = scorer.work_out_parts(size)
        shows[str(size)] = {
            "ranks": {format(code, "o"): n for code, n in scorer.work_out(size + 1).items()},
            "mixed": sorted(parts.mixed),
            "flush": sorted(parts.flush),
            "flush_with_starter": sorted(parts.with_starter),
        }
    return {"method": METHOD, "points": standard.to_dict()["points"], "shows": shows}


@cache
def _scorer(points: Points) -> _RankScorer:
    """The :class:`_RankScorer` of ``points`` (one per points value)."""
    return _RankScorer(points)


class _Show:
    """What one rules value's show needs, looked up once: the size of a hand and of the
    crib, the rank scorer and tables, the flush points and nobs."""

    __slots__ = ("flush", "nobs", "scorer", "sizes", "tables")

    def __init__(self, rules: Rules) -> None:
        self.scorer = _scorer(rules.points)
        #: By crib?: the cards shown with the starter, and (once asked) their rank table.
        self.sizes = (rules.kept, rules.crib_size)
        self.tables: list[dict[int, int] | None] = [None, None]
        #: By crib?, then by whether the starter is of the flush's suit.
        self.flush = tuple(
            tuple(rules.flush_points(crib=crib, starter_matches=m) for m in (False, True))
            for crib in (False, True)
        )
        self.nobs = rules.points.nobs

    def table(self, crib: bool) -> dict[int, int]:
        found = self.tables[crib]
        if found is None:
            found = self.tables[crib] = self.scorer.table(self.sizes[crib] + 1)
        return found


_shows: dict[Rules, _Show] = {}
# The show used last, found by identity before the dictionary (nearly every call scores by
# the same rules as the one before).
_last: list[tuple[Rules, _Show]] = []


def _show(rules: Rules | None) -> _Show:
    if rules is None:
        rules = _standard()
    last = _last[0] if _last else None
    if last is not None and last[0] is rules:
        return last[1]
    show = _shows.get(rules)
    if show is None:
        show = _shows[rules] = _Show(rules)
    _last[:] = [(rules, show)]
    return show


@cache
def _standard() -> Rules:
    return Rules.standard()


def rank_table(size: int = 5, points: Points | None = None) -> dict[int, int]:
    """Rank-multiset code (the sum of ``size`` :data:`RANK_CODE` entries) -> points from
    fifteens, sets and runs, for every multiset of ``size`` ranks one deck allows (6,175 of
    five). Shipped for the sizes a registered variant shows under the standard points (see
    the module), else worked out once per size and points, on first use."""
    return _scorer(_standard().points if points is None else points).table(size)


def rank_points(ranks: Sequence[int], points: Points | None = None) -> int:
    """Points some ranks (the shown cards with the starter) score from fifteens, pairs and
    runs alone (no flush, no nobs).

    >>> rank_points([5, 5, 5, 5, 11])
    28
    """
    if len(ranks) < 2 or any(not 1 <= r <= 13 for r in ranks):
        raise ValueError("Two ranks or more, from 1 to 13, are needed.")
    if any(list(ranks).count(r) > 4 for r in ranks):
        raise ValueError("No rank appears five times in one deck.")
    key = sum(RANK_CODE[r] for r in ranks)
    return rank_table(len(ranks), points)[key]


def _check(hand: Sequence[Card], starter: Card, size: int) -> None:
    if len(hand) != size:
        raise ValueError(f"A hand to show has {size} cards, not {len(hand)}.")
    cards = (*hand, starter)
    if not all(isinstance(card, Card) for card in cards):
        raise ValueError("A hand and a starter must be cards.")
    # Suits are enum singletons, so their ids tell them apart; hashing the enum itself would
    # cost more than the rest of hand_total.
    if len({(card.rank, id(card.suit)) for card in cards}) != size + 1:
        raise ValueError("A card appears twice among the hand and the starter.")


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool, show: _Show) -> int:
    suit = hand[0].suit
    for card in hand:
        if card.suit is not suit:
            return 0
    return show.flush[crib][starter.suit is suit]


def score_hand(
    hand: Sequence[Card], starter: Card, *, crib: bool = False, rules: Rules | None = None
) -> Score:
    """Score a hand (or, with ``crib=True``, the crib) with the starter, by ``rules`` (the
    standard game when None: four cards).

    Items come in the order players say them: fifteens, pairs, runs, flush, nobs. Raises
    ``ValueError`` unless ``hand`` is as many distinct cards as the rules show and
    ``starter`` is not among them.

    >>> from engine.cards import Card, parse_cards
    >>> score_hand(parse_cards("AH 3H 7H 9H"), Card.parse("QS")).total
    4
    >>> score_hand(parse_cards("AH 3H 7H 9H"), Card.parse("QS"), crib=True).total
    0
    """
    show = _show(rules)
    _check(hand, starter, show.sizes[crib])
    cards = sorted((*hand, starter), key=Card.sort_key)
    template = show.scorer.template(tuple(card.rank for card in cards))
    items = [
        ScoreItem(kind, tuple(cards[i] for i in where), points) for kind, where, points in template
    ]
    flush = _flush_points(hand, starter, crib, show)
    if flush:
        flush_cards = (*hand, starter) if starter.suit is hand[0].suit else tuple(hand)
        items.append(
            ScoreItem(ScoreKind.FLUSH, tuple(sorted(flush_cards, key=Card.sort_key)), flush)
        )
    nobs = show.nobs
    for card in hand:
        # A jack that is the starter is "his heels" (scored at the cut), never nobs.
        if card.rank == JACK and card.suit is starter.suit:
            items.append(ScoreItem(ScoreKind.NOBS, (card,), nobs))
    return Score(tuple(items))


def hand_total(
    hand: Sequence[Card], starter: Card, *, crib: bool = False, rules: Rules | None = None
) -> int:
    """The total of :func:`score_hand` without building the items: the fast path.

    >>> from engine.cards import Card, parse_cards
    >>> hand_total(parse_cards("JH 2C 3D 9S"), Card.parse("5H"))
    5
    """
    show = _show(rules)
    size = show.sizes[crib]
    _check(hand, starter, size)
    code = RANK_CODE
    if size == 4:
        # The standard game's hand and crib, unrolled: the fast path is called millions of
        # times by checks that enumerate every hand.
        a, b, c, d = hand
        key = code[a.rank] + code[b.rank] + code[c.rank] + code[d.rank] + code[starter.rank]
        suit = a.suit
        flush = b.suit is suit and c.suit is suit and d.suit is suit
    else:
        key = code[starter.rank]
        suit = hand[0].suit
        flush = True
        for card in hand:
            key += code[card.rank]
            flush = flush and card.suit is suit
    points = (show.tables[crib] or show.table(crib))[key]
    if flush:
        points += show.flush[crib][starter.suit is suit]
    suit = starter.suit
    for card in hand:
        if card.rank == JACK and card.suit is suit:
            points += show.nobs
    return points


def score_distribution(
    *, crib: bool = False, deck: Iterable[Card] | None = None, rules: Rules | None = None
) -> dict[int, int]:
    """How many (hand, starter) combinations score each total, from 0 to the highest any
    hand can (29 in the standard game), by ``rules`` (the standard game when None: four-card hands).

    With no ``deck`` that is every combination of the 52 cards (12,994,800 in the standard
    game); ``deck`` limits the enumeration to some cards. Every combination is scored, one by
    one, with the same rank table and the same flush and nobs rules as :func:`hand_total`,
    working on card indexes instead of ``Card`` objects so the whole enumeration takes
    seconds.

    >>> from engine.cards import parse_cards
    >>> totals = score_distribution(deck=parse_cards("5H 5C 5S 5D JD"))
    >>> totals[29], totals[28], sum(totals.values())
    (1, 4, 5)
    """
    rules = _standard() if rules is None else rules
    size = rules.show_size(crib=crib)
    indexes = list(range(52)) if deck is None else sorted({card.index for card in deck})
    base = _scorer(rules.points).table(size + 1)
    code = [RANK_CODE[i % 13 + 1] for i in range(52)]
    suit_of = [i // 13 for i in range(52)]
    is_jack = [i % 13 + 1 == JACK for i in range(52)]
    nobs = rules.points.nobs
    # Flush points by whether the starter matches the hand's one suit.
    flush = [rules.flush_points(crib=crib, starter_matches=m) for m in (False, True)]
    counts = [0] * (max(possible_totals(rules, crib=crib)) + 1)
    if size == 4:
        _count_fours(indexes, base, code, suit_of, is_jack, nobs, flush, counts)
        return dict(enumerate(counts))
    for hand in itertools.combinations(indexes, size):
        key = 0
        for card in hand:
            key += code[card]
        # Flush and nobs depend only on the starter's suit: extra[s] for a starter of suit s.
        extra = [0, 0, 0, 0]
        first = suit_of[hand[0]]
        if all(suit_of[card] == first for card in hand):
            extra = [flush[s == first] for s in range(4)]
        for card in hand:
            if is_jack[card]:
                extra[suit_of[card]] += nobs
        for s in indexes:
            if s not in hand:
                counts[base[key + code[s]] + extra[suit_of[s]]] += 1
    return dict(enumerate(counts))


def _count_fours(
    indexes: list[int],
    base: dict[int, int],
    code: list[int],
    suit_of: list[int],
    is_jack: list[bool],
    nobs: int,
    flush: list[int],
    counts: list[int],
) -> None:
    """:func:`score_distribution`'s loop for four-card hands, unrolled: the exhaustive check
    of the standard game (12,994,800 combinations) runs it."""
    for a, b, c, d in itertools.combinations(indexes, 4):
        key = code[a] + code[b] + code[c] + code[d]
        extra = [0, 0, 0, 0]
        sa = suit_of[a]
        if sa == suit_of[b] == suit_of[c] == suit_of[d]:
            extra = [flush[s == sa] for s in range(4)]
        for card in (a, b, c, d):
            if is_jack[card]:
                extra[suit_of[card]] += nobs
        for s in indexes:
            if s != a and s != b and s != c and s != d:
                counts[base[key + code[s]] + extra[suit_of[s]]] += 1


def possible_totals(rules: Rules, *, crib: bool) -> frozenset[int]:
    """Every total some hand (or crib) of the rules' size scores with a starter: what its
    ranks score (and nobs) with the suits mixed, or with a flush of the shown cards, or with
    a flush with the starter (see :data:`METHOD`)."""
    return _totals(
        rules.show_size(crib=crib),
        rules.points,
        rules.flush_points(crib=crib, starter_matches=False),
        rules.flush_points(crib=crib, starter_matches=True),
    )


@cache
def _totals(size: int, points: Points, flush_alone: int, flush_starter: int) -> frozenset[int]:
    """:func:`possible_totals`, kept by what it depends on (the rules' target, scale and
    counting do not change it: every table of a variant shares one)."""
    parts = _scorer(points).total_parts(size)
    return (
        parts.mixed
        | {n + flush_alone for n in parts.flush}
        | {n + flush_starter for n in parts.with_starter}
    )


@cache
def claim_values(rules: Rules) -> tuple[int, ...]:
    """Every value a claim at a manual show may name under ``rules``: what some hand or crib
    scores, lowest first (26 values in the standard game: 0 to 29 but 19, 25, 26 and 27)."""
    return tuple(sorted(possible_totals(rules, crib=False) | possible_totals(rules, crib=True)))
