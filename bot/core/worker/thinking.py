"""Where the computer's slow decisions are made: a worker process, off the event loop.

A level that thinks at length (``expert``: each card it may play is played out to the end
against a few hundred guessed hands; p99 some tens of ms a decision, and it may play several
cards in a row after a go) would hold the event loop, and every other game's clicks with it,
for as long as it thinks. In a worker process it thinks beside the loop, which only waits on
a pipe (and on a machine with a second core, not even for the CPU).

A player decides from its seat's view alone (the contract of :mod:`engine.players`), which
pickles small (about 550 bytes, the game's rules in it), and from a seed drawn from the
computer's random source: a game is as reproducible as that source. The worker is started with
``spawn`` (the bot's process has threads, which ``fork`` would copy mid-work) when an expert
seat first throws its cards, and builds its tables at once, so its first play does not wait for
them (a bot with no expert game never starts it). Should the worker die, the play is made here,
on the loop, and a new worker is started for the next one.

A hint (:mod:`engine.hint`: the expert's choice in a person's seat, and why) is the expert's
decision too, made in the same worker the same way: the expert's plays and a person's hints
never hold the loop.

Reviews of games (:mod:`bot.core.worker.review_work`, the same expert's play-outs for every decision
of a game) are made in a second worker process of their own, started on the first review and
running at a lower priority (``nice``), so a review never waits behind a game's play, nor a
play behind a review.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import TypeVar

from bot.core.worker.review_work import ReviewRequest, make_review
from engine.cards import Card
from engine.game import Game
from engine.hint import Hint, hint
from engine.players import Level, Player, make_player
from engine.review import GameReview
from engine.views import SeatView

__all__ = ["WorkerThinking"]

log = logging.getLogger(__name__)

_R = TypeVar("_R")

#: How often the worker looks whether the bot's process is still there.
PARENT_CHECK_SECONDS = 0.5

#: How much lower than the bot's the review worker's priority is.
REVIEW_NICENESS = 10


@cache
def _player(level: str) -> Player:
    """The worker's player of ``level``, one per level, made on first use (in the worker
    process)."""
    return make_player(level)


def choose_play(level: str, view: SeatView, seed: int) -> Card:
    """The card a ``level`` player plays from ``view``, its choices drawn from ``seed``."""
    return _player(level).choose_play(view, random.Random(seed))


def advise(view: SeatView, seed: int) -> Hint:
    """The expert's hint for ``view``'s seat, its play-outs drawn from ``seed``."""
    return hint(_player(Level.EXPERT), view, random.Random(seed))


def _watch_parent(parent: int) -> None:
    """End the worker once the bot's process is gone (killed, say: nothing else would stop
    it, and it would hold the bot's output open)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def _worker_start(levels: tuple[str, ...], parent: int) -> None:
    """The worker's first work: watch the bot's process, then build the players' lazily made
    tables (one decision on a sample deal), so no player waits for them."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    game, _ = Game.new(["a", "b"], target=121, rng=random.Random(0))
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    turn = game.state.turn
    assert turn is not None
    for level in levels:
        choose_play(level, game.view(turn), 0)


def _review_worker_start(parent: int) -> None:
    """The review worker's first work: watch the bot's process, and step aside for games."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    with contextlib.suppress(OSError):
        os.nice(REVIEW_NICENESS)


def _ready() -> None:
    """Nothing: the first task, which has the worker started (and warmed)."""


class WorkerThinking:
    """Makes the plays of the levels that think at length in one worker process."""

    def __init__(self, levels: frozenset[str]) -> None:
        self.levels = levels
        self._pool: ProcessPoolExecutor | None = None
        self._reviews: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the worker and have it build its tables now (in the background)."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=context,
                initializer=_worker_start,
                initargs=(tuple(sorted(self.levels)), os.getpid()),
            )
            # The worker is started by the first task given to it: give it one now.
            self._pool.submit(_ready)

    async def choose_play(self, level: str, view: SeatView, seed: int) -> Card:
        """The card to play, decided in the worker (here, should the worker have died)."""
        return await self._in_worker(choose_play, level, view, seed)

    async def hint(self, view: SeatView, seed: int) -> Hint:
        """The expert's hint for ``view``'s seat, worked out in the worker (here, should the
        worker have died)."""
        return await self._in_worker(advise, view, seed)

    async def _in_worker(self, work: Callable[..., _R], *args: object) -> _R:
        """``work(*args)`` made in the worker (started now if it is not running); should the
        worker have died, made here, and a new one started for the next."""
        self.start()
        assert self._pool is not None
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, work, *args)
        except BrokenProcessPool:
            log.warning("the computer's worker process died; starting a new one")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self.start()
            return work(*args)

    async def review(self, request: ReviewRequest) -> GameReview:
        """The review ``request`` asks for, made in the review worker (started now if it is
        not running; should it die, started again and asked once more)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._reviews is None:
                self._reviews = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_review_worker_start,
                    initargs=(os.getpid(),),
                )
            try:
                return await loop.run_in_executor(self._reviews, make_review, request)
            except BrokenProcessPool:
                log.warning("the review worker process died; starting a new one")
                self._reviews.shutdown(wait=False, cancel_futures=True)
                self._reviews = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Stop the workers (a decision under way is left to finish, its answer dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._reviews is not None:
            self._reviews.shutdown(wait=False, cancel_futures=True)
            self._reviews = None
