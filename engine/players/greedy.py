"""The greedy baseline: the best hand for the show, the best points now in the play.

It keeps the four cards with the best average show over the starters it has not seen and
ignores the crib; in the play it takes the card that scores most at once (ties at random).
With ``mistake_rate`` it sometimes makes a random legal choice instead: that is ``easy``.
"""

from __future__ import annotations

import random

from engine.cards import Card
from engine.players.base import Player, playable
from engine.players.discard_ev import discard_choices
from engine.players.pegging_ai import immediate_points
from engine.views import SeatView

__all__ = ["GreedyPlayer"]


class GreedyPlayer(Player):
    """Best kept hand ignoring the crib; most points now in the play."""

    def __init__(self, *, mistake_rate: float = 0.0, name: str = "greedy") -> None:
        if not 0.0 <= mistake_rate <= 1.0:
            raise ValueError("A mistake rate is between 0 and 1.")
        self.mistake_rate = mistake_rate
        self.name = name

    def _blunders(self, rng: random.Random) -> bool:
        return self.mistake_rate > 0.0 and rng.random() < self.mistake_rate

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """Throw what leaves the best average hand (crib ignored)."""
        if self._blunders(rng):
            return tuple(rng.sample(view.hand, view.discard_count))
        choices = discard_choices(view.hand, view.discard_count, crib_sign=0, rules=view.rules)
        return choices[0].thrown

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """Play the card that scores most now; ties at random."""
        cards = playable(view)
        if self._blunders(rng):
            return rng.choice(cards)
        scored = [(immediate_points(view, card), card) for card in cards]
        best = max(points for points, _ in scored)
        return rng.choice([card for points, card in scored if points == best])
