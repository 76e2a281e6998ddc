"""What the core counts for an operator's metrics, as a port: the running bot's
:class:`bot.ops.metrics.Metrics` is one; without one nothing is counted (tests, tools)."""

from __future__ import annotations

from typing import Protocol

__all__ = ["NO_METERS", "Meters"]


class Meters(Protocol):
    """The counts the core keeps for an operator."""

    def moved(self, moves: int) -> None:
        """``moves`` moves (the engine's actions: a person's and the computer's answers to
        it) were saved, in one transaction."""
        ...


class _NoMeters:
    """Counts nothing."""

    def moved(self, moves: int) -> None:
        """Nothing is counted."""


#: The meters of a core that counts nothing.
NO_METERS: Meters = _NoMeters()
