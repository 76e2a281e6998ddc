"""A review of a game: each decision of a seat beside the best one the expert finds.

The game is dealt again from its random source (one that hands back the shuffles the game
had) and its action log is applied in order; before each action of a reviewed seat, the
seat's view is judged as it stood then:

* a **discard** by the one judge of a discard (:mod:`engine.players.judge`, through
  :func:`engine.coach.review_discard`: what the coach says and the hint and the expert
  throw): the kept hand's exact average over the unseen starters, the crib's by role (minus
  it when the crib is an opponent's) and the kept cards' worth in the play, against the best
  split; near the end of a two-player game the chance to win, which decides there;
* a **play** by the expert's own values (:func:`engine.players.expert_play.play_values`,
  :data:`engine.players.expert.SAMPLES` guesses at the other hands): the points the seat's
  side is expected to peg less the others' (a side that reaches the target counting what it
  pegged to get there), or, near the end of a two-player game, the chance to win, against
  the best of them. A play with one rank to choose from is no
  decision and is left out.

Only what the seat saw goes into a decision (its view), so a review shows nothing of the
other hands but what the table showed. Pure: the random source and the seed of the play-outs
are passed in, so a review is the same every time.

>>> import random
>>> from engine.game import Game
>>> game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(4))
>>> for seat in (0, 1):
...     _ = game.discard(seat, game.hand(seat)[:2])
>>> found = review_game(
...     ["Al", "Bea"], game.actions, rng=random.Random(4), seats={0}, seed=1, samples=16
... )
>>> [(d.kind, d.seat) for d in found.decisions]
[('discard', 0)]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.cards import Card
from engine.coach import review_discard
from engine.game import Game
from engine.players.base import crib_sign
from engine.players.expert import SAMPLES, endgame_outcome
from engine.players.expert_play import pegged_points, play_values
from engine.players.judge import needs_of
from engine.rules import Rules
from engine.seen import crib_shown

__all__ = ["CLOSE_CHANCE", "CLOSE_POINTS", "Decision", "GameReview", "review_game"]

#: A decision within this many expected points of the best counts as accurate.
CLOSE_POINTS = 0.5
#: ... or within this chance to win (near the end of a two-player game).
CLOSE_CHANCE = 0.02

Unit = Literal["points", "chance"]


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat, judged: ``chosen`` (the cards thrown, or the card played)
    against ``best``, each with its value in ``unit`` (expected points, or the chance to
    win). ``held`` is what the seat held then (the dealt hand for a discard), ``scores``
    the sides' scores before it, ``count`` and ``series`` the play as it stood, ``starter``
    the starter once cut; ``kept_hand``/``kept_crib``/``kept_play`` the parts of a discard's
    points (hand, the crib's signed, the play), ``best_...`` the best split's."""

    deal: int
    kind: Literal["discard", "play"]
    seat: int
    dealer: int
    scores: tuple[int, ...]
    held: tuple[Card, ...]
    chosen: tuple[Card, ...]
    best: tuple[Card, ...]
    chosen_value: float
    best_value: float
    unit: Unit
    count: int = 0
    series: tuple[Card, ...] = ()
    starter: Card | None = None
    kept_hand: float = 0.0
    kept_crib: float = 0.0
    best_hand: float = 0.0
    best_crib: float = 0.0
    kept_play: float = 0.0
    best_play: float = 0.0

    @property
    def loss(self) -> float:
        """What the choice gave up against the best (never below 0)."""
        return max(0.0, self.best_value - self.chosen_value)

    @property
    def close(self) -> bool:
        """Whether the choice was within the margin of the best (an accurate decision)."""
        margin = CLOSE_CHANCE if self.unit == "chance" else CLOSE_POINTS
        return self.loss <= margin

    @property
    def was_best(self) -> bool:
        """Whether the choice was the best one (or worth as much)."""
        return self.loss < 1e-9 or set(self.chosen) == set(self.best)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (cards as codes)."""
        return {
            "deal": self.deal,
            "kind": self.kind,
            "seat": self.seat,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "held": [c.code for c in self.held],
            "chosen": [c.code for c in self.chosen],
            "best": [c.code for c in self.best],
            "chosen_value": self.chosen_value,
            "best_value": self.best_value,
            "unit": self.unit,
            "count": self.count,
            "series": [c.code for c in self.series],
            "starter": None if self.starter is None else self.starter.code,
            "kept_hand": self.kept_hand,
            "kept_crib": self.kept_crib,
            "best_hand": self.best_hand,
            "best_crib": self.best_crib,
            "kept_play": self.kept_play,
            "best_play": self.best_play,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """Read what :meth:`to_dict` wrote."""
        starter = data.get("starter")
        return cls(
            deal=int(data["deal"]),
            kind="discard" if data["kind"] == "discard" else "play",
            seat=int(data["seat"]),
            dealer=int(data["dealer"]),
            scores=tuple(int(s) for s in data["scores"]),
            held=tuple(Card.parse(c) for c in data["held"]),
            chosen=tuple(Card.parse(c) for c in data["chosen"]),
            best=tuple(Card.parse(c) for c in data["best"]),
            chosen_value=float(data["chosen_value"]),
            best_value=float(data["best_value"]),
            unit="chance" if data["unit"] == "chance" else "points",
            count=int(data["count"]),
            series=tuple(Card.parse(c) for c in data["series"]),
            starter=None if starter is None else Card.parse(starter),
            kept_hand=float(data["kept_hand"]),
            kept_crib=float(data["kept_crib"]),
            best_hand=float(data["best_hand"]),
            best_crib=float(data["best_crib"]),
            # Reviews kept before the play was a part of a discard's value have none.
            kept_play=float(data.get("kept_play", 0.0)),
            best_play=float(data.get("best_play", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class GameReview:
    """Every judged decision of the reviewed seats, in the order they were made, the deals
    the review covers (1 to ``deals``) and those whose crib was shown (every hand of them
    seen by the table: :func:`engine.seen.crib_shown`)."""

    decisions: tuple[Decision, ...]
    deals: int
    shown: frozenset[int] = frozenset()
    #: The sides' scores as each deal began (deal 1 first), before anyone threw. (A seat
    #: that throws nothing makes its first decision in the play, after the heels and the
    #: pegging before it.) Empty in reviews kept before it was recorded.
    began: tuple[tuple[int, ...], ...] = ()

    def of(self, seat: int) -> tuple[Decision, ...]:
        """The decisions of ``seat``."""
        return tuple(d for d in self.decisions if d.seat == seat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "deals": self.deals,
            "shown": sorted(self.shown),
            "decisions": [d.to_dict() for d in self.decisions],
            "began": [list(scores) for scores in self.began],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameReview:
        """Read what :meth:`to_dict` wrote."""
        return cls(
            tuple(Decision.from_dict(d) for d in data["decisions"]),
            int(data["deals"]),
            frozenset(int(deal) for deal in data["shown"]),
            tuple(tuple(int(s) for s in scores) for scores in data.get("began", ())),
        )


def review_game(
    players: Sequence[str],
    actions: Sequence[Mapping[str, Any]],
    *,
    rng: random.Random,
    seats: Collection[int],
    seed: int,
    rules: Rules | None = None,
    through_deal: int | None = None,
    samples: int = SAMPLES,
    dealer: int | None = None,
) -> GameReview:
    """Review the decisions of ``seats`` in the game ``actions`` record, played by ``rules``
    (the standard game's for the players, to 121, when None) and dealt by ``rng`` (it must
    shuffle as the game's source did), up to and with deal ``through_deal`` (every deal
    without). The play-outs draw from ``seed``. ``dealer``: the seat the table gave the first
    deal without a cut (:attr:`engine.state.TableState.given_dealer`), if it did.

    Raises :class:`engine.errors.RuleError` or ``ValueError`` when the log does not fit
    the deals.
    """
    game, events = Game.new(list(players), rng=rng, rules=rules, dealer=dealer)
    del events  # the cut and the first deal: nobody decided anything yet
    decisions: list[Decision] = []
    shown: set[int] = set()
    began: list[tuple[int, ...]] = []
    for action in actions:
        deal = game.state.deal_number
        if through_deal is not None and deal > through_deal:
            break
        if len(began) < deal:
            began.append(game.state.scores)
        seat = action.get("seat")
        if isinstance(seat, int) and seat in seats:
            # Each decision's play-outs have a seed of their own: the same every time.
            draws = random.Random(f"{seed}:{len(decisions)}")
            found = _judge(game, seat, action, deal, draws, samples)
            if found is not None:
                decisions.append(found)
        if crib_shown(game.apply(action)):
            shown.add(deal)
    deals = (
        game.state.deal_number
        if through_deal is None
        else min(game.state.deal_number, through_deal)
    )
    return GameReview(tuple(decisions), deals, frozenset(shown), tuple(began))


def _judge(
    game: Game,
    seat: int,
    action: Mapping[str, Any],
    deal: int,
    rng: random.Random,
    samples: int,
) -> Decision | None:
    """The decision ``action`` makes from the seat's view now (None for an action that is no
    decision: a forced play, a resignation, a count)."""
    view = game.view(seat)
    scores = tuple(view.scores)
    kind = action.get("type")
    if kind == "discard":
        thrown = tuple(Card.parse(code) for code in action["cards"])
        if len(view.hand) != view.rules.kept + view.discard_count:
            return None
        judged = review_discard(
            view.hand,
            thrown,
            crib_sign=crib_sign(view, seat),
            rules=view.rules,
            needs=needs_of(
                view.scores, sides=view.sides, seat=seat, target=view.target, rules=view.rules
            ),
        )
        chosen, best = judged.chosen, judged.best
        return Decision(
            kind="discard",
            held=tuple(sorted(view.hand, key=Card.sort_key)),
            chosen=tuple(sorted(thrown, key=Card.sort_key)),
            best=tuple(sorted(best.thrown, key=Card.sort_key)),
            chosen_value=judged.judged.value(chosen),
            best_value=judged.judged.value(best),
            unit=judged.judged.measure,
            kept_hand=chosen.hand,
            kept_crib=chosen.crib,
            kept_play=chosen.play,
            best_hand=best.hand,
            best_crib=best.crib,
            best_play=best.play,
            deal=deal,
            seat=seat,
            dealer=view.dealer,
            scores=scores,
            starter=view.starter,
        )
    if kind == "play":
        card = Card.parse(action["card"])
        if len({c.rank for c in view.playable}) < 2:
            return None
        # Near the end of a two-player game, the chance to win; elsewhere the points pegged,
        # the game's end counting only for them (the expert's own play values a win at 100
        # points, which no reader takes for "points expected to peg").
        outcome = endgame_outcome(view)
        values = play_values(
            view, rng, samples=samples, outcome=pegged_points(view), per_guess=outcome
        )
        by_rank = {c.rank: value for c, value in values}
        best_card, best_value = max(values, key=lambda pair: pair[1])
        return Decision(
            kind="play",
            held=tuple(sorted(view.hand, key=Card.sort_key)),
            chosen=(card,),
            best=(best_card,),
            chosen_value=by_rank[card.rank],
            best_value=best_value,
            unit="points" if outcome is None else "chance",
            count=view.count,
            series=tuple(view.series),
            deal=deal,
            seat=seat,
            dealer=view.dealer,
            scores=scores,
            starter=view.starter,
        )
    return None
