"""The game clock: makes the moves that time, not a player, makes.

It follows the change feed: when a game changes it asks :meth:`bot.core.moves.Moves.catch_up`
to make whatever is due (a muggins window closing, a person counted for after the time-out, the
computer's answer that was left for after a click and never made), and looks again when the
next one falls due. One process of the bot runs it (the one that sends the games' messages):
two clocks would only race to make the same move (the version check keeps it to one).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable

from bot.core.faults import Fault, UnreadableGame
from bot.core.feed import Change, ChangeFeed
from bot.core.moves import Moves
from bot.core.owners import OwnerKind

__all__ = ["GameClock"]

log = logging.getLogger(__name__)

#: A catch-up that failed is tried again after this many seconds (a game that cannot be read
#: is not: it waits for a moderator to end it).
RETRY_AFTER = 5.0


class GameClock:
    """Makes each game's timed moves when they fall due, while it runs."""

    def __init__(
        self, moves: Moves, feed: ChangeFeed, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._moves = moves
        self._feed = feed
        self._clock = clock
        self._unsubscribe: Callable[[], None] | None = None
        # game id -> the task looking at it now, and the timer of its next look.
        self._looking: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._timers: dict[int, asyncio.TimerHandle] = {}

    @property
    def running(self) -> bool:
        """Whether the clock follows the games now."""
        return self._unsubscribe is not None

    def start(self, games: Iterable[int] = ()) -> None:
        """Follow the games from now on, and look at ``games`` at once (those that may have
        moves due after a stop)."""
        if self._unsubscribe is None:
            self._unsubscribe = self._feed.subscribe(self._heard)
        for game_id in games:
            self.look(game_id)

    def stop(self) -> None:
        """Stop following the games (another process runs the clock, or this one stops)."""
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

    def _heard(self, change: Change) -> None:
        if change.owner.kind is OwnerKind.GAME:
            self.look(change.owner.id)

    def look(self, game_id: int) -> None:
        """Make what is due in the game soon (one look at a time per game; a change heard
        during a look makes another after it)."""
        if not self.running:
            return
        if game_id in self._looking:
            self._again.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(
            self._look(game_id), name=f"crib-clock-{game_id}"
        )
        self._looking[game_id] = task

    async def _look(self, game_id: int) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    due = await self._moves.catch_up(game_id, self._clock())
                except asyncio.CancelledError:
                    raise
                except UnreadableGame as fault:
                    # Nothing can move in it until a moderator ends it (that change brings the
                    # clock back): noted once, not looked at again meanwhile.
                    self._moves.faults.note(fault)
                    due = None
                except Fault as fault:
                    self._moves.faults.note(fault.about(game_id))
                    due = self._clock() + RETRY_AFTER
                except Exception:
                    log.exception("could not make the timed moves of game %s", game_id)
                    due = self._clock() + RETRY_AFTER
                if game_id not in self._again:
                    break
            self._at(game_id, due)
        finally:
            self._looking.pop(game_id, None)

    def _at(self, game_id: int, due: float | None) -> None:
        old = self._timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        if due is None or not self.running:
            return
        delay = max(0.0, due - self._clock())
        self._timers[game_id] = asyncio.get_running_loop().call_later(delay, self._fire, game_id)

    def _fire(self, game_id: int) -> None:
        self._timers.pop(game_id, None)
        self.look(game_id)
