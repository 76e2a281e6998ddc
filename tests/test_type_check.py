"""The type check begun ahead by the set-up (tests.helpers.type_check): the run begun in the
background holds the lock until it ends, a second is not begun meanwhile, and the suite's check
runs only once the first has ended (it would otherwise check everything cold beside it)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import type_check

#: How long the test waits for a step of the background run at most.
BOUND = 60.0

#: A stand-in for mypy: notes that it began, waits for ``release`` to exist, then notes that
#: it ended; asked with ``check``, writes whether the background run had ended by then.
SCRIPT = """
import sys, time
from pathlib import Path
folder = Path(sys.argv[1])
if sys.argv[2] == "check":
    (folder / "checked").write_text(str((folder / "ended").exists()))
    print("checked")
    sys.exit(0)
(folder / "began").write_text("")
while not (folder / "release").exists():
    time.sleep(0.01)
(folder / "ended").write_text("")
"""


def _until(what: str, happened: Callable[[], bool]) -> None:
    """Wait for ``happened`` (a step of another process or thread), failing after
    :data:`BOUND`."""
    deadline = time.monotonic() + BOUND
    while not happened():
        assert time.monotonic() < deadline, f"{what}: never came"
        time.sleep(0.01)


def _waited_on(lock: Path) -> bool:
    """Whether someone waits for ``lock`` (the kernel's list of locks marks a waiter ``->``)."""
    inode = f":{lock.stat().st_ino}"
    return any(
        "->" in line and any(field.endswith(inode) for field in line.split())
        for line in Path("/proc/locks").read_text().splitlines()
    )


def test_a_run_begun_ahead_is_waited_for_and_not_begun_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / "cache" / "run.lock"
    monkeypatch.setattr(type_check, "LOCK", lock)
    stand_in = (sys.executable, "-c", SCRIPT, str(tmp_path))

    assert type_check.begin((*stand_in, "ahead")) is True
    try:
        _waited_for_and_once(tmp_path, lock, stand_in)
    finally:
        (tmp_path / "release").write_text("")
    # Ended: the next set-up begins a run again.
    assert type_check.begin((*stand_in, "check")) is True


def _waited_for_and_once(folder: Path, lock: Path, stand_in: tuple[str, ...]) -> None:
    _until("the run begun ahead", (folder / "began").exists)
    # Under way: a second set-up begins nothing.
    assert type_check.begin((*stand_in, "ahead")) is False

    done: list[str] = []
    check = threading.Thread(
        target=lambda: done.append(type_check.run((*stand_in, "check")).stdout)
    )
    check.start()
    _until("the check waiting for the run begun ahead", lambda: _waited_on(lock))
    assert not (folder / "checked").exists()
    (folder / "release").write_text("")
    check.join(BOUND)
    assert done == ["checked\n"]
    # The check ran once the run begun ahead had ended, not beside it.
    assert (folder / "checked").read_text() == "True"


def test_the_check_runs_at_once_when_nothing_was_begun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(type_check, "LOCK", tmp_path / "cache" / "run.lock")
    done = type_check.run((sys.executable, "-c", "print('checked')"))
    assert done.returncode == 0 and done.stdout == "checked\n"
