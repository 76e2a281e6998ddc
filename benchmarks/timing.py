"""Figures the benchmarks share: the nearest-rank percentile, and the computer players'
decision times (wall clock and CPU time of the deciding thread) as
``benchmarks/ai_strength.py`` and ``benchmarks/variants.py`` take them.

>>> percentile([3.0, 1.0, 2.0, 4.0], 0.5)
3.0
>>> times = DecisionTimes()
>>> times.discard(lambda: "5H 5C")
'5H 5C'
>>> len(times.discard_wall), len(times.discard_cpu), times.play_wall
(1, 1, [])
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = ["DecisionTimes", "median_p99_ms", "percentile"]

Choice = TypeVar("Choice")


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value ``fraction`` of the way up ``values`` sorted (0.99: the p99), by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def median_p99_ms(seconds: Sequence[float]) -> str:
    """The median and p99 of some durations in seconds, as "median / p99" in milliseconds
    ("-" when there are none)."""
    if not seconds:
        return "-"
    return f"{1000 * statistics.median(seconds):.3f} / {1000 * percentile(seconds, 0.99):.3f}"


def _timed(choose: Callable[[], Choice], wall: list[float], cpu: list[float]) -> Choice:
    """What ``choose()`` chose; the wall-clock and CPU time it took go to ``wall`` and ``cpu``."""
    started, used = time.perf_counter(), time.thread_time()
    choice = choose()
    wall.append(time.perf_counter() - started)
    cpu.append(time.thread_time() - used)
    return choice


@dataclass
class DecisionTimes:
    """Seconds each decision took, discards and plays apart, by the wall clock and as the CPU
    time of the deciding thread (on a shared machine the wall clock also counts moments the
    process was not running at all)."""

    discard_wall: list[float] = field(default_factory=list)
    discard_cpu: list[float] = field(default_factory=list)
    play_wall: list[float] = field(default_factory=list)
    play_cpu: list[float] = field(default_factory=list)

    def add(self, other: DecisionTimes) -> None:
        """Take in ``other``'s times too."""
        self.discard_wall.extend(other.discard_wall)
        self.discard_cpu.extend(other.discard_cpu)
        self.play_wall.extend(other.play_wall)
        self.play_cpu.extend(other.play_cpu)

    def discard(self, choose: Callable[[], Choice]) -> Choice:
        """What ``choose()`` chose, timed as a discard."""
        return _timed(choose, self.discard_wall, self.discard_cpu)

    def play(self, choose: Callable[[], Choice]) -> Choice:
        """What ``choose()`` chose, timed as a play."""
        return _timed(choose, self.play_wall, self.play_cpu)
