"""The change feed: every saved change of an owner (a game, ...) as ``(owner, version)``.

Whatever must follow the games subscribes here instead of being called by whoever made the
change: the keeper that makes Discord match the stored games, the clock that makes a game's
timed moves, and next a web page's live view or a tournament director. A move publishes its
change once it is saved.

In one process (SQLite) the feed is all there is. With several processes sharing a PostgreSQL
database, a change saved in another process reaches this one's feed from the database's
announcement (``NOTIFY``, sent in the transaction that saved it), with a catch-up read when the
connection that listens is made again (``bot.store.cluster``), so nothing missed is lost.

Subscribers are called at once, in the order they subscribed, and must not block: they note
the change and do their work in tasks of their own.

A change says what changed, nothing of the messages: what a change means for what the owner's
messages show (a click's answer kept with it, on its way to one of them; or changes heard late,
so what they show is read again) whoever publishes it tells the ledger first, through
:class:`~bot.core.base.delivery.MessageNews`, so every subscriber hears the change with the
ledger already knowing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.core.base.owners import Owner, OwnerKind

__all__ = ["Change", "ChangeFeed", "Subscriber"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Change:
    """``owner`` was saved at ``version``; its channel messages go to ``channel_id``.

    ``more_coming``: another change of the same owner follows in a moment (the computer's
    answer to a person's move, thought over apart): what draws its messages may wait for it.
    A change of what was sent rather than of the owner (a click's answer that never reached
    Discord, changes heard late) comes at the version the owner already had."""

    owner: Owner
    version: int
    channel_id: int
    more_coming: bool = False
    #: The places that keep messages of this change too (a game played apart: each seat's
    #: place, :meth:`Seating.owners <bot.core.base.seating.Seating.owners>`), said by whoever
    #: publishes it; none for any other change.
    places: tuple[Owner, ...] = ()

    @property
    def game_id(self) -> int | None:
        """The game this is a change of (None: not a game's: a tournament's, a lobby's...)."""
        return self.owner.id if self.owner.kind is OwnerKind.GAME else None


#: Called with every change, as it is published.
Subscriber = Callable[[Change], None]


class ChangeFeed:
    """Publishes changes to its subscribers and remembers each owner's latest version."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._latest: dict[Owner, int] = {}

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber`` with every change from now on; returns what unsubscribes it."""
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def publish(self, change: Change) -> None:
        """Tell every subscriber of ``change`` (a subscriber that fails is logged; the others
        still hear of it)."""
        known = self._latest.get(change.owner)
        if known is None or change.version > known:
            self._latest[change.owner] = change.version
        for subscriber in tuple(self._subscribers):
            try:
                subscriber(change)
            except Exception:
                log.exception("a follower of the change feed failed on %s", change)

    def latest(self, owner: Owner) -> int | None:
        """The newest version of ``owner`` this process has heard of (None: none yet)."""
        return self._latest.get(owner)

    def heard_after(self, game_id: int, version: int) -> bool:
        """Whether a version of game ``game_id`` newer than ``version`` has been heard of: a
        read of it at ``version`` was overtaken by a change."""
        latest = self._latest.get(Owner.game(game_id))
        return latest is not None and latest > version

    def forget(self, owner: Owner) -> None:
        """Stop remembering ``owner`` (it has ended and was pruned)."""
        self._latest.pop(owner, None)
