"""A stop signal before the bot's own handlers: its dropped ``SystemExit`` is noted and kept
quiet (seen under load as "Exception ignored in: <function _get_module_lock.<locals>.cb>" and a
traceback in a host's log for a clean stop), while every other exception Python drops is
reported as before."""

from __future__ import annotations

import subprocess
import sys
import weakref

import pytest

from bot import early_stop


class _Thing:
    pass


def _drop(error: BaseException) -> None:
    """Raise ``error`` where Python cannot pass it on: a weakref callback (as the import
    system's module locks have)."""
    thing = _Thing()

    def callback(_: object) -> None:
        raise error

    ref = weakref.ref(thing, callback)
    del thing
    assert ref() is None


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[BaseException | None]:
    """What reaches the hook that was there before :func:`early_stop.hush`."""
    dropped: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda args: dropped.append(args.exc_value))
    monkeypatch.setattr(early_stop, "_before", sys.unraisablehook)
    monkeypatch.setattr(early_stop, "_requested", False)
    early_stop.hush()
    return dropped


def test_the_exit_of_a_noted_stop_is_dropped_quietly(seen: list[BaseException | None]) -> None:
    early_stop.request()
    _drop(SystemExit(0))
    assert seen == []
    assert early_stop.requested()


def test_any_other_dropped_exception_is_reported(seen: list[BaseException | None]) -> None:
    early_stop.request()
    _drop(error := ValueError("a fault"))
    assert seen == [error]


def test_an_exit_without_a_stop_noted_is_reported(seen: list[BaseException | None]) -> None:
    _drop(error := SystemExit(3))
    assert seen == [error]


def test_hushing_twice_keeps_one_hook(seen: list[BaseException | None]) -> None:
    early_stop.hush()
    _drop(error := ValueError("once"))
    assert seen == [error]


def test_python_m_bot_says_nothing_of_an_exit_it_could_not_raise() -> None:
    # As `python -m bot` sets things up, then a stop whose SystemExit lands in a weakref
    # callback: the process goes on (start-up honours the note) and prints no traceback.
    code = (
        "import weakref\n"
        "from bot import early_stop\n"
        "early_stop.hush()\n"
        "class T: pass\n"
        "def cb(_):\n"
        "    early_stop.request()\n"
        "    raise SystemExit(0)\n"
        "t = T(); r = weakref.ref(t, cb); del t\n"
        "print('went on', early_stop.requested())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "went on True\n"
    assert done.stderr == ""
