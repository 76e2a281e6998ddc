"""The book player: a second club-level yardstick, built from published sources alone.

:mod:`engine.players.club` is the yardstick the expert was tuned against for years (its crib
tables, its rules of thumb and the expert's play-outs are the same code). This one shares
nothing with the expert but the rules of the game: its figures and its rules are taken from
what a club player would have read, and the expert never imports it nor its tables (a test
guards that), so its results against the expert are not flattered by the expert's tuning.

* **Discard** (the two-player game of six cards): each split of the hand is worth the kept
  cards' exact average over the 46 starters the seat has not seen, plus (own crib) or minus
  (the opponent's) the average crib of the two cards thrown, by their ranks, from Michael
  Schell's discard tables (:data:`SCHELL_OWN_CRIB`, :data:`SCHELL_OPPONENT_CRIB`). When two
  splits come within :data:`CLOSE_SPLIT` of each other, the one keeping two cards that add
  to eleven is preferred (DeLynn Colvert's "magic eleven": "when an obvious discard is tough
  to figure, ... keep cards that total eleven"). In any other game no published table
  applies: it keeps the hand with the best average and leaves the crib out.
* **Play**: the card that scores most now, pegging out first; between cards that score
  alike, the published rules of thumb of :func:`book_value`, each worth less than a point.

It ignores the score but for pegging out, and never uses its random source: the same view
gives the same choice.

Sources:

* Michael Schell, "Schell's discard tables", Cribbage Forum,
  http://www.cribbageforum.com/SchellDiscard.htm (the expected crib for each pair of ranks
  thrown, to one's own crib and to the opponent's; from simulated play). The figures below
  were checked against two independent transcriptions of that page, and agree with the
  figures of it quoted in docs/crib-figures.md (5-5 9.37 and 8-8 6.82 to the opponent's
  crib, 6-7 4.98 to one's own).
* The play: the strategy section of Wikipedia's "Cribbage" article ("Lead from a pair",
  "Do not lead a five", "if two cards total fifteen, play one", "If a hand has a 7 and a 9,
  or an 8 and a 9, play the 7 or 8", "be wary that your opponent may be setting you up for
  a possible pair royal", "Hold low cards to the end", "Play a card from a pair", "two apart
  in sequence and the middle card would total 15 (i.e. a 6 and an 8)", "Avoid making the
  count 21"); and DeLynn Colvert's tips from *Play Winning Cribbage*, republished by the
  American Cribbage Congress (https://www.cribbage.org/NewSite/tips/): #2 "The magic
  eleven" (a 9 played on a J or 10 lead "gives Jake the opportunity to score a three-card
  run"), #5 "Trapping the J" ("dump the lone J when the count is at least 12, making a
  retaliatory pairing impossible") and #8 "The end game" ("always try to lead a card
  smaller than a 5, preferably from a pair").

>>> from engine.cards import parse_cards
>>> from engine.rules import Rules
>>> best = max(book_discard_values(parse_cards("5H 5C JD QS 9C 2D"), 2, -1, Rules()),
...            key=lambda split: split[1])
>>> " ".join(str(card) for card in best[0])
'9♣ 2♦'
>>> schell_crib(5, 5, own=False), schell_crib(10, 13, own=True)
(9.37, 2.84)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import PIP_VALUES, Card
from engine.players.base import Player, crib_sign, deals_alike, playable
from engine.players.discard_ev import check_split, split_places, unseen_starters
from engine.players.fastscore import fast_show, peg_scorer
from engine.rules import Rules
from engine.views import SeatView

__all__ = [
    "CLOSE_SPLIT",
    "SCHELL_OPPONENT_CRIB",
    "SCHELL_OWN_CRIB",
    "BookPlayer",
    "book_discard_values",
    "book_value",
    "schell_crib",
    "schell_holds",
]

# Michael Schell's discard tables (see the module): row and column are the two ranks thrown,
# ace to king; the expected crib in points.
#: To one's own crib (the dealer's discard).
SCHELL_OWN_CRIB: tuple[tuple[float, ...], ...] = (
    (5.38, 4.23, 4.52, 5.43, 5.45, 3.85, 3.85, 3.80, 3.40, 3.42, 3.65, 3.42, 3.41),
    (4.23, 5.72, 7.00, 4.52, 5.45, 3.93, 3.81, 3.66, 3.71, 3.55, 3.84, 3.58, 3.52),
    (4.52, 7.00, 5.94, 4.91, 5.97, 3.81, 3.58, 3.92, 3.78, 3.57, 3.90, 3.59, 3.67),
    (5.43, 4.52, 4.91, 5.63, 6.48, 3.85, 3.72, 3.83, 3.72, 3.59, 3.88, 3.59, 3.60),
    (5.45, 5.45, 5.97, 6.48, 8.79, 6.63, 6.01, 5.48, 5.43, 6.66, 7.00, 6.63, 6.66),
    (3.85, 3.93, 3.81, 3.85, 6.63, 5.76, 4.98, 4.63, 5.13, 3.17, 3.41, 3.23, 3.13),
    (3.85, 3.81, 3.58, 3.72, 6.01, 4.98, 5.92, 6.53, 4.04, 3.23, 3.53, 3.23, 3.26),
    (3.80, 3.66, 3.92, 3.83, 5.48, 4.63, 6.53, 5.45, 4.72, 3.80, 3.52, 3.19, 3.16),
    (3.40, 3.71, 3.78, 3.72, 5.43, 5.13, 4.04, 4.72, 5.16, 4.29, 3.97, 2.99, 3.06),
    (3.42, 3.55, 3.57, 3.59, 6.66, 3.17, 3.23, 3.80, 4.29, 4.76, 4.61, 3.31, 2.84),
    (3.65, 3.84, 3.90, 3.88, 7.00, 3.41, 3.53, 3.52, 3.97, 4.61, 5.33, 4.81, 3.96),
    (3.42, 3.58, 3.59, 3.59, 6.63, 3.23, 3.23, 3.19, 2.99, 3.31, 4.81, 4.79, 3.46),
    (3.41, 3.52, 3.67, 3.60, 6.66, 3.13, 3.26, 3.16, 3.06, 2.84, 3.96, 3.46, 4.58),
)
#: To the opponent's crib (the pone's discard).
SCHELL_OPPONENT_CRIB: tuple[tuple[float, ...], ...] = (
    (6.02, 5.07, 5.07, 5.72, 6.01, 4.91, 4.89, 4.85, 4.55, 4.48, 4.68, 4.33, 4.30),
    (5.07, 6.38, 7.33, 5.33, 6.11, 4.97, 4.97, 4.94, 4.70, 4.59, 4.81, 4.56, 4.45),
    (5.07, 7.33, 6.68, 5.96, 6.78, 4.87, 5.01, 5.05, 4.87, 4.63, 4.86, 4.59, 4.48),
    (5.72, 5.33, 5.96, 6.53, 7.26, 5.34, 4.88, 4.94, 4.68, 4.53, 4.85, 4.46, 4.36),
    (6.01, 6.11, 6.78, 7.26, 9.37, 7.47, 7.00, 6.30, 6.15, 7.41, 7.76, 7.34, 7.25),
    (4.91, 4.97, 4.87, 5.34, 7.47, 7.08, 6.42, 5.86, 6.26, 4.31, 4.57, 4.22, 4.14),
    (4.89, 4.97, 5.01, 4.88, 7.00, 6.42, 7.14, 7.63, 5.26, 4.31, 4.68, 4.32, 4.27),
    (4.85, 4.94, 5.05, 4.94, 6.30, 5.86, 7.63, 6.82, 5.83, 5.10, 4.59, 4.31, 4.20),
    (4.55, 4.70, 4.87, 4.68, 6.15, 6.26, 5.26, 5.83, 6.39, 5.43, 4.96, 4.11, 4.03),
    (4.48, 4.59, 4.63, 4.53, 7.41, 4.31, 4.31, 5.10, 5.43, 6.08, 5.63, 4.61, 3.88),
    (4.68, 4.81, 4.86, 4.85, 7.76, 4.57, 4.68, 4.59, 4.96, 5.63, 6.42, 5.46, 4.77),
    (4.33, 4.56, 4.59, 4.46, 7.34, 4.22, 4.32, 4.31, 4.11, 4.61, 5.46, 5.79, 4.49),
    (4.30, 4.45, 4.48, 4.36, 7.25, 4.14, 4.27, 4.20, 4.03, 3.88, 4.77, 4.49, 5.65),
)

#: Splits within this many points of each other are "tough to figure" (Colvert's words):
#: between them, keeping two cards that total eleven decides.
CLOSE_SPLIT = 0.1
#: What pegging out is worth against any points.
_PEG_OUT = 100.0

# The rules of thumb, as fractions of a point (they only break ties between cards that
# score alike now). The sources say which way each one points, not by how much: the sizes
# are round figures set once, by how firmly each is worded ("do not", "avoid", "try to"),
# and never tuned against any player.
_FIVE_LEAD = -0.6  # "Do not lead a five"
_LOW_LEAD = 0.5  # "always try to lead a card smaller than a 5, preferably from a pair"
_BAIT_LEAD = 0.2  # two cards total fifteen, or a run waits behind the fifteen
_DANGER_COUNT = -0.5  # "Avoid making the count 21" (and 5: the same sixteen ten-cards)
_WARY_PAIR = -0.3  # pairing: the third card may answer for a pair royal
_FROM_A_PAIR = 0.2  # "Play a card from a pair", "Lead from a pair"
_RUN_INVITE = -0.3  # a card one or two ranks from the last invites a three-card run
_LONE_JACK = 0.3  # "dump the lone J when the count is at least 12"
_LOW_TO_THE_END = 0.02  # per pip: "Hold low cards to the end"
#: A ten-card's pip value: sixteen of the 52 cards.
_TEN = PIP_VALUES[10]


def schell_holds(rules: Rules) -> bool:
    """Whether Schell's tables apply to a game by ``rules``: two players dealt six cards,
    each throwing two to a crib of four, scored as the standard game scores."""
    return deals_alike(rules, Rules.standard(2))


def schell_crib(rank_a: int, rank_b: int, *, own: bool) -> float:
    """Schell's expected crib for two thrown ranks (1 to 13): to one's own crib when
    ``own``, else to the opponent's."""
    table = SCHELL_OWN_CRIB if own else SCHELL_OPPONENT_CRIB
    return table[rank_a - 1][rank_b - 1]


