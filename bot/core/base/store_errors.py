"""The refusals a store may raise: a write that lost a race, a channel busy with another game, a
store that cannot be reached or cannot be used; and how a change that lost a race is decided
again (:func:`decided_again`: the one retry every change shares, docs/architecture.md, "One
discipline for every change").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.core.base import refusals
from bot.core.base.faults import Cause, Fault
from bot.core.base.places import RANKED_HERE, SEARCHING_HERE, SEATED_HERE

__all__ = [
    "TRIES",
    "ChannelBusy",
    "OccasionOver",
    "Raced",
    "RankedHere",
    "SeatedHere",
    "StoreError",
    "StoreUnavailable",
    "UnusableStore",
    "VersionConflict",
    "decided_again",
]

T = TypeVar("T")

#: How many times a change is decided: once, and once more from a new read if it lost a race
#: (a second loss in a row is its answer: what it acts on is that busy).
TRIES = 2


class StoreError(refusals.Refused):
    """A write the store refused (nothing was written); the message is for the player."""


class Raced(StoreError):
    """A change lost the compare-and-set of what it was decided on: the game, the ranked match,
    the tournament's pairing or the person it read moved on since (another change committed
    first, in this process or another), and nothing was written. It is decided again from a
    new read (:func:`decided_again`)."""

    def __init__(self) -> None:
        super().__init__(refusals.RACED)


class VersionConflict(Raced):
    """The game changed since it was loaded: another action got there first."""


class ChannelBusy(StoreError):
    """The channel already has an open game."""

    def __init__(self) -> None:
        super().__init__(refusals.CHANNEL_BUSY)


class OccasionOver(Raced):
    """The ranked match or tournament pairing a game was to be opened for is no longer as it
    was read (its version moved on): it may be over, or its players no longer those seated
    (one left it, withdrew, or had their data deleted). Nothing was opened."""


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


async def decided_again(change: Callable[[], Awaitable[T]], *, tries: int = TRIES) -> T:
    """Run ``change`` (a read, a decision and the write it makes, which names what it read:
    a version, a state) and, each time it loses the race (:class:`Raced`: another change
    committed first), run it again, reading anew, up to ``tries`` times in all; the last
    loss is raised. Every aggregate's changes share it: the games' moves (where a call is
    entered, :func:`bot.core.base.entry.answers`), the referee's and the director's games
    opened for a match or a pairing, the store's own ratings rebuilt and deletions."""
    for attempt in range(1, tries + 1):
        try:
            return await change()
        except Raced:
            if attempt == tries:
                raise
    raise AssertionError("tries must be 1 or more")
