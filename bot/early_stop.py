"""A stop signal that comes before the bot's own handlers: while ``python -m bot`` imports and
reads its settings, when nothing is open yet.

Such a signal ends the process at once, as a clean stop (status 0), by raising
:class:`EarlyStop` from the handler (:func:`install`). Python runs a signal handler between
any two bytecodes, so that exception can come up where Python does not pass it on as it is:

- inside a weakref callback of the import system, or a ``__del__``, Python drops it, printing
  "Exception ignored in: ..." and a traceback. The stop would be lost and the bot start as if
  never asked to stop; so the handler notes the request too, start-up looks at the note once
  its own handlers are in place (:func:`bot.launch.run_bot`), and that print is kept
  quiet (a host reads it as a crash);
- inside a class's ``__set_name__`` (Python 3.11), Python raises a ``RuntimeError`` caused by
  it, which would end the process with status 1 and a traceback; :func:`run` takes that for
  the stop it is.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from types import FrameType

__all__ = ["EarlyStop", "ended_by_stop", "hush", "install", "request", "requested", "run"]

_requested = False
_before = sys.unraisablehook


class EarlyStop(SystemExit):
    """The exit of a stop signal that came before the bot's own handlers (status 0)."""


def request() -> None:
    """Note that a stop signal came."""
    global _requested
    _requested = True


def requested() -> bool:
    """Whether a stop signal came before the bot's own handlers took over."""
    return _requested


def _stop(signum: int, frame: FrameType | None) -> None:
    request()
    raise EarlyStop(0)


def _quiet(unraisable: sys.UnraisableHookArgs) -> None:
    if isinstance(unraisable.exc_value, EarlyStop):
        return  # the stop is noted, and start-up honours it: not a fault
    _before(unraisable)


def hush() -> None:
    """Keep quiet an early stop's exit that Python could not raise; any other exception Python
    drops is reported as before."""
    global _before
    if sys.unraisablehook is not _quiet:
        _before = sys.unraisablehook
        sys.unraisablehook = _quiet


def install() -> None:
    """End the process on SIGTERM or SIGINT from now until the bot's own handlers take over."""
    hush()
    for stop_signal in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop_signal, _stop)


def ended_by_stop(error: BaseException) -> bool:
    """Whether ``error`` is an early stop's exit, or was raised because of one (its cause, as
    Python 3.11 gives a ``RuntimeError`` for one raised in ``__set_name__``)."""
    seen: set[int] = set()
    found: BaseException | None = error
    while found is not None and id(found) not in seen:
        if isinstance(found, EarlyStop):
            return True
        seen.add(id(found))
        found = found.__cause__
    return False


def run(main: Callable[[], int]) -> int:
    """``main()``'s exit status, or 0 if an early stop ended it, however Python passed the
    stop's exit on."""
    try:
        return main()
    except BaseException as error:
        if ended_by_stop(error):
            return 0
        raise
