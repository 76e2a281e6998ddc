"""A patrol: visits things by their id, one visit at a time each, and again when each says it is
due.

The game clock, the tournament director and the ranked referee follow the change feed and, for
each game, tournament or match that changed, do what is due in it (the game pages' server,
likewise, draws a watched game again): :class:`Patrol` keeps their one visit at a time per id
(a visit asked for during one makes another after it, so no change is missed) and the timer of
each id's next visit, at the time its visit returned. :class:`OnPatrol` is what the first
three share: a visit takes the steps that are due (``_advance``) and says when to come back;
one that fails is logged, in the runner's own words and log, and tried again after
:data:`RETRY_AFTER`.

:class:`Sequences` is the patrol's one-at-a-time made a queue: the work asked of a key is done
one piece at a time, in the order it was asked, by one task of the key's own (lichess's round
actor is the model: every message that can change a game goes through its one ``process``, in
order). Every call that changes a game (a click, a command, the turn clock, the referee, the
tournament director, housekeeping) queues on the game's sequence
(:class:`~bot.core.games.games.Games`), and each finds the game as the work before it left
it: nothing races for a lock and reads the game again. Across processes the games' version
compare-and-set in the store is the guard.

>>> async def demo() -> list[str]:
...     sequences: Sequences[int] = Sequences("demo")
...     done: list[str] = []
...     async def step(name: str) -> str:
...         await asyncio.sleep(0)
...         done.append(name)
...         return name
...     said = await asyncio.gather(*(sequences.run(7, lambda n=n: step(n)) for n in "abc"))
...     return [*said, *done]
>>> asyncio.run(demo())
['a', 'b', 'c', 'a', 'b', 'c']
"""

from __future__ import annotations

import abc
import asyncio
import collections
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Hashable
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from bot.core.base.feed import Change, ChangeFeed

__all__ = [
    "RETRY_AFTER",
    "OnPatrol",
    "Patrol",
    "Running",
    "SelfWait",
    "Sequences",
    "running",
    "well",
]

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")

#: A visit that failed (the store out of reach, Discord refusing a thread) is made again after
#: this many seconds. One figure for every runner: short enough that a player waiting on the
#: clock's move or a ranked match's next game sees it soon after the fault passes, long enough
#: that a refusal repeated (Discord's 403 on a thread, once a visit) stays far below Discord's
#: invalid requests' limit (10,000 in 10 minutes).
RETRY_AFTER = 5.0


class Running(StrEnum):
    """What a part a process runs in the background is doing, as the operator reads it
    (``/readyz``'s ``background``; ``failing`` is followed by why)."""

    RUNNING = "running"
    #: This process does not send: another one runs it.
    OFF = "off"
    #: Its start (a first read of the store) is under way.
    STARTING = "starting"
    #: Its start failed, and is made again.
    FAILING = "failing"
    #: It should run here, and does not.
    STOPPED = "stopped"


def running(runs: bool) -> Running:
    """``running`` or ``stopped``."""
    return Running.RUNNING if runs else Running.STOPPED


def well(state: str) -> bool:
    """Whether a part in ``state`` is as it should be: running, off or starting; not failing,
    nor stopped.

    >>> [well(s) for s in ("running", "off", "starting", "failing: OSError", "stopped")]
    [True, True, True, False, False]
    """
    return state in (Running.RUNNING, Running.OFF, Running.STARTING)


