"""The type check of the whole project (``mypy``: strict on ``engine`` and ``bot``), run by the
suite's static checks (``tests/test_static_checks.py``) and begun ahead by the set-up.

On a clean clone mypy has no cache (``.mypy_cache``) and checks everything, the standard
library's stubs and the installed packages included: some 30 s of one core, nearly half of it
outside the project. With a cache made from the same sources, a run reads what still holds and
checks again only what changed (under a second); a file with an error is checked again every
time, so a cached run reports the same errors. ``tests/setup.sh`` begins a run in the background
(:func:`begin`) as soon as ``.venv`` is made, while the system's programs are still installing
(on a fresh machine, downloads: a core is free meanwhile), and the suite's check (:func:`run`)
waits for it, then runs mypy again on the cache it left.

A file lock says a run is under way: two runs at once would each check everything cold.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["LOCK", "begin", "run"]

#: The project's folder.
ROOT = Path(__file__).resolve().parents[2]
#: Held by a run of mypy while it runs (in mypy's own cache folder, which git ignores).
LOCK = ROOT / ".mypy_cache" / "run.lock"
#: How long a run may take at most (seconds), the one begun ahead as the suite's own.
TIMEOUT = 600
#: The command: mypy as the project configures it (pyproject.toml: what it checks, and how).
COMMAND = (sys.executable, "-m", "mypy")


@contextmanager
def _held(*, wait: bool = True) -> Iterator[int | None]:
    """The lock, held while the block runs: its descriptor, or None when ``wait`` is false
    and another run holds it."""
    LOCK.parent.mkdir(exist_ok=True)
    handle = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield None
            return
        yield handle
    finally:
        os.close(handle)


def run(command: Sequence[str] = COMMAND) -> subprocess.CompletedProcess[str]:
    """mypy's check of the project, once a run begun ahead has ended (its cache then read)."""
    with _held():
        return subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )


def begin(command: Sequence[str] = COMMAND) -> bool:
    """Begin a run in the background, holding the lock until it ends, and return at once;
    False (nothing begun) when a run is already under way."""
    with _held(wait=False) as handle:
        if handle is None:
            return False
        if os.fork() == 0:
            # The child keeps its copy of the locked descriptor (the lock is the open file's,
            # held until every copy is closed) and closes every other it was given, the
            # set-up's output among them, so that whatever reads that output is not kept
            # waiting for it.
            try:
                os.setsid()
                quiet = os.open(os.devnull, os.O_RDWR)
                for stream in (0, 1, 2):
                    os.dup2(quiet, stream)
                os.closerange(3, handle)
                os.closerange(handle + 1, os.sysconf("SC_OPEN_MAX"))
                # Bounded as the suite's check is, so a run that hangs cannot hold the lock for
                # ever: the check then runs on whatever cache it left.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    subprocess.run(command, cwd=ROOT, check=False, timeout=TIMEOUT)
            finally:
                os._exit(0)
        return True


if __name__ == "__main__":
    begin()
