"""Computer players: each decides from one seat's view alone, with an injected random source.

>>> from engine.players import make_player, LEVELS
>>> LEVELS
('easy', 'medium', 'hard')
"""

from engine.players.base import Player, crib_sign, unseen_cards
from engine.players.greedy import GreedyPlayer
from engine.players.levels import LEVELS, PLAYER_NAMES, make_player
from engine.players.random_player import RandomPlayer
from engine.players.strong import StrongPlayer

__all__ = [
    "LEVELS",
    "PLAYER_NAMES",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "StrongPlayer",
    "crib_sign",
    "make_player",
    "unseen_cards",
]
