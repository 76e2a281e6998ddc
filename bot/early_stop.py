"""A stop signal that came before the bot's own handlers, noted for start-up to honour.

``python -m bot`` ends at once on SIGTERM or SIGINT while it imports and reads its settings,
by raising ``SystemExit`` from the signal handler. Python drops an exception raised where it
cannot be passed on (a weakref callback of the import system, a ``__del__``): the stop would
then be lost and the bot start as if never asked to stop. So the handler notes the request
too, and start-up looks at the note once its own handlers are in place
(:func:`bot.discord.launch.run_bot`).
"""

from __future__ import annotations

__all__ = ["request", "requested"]

_requested = False


def request() -> None:
    """Note that a stop signal came."""
    global _requested
    _requested = True


def requested() -> bool:
    """Whether a stop signal came before the bot's own handlers took over."""
    return _requested
