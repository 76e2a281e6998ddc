"""A stop signal before the bot's own handlers ends ``python -m bot`` as a clean stop, wherever
Python was when it came: its exit dropped inside a weakref callback is noted and kept quiet
(seen under load as "Exception ignored in: <function _get_module_lock.<locals>.cb>" and a
traceback in a host's log for a clean stop), and one Python turned into a ``RuntimeError``
inside a class's ``__set_name__`` is still status 0 (seen as status 1 and a traceback, when the
signal came while ``platform`` was being imported). Every other exception is reported as
before."""

from __future__ import annotations

import signal
import subprocess
import sys
import weakref

import pytest

from bot import early_stop
from bot.early_stop import EarlyStop


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


def test_the_exit_of_an_early_stop_python_dropped_is_kept_quiet(
    seen: list[BaseException | None],
) -> None:
    _drop(EarlyStop(0))
    assert seen == []


def test_any_other_dropped_exception_is_reported(seen: list[BaseException | None]) -> None:
    early_stop.request()
    _drop(error := ValueError("a fault"))
    _drop(other := SystemExit(3))
    assert seen == [error, other]


def test_hushing_twice_keeps_one_hook(seen: list[BaseException | None]) -> None:
    early_stop.hush()
    _drop(error := ValueError("once"))
    assert seen == [error]


def _set_name_raises() -> int:
    class Described:
        def __set_name__(self, owner: type, name: str) -> None:
            raise EarlyStop(0)  # the signal came while Python set this name

    class Owner:
        described = Described()

    return 5


def test_an_early_stop_passed_on_as_the_cause_of_another_error_is_a_clean_stop() -> None:
    assert early_stop.run(_set_name_raises) == 0
    with pytest.raises(RuntimeError):
        try:
            _set_name_raises()
        except EarlyStop:  # Python 3.12 passes it on as it is, with a note
            raise RuntimeError("as 3.11 does") from None


def test_an_early_stop_is_status_0_and_other_errors_are_raised() -> None:
    def stopped() -> int:
        raise EarlyStop(0)

    def failed() -> int:
        raise ValueError("a fault")

    def failed_while_stopping() -> int:
        try:
            raise EarlyStop(0)
        except EarlyStop:
            raise ValueError("a fault while stopping")  # noqa: B904 (its context, not cause)

    assert early_stop.run(lambda: 7) == 7
    assert early_stop.run(stopped) == 0
    for failing in (failed, failed_while_stopping):
        with pytest.raises(ValueError):
            early_stop.run(failing)


def test_python_m_bot_ends_quietly_on_a_stop_however_python_passed_it_on() -> None:
    # As `python -m bot` sets things up, then a SIGTERM whose exit lands in a weakref callback
    # (dropped: the process goes on, start-up honours the note), then one whose exit lands in
    # __set_name__ (a RuntimeError in Python 3.11): status 0, and nothing on stderr.
    code = (
        "import os, signal, sys, weakref\n"
        "from bot import early_stop\n"
        "early_stop.install()\n"
        "def main():\n"
        "    class T: pass\n"
        "    def cb(_):\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "    t = T(); r = weakref.ref(t, cb); del t\n"
        "    print('went on', early_stop.requested(), flush=True)\n"
        "    class D:\n"
        "        def __set_name__(self, owner, name):\n"
        "            os.kill(os.getpid(), signal.SIGTERM)\n"
        "    class C:\n"
        "        d = D()\n"
        "    print('not reached', flush=True)\n"
        "    return 5\n"
        "sys.exit(early_stop.run(main))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "went on True\n", "")
    assert signal.getsignal(signal.SIGTERM) is not early_stop._stop, "this process untouched"