@dataclasses.dataclass(eq=False)
class Patrol:
    """While it follows the feed (``heard`` is told every change), runs ``visit(id)`` for each
    id asked for, one at a time per id, and again at the time it returns (``None``: not until
    asked again); ``visit`` notes its own failures and returns when to try again. ``name``
    names its tasks."""

    feed: ChangeFeed
    heard: Callable[[Change], None]
    visit: Callable[[int], Awaitable[float | None]]
    _: dataclasses.KW_ONLY
    clock: Callable[[], float]
    name: str
    # id -> the task visiting it now (and the ids asked for again meanwhile), the timer of its
    # next visit; and how to stop following the feed, while it does.
    _visiting: dict[int, asyncio.Task[None]] = dataclasses.field(default_factory=dict, init=False)
    _again: set[int] = dataclasses.field(default_factory=set, init=False)
    _timers: dict[int, asyncio.TimerHandle] = dataclasses.field(default_factory=dict, init=False)
    _unsubscribe: Callable[[], None] | None = dataclasses.field(default=None, init=False)

    @property
    def running(self) -> bool:
        """Whether it follows the feed now."""
        return self._unsubscribe is not None

    def follow(self) -> None:
        """Follow the feed from now on (again after a stop)."""
        if self._unsubscribe is None:
            self._unsubscribe = self.feed.subscribe(self.heard)

    def ask(self, key: int) -> None:
        """Look at ``key`` soon (after the visit under way, if there is one)."""
        if not self.running:
            return
        if key in self._visiting:
            self._again.add(key)
            return
        task = asyncio.get_running_loop().create_task(self._run(key), name=f"{self.name}-{key}")
        self._visiting[key] = task

    def stop(self) -> None:
        """Stop following the feed, and cancel every timer and every visit under way."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._visiting.values():
            task.cancel()

    async def idle(self) -> None:
        """Wait until no visit is under way (tests, shutdown)."""
        while self._visiting:
            await asyncio.wait(list(self._visiting.values()))

    async def _run(self, key: int) -> None:
        try:
            while True:
                self._again.discard(key)
                due = await self.visit(key)
                if key not in self._again:
                    break
            self._at(key, due)
        finally:
            self._visiting.pop(key, None)

    def _at(self, key: int, due: float | None) -> None:
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        if due is None or not self.running:
            return
        delay = max(0.0, due - self.clock())
        self._timers[key] = asyncio.get_running_loop().call_later(delay, self._fire, key)

    def _fire(self, key: int) -> None:
        self._timers.pop(key, None)
        self.ask(key)


class OnPatrol(abc.ABC):
    """What follows the feed through :class:`Patrol` and advances each id it visits (the game
    clock, the tournament director, the ranked referee): the visit (``_advance``; one that
    failed is logged in the subclass's module's log, as its ``failing`` says, with the id, and
    made again after :data:`RETRY_AFTER`), a look asked for, whether it runs, its stop, and a
    wait for its visits. A subclass names its visits' tasks and what a failed one could not
    do where it is declared: ``class Director(OnPatrol, name="crib-tournament",
    failing="could not direct tournament %s")``."""

    _name: ClassVar[str]
    _failing: ClassVar[str]
    _log: ClassVar[logging.Logger]

    def __init_subclass__(cls, *, name: str, failing: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._name, cls._failing = name, failing
        cls._log = logging.getLogger(cls.__module__)

    def __init__(self, feed: ChangeFeed, *, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._patrol = Patrol(feed, self._heard, self._visit, clock=clock, name=self._name)

    @abc.abstractmethod
    def _heard(self, change: Change) -> None:
        """A change on the feed: look at what it touches (:meth:`look`)."""

    @abc.abstractmethod
    async def _advance(self, key: int) -> float | None:
        """Take the steps due in ``key``; when to look again (None: not until asked)."""

    def _said(self, key: int, error: Exception) -> bool:
        """Whether a visit's failure was said in the runner's own words (no traceback); it is
        tried again after :data:`RETRY_AFTER` either way."""
        return False

    async def _visit(self, key: int) -> float | None:
        try:
            return await self._advance(key)
        except Exception as error:
            if not self._said(key, error):
                self._log.exception(self._failing, key)
        return self._clock() + RETRY_AFTER

    def look(self, key: int) -> None:
        """Do what is due in ``key`` soon (one look at a time each; a change heard during a
        look makes another after it)."""
        self._patrol.ask(key)

    @property
    def running(self) -> bool:
        """Whether it follows the feed now."""
        return self._patrol.running

    def stop(self) -> None:
        """Stop following the feed (another process does this work, or this one stops), with
        every visit under way and every timer."""
        self._patrol.stop()

    async def idle(self) -> None:
        """Wait until no visit is under way (tests, shutdown)."""
        await self._patrol.idle()


class SelfWait(RuntimeError):
    """Work on a key's sequence waited for work queued after it on the same sequence, which
    could never begin (a mistake in the code, raised rather than left hanging)."""


@dataclasses.dataclass(eq=False, slots=True)
class _Asked:
    """One piece of work queued, and where its outcome goes."""

    work: Callable[[], Awaitable[Any]]
    outcome: asyncio.Future[Any]


class Sequences(Generic[K]):
    """The sequences of every key with work queued: each key's work is done by one task of its
    own, one piece at a time, in order; a key with nothing queued holds nothing."""

    def __init__(self, name: str) -> None:
        """``name`` names the keys' tasks (``<name>-<key>``)."""
        self._name = name
        self._queues: dict[K, collections.deque[_Asked]] = {}
        self._runners: dict[K, asyncio.Task[None]] = {}

    def __len__(self) -> int:
        """How many keys have work queued or under way."""
        return len(self._queues)

    def busy(self, key: K) -> bool:
        """Whether ``key`` has work queued or under way."""
        return key in self._queues

    async def run(self, key: K, work: Callable[[], Awaitable[T]]) -> T:
        """Do ``work`` on ``key``'s sequence, after all the work asked of it before; its
        outcome (its result, or what it raised). A caller that stops waiting (cancelled) before
        its work began has it left out; once begun, the work is done whole all the same."""
        if asyncio.current_task() is self._runners.get(key):
            raise SelfWait(f"work on {self._name} {key!r} asked its own sequence for more")
        loop = asyncio.get_running_loop()
        asked = _Asked(work, loop.create_future())
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = collections.deque()
            self._runners[key] = loop.create_task(
                self._process(key, queue), name=f"{self._name}-{key}"
            )
        queue.append(asked)
        result: T = await asked.outcome
        return result

    async def _process(self, key: K, queue: collections.deque[_Asked]) -> None:
        """Do the work queued on ``key``, in order, until none is left."""
        try:
            while queue:
                asked = queue[0]
                if not asked.outcome.done():
                    try:
                        result = await asked.work()
                    except Exception as error:
                        if not asked.outcome.done():
                            asked.outcome.set_exception(error)
                        else:  # (nobody waits for it any more: said here, or never)
                            said = "work on %s %r failed after its caller went: %r"
                            log.info(said, self._name, key, error)
                    else:
                        if not asked.outcome.done():
                            asked.outcome.set_result(result)
                queue.popleft()
        finally:
            # (Cancelled itself, at a stop: whoever still waits is told so.)
            for asked in queue:
                asked.outcome.cancel()
            del self._queues[key]
            del self._runners[key]
