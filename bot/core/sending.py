"""What the process that sends runs (:class:`Sending`): the keeper following the feed and
asking the ledger alone, the clock, the director, the nights' director, the referee, and the
reviews of finished games; each started and stopped here, and what it is doing told
(:data:`~bot.core.faces.BACKGROUND`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.patrol import RETRY_AFTER, Running, running
from bot.core.faces import BACKGROUND, DIRECTOR, NIGHTS, REFEREE
from bot.core.ledger import MessageKeeper
from bot.core.services import Services
from bot.core.tournaments.threads import (
    EventPlan,
    EventRefused,
    Events,
    EventSeen,
    EventStatus,
    Threads,
)

__all__ = ["Sending"]

log = logging.getLogger(__name__)


class Sending:
    """What the process that sends runs (one process of the bot at a time: the one that holds
    the sender's lease): its keeper sends what every owner owes, following the feed; the game
    clock makes the moves time makes; the director runs the tournaments (their threads
    through ``threads``), the nights' director the club nights (their Discord events through
    ``events``), the referee the ranked matches, and finished games are reviewed.
    Each is started and stopped here, and what the messages show brought up to date at a
    start or a takeover."""

    def __init__(
        self,
        services: Services,
        keeper: MessageKeeper,
        threads: Threads,
        *,
        events: Events | None,
        retry_after: float = RETRY_AFTER,
    ) -> None:
        """``retry_after``: how long after a failed start (the director's, the referee's: each
        reads the store) it is made again; ``events``: the club nights' Discord events (None:
        the nights are run without one)."""
        self._services = services
        #: Sends what every owner owes (the keeper of :mod:`bot.core.ledger`).
        self.keeper = keeper
        self._threads = threads
        self._events = events
        self._retry_after = retry_after
        #: Whether this process sends (started, and not stopped since).
        self._sending = False
        #: The director's and the referee's start (each reads the store), made again until
        #: it is done: cancelled by a stop.
        self._starting: dict[str, asyncio.Task[None]] = {}
        #: Why a part's start failed, while it is made again.
        self._failing: dict[str, str] = {}

    def start(self) -> None:
        """This process sends: its keeper and its game clock follow the change feed, finished
        games are reviewed (in the review worker, one at a time, at low priority), and the
        tournaments are directed and the ranked matches refereed, from the store."""
        services = self._services
        self._sending = True
        self.keeper.follow(services.feed)
        services.clock.start()
        services.auto_reviews.start()
        loop = asyncio.get_running_loop()
        starts = {
            DIRECTOR: lambda: services.director.start(self._threads),
            NIGHTS: lambda: services.night_director.start(self._events or _NO_EVENTS),
            REFEREE: services.ranked_play.start,
        }
        self._starting = {
            part: loop.create_task(self._started(part, start), name=f"crib-start-{part}")
            for part, start in starts.items()
        }

    async def _started(self, part: str, start: Callable[[], Awaitable[None]]) -> None:
        """``start`` the ``part``, again every ``retry_after`` seconds while it fails (the
        database out of reach as this process starts or takes over), so that it is never
        left half-started (following the feed, but with the tournaments or the matches
        under way unread, the ranked queue unswept) for as long as this process sends."""
        while True:
            try:
                await start()
            except Exception as error:
                self._failing[part] = f"{type(error).__name__}: {error}"[:200]
                log.warning(
                    "could not start the %s (made again in %g s): %r",
                    part,
                    self._retry_after,
                    error,
                )
                await asyncio.sleep(self._retry_after)
            else:
                self._failing.pop(part, None)
                return

    def background(self) -> dict[str, str]:
        """What each part the process that sends runs is doing (:data:`BACKGROUND`):
        ``running``; ``off``: this process does not send (another one runs it); ``starting``
        (its first read of the store under way), or ``failing: why`` (its start failed, and
        is made again); ``stopped``: it should run here, and does not."""
        services = self._services
        runs = {
            "keeper": self._sending,
            "clock": services.clock.running,
            DIRECTOR: services.director.running,
            NIGHTS: services.night_director.running,
            REFEREE: services.ranked_play.referee.running,
            "ranked_sweep": services.ranked_play.sweeping,
            "reviews": services.auto_reviews.running,
        }
        states: dict[str, str] = {}
        for part in BACKGROUND:
            started_by = REFEREE if part == "ranked_sweep" else part
            start = self._starting.get(started_by)
            failing = self._failing.get(started_by)
            if not self._sending:
                states[part] = Running.OFF
            elif start is not None and not start.done():
                states[part] = f"{Running.FAILING}: {failing}" if failing else Running.STARTING
            else:
                states[part] = running(runs[part])
        return states

    def stop(self) -> None:
        """Another process sends now: stop following the feed."""
        self.keeper.unfollow()
        self._stop_parts()

    def _stop_parts(self) -> None:
        self._sending = False
        for task in self._starting.values():
            task.cancel()
        self._failing.clear()
        services = self._services
        services.clock.stop()
        services.director.stop()
        services.night_director.stop()
        services.ranked_play.stop()
        services.auto_reviews.stop()

    def took_over(self) -> None:
        """This process took over from another that stopped sending: what it kept of the
        messages is read again, and it sends from now on."""
        self._services.ledger.sending_again()
        self.start()

    def resumed(self) -> None:
        """This process stayed the sender, but its lease lapsed a while by its own clock (it
        was frozen, or the database slow) and nobody took it: what it held back meanwhile goes
        now (what it kept of the messages is read again, in case another process sent in
        between)."""
        self._services.ledger.sending_again()
        self.keeper.resume()

    async def reconcile(self, *, taking_over: bool = False, handed_over: bool = False) -> int:
        """Bring every open or recently ended game's messages up to date, and make the timed
        moves that fell due while nobody was looking (start-up; taking over: then first wait
        out what the sender before may still have on its way, see
        :meth:`MessageKeeper.take_over`; ``handed_over``: the one before stepped down
        cleanly). How many games were looked at."""
        if taking_over:
            owners = await self.keeper.take_over(handed_over=handed_over)
        else:
            owners = await self.keeper.reconcile()
        self._services.clock.start(o.id for o in owners if o.kind is OwnerKind.GAME)
        # (Those who marked a club's event Interested meanwhile: read again.)
        await self._services.night_director.again()
        return len(owners)

    async def caught_up(self) -> None:
        """Once the sends a reconciliation asked for are all made."""
        await self.keeper.caught_up()

    async def cancel_starts(self) -> None:
        """Cancel the directors' and the referee's start, if still under way (a stop: each
        reads the store, which closes at the end of the stop; the next start does it again)."""
        for task in self._starting.values():
            task.cancel()
        await asyncio.gather(*self._starting.values(), return_exceptions=True)

    async def close(self, timeout: float) -> Sequence[Owner]:
        """The process stops: the clock, the director, the referee and the reviews stop, and
        what is owed is sent within ``timeout`` seconds; the owners still owed something."""
        self._stop_parts()
        return await self.keeper.flush(timeout, last=True)


class _NoEvents:
    """A bot whose club nights have no Discord events (its tests): every event refused."""

    async def create(self, guild_id: int, plan: EventPlan) -> int:
        raise EventRefused("no events here", permission=True)

    async def find(self, guild_id: int, name: str, start: float) -> int | None:
        return None

    async def read(self, guild_id: int, event_id: int) -> EventSeen:
        raise EventRefused("no events here", gone=True)

    async def edit(
        self,
        guild_id: int,
        event_id: int,
        *,
        description: str | None = None,
        status: EventStatus | None = None,
        start: float | None = None,
        end: float | None = None,
    ) -> EventSeen:
        raise EventRefused("no events here", gone=True)

    async def except_occurrence(
        self,
        guild_id: int,
        event_id: int,
        original: float,
        *,
        skip: bool = False,
        start: float | None = None,
        end: float | None = None,
    ) -> None:
        raise EventRefused("no events here", gone=True)

    async def interested(self, guild_id: int, event_id: int) -> list[tuple[int, str]]:
        return []


_NO_EVENTS = _NoEvents()
