"""The phase a game is in between actions.

The cut for deal, the starter, the show and the next deal happen inside actions, so a game
waiting for a player is always discarding, playing, or over.
"""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """What the game is waiting for."""

    DISCARD = "discard"
    PLAY = "play"
    OVER = "over"
