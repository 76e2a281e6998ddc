"""The previous release of the bot, checked out beside this one, to run the two side by side
as an upgrade does (issue 50, item 5).

The previous release is the last commit, on the first-parent line of ``HEAD``, before the
newest change to the migrations' names: the commit the newest migrations were added on top of.
That is what the processes of the bot not yet upgraded run while the first upgraded one has
migrated the database. It is checked out as a git worktree of its own in a folder the test
gives (removed again afterwards); its ``python -m bot`` runs from there on this checkout's
virtual environment (the previous release needs no library this one does not have).
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

from tests.helpers.bot_runs import REPO

__all__ = ["MIGRATIONS", "checked_out", "migration_names", "previous_release"]

#: Where the migrations are, in the repository.
MIGRATIONS = "bot/store/migrations"


def _git(*args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def migration_names(commit: str) -> frozenset[str]:
    """The migrations' file names (both databases) at ``commit``."""
    listed = _git("ls-tree", "-r", "--name-only", commit, "--", MIGRATIONS)
    return frozenset(line for line in listed.splitlines() if line.endswith(".sql"))


def previous_release() -> str:
    """The last commit before the newest migrations were added (see the module)."""
    now = migration_names("HEAD")
    for commit in _git("rev-list", "--first-parent", "HEAD", "--", MIGRATIONS).split():
        parents = _git("rev-list", "--parents", "-n", "1", commit).split()[1:]
        if parents and migration_names(parents[0]) != now:
            return parents[0]
    raise AssertionError("no commit before the newest migrations (a shallow clone?)")


@contextlib.contextmanager
def checked_out(commit: str, where: Path) -> Iterator[Path]:
    """``commit`` checked out at ``where`` (a detached worktree) for the block."""
    _git("worktree", "add", "--detach", "--force", str(where), commit)
    try:
        yield where
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _git("worktree", "remove", "--force", str(where))
        _git("worktree", "prune")
