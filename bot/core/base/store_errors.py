"""The refusals a store may raise: a write that lost a race, a channel busy with another game, a
store that cannot be reached or cannot be used.
"""

from __future__ import annotations

from bot.core.base import refusals
from bot.core.base.faults import Cause, Fault
from bot.core.base.places import RANKED_HERE, SEARCHING_HERE, SEATED_HERE

__all__ = [
    "ChannelBusy",
    "OccasionOver",
    "RankedHere",
    "SeatedHere",
    "StoreError",
    "StoreUnavailable",
    "UnusableStore",
    "VersionConflict",
]


class StoreError(refusals.Refused):
    """A write the store refused (nothing was written); the message is for the player."""


class VersionConflict(StoreError):
    """The game changed since it was loaded: another action got there first."""

    def __init__(self) -> None:
        super().__init__(refusals.RACED)


class ChannelBusy(StoreError):
    """The channel already has an open game."""

    def __init__(self) -> None:
        super().__init__(refusals.CHANNEL_BUSY)


class OccasionOver(StoreError):
    """The ranked match or tournament pairing a game was to be opened for is over, or its
    players are no longer those seated (one left it, withdrew, or had their data deleted):
    nothing was opened."""

    def __init__(self) -> None:
        super().__init__(refusals.RACED)


class RankedHere(StoreError):
    """A seat at a game in a place where the person's ranked search waits (``matched``
    False) or their match is played: one game of theirs in a place, whichever write came
    first (:mod:`bot.core.base.places`)."""

    def __init__(self, *, matched: bool) -> None:
        super().__init__(RANKED_HERE if matched else SEARCHING_HERE)
        self.matched = matched


class SeatedHere(StoreError):
    """A ranked search from a place where its player sits at a game not over."""

    def __init__(self) -> None:
        super().__init__(SEATED_HERE)


class StoreUnavailable(StoreError, Fault):
    """The database could not carry out a read or a write: its storage is full
    (:attr:`Cause.FULL`) or it cannot be reached (:attr:`Cause.UNREACHABLE`). Nothing was
    written; ``detail`` is what the driver said."""

    def __init__(self, cause: Cause, detail: str) -> None:
        Fault.__init__(self, cause, detail)


class UnusableStore(Exception):
    """The store cannot be opened for use as it is: the file is not a database, is damaged,
    cannot be written, or was made by a newer release (``bot.store.NewerSchema``). ``str()``
    says what is wrong and what to do, in words for whoever runs the bot (the caller names the
    setting). Nothing was changed."""
