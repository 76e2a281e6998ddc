"""What a computer player's choice is made from: every option it weighed, best first.

A player that deliberates (:class:`Deliberating`) says, for a discard or a play, each option
it considered with its value (:class:`Weighed`) in one measure (:data:`Measure`: expected
points, or the chance to win) and the parts that value is made of (the hand, the crib, the
play); its choice is the first option, and nothing else. So anything drawn from a
deliberation (a hint, :mod:`engine.hint`) says what the player plays, and why, in the
player's own figures: there is no second reckoning that could disagree with it.

>>> import random
>>> from engine.game import Game
>>> from engine.players import make_player
>>> game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(3))
>>> expert = make_player("expert")
>>> weighed = deliberation_of(expert).weigh_discards(game.view(0), random.Random(1))
>>> weighed.choice == expert.choose_discard(game.view(0), random.Random(1))
True
>>> weighed.measure, len(weighed.options)
('points', 15)
"""

from __future__ import annotations

import abc
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from engine.cards import Card
from engine.players.base import Player
from engine.views import SeatView

__all__ = [
    "Deliberating",
    "Deliberation",
    "Measure",
    "Part",
    "Weighed",
    "deliberation_of",
]

#: What a deliberation's values are: expected points, or the chance to win (0 to 1).
Measure = Literal["points", "chance"]
#: What a value is made of: the kept hand's show, the crib (signed: less when an opponent's),
#: the kept cards' worth in the play, the play-outs of the rest of the play.
Part = Literal["hand", "crib", "play", "playouts"]

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Weighed(Generic[_T]):
    """One option (the cards thrown, or the card played) and what it is worth in the
    deliberation's measure, with the parts of that worth where it has any (in points: a
    discard's hand, crib and play, which add up to ``value`` when the measure is points)."""

    choice: _T
    value: float
    parts: tuple[tuple[Part, float], ...] = ()

    def part(self, name: Part) -> float | None:
        """The part ``name`` of the value, or None when the value has no such part."""
        return next((value for part, value in self.parts if part == name), None)


@dataclass(frozen=True, slots=True)
class Deliberation(Generic[_T]):
    """Every option weighed, the choice first (then best first), in one ``measure``."""

    options: tuple[Weighed[_T], ...]
    measure: Measure

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError("A deliberation weighs one option at least.")

    @property
    def choice(self) -> _T:
        """What the player chooses: the first option."""
        return self.options[0].choice


def ranked(options: Sequence[Weighed[_T]], measure: Measure, chosen: int = 0) -> Deliberation[_T]:
    """A deliberation of ``options`` with ``options[chosen]`` first and the rest best first
    (equal values in the order given)."""
    first = options[chosen]
    rest = sorted(
        (option for i, option in enumerate(options) if i != chosen), key=lambda o: -o.value
    )
    return Deliberation((first, *rest), measure)


class Deliberating(Player):
    """A player whose every choice is the first option of its deliberation."""

    @abc.abstractmethod
    def weigh_discards(self, view: SeatView, rng: random.Random) -> Deliberation[tuple[Card, ...]]:
        """Every way to throw ``view.discard_count`` cards from ``view.hand`` it weighs."""

    @abc.abstractmethod
    def weigh_plays(self, view: SeatView, rng: random.Random) -> Deliberation[Card]:
        """Every card of ``view.playable`` it weighs (one of each rank may stand for all)."""

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """The first option of :meth:`weigh_discards`."""
        return self.weigh_discards(view, rng).choice

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """The first option of :meth:`weigh_plays`."""
        return self.weigh_plays(view, rng).choice


def deliberation_of(player: Player) -> Deliberating:
    """``player`` as one that deliberates; ``TypeError`` when it does not (every level that
    is asked for hints must)."""
    if not isinstance(player, Deliberating):
        raise TypeError(f"The {player.name} player does not say what its choices are made from.")
    return player