def _eleven(kept: Sequence[Card]) -> bool:
    """Whether two of the kept cards add to eleven (Colvert's magic eleven)."""
    values = [card.value for card in kept]
    return any(
        values[i] + values[j] == 11 for i in range(len(values)) for j in range(i + 1, len(values))
    )


def book_discard_values(
    hand: Sequence[Card], discard_count: int, sign: int, rules: Rules
) -> list[tuple[tuple[Card, ...], float]]:
    """Every way to throw ``discard_count`` cards of ``hand`` with its value to the book
    player (``sign`` +1 when the crib is its side's, -1 when an opponent's): the kept hand's
    exact average over the unseen starters, with Schell's crib where his tables apply. In
    the order the hand's cards give (best not first)."""
    check_split(hand, discard_count, rules)
    indexes = [card.index for card in hand]
    unseen = unseen_starters(hand)
    show = fast_show(rules)
    by_schell = schell_holds(rules) and discard_count == 2
    values = []
    for kept_at, thrown_at in split_places(len(hand), discard_count):
        value = show.starter_sum([indexes[i] for i in kept_at], unseen) / len(unseen)
        thrown = tuple(hand[i] for i in thrown_at)
        if by_schell:
            value += sign * schell_crib(thrown[0].rank, thrown[1].rank, own=sign > 0)
        values.append((thrown, value))
    return values


