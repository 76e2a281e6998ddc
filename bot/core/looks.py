"""Looks at things by their id, one at a time each, and again when each says it is due.

The game clock and the tournament director follow the change feed and, for each game or
tournament that changed, do what is due in it (the game pages' server, likewise, draws a
watched game again): :class:`Looks` keeps their one look at a time per id (a look asked for
during one makes another after it, so no change is missed) and the timer of each id's next
look, at the time its look returned.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.core.feed import Change, ChangeFeed

__all__ = ["Looking", "Looks"]


class Looks:
    """While it follows the feed (``heard`` is told every change), runs ``look(id)`` for each
    id asked for, one at a time per id, and again at the time it returns (``None``: not until
    asked again); ``look`` notes its own failures and returns when to try again."""

    def __init__(
        self,
        feed: ChangeFeed,
        heard: Callable[[Change], None],
        look: Callable[[int], Awaitable[float | None]],
        *,
        clock: Callable[[], float],
        name: str,
    ) -> None:
        self._feed = feed
        self._heard = heard
        self._look = look
        self._clock = clock
        self._name = name
        # id -> the task looking at it now, and the timer of its next look.
        self._looking: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def running(self) -> bool:
        """Whether it follows the feed now."""
        return self._unsubscribe is not None

    def follow(self) -> None:
        """Follow the feed from now on (again after a stop)."""
        if self._unsubscribe is None:
            self._unsubscribe = self._feed.subscribe(self._heard)

    def ask(self, key: int) -> None:
        """Look at ``key`` soon (after the look under way, if there is one)."""
        if not self.running:
            return
        if key in self._looking:
            self._again.add(key)
            return
        task = asyncio.get_running_loop().create_task(self._run(key), name=f"{self._name}-{key}")
        self._looking[key] = task

    def stop(self) -> None:
        """Stop following the feed, and cancel every timer and every look under way."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._looking.values():
            task.cancel()

    async def idle(self) -> None:
        """Wait until no look is under way (tests, shutdown)."""
        while self._looking:
            await asyncio.wait(list(self._looking.values()))

    async def _run(self, key: int) -> None:
        try:
            while True:
                self._again.discard(key)
                due = await self._look(key)
                if key not in self._again:
                    break
            self._at(key, due)
        finally:
            self._looking.pop(key, None)

    def _at(self, key: int, due: float | None) -> None:
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        if due is None or not self.running:
            return
        delay = max(0.0, due - self._clock())
        self._timers[key] = asyncio.get_running_loop().call_later(delay, self._fire, key)

    def _fire(self, key: int) -> None:
        self._timers.pop(key, None)
        self.ask(key)


class Looking:
    """What follows the feed through :class:`Looks` (the game clock, the tournament
    director): whether it runs, its stop, and a wait for its looks. A subclass sets
    ``_looks``."""

    _looks: Looks

    @property
    def running(self) -> bool:
        """Whether it follows the feed now."""
        return self._looks.running

    def stop(self) -> None:
        """Stop following the feed (another process does this work, or this one stops), with
        every look under way and every timer."""
        self._looks.stop()

    async def idle(self) -> None:
        """Wait until no look is under way (tests, shutdown)."""
        await self._looks.idle()
