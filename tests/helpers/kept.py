"""The reviews the core's tests make, made once a run and kept for every test that asks for the
same one.

A review is a pure function of its request (:func:`bot.core.worker.review_work.make_review`:
the game's players, rules, shuffles and action log, the seat, how far, the seed of the
play-outs), and the expert's judgement of every decision in it is the dearest work the core's
tests ask for. Every test that takes ``store`` runs twice, on SQLite and on PostgreSQL, with the
same game, so each review was made twice, in two processes: in a run of ``tests/bot``, 167
reviews took 54.5 s of CPU, 83 of them (27.9 s) the same request as one made before. The core's
tests make their reviews in a thread (``Reviews`` with no worker, through
``asyncio.to_thread``); :class:`KeptReviews` stands in for ``make_review`` there
(``tests/bot/conftest.py``): the first test to ask for a request makes it, by the bot's own
function, and keeps it in the run's shared folder, under the digest of the pickled request; the
next reads it back. What the review's path does around the function (the thread, the
deduplication of two asking at once, the store, the pages) runs as before. The expert's
judgement itself is tested where it is made (``tests/engine``) and by every request's first
asking here; the bots of the end-to-end tests make their own, in their own worker processes.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from bot.core.worker.review_work import ReviewRequest, make_review
from engine.review import GameReview

__all__ = ["KeptReviews"]


class KeptReviews:
    """``make_review``, each distinct request made once for the run and kept in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def make(self, request: ReviewRequest) -> GameReview:
        """The review ``request`` asks for: read back when a test made it before, else made
        (by :func:`make_review`) and kept."""
        key = hashlib.sha256(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)).hexdigest()
        path = self.folder / key
        try:
            kept: GameReview = pickle.loads(path.read_bytes())
            return kept
        except Exception:  # none kept, or not one that reads back whole: made again
            pass
        made = make_review(request)
        self.folder.mkdir(parents=True, exist_ok=True)
        # Written whole under another name, then renamed: another process never reads half.
        making = path.with_name(f"{key}.{os.getpid()}.{id(request)}")
        making.write_bytes(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        making.replace(path)
        return made
