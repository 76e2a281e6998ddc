"""The one judge of a discard: every way to split a dealt hand, valued part by part.

Whatever says how good a discard is draws it from here: the expert's own discard, and so its
hint (:mod:`engine.hint`), the coach after the show (:mod:`engine.coach`), a game's review
(:mod:`engine.review`) and the discard of the day. Each says in its own words what the judge
counted, and none counts anything else: the split the hint names is the split the coach and
the review call the best, so a player who follows the hint is never told they chose wrong.

Each split (:class:`SplitWorth`) is worth, in points (:mod:`engine.players.expert_discard`
says how each part is made):

* ``hand``: the kept cards' exact average show over every starter the seat has not seen;
* ``crib``: what the thrown cards add to the crib, signed (+ the seat's side's crib, - an
  opponent's), where a crib table holds for the rules (:attr:`DiscardJudgement.crib_weighed`;
  elsewhere 0);
* ``play``: what the kept ranks are worth in the play for the seat's role, where the pegging
  table holds (the standard two-player game: :attr:`DiscardJudgement.play_weighed`; elsewhere
  0).

A split's ``points`` are the three together. Near the end of a two-player game where the
chances to win hold (either side needing :data:`~engine.players.expert_discard.ENDGAME_NEED`
or fewer, the scores as they stood when the seat threw) the points do not decide: the
:data:`~engine.players.expert_discard.ENDGAME_CANDIDATES` splits with the most points, and
any split asked about (the one a player chose), are weighed by the chance to win through
the deal and the next (``chance``: :func:`engine.players.endgame.split_chance`), and the
best chance decides (:attr:`DiscardJudgement.measure` is ``"chance"``).

Everything is read from what the seat knew when it threw: its dealt hand, whose crib it
was, the rules, and what each side needed then. The same inputs give the same judgement, in
any order of the cards (ties go by the order a hand is held in: rank, then suit).

The dealer's best throw from these is a five and the two (17.1 expected: 11.3 in hand, 5.4
in the crib, 0.4 in the play); near the end the six best by those are weighed by the chance
to win:

>>> from engine.cards import cards_str, parse_cards
>>> from engine.rules import Rules
>>> dealt = parse_cards("5H 5C JD QS 10S 2D")
>>> judged = judge_discard(dealt, 2, crib_sign=1, rules=Rules())
>>> judged.measure, len(judged.splits), cards_str(judged.best.thrown)
('points', 15, '2♦ 5♣')
>>> best = judged.best
>>> round(best.hand, 2), round(best.crib, 2), round(best.play, 2), round(best.points, 2)
(11.3, 5.38, 0.44, 17.13)
>>> near = judge_discard(dealt, 2, crib_sign=1, rules=Rules(), needs=(30, 20))
>>> near.measure, len(near.weighed), 0 < near.best.chance < 1
('chance', 6, True)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.players import role_crib
from engine.players.base import crib_sign as seat_crib_sign
from engine.players.deliberation import Measure
from engine.players.discard_ev import unseen_starters
from engine.players.endgame import split_chance
from engine.players.expert_discard import (
    ENDGAME_CANDIDATES,
    ENDGAME_NEED,
    PEGGING_WEIGHT,
    Split,
    crib_weighed,
    discard_splits,
)
from engine.players.win_chance import holds as chances_hold
from engine.rules import Rules
from engine.views import SeatView

__all__ = [
    "DiscardJudgement",
    "SplitWorth",
    "dealt_hand",
    "judge_discard",
    "judge_view",
    "needs_of",
]


@dataclass(frozen=True, slots=True)
class SplitWorth:
    """One split of the dealt hand and what the judge finds it worth: its parts in points
    (``crib`` signed), and near the end, for the splits weighed so, its ``chance`` to win."""

    kept: tuple[Card, ...]
    thrown: tuple[Card, ...]
    hand: float
    crib: float
    play: float
    chance: float | None = None

    @property
    def points(self) -> float:
        """The split's expected points: hand, crib (signed) and play."""
        return self.hand + self.crib + self.play


@dataclass(frozen=True, slots=True)
class DiscardJudgement:
    """Every split of one dealt hand, best first by the judgement's ``measure`` (near the end
    the splits weighed by the chance to win first, best chance first, then the rest by their
    points); ``crib_sign`` +1 when the crib is the seat's side's, -1 an opponent's;
    ``crib_weighed`` and ``play_weighed``: whether a table weighs those parts for the rules
    (where none does the part is 0, and nothing can be said of it)."""

    splits: tuple[SplitWorth, ...]
    measure: Measure
    crib_sign: int
    crib_weighed: bool
    play_weighed: bool

    @property
    def best(self) -> SplitWorth:
        """The split the judge finds best (the expert throws it; the hint names it)."""
        return self.splits[0]

    @property
    def weighed(self) -> tuple[SplitWorth, ...]:
        """The splits that have a value in the measure (near the end, those weighed by the
        chance to win), best first."""
        if self.measure == "points":
            return self.splits
        return tuple(split for split in self.splits if split.chance is not None)

    def of(self, thrown: Collection[Card]) -> SplitWorth:
        """The split that throws ``thrown``; ``ValueError`` when no split does."""
        wanted = frozenset(thrown)
        found = next((s for s in self.splits if frozenset(s.thrown) == wanted), None)
        if found is None or len(wanted) != len(thrown):
            raise ValueError("The thrown cards must be distinct cards of the dealt hand.")
        return found

    def value(self, split: SplitWorth) -> float:
        """``split``'s value in the measure: its points, or near the end its chance to win
        (``ValueError`` for a split not weighed by it: ask for it with ``asked``)."""
        if self.measure == "points":
            return split.points
        if split.chance is None:
            raise ValueError("That split was not weighed by the chance to win.")
        return split.chance


