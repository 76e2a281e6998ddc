"""Difficulty levels and every player by name.

* ``easy``: the greedy player (best hand ignoring the crib, most points now in the play)
  making a random legal choice instead one time in five.
* ``medium``: expected-value discards with the crib table, and simple pegging: most points
  now, then rules of thumb (avoid counts 5 and 21, lead under five, never lead a five).
* ``hard``: expected-value discards, look-ahead pegging over the unseen cards, and the
  score taken into account near the end.
* ``expert``: discards with crib tables for each role and the kept cards' worth in the
  play; pegging by playing each card out to the end against many guesses at the other
  hands; the chance to win deciding near the end (:mod:`engine.players.expert`).

Each level beats the one below (``benchmarks/ai_strength.py``; docs/computer.md has the figures).
The baselines ``random``, ``greedy``, ``club`` (the yardstick: a club player's discard
tables and rules of thumb, :mod:`engine.players.club`) and ``book`` (a second yardstick from
published sources alone, outside the expert's tuning: :mod:`engine.players.book`) are
available by name too, for benchmarks.
"""

from __future__ import annotations

from enum import StrEnum

from engine.players.base import Player
from engine.players.book import BookPlayer
from engine.players.club import ClubPlayer
from engine.players.expert import ExpertPlayer
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
    EXPERT = "expert"


#: The difficulty levels, weakest first.
LEVELS: tuple[Level, ...] = tuple(Level)
#: Every name :func:`make_player` accepts.
PLAYER_NAMES = ("random", "greedy", "club", "book", *LEVELS)
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
    if level == "club":
        return ClubPlayer()
    if level == "book":
        return BookPlayer()
    if level == Level.EASY:
        return GreedyPlayer(mistake_rate=EASY_MISTAKE_RATE, name=Level.EASY)
    if level == Level.MEDIUM:
        return StrongPlayer(lookahead=False, endgame=False, name=Level.MEDIUM)
    if level == Level.HARD:
        return StrongPlayer(name=Level.HARD)
    if level == Level.EXPERT:
        return ExpertPlayer()
    choices = ", ".join(LEVELS[:-1]) + " or " + LEVELS[-1]
    raise ValueError(f"There is no computer level called “{level}”: choose {choices}.")
