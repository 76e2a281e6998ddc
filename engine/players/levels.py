"""Difficulty levels and every player by name.

* ``easy``: the greedy player (best hand ignoring the crib, most points now in the play)
  making a random legal choice instead one time in five.
* ``medium``: expected-value discards with the crib table, and simple pegging: most points
  now, then rules of thumb (avoid counts 5 and 21, lead under five, never lead a five).
* ``hard``: everything: expected-value discards, look-ahead pegging over the unseen cards,
  and the score taken into account near the end.

The baselines ``random`` and ``greedy`` are available by name too, for benchmarks.
"""

from __future__ import annotations

from enum import StrEnum

from engine.players.base import Player
from engine.players.greedy import GreedyPlayer
from engine.players.random_player import RandomPlayer
from engine.players.strong import StrongPlayer

__all__ = ["LEVELS", "PLAYER_NAMES", "Level", "make_player"]


class Level(StrEnum):
    """A difficulty level a person may choose, weakest first. Members equal their values,
    which is what the bot stores for a computer seat."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


#: The difficulty levels, weakest first.
LEVELS: tuple[Level, ...] = tuple(Level)
#: Every name :func:`make_player` accepts.
PLAYER_NAMES = ("random", "greedy", *LEVELS)
#: How often ``easy`` makes a random choice instead of the greedy one.
EASY_MISTAKE_RATE = 0.2


def make_player(level: str) -> Player:
    """A new player for a difficulty level (or a baseline name); ``ValueError`` otherwise.

    >>> make_player("hard").name == Level.HARD
    True
    """
    if level == "random":
        return RandomPlayer()
    if level == "greedy":
        return GreedyPlayer()
    if level == Level.EASY:
        return GreedyPlayer(mistake_rate=EASY_MISTAKE_RATE, name=Level.EASY)
    if level == Level.MEDIUM:
        return StrongPlayer(lookahead=False, endgame=False, name=Level.MEDIUM)
    if level == Level.HARD:
        return StrongPlayer(name=Level.HARD)
    choices = ", ".join(LEVELS[:-1]) + " or " + LEVELS[-1]
    raise ValueError(f"There is no computer level called “{level}”: choose {choices}.")