def book_value(
    rank: int, hand: Sequence[int], series: Sequence[int], count: int, rules: Rules
) -> float:
    """What the book player sees in playing ``rank`` from ``hand`` (ranks, ``rank`` among
    them) on the ``series`` of ranks since the count was last reset, at ``count``: the points
    it scores now plus the rules of thumb of the sources (see the module), each under a
    point."""
    points = rules.points
    value = PIP_VALUES[rank]
    new = count + value
    now = peg_scorer(points)([*series, rank], new)
    scored = float(now)
    others = list(hand)
    others.remove(rank)
    paired = rank in others
    room = new + value <= points.max_count  # a card of this rank may still follow
    scored += _LOW_TO_THE_END * value
    if paired and room:
        scored += _FROM_A_PAIR
    if not series:
        if rank == points.fifteen - _TEN:
            return scored + _FIVE_LEAD
        if value < points.fifteen - _TEN:
            scored += _LOW_LEAD
        # Bait: the fifteen the reply makes on this card is answered by a pair (the two
        # cards total fifteen: "play one") or by a run ("a 7 and a 9 ... play the 7 or 8").
        for other in others:
            if value + PIP_VALUES[other] == points.fifteen or _baits_a_run(rank, other, rules):
                scored += _BAIT_LEAD
                break
        return scored
    if new in (points.fifteen - _TEN, points.max_count - _TEN):
        scored += _DANGER_COUNT
    last = series[-1]
    if rank == last and room:
        scored += _WARY_PAIR
    elif rank != last and abs(rank - last) <= 2 and new < points.max_count and not now:
        scored += _RUN_INVITE
    if rank == 11 and not paired and count >= 12:
        scored += _LONE_JACK
    return scored


