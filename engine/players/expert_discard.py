"""The expert's discard: every split of the hand valued, for the points or for the game.

Each split (:class:`Split`) is worth:

* ``hand``: the kept cards' exact average show over every starter the seat has not seen;
* ``crib``: the thrown cards' expected crib, signed (+ the seat's side's crib, - an
  opponent's). Where the role tables of :mod:`engine.players.role_crib` hold (the standard
  two-player game) it comes from them (the other two cards thrown by a sensible opponent,
  suits counted); otherwise from :mod:`engine.players.crib_table` where that holds (three
  or four players: one card thrown), and not at all where no table does;
* ``pegging`` (where the role tables hold): what the kept ranks are worth in the play for
  this role (:mod:`engine.players.peg_table`), weighed at :data:`PEGGING_WEIGHT` since the
  table comes from club players and the expert pegs better than they do.

The hand's value and the tables' fitness are read from the game's rules.

Far from the end the best split is the one with the best ``total``. Near the end of a
two-player game (either side needing :data:`ENDGAME_NEED` or fewer) the expert weighs the
:data:`ENDGAME_CANDIDATES` splits with the best totals by its chance to win instead
(:func:`engine.players.endgame.split_chance`). :mod:`engine.players.judge` puts both
together: it is the one judge of a discard, which the expert, its hint, the coach, the review
and the discard of the day all draw from.

The pone's six below: by the average crib alone (:func:`~engine.players.discard_ev.
discard_choices`) it would keep J Q 10 K and throw 3 7 (4.35 to the crib against 3.57 from
K 7); the role tables, which count what the dealer throws beside them, give the dealer's
crib 5.02 from 3 7 and 4.21 from K 7, enough to turn the choice.

>>> from engine.cards import parse_cards
>>> from engine.rules import Rules
>>> best = discard_splits(parse_cards("3C QH 10C KS JC 7H"), 2, crib_sign=-1, rules=Rules())[0]
>>> " ".join(str(c) for c in best.thrown), round(best.hand, 2), round(best.crib, 2)
('K♠ 7♥', 5.52, -4.21)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.players import crib_table, role_crib
from engine.players.discard_ev import check_split, split_places, unseen_starters
from engine.players.fastscore import RANK, fast_show
from engine.players.peg_table import pegging_value
from engine.players.role_crib import role_crib_value
from engine.rules import Rules

__all__ = [
    "ENDGAME_CANDIDATES",
    "ENDGAME_NEED",
    "PEGGING_WEIGHT",
    "Split",
    "crib_weighed",
    "discard_splits",
]

#: How much of the pegging table's value a split gets.
PEGGING_WEIGHT = 0.7
#: Within this many points of the target (either side), the game decides, not the points.
ENDGAME_NEED = 40
#: The splits (best totals first) the endgame weighs by the chance to win.
ENDGAME_CANDIDATES = 6


@dataclass(frozen=True, slots=True)
class Split:
    """One way to split the dealt hand, with what the expert expects of it.

    ``crib`` is signed (negative when the crib is an opponent's); ``points`` holds the kept
    hand's show for each unseen starter (in card order), for the endgame.
    """

    kept: tuple[Card, ...]
    thrown: tuple[Card, ...]
    hand: float
    crib: float
    pegging: float
    points: tuple[int, ...]

    @property
    def total(self) -> float:
        """The split's expected points: hand, crib (signed) and weighed pegging."""
        return self.hand + self.crib + PEGGING_WEIGHT * self.pegging


def discard_splits(
    hand: Sequence[Card], discard_count: int, *, crib_sign: int, rules: Rules
) -> list[Split]:
    """Every split of ``hand``, best ``total`` first (ties keep the enumeration order), in a
    game played by ``rules``.

    ``crib_sign`` is +1 when the crib is the seat's side's, -1 when an opponent's. The role
    tables and the pegging table weigh the splits where they hold for the rules (the
    standard two-player game), the one-card table where it does.
    """
    check_split(hand, discard_count, rules)
    indexes = [card.index for card in hand]
    unseen = unseen_starters(hand)
    dealer = crib_sign > 0
    show = fast_show(rules)
    two = role_crib.holds(rules) and discard_count == 2
    by_table = crib_table.holds(rules)
    splits = []
    for kept_at, thrown_at in split_places(len(hand), discard_count):
        kept = [indexes[i] for i in kept_at]
        thrown = [indexes[i] for i in thrown_at]
        points = tuple(show.hand_points(kept, starter) for starter in unseen)
        if two:
            crib = crib_sign * role_crib_value(thrown[0], thrown[1], dealer=dealer)
            pegging = pegging_value([RANK[i] for i in kept], dealer=dealer)
        else:
            crib = crib_sign * crib_table.crib_value(thrown) if by_table else 0.0
            pegging = 0.0
        splits.append(
            Split(
                kept=tuple(hand[i] for i in kept_at),
                thrown=tuple(hand[i] for i in thrown_at),
                hand=sum(points) / len(points),
                crib=crib,
                pegging=pegging,
                points=points,
            )
        )
    return sorted(splits, key=lambda split: -split.total)


def crib_weighed(rules: Rules, discard_count: int) -> bool:
    """Whether a split's crib is weighed in a game played by ``rules`` (a table holds for
    them: the role tables for two cards thrown, the one-card table): where none does, every
    split's crib is 0 and nothing can be said of it."""
    return (role_crib.holds(rules) and discard_count == 2) or crib_table.holds(rules)
