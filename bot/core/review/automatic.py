"""Reviews made by themselves: once a game is finished, every person's decisions in it are
reviewed in the background, so ``/cribbage stats`` adds up the latest games, and not only
the ones somebody opened with *Review*.

One process of the bot does it (the one that sends, as it runs the game clock and the
tournament director), beside the games and never in their way:

- one review at a time (games against the computer and between people alike; one seat after
  the other), made in the review worker process (:meth:`bot.core.worker.thinking.WorkerThinking.
  review`, at a lower priority than the bot's), so the event loop only waits on a pipe, and a
  review someone asks for waits behind one automatic review at most;
- what is owed is read from the store, not kept in memory: a finished game, last changed in
  the past :data:`LOOKBACK` and not pruned, with no ``auto_reviews`` row. So a game that
  finished while the bot was down, or whose review a stop cut short, is reviewed after the
  next start (the latest games first). A game pruned already is left as it is (it can still be
  reviewed when asked, from its archive record);
- it looks :data:`PASS_GAP` seconds after it starts (the start's own catching up first), again
  when it hears of a change of a game not known to be still going (at most once every
  :data:`PASS_GAP` seconds, so a busy bot costs one small query now and then), and every
  :data:`SWEEP_SECONDS` anyway (a change it may not have heard of: a review that failed).

A game that cannot be reviewed (begun before shuffles were recorded, its snapshot unreadable,
or nothing kept to deal it again from) is noted as such and not looked at again; one whose
review failed otherwise (the store out of reach, the worker gone) is tried again on a later
pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable

from bot.core.base.faults import Fault, UnreadableGame
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import OwnerKind
from bot.core.base.refusals import Refused
from bot.core.games.games import Games
from bot.core.games.records import GameStatus
from bot.core.review.records import ReviewRecords
from bot.core.review.review import Reviews

__all__ = ["LOOKBACK", "PASS_GAP", "SWEEP_SECONDS", "AutoReviews"]

log = logging.getLogger(__name__)

#: How far back (seconds) a finished game is still owed its reviews (a bot down longer than
#: this leaves the older ones to be reviewed when someone asks).
LOOKBACK = 7 * 24 * 3600.0
#: The least time between two looks for games owed their reviews, while games change.
PASS_GAP = 5.0
#: A look every so often even when nothing was heard.
SWEEP_SECONDS = 600.0
#: The games read from the store at a time.
BATCH = 20


@dataclasses.dataclass(eq=False)
class AutoReviews:
    """Reviews every finished game's players' decisions in the background, while started:
    a look after ``gap`` seconds of quiet once a game may have finished, and one every
    ``sweep`` seconds besides."""

    reviews: Reviews
    games: Games
    store: ReviewRecords
    feed: ChangeFeed
    _: dataclasses.KW_ONLY
    clock: Callable[[], float]
    gap: float = PASS_GAP
    sweep: float = SWEEP_SECONDS
    # Set when a game may have finished; the task looking, and the feed's subscription.
    _wake: asyncio.Event = dataclasses.field(default_factory=asyncio.Event, init=False)
    _task: asyncio.Task[None] | None = dataclasses.field(default=None, init=False)
    _unsubscribe: Callable[[], None] | None = dataclasses.field(default=None, init=False)

    @property
    def running(self) -> bool:
        """Whether the reviews are being made now (this process sends)."""
        return self._task is not None

    def start(self) -> None:
        """Review what is owed now, and from now on whatever finishes."""
        if self._task is not None:
            return
        self._unsubscribe = self.feed.subscribe(self._heard)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="crib-reviews")

    def stop(self) -> None:
        """Stop (another process sends, or this one stops): a review under way is left to the
        worker, and the game is looked at again on the next start."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _heard(self, change: Change) -> None:
        if change.owner.kind is not OwnerKind.GAME:
            return
        # A game this process keeps in memory at the version heard is still going (a finished
        # game is never kept): nothing to look for. Any other may have just finished.
        if self.games.loaded.version(change.owner.id) == change.version:
            return
        self._wake.set()

    async def _run(self) -> None:
        while True:
            # Let what woke us (or the start, with its catching up) be followed by the rest of
            # a busy moment first: one look for all of it, after the games' own work.
            await asyncio.sleep(self.gap)
            self._wake.clear()
            try:
                await self.review_owed()
            except Fault as fault:
                self.games.faults.note(fault)
            except Exception:
                log.exception("could not look for games owed their reviews")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.sweep)

    async def review_owed(self) -> int:
        """One look: review every game owed its reviews, the latest first; how many games
        were done (reviewed, or found unable to be)."""
        done = 0
        failed: set[int] = set()
        while True:
            since = self.clock() - LOOKBACK
            owed = await self.store.reviews_owed(since, limit=BATCH + len(failed))
            todo = [game_id for game_id in owed if game_id not in failed]
            if not todo:
                return done
            for game_id in todo:
                if await self._review(game_id):
                    done += 1
                else:
                    failed.add(game_id)

    async def _review(self, game_id: int) -> bool:
        """Review one game's people and note it done; False when that failed (and it is
        left for a later look)."""
        try:
            record = await self.games.store.get_game(game_id)
            if record is None or record.status is not GameStatus.FINISHED:
                return False
            outcome = "reviewed" if await self.reviews.review_all(record) else "too old"
        except UnreadableGame as fault:
            self.games.faults.note(fault)
            outcome = "unreadable"
        except Fault as fault:
            self.games.faults.note(fault.about(game_id))
            return False
        except Refused:
            # Nothing to deal it again from (no snapshot, no archive record): never will be.
            outcome = "nothing kept"
        except Exception:
            log.exception("could not review game %s", game_id)
            return False
        await self.store.reviews_done(game_id, outcome, now=self.clock())
        log.info("game %s's automatic review: %s", game_id, outcome)
        return True