def needs_of(
    scores: Sequence[int], *, sides: Sequence[int], seat: int, target: int, rules: Rules
) -> tuple[int, int] | None:
    """(the points ``seat``'s side needs, the other side's) when the chance to win decides a
    discard with these ``scores``: a game of two sides near its end (either side within
    :data:`~engine.players.expert_discard.ENDGAME_NEED`) whose rules the chances hold for;
    None when the points decide."""
    if len(scores) != 2 or not chances_hold(rules):
        return None
    mine = sides[seat]
    needs = (target - scores[mine], target - scores[1 - mine])
    return needs if min(needs) <= ENDGAME_NEED else None


def dealt_hand(view: SeatView) -> tuple[Card, ...]:
    """The hand ``view``'s seat was dealt this deal: its hand while it owes its discard, its
    kept cards and its discards once it has thrown."""
    if view.discards:
        return (*view.kept, *view.discards)
    return view.hand


def judge_view(
    view: SeatView, *, scores: Sequence[int] | None = None, asked: Collection[Card] = ()
) -> DiscardJudgement:
    """The judgement of the discard of ``view``'s seat this deal, as it stood when the seat
    threw: its dealt hand, its role, the rules and ``scores`` (the sides' scores as the deal
    began, which are the scores at every discard of it; by default the view's own, right
    while it owes its discard). ``asked``: a split to weigh near the end whatever its
    points (the one the seat chose)."""
    count = view.discard_count if not view.discards else len(view.discards)
    needs = needs_of(
        view.scores if scores is None else scores,
        sides=view.sides,
        seat=view.seat,
        target=view.target,
        rules=view.rules,
    )
    return judge_discard(
        dealt_hand(view),
        count,
        crib_sign=seat_crib_sign(view, view.seat),
        rules=view.rules,
        needs=needs,
        asked=asked,
    )


def judge_discard(
    hand: Sequence[Card],
    discard_count: int,
    *,
    crib_sign: int,
    rules: Rules,
    needs: tuple[int, int] | None = None,
    asked: Collection[Card] = (),
) -> DiscardJudgement:
    """Every way to throw ``discard_count`` of the dealt ``hand`` in a game played by
    ``rules``, judged (see the module): ``crib_sign`` +1 when the crib is the seat's side's,
    -1 an opponent's; ``needs`` (the points the seat's side and the other need, from
    :func:`needs_of`) when the chance to win decides; ``asked``: a split to weigh by it
    whatever its points. ``ValueError`` for a hand the rules deal no such split of."""
    ordered = sorted(hand, key=Card.sort_key)  # (as a hand is held: ties go the same way)
    splits = discard_splits(ordered, discard_count, crib_sign=crib_sign, rules=rules)
    crib = crib_weighed(rules, discard_count)
    play = role_crib.holds(rules) and discard_count == 2  # (the pegging table's, as the crib's)
    if needs is None:
        worths = tuple(_worth(split) for split in splits)
        return DiscardJudgement(worths, "points", crib_sign, crib, play)
    wanted = frozenset(asked)
    unseen = unseen_starters(ordered)
    weighed: list[SplitWorth] = []
    rest: list[SplitWorth] = []
    for rank, split in enumerate(splits):
        if rank >= ENDGAME_CANDIDATES and frozenset(split.thrown) != wanted:
            rest.append(_worth(split))
            continue
        chance = split_chance(
            split,
            ordered,
            unseen,
            dealer=crib_sign > 0,
            my_needs=needs[0],
            their_needs=needs[1],
            rules=rules,
        )
        weighed.append(_worth(split, chance))
    # Best chance first; equal chances in the order of their points.
    weighed.sort(key=lambda worth: -(worth.chance or 0.0))
    return DiscardJudgement((*weighed, *rest), "chance", crib_sign, crib, play)


def _worth(split: Split, chance: float | None = None) -> SplitWorth:
    return SplitWorth(
        kept=split.kept,
        thrown=split.thrown,
        hand=split.hand,
        crib=split.crib,
        play=PEGGING_WEIGHT * split.pegging,
        chance=chance,
    )
