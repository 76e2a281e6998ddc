"""The keeper's queues: per channel and lane one task, and the timers that bring owners back.

An owner that may have changed is *touched*: it joins its channel's queue in each lane named, and
that queue's task (started if none runs) brings every owner in it up to date, one after another,
until the queue is empty. An owner that cannot be finished now (the channel's pacing, a click's
answer on its way, a failure, a change said to follow) is looked at again on a timer, and an
owner with a reminder falling due when it does.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from enum import Enum

from bot.core.base.owners import Owner

__all__ = ["RETRY_AFTER", "RETRY_MAX", "Lane", "Lanes"]

#: A failed send is tried again after this many seconds (doubling, up to the maximum).
RETRY_AFTER = 2.0
RETRY_MAX = 120.0


class Lane(Enum):
    """The queues of a channel: the players' private copies of their hands (through their
    interactions' tokens: what a player moving by command waits on), the players' hands
    (DMs, what someone waits on to move) and the table (the channel's messages, paced and
    coalesced). Each has its own task, so a table edit waiting on the channel's pacing never
    holds up the next player's controls, nor a DM held by discord.py a copy's."""

    COPIES = "copies"
    HANDS = "hands"
    TABLE = "table"


class Lanes:
    """Per channel and lane, one task with owners to bring up to date; timers per owner."""

    def __init__(self, sync: Callable[[Owner, int, Lane], Awaitable[None]]) -> None:
        """``sync``: brings one owner's messages in one lane of a channel up to date."""
        self._sync = sync
        self._dirty: dict[tuple[int, Lane], set[Owner]] = {}
        self._tasks: dict[tuple[int, Lane], asyncio.Task[None]] = {}
        self._timers: dict[tuple[Owner, Lane], tuple[asyncio.TimerHandle, int]] = {}
        self._failures: dict[tuple[Owner, Lane], int] = {}
        #: When each owner next has a reminder falling due.
        self._reminders: dict[Owner, asyncio.TimerHandle] = {}
        # Set while shutting down: no more timers (reminders, retries) are started.
        self._stopping = False
        #: Set once a stop's flush has sent what was owed: nothing more is sent from then on.
        self._closed = False
        # Open unless a takeover is waiting out what the sender before may still be sending.
        self._open = asyncio.Event()
        self._open.set()

    def touch(self, owner: Owner, channel_id: int, lanes: tuple[Lane, ...] = tuple(Lane)) -> None:
        """The owner may have changed: bring its messages up to date soon (not once closed:
        see :meth:`close`)."""
        if self._closed:
            return
        for lane in lanes:
            key = (channel_id, lane)
            self._dirty.setdefault(key, set()).add(owner)
            if key not in self._tasks:
                name = f"crib-{lane.value}-{channel_id}"
                self._tasks[key] = asyncio.create_task(self._run(key), name=name)

    @property
    def stopping(self) -> bool:
        """Whether the process is shutting down (no more timers are started)."""
        return self._stopping

    @property
    def busy(self) -> bool:
        """Whether anything is being sent or waits to be."""
        return bool(self._tasks or self._dirty)

    async def room(self, at_most: int) -> None:
        """Wait until fewer than ``at_most`` tasks run (one at least has ended)."""
        if len(self._tasks) >= at_most:
            await asyncio.wait(list(self._tasks.values()), return_when=asyncio.FIRST_COMPLETED)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Nothing starts to be sent while inside (a takeover waiting out what the sender
        before may still be sending); the tasks touched meanwhile start once it ends."""
        self._open.clear()
        try:
            yield
        finally:
            self._open.set()

    # -- timers ---------------------------------------------------------------------------------
    def later(self, owner: Owner, channel_id: int, lane: Lane, delay: float) -> None:
        """Look at the owner again after ``delay`` seconds (the channel's pacing, a retry, the
        change that is coming), unless it is already to be looked at sooner (a pass waits for
        whatever it owes first, never for the last reason given)."""
        if self._stopping:
            return
        loop = asyncio.get_running_loop()
        old = self._timers.get((owner, lane))
        if old is not None:
            if old[0].when() <= loop.time() + delay:
                return
            old[0].cancel()
        handle = loop.call_later(max(0.0, delay), self._fire, owner, channel_id, lane)
        self._timers[(owner, lane)] = (handle, channel_id)

    def remind(self, owner: Owner, channel_id: int, delay: float | None) -> None:
        """Look at the owner again, in every lane, when a reminder falls due: it is a DM, or a
        mention in the channel for a player whose DMs are closed. ``delay`` None: no reminder
        is due any more (no turn is awaited: the game is over, say), and a timer set for one
        goes (a game that ended keeps none of its timers)."""
        old = self._reminders.pop(owner, None)
        if old is not None:
            old.cancel()
        if self._stopping or delay is None:
            return

        def due() -> None:
            self._reminders.pop(owner, None)
            self.touch(owner, channel_id)

        self._reminders[owner] = asyncio.get_running_loop().call_later(max(0.0, delay), due)

    def _fire(self, owner: Owner, channel_id: int, lane: Lane) -> None:
        self._timers.pop((owner, lane), None)
        self.touch(owner, channel_id, (lane,))

    def retry(self, owner: Owner, channel_id: int, lane: Lane) -> tuple[int, float]:
        """Bringing the owner up to date in ``lane`` failed: look again after a pause that
        doubles with each failure in a row; how many there were, and the pause."""
        failures = self._failures.get((owner, lane), 0) + 1
        self._failures[(owner, lane)] = failures
        pause = min(RETRY_MAX, RETRY_AFTER * 2 ** (failures - 1))
        self.later(owner, channel_id, lane, pause)
        return failures, pause

    def retry_now(self) -> None:
        """Every owner waiting on a retry after a failure is looked at now (what failed is
        likely to go now: Discord takes requests again); its pause goes on doubling should it
        fail again."""
        for key in list(self._failures):
            found = self._timers.pop(key, None)
            if found is None:
                continue
            timer, channel_id = found
            timer.cancel()
            owner, lane = key
            self.touch(owner, channel_id, (lane,))

    def succeeded(self, owner: Owner, lane: Lane) -> None:
        """Bringing the owner up to date in ``lane`` went: its next failure waits the least."""
        self._failures.pop((owner, lane), None)

    # -- the work -------------------------------------------------------------------------------
    async def _run(self, key: tuple[int, Lane]) -> None:
        channel_id, lane = key
        try:
            await self._open.wait()
            while owners := self._dirty.pop(key, None):
                for owner in sorted(owners):
                    # (Before each owner too: a takeover may have begun to wait out the
                    # sender before while this task ran, and nothing is sent meanwhile.)
                    await self._open.wait()
                    await self._sync(owner, channel_id, lane)
                # What is drawn from memory may never wait on anything: let the rest of the
                # bot (a move being saved, say) go on between passes.
                await asyncio.sleep(0)
        finally:
            self._tasks.pop(key, None)
            # A touch that came in while the task was ending starts a new one.
            if self._dirty.get(key):
                self.touch(next(iter(self._dirty[key])), channel_id, (lane,))

    async def caught_up(self) -> None:
        """Wait until nothing is being sent, waits to be, or waits on a timer (the channels'
        pacing, a retry): after a start or a takeover, the moment every owner reconciled shows
        what it owes (reminders not yet due aside)."""
        loop = asyncio.get_running_loop()
        while not self._stopping and (self._tasks or self._timers):
            running = [task for task in self._tasks.values() if not task.done()]
            if running:
                await asyncio.wait(running)
            elif self._tasks:
                return  # (only tasks cancelled before they ran are left: a stop under way)
            else:
                # A timer fires into a task (``_fire`` touches its owner): wait for it to fire.
                soonest = min(timer.when() for timer, _ in self._timers.values())
                await asyncio.sleep(max(0.0, soonest - loop.time()))

    async def drain(self, timeout: float) -> None:
        """Shutting down: no more timers from now on; owners waiting on one (the channel's
        pacing, a retry) are looked at now, reminders not yet due are dropped; wait (at most
        ``timeout`` seconds) until every task has ended."""
        self._stopping = True
        waiting = [(key, channel_id) for key, (_, channel_id) in self._timers.items()]
        self.forget_timers()
        for (owner, lane), channel_id in waiting:
            self.touch(owner, channel_id, (lane,))
        deadline = time.monotonic() + timeout
        while self._tasks and (left := deadline - time.monotonic()) > 0:
            await asyncio.wait(list(self._tasks.values()), timeout=left)

    def forget_timers(self) -> None:
        """Drop every timer and reminder (another process sends now, and brings every owner
        up to date as it takes over: this one's timers would only draw owners it may not
        send)."""
        for timer, _ in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for reminder in self._reminders.values():
            reminder.cancel()
        self._reminders.clear()

    def close(self) -> None:
        """Nothing new starts from now on (a touch is ignored)."""
        self._closed = True

    def cancel(self) -> list[Owner]:
        """Cancel every task; the owners still waiting to be brought up to date."""
        unsent = sorted({o for owners in self._dirty.values() for o in owners})
        for task in self._tasks.values():
            task.cancel()
        return unsent
