"""When Discord does not take the bot's requests for a while, and when it takes them again.

Discord answers 500, 502 and 503 at times, Cloudflare in front of it may refuse the bot (a 429
without Discord's headers), and the network fails now and then: the Discord layer says so with
:class:`~bot.core.ledger.transport.Unavailable`. The keeper tries each owner again after a
pause that doubles with each failure in a row
(:meth:`Lanes.retry <bot.core.ledger.lanes.Lanes.retry>`); :class:`Outage` says in the log once
that Discord stopped taking requests and once that it takes them again, and then has every
owner waiting on a retry brought up to date at once, so what the bot owes is sent as soon as
Discord answers, not a pause of up to two minutes later. :class:`WatchedTransport` tells it how
each request went.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator

from bot.core.base.owners import Owner
from bot.core.base.views import MessageView
from bot.core.ledger.transport import (
    Attempt,
    Carried,
    Fence,
    PendingPost,
    Transport,
    Unavailable,
    Unsent,
    Unwritten,
)

__all__ = ["SAID_EVERY", "Outage", "WatchedTransport"]

log = logging.getLogger(__name__)


#: An outage is said in the log at most once in this long (a route that fails while others
#: go, on and off, is one line, not one a try).
SAID_EVERY = 60.0


class Outage:
    """Whether Discord takes the bot's requests, as the latest ones went."""

    def __init__(
        self, back: Callable[[], None], *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """``back``: called when Discord takes a request again after refusing some."""
        self._back = back
        self._clock = clock
        self._refused = 0
        self._said_at: float | None = None
        self._said = False  # (this outage was said: its end is said too)

    @property
    def down(self) -> bool:
        """Whether the latest request Discord answered was refused for now."""
        return self._refused > 0

    def refused(self, error: Unavailable) -> None:
        """Discord did not take a request, for now (said once until it takes one again, and
        not more often than :data:`SAID_EVERY`)."""
        now = self._clock()
        if not self._refused and (self._said_at is None or now - self._said_at >= SAID_EVERY):
            self._said_at, self._said = now, True
            log.warning(
                "Discord did not take the bot's requests (%s): what is owed is sent again "
                "once it does",
                error,
            )
        self._refused += 1

    def answered(self) -> None:
        """Discord answered a request (took it, or refused it for a reason of its own)."""
        if not self._refused:
            return
        refused, self._refused = self._refused, 0
        if self._said:
            self._said = False
            log.info(
                "Discord takes the bot's requests again (%d refused meanwhile): sending what "
                "waited",
                refused,
            )
        self._back()


class WatchedTransport:
    """A transport whose every request tells the :class:`Outage` how it went."""

    def __init__(self, transport: Transport, outage: Outage) -> None:
        self._transport = transport
        self._outage = outage

    @contextlib.contextmanager
    def _watching(self) -> Iterator[None]:
        """Tell the outage how the request made inside went (its error is raised on)."""
        try:
            yield
        except Exception as error:
            self._went(error)
            raise
        self._went()

    def _went(self, error: BaseException | None = None) -> None:
        if isinstance(error, Unavailable):
            self._outage.refused(error)
        elif error is None or (isinstance(error, Unsent) and not isinstance(error, Unwritten)):
            # (A refusal Discord gave, a dead token or a message gone, is an answer too; a
            # request its fence held back never reached Discord.)
            self._outage.answered()

    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        with self._watching():
            return await self._transport.carry(attempt, view, fence)

    async def delete_followup(self, token: str, message_id: int, fence: Fence) -> None:
        with self._watching():
            await self._transport.delete_followup(token, message_id, fence)

    async def lost_posts(
        self, owner: Owner, post: PendingPost, kept: set[int], fence: Fence
    ) -> list[int]:
        with self._watching():
            return await self._transport.lost_posts(owner, post, kept, fence)

    async def delete(self, channel_id: int, message_id: int, fence: Fence) -> None:
        with self._watching():
            await self._transport.delete(channel_id, message_id, fence)
