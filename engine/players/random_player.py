"""The weakest baseline: any legal choice, uniformly at random."""

from __future__ import annotations

import random

from engine.cards import Card
from engine.players.base import Player, playable
from engine.views import SeatView

__all__ = ["RandomPlayer"]


class RandomPlayer(Player):
    """Throws random cards and plays a random legal card."""

    name = "random"

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """Any ``view.discard_count`` cards of the hand."""
        return tuple(rng.sample(view.hand, view.discard_count))

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """Any playable card."""
        return rng.choice(playable(view))
