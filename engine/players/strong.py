"""The strong player: discards by expected value, plays by looking ahead.

Discard: every split of the hand is valued as the kept hand's exact average over the unseen
starters plus (crib ours) or minus (crib theirs) the thrown cards' expected crib from the
shipped table. With ``endgame`` on, near the end the value also rewards the chance that the
kept hand alone reaches the target when this seat's side counts first (it is not the
dealer's), because then reaching the target sooner beats a bigger average.

Play: :func:`~engine.players.pegging_ai.lookahead_play_values` (or the simple rules with
``lookahead=False``); the best value wins, ties broken at random.
"""

from __future__ import annotations

import random

from engine.cards import Card
from engine.players.base import Player, crib_sign, playable
from engine.players.discard_ev import DiscardChoice, discard_choices, hand_points_by_starter
from engine.players.pegging_ai import lookahead_play_values, simple_play_values
from engine.views import SeatView

__all__ = ["StrongPlayer"]

#: Within this many points of the target, the endgame discard rule applies.
ENDGAME_REACH = 24
#: What certainty of reaching the target with the hand is worth, in expected points.
ENDGAME_WEIGHT = 12.0
#: The choices the endgame rule re-weighs (the best few by expected value).
_ENDGAME_CANDIDATES = 6


class StrongPlayer(Player):
    """Expected-value discards; look-ahead pegging; score-aware near the end."""

    def __init__(self, *, lookahead: bool = True, endgame: bool = True, name: str = "hard") -> None:
        self.lookahead = lookahead
        self.endgame = endgame
        self.name = name

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """Throw the cards whose split has the best expected value (see the module)."""
        sign = crib_sign(view, view.seat)
        choices = discard_choices(view.hand, view.discard_count, crib_sign=sign, rules=view.rules)
        if self.endgame and sign < 0:
            need = view.target - view.scores[view.sides[view.seat]]
            if need <= ENDGAME_REACH:
                best = max(choices[:_ENDGAME_CANDIDATES], key=lambda c: _reach(c, view, need))
                return best.thrown
        return choices[0].thrown

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """Play the card with the best value; ties at random."""
        playable(view)  # refuse a view with nothing to play before valuing nothing
        values = lookahead_play_values(view) if self.lookahead else simple_play_values(view)
        best = max(value for _, value in values)
        return rng.choice([card for card, value in values if value >= best - 1e-9])


def _reach(choice: DiscardChoice, view: SeatView, need: int) -> float:
    """Expected value plus the weighted chance that the kept hand alone reaches ``need``."""
    totals = hand_points_by_starter(choice.kept, view.hand, view.rules)
    chance = sum(1 for points in totals if points >= need) / len(totals)
    return choice.total + ENDGAME_WEIGHT * chance
