"""The errors a game action can raise: one family, each message a sentence for the player.

The bot shows ``str(error)`` as it is, so every message is a complete, polite sentence that
names cards and players the way the table does ("It's Bea's turn.", "7♣ would make the count
32.").

>>> str(NotYourTurn("It's Bea's turn."))
"It's Bea's turn."
>>> issubclass(IllegalPlay, RuleError)
True
"""

from __future__ import annotations

__all__ = [
    "BadClaim",
    "BadDiscard",
    "BadMuggins",
    "CardNotHeld",
    "GameFinished",
    "IllegalPlay",
    "NotAPlayer",
    "NotYourTurn",
    "RuleError",
    "WrongPhase",
]


class RuleError(Exception):
    """An action the rules do not allow; the game is left exactly as it was."""


class NotYourTurn(RuleError):
    """A seat tried to play while it is someone else's turn."""


class WrongPhase(RuleError):
    """The action does not belong to this part of the deal (playing before everyone has
    discarded, discarding twice)."""


class CardNotHeld(RuleError):
    """The seat named a card it does not hold."""


class IllegalPlay(RuleError):
    """The card may not be played now (it would take the count past 31)."""


class BadDiscard(RuleError):
    """The wrong number of cards for the crib, or a card named twice."""


class NotAPlayer(RuleError):
    """The seat is not at this table."""


class GameFinished(RuleError):
    """The game is over, so nothing more can be played."""


class BadClaim(RuleError):
    """A count claimed at the show that no hand can score (a claim over the hand's value is
    not refused: it is made, and costs the points over; see :meth:`engine.game.Game.claim`)."""


class BadMuggins(RuleError):
    """Muggins called when there is no short claim to take from, or on one's own side."""
