"""What every computer player is: a choice of discard and of play from one seat's view.

A player sees only :class:`engine.views.SeatView`, the same snapshot a person at that seat
sees, and an injected random source; it never holds the game, so it cannot see a hidden card.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.cards import Card
from engine.phase import Phase
from engine.views import PublicView, SeatView

if TYPE_CHECKING:
    from engine.game import Game
    from engine.rules import Rules

__all__ = [
    "Player",
    "crib_sign",
    "deals_alike",
    "finish",
    "known_cards",
    "playable",
    "unseen_cards",
]


class Player(abc.ABC):
    """A computer player: decides from a :class:`SeatView` and a random source alone."""

    #: The name levels and benchmarks use for this player ("random", "greedy", "hard", ...).
    name: str = "player"

    @abc.abstractmethod
    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """The cards to put in the crib: ``view.discard_count`` cards from ``view.hand``."""

    @abc.abstractmethod
    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """The card to play now: one of ``view.playable`` (never empty when asked)."""


def finish(game: Game, players: Sequence[Player], rngs: Sequence[random.Random]) -> Game:
    """Play ``game`` to its end, each seat choosing with its player and its random source
    (the discards in seat order); the game."""
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            game.discard(seat, players[seat].choose_discard(game.view(seat), rngs[seat]))
            continue
        turn = game.state.turn
        assert turn is not None
        game.play(turn, players[turn].choose_play(game.view(turn), rngs[turn]))
    return game


def crib_sign(view: PublicView, seat: int) -> int:
    """+1 when the dealer is on ``seat``'s side (the crib counts for it), else -1."""
    return 1 if view.sides[view.dealer] == view.sides[seat] else -1


def deals_alike(rules: Rules, built: Rules) -> bool:
    """Whether a table of expected values built by the rules ``built`` holds for ``rules``:
    the same seats and shares, the same crib, every combination scored the same way (the
    target, the counting and the end of the play may differ)."""
    return (
        rules.seats == built.seats
        and rules.dealer == built.dealer
        and rules.others == built.others
        and rules.crib_size == built.crib_size
        and rules.crib_from_pack == built.crib_from_pack
        and rules.points == built.points
    )


def playable(view: SeatView) -> tuple[Card, ...]:
    """The cards the seat may play now; ``ValueError`` when there is none to choose from."""
    if not view.playable:
        raise ValueError(f"Seat {view.seat} has no card it may play now.")
    return view.playable


def known_cards(view: SeatView) -> set[int]:
    """Indexes of every card this seat has seen: its own, the starter and every card played."""
    known = {card.index for card in (*view.hand, *view.kept, *view.discards)}
    if view.starter is not None:
        known.add(view.starter.index)
    for cards in view.played:
        known.update(card.index for card in cards)
    return known


def unseen_cards(view: SeatView) -> list[int]:
    """Indexes of the cards this seat has not seen (other hands, the crib, the deck)."""
    known = known_cards(view)
    return [i for i in range(52) if i not in known]
