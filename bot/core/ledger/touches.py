"""When each owner's changes were heard: what a process that takes over looks at again.

A sender that stopped (killed, frozen, cut off) may have been sending to the messages of the
owners that changed just before: the process that takes over takes what those show as unknown
(each is edited again, :meth:`Touches.reassert`), and what the one before may have spent of
their channels' counts as spent (:meth:`Touches.changes_of`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.core.base.owners import Owner
from bot.core.base.timing import CHANNEL_PERIOD
from bot.core.ledger.life import Again, Lives, OwnerLives

__all__ = ["TOUCHED_KEPT", "Touches"]

#: How far back a takeover looks at the changes heard (what the sender before may have been
#: sending when it stopped: a change waits for its channel's pacing at most a channel's period,
#: and is then sent).
TOUCHED_KEPT = CHANNEL_PERIOD * 2


class Touches:
    """When each owner's latest changes were heard, and what a takeover makes of them."""

    def __init__(self, lives: Lives, now: Callable[[], float]) -> None:
        self._lives = lives
        self._now = now

    def heard(self, entry: OwnerLives) -> None:
        """A change of the owner whose entry this is was heard now."""
        entry.touched = self._now()
        entry.changes.append(entry.touched)

    def touched_since(self, since: float) -> list[tuple[Owner, int]]:
        """The owners (and their channels) whose changes were heard since ``since`` (as far
        back as :data:`TOUCHED_KEPT`): the messages another sender may have been sending."""
        return [
            (owner, entry.channel_id)
            for owner, entry in self._lives.items()
            if entry.touched >= since and entry.channel_id is not None
        ]

    def changes_of(self, owner: Owner) -> list[float]:
        """When the owner's latest changes were heard (at most a channel's count of them)."""
        entry = self._lives.get(owner)
        return [] if entry is None else list(entry.changes)

    def reassert(self, owners: Iterable[Owner]) -> None:
        """What these owners' messages show is not known after all (another process may have
        sent to them as it stopped): each is edited again, in memory only (a look forgotten
        costs one edit at most)."""
        for owner in owners:
            entry = self._lives.get(owner)
            if entry is None:
                continue
            entry.read_again(Again.DOUBT)
            entry.touched = 0.0
