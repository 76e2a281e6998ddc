"""Computer players: each decides from one seat's view alone, with an injected random source.

>>> from engine.players import make_player, LEVELS
>>> [str(level) for level in LEVELS]
['easy', 'medium', 'hard', 'expert']
"""

from engine.players.base import Player, crib_sign, unseen_cards
from engine.players.club import ClubPlayer
from engine.players.expert import ExpertPlayer
from engine.players.greedy import GreedyPlayer
from engine.players.levels import LEVELS, PLAYER_NAMES, Level, make_player
from engine.players.random_player import RandomPlayer
from engine.players.strong import StrongPlayer

__all__ = [
    "LEVELS",
    "PLAYER_NAMES",
    "ClubPlayer",
    "ExpertPlayer",
    "GreedyPlayer",
    "Level",
    "Player",
    "RandomPlayer",
    "StrongPlayer",
    "crib_sign",
    "make_player",
    "unseen_cards",
]
