"""The dearest pure work the core's tests ask for, done once a run for each distinct question
and kept for every test that asks it again.

Every test that takes ``store`` runs twice, on SQLite and on PostgreSQL, with the same games, so
what the core works out of a game alone was worked out twice, in two processes. Two functions
of the engine's, pure functions of their arguments, cost the most of it:

- a review (:func:`bot.core.worker.review_work.make_review`: the game's players, rules,
  shuffles and action log, the seat, how far, the seed of the play-outs): in a run of
  ``tests/bot``, 167 reviews took 54.5 s of CPU, 83 of them (27.9 s) a request made before;
  ``test_auto_reviews`` and ``test_review_pages`` took 35-36 s of CPU, 24-27 s kept;
- the coach's line after a show (:func:`engine.coach.review_view`, a seat's view and the
  scores the deal began with): 4,166 asked in a run of ``tests/bot``, 13.1 s of CPU, of 1,367
  distinct questions that took 3.1 s.

:class:`Kept` stands in for such a function where the core calls it (``tests/bot/conftest.py``):
the first test to ask a question has it answered by the function itself and keeps the answer in
the run's shared folder, under the digest of the pickled arguments; a test after it, in any
process, reads it back (a copy of its own, as the function would have made). What the core does
around the call runs as before. The functions themselves are tested where they are made
(``tests/engine``) and by each question's first asking here; the bots of the end-to-end tests
work out their own.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = ["Kept"]

R = TypeVar("R")


class Kept(Generic[R]):
    """``made_by``, each distinct call answered once for the run and kept in ``folder``."""

    def __init__(self, made_by: Callable[..., R], folder: Path) -> None:
        self.made_by = made_by
        self.folder = folder

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        """What ``made_by(*args, **kwargs)`` gives: read back when a test asked it before,
        else worked out and kept."""
        asked = pickle.dumps((args, sorted(kwargs.items())), protocol=pickle.HIGHEST_PROTOCOL)
        key = hashlib.sha256(asked).hexdigest()
        path = self.folder / key
        try:
            kept: R = pickle.loads(path.read_bytes())
            return kept
        except Exception:  # none kept, or not one that reads back whole: made again
            pass
        made = self.made_by(*args, **kwargs)
        self.folder.mkdir(parents=True, exist_ok=True)
        # Written whole under another name, then renamed: another process never reads half.
        making = path.with_name(f"{key}.{os.getpid()}.{id(asked)}")
        making.write_bytes(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
        making.replace(path)
        return made
