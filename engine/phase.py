"""The phase a game is in between actions.

The cut for deal, the starter, the show and the next deal happen inside actions, so a game
waiting for a player is discarding, playing, or over; with manual counting it also waits at
the show for each hand's owner to claim its value (and for muggins).
"""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """What the game is waiting for."""

    DISCARD = "discard"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"
