"""The ports: what the core asks of the layers around it, and hands them to follow it.

The Discord layer and the web servers reach the core through :class:`~bot.core.services.Services`
and through these, the core's own definitions of what lies outside it:

- the transport (:class:`Transport` and what an attempt comes to: :class:`Carried`, or one of
  the refusals the core knows what to do with), the requests' routes (:class:`Attempt`,
  :class:`Way`) and the pacing of every request against Discord's limits (:class:`Pacer`,
  :class:`RequestKind`); the posts on their way and the DM links the store keeps for it;
- the store, as the core uses it (:class:`CoreStore`), and a store the core cannot use
  (:class:`UnusableStore`);
- the change feed (:class:`ChangeFeed`, :class:`Change`), with :class:`Patrol` to follow it and
  :class:`Recent` to keep what is drawn from it;
- the threads a tournament's games are played in (:class:`ThreadRefused`: the place refused
  one).

Each name is defined where its wing needs it; this module only gathers them, so that an outer
layer's imports say it depends on the core's ports, not on the wings' insides.
"""

from __future__ import annotations

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.patrol import Patrol
from bot.core.base.recent import Recent
from bot.core.base.store_errors import UnusableStore
from bot.core.ledger import transport
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.records import DmLink
from bot.core.ledger.transport import *  # noqa: F403 (the transport port, whole, as the ledger defines it)
from bot.core.ledger.transport import Attempt, PendingPost, RequestKind, ThreadRefused, Way
from bot.core.store import CoreStore

__all__ = [
    "Attempt",
    "Change",
    "ChangeFeed",
    "CoreStore",
    "DmLink",
    "Pacer",
    "Patrol",
    "PendingPost",
    "Recent",
    "RequestKind",
    "ThreadRefused",
    "UnusableStore",
    "Way",
    *transport.__all__,
]
