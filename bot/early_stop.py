"""A stop signal that came before the bot's own handlers, noted for start-up to honour.

``python -m bot`` ends at once on SIGTERM or SIGINT while it imports and reads its settings,
by raising ``SystemExit`` from the signal handler. Python drops an exception raised where it
cannot be passed on (a weakref callback of the import system, a ``__del__``): the stop would
then be lost and the bot start as if never asked to stop. So the handler notes the request
too, and start-up looks at the note once its own handlers are in place
(:func:`bot.discord.launch.run_bot`). Python would also print the dropped ``SystemExit``
with a traceback ("Exception ignored in: ..."), which a host reads as a crash: :func:`hush`
keeps that one quiet.
"""

from __future__ import annotations

import sys

__all__ = ["hush", "request", "requested"]

_requested = False
_before = sys.unraisablehook


def request() -> None:
    """Note that a stop signal came."""
    global _requested
    _requested = True


def requested() -> bool:
    """Whether a stop signal came before the bot's own handlers took over."""
    return _requested


def _quiet(unraisable: sys.UnraisableHookArgs) -> None:
    if _requested and isinstance(unraisable.exc_value, SystemExit):
        return  # the stop is noted, and start-up honours it: not a fault
    _before(unraisable)


def hush() -> None:
    """Keep quiet the ``SystemExit`` of a noted stop that Python could not raise; any other
    exception Python drops is reported as before."""
    global _before
    if sys.unraisablehook is not _quiet:
        _before = sys.unraisablehook
        sys.unraisablehook = _quiet