def _baits_a_run(lead: int, other: int, rules: Rules) -> bool:
    """Whether leading ``lead`` while holding ``other`` sets the run trap the sources name:
    the card that makes fifteen on the lead forms a run with the lead and ``other`` (a 7
    led holding a 9: an 8 for fifteen, then the 9 for a run of three)."""
    reply = rules.points.fifteen - PIP_VALUES[lead]
    if not 1 <= reply <= 9:  # a ten-card reply is four ranks, none of them a run's
        return False
    ranks = sorted((lead, reply, other))
    return len(set(ranks)) == 3 and ranks[2] - ranks[0] == 2


class BookPlayer(Player):
    """Exact hand averages and Schell's discard tables; the published rules of thumb in the
    play (see the module)."""

    name = "book"

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """The split with the best value; among those within :data:`CLOSE_SPLIT` of it, the
        first that keeps a magic eleven, else the best (first of equals)."""
        sign = crib_sign(view, view.seat)
        values = book_discard_values(view.hand, view.discard_count, sign, view.rules)
        best = max(value for _, value in values)
        close = [thrown for thrown, value in values if value >= best - CLOSE_SPLIT]
        for thrown in close:
            kept = [card for card in view.hand if card not in thrown]
            if _eleven(kept):
                return thrown
        return next(thrown for thrown, value in values if value >= best - 1e-9)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """The card that pegs out, else the one the points now and the rules of thumb value
        most (ties to the lower card)."""
        cards = sorted(playable(view), key=Card.sort_key)
        hand = [card.rank for card in view.hand]
        series = [card.rank for card in view.series]
        need = view.target - view.scores[view.sides[view.seat]]
        peg = peg_scorer(view.rules.points)
        best, best_value = cards[0], -1e9
        for card in cards:
            value = book_value(card.rank, hand, series, view.count, view.rules)
            if peg([*series, card.rank], view.count + card.value) >= need:
                value += _PEG_OUT
            if value > best_value + 1e-9:
                best, best_value = card, value
        return best
