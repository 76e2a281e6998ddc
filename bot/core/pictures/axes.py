"""Axes for the charts: round tick values, numbers short enough for a label, and the map from
values to pixels.

    >>> nice_ticks(987, 1_540)
    [900.0, 1000.0, 1100.0, 1200.0, 1300.0, 1400.0, 1500.0, 1600.0]
    >>> label(1_512.4), label(-3.25, decimals=1), label(2_500_000)
    ('1,512', '-3.2', '2.5M')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = ["LIMIT", "Scale", "check_values", "decimals_for", "label", "nice_ticks"]

# Values beyond this are refused: nothing the bot charts comes near it, and past it the
# arithmetic of ticks would lose whole units.
LIMIT = 1e15


def check_values(values: Iterable[float], what: str) -> None:
    """Refuse values a chart cannot place: not numbers, infinite, or beyond ``LIMIT``."""
    for value in values:
        if not math.isfinite(value) or abs(value) > LIMIT:
            raise ValueError(f"{what} must be finite numbers within ±{LIMIT:.0e}, not {value}.")


def _steps(power: float) -> Iterator[float]:
    while True:
        yield from (power, 2 * power, 2.5 * power, 5 * power)
        power *= 10


def nice_ticks(low: float, high: float, most: int = 8) -> list[float]:
    """Round values (1, 2, 2.5 or 5 times a power of ten apart) from at or below ``low`` to at
    or above ``high``, at most ``most`` (3 or more) of them; a flat range is widened around
    its value."""
    if high < low:
        low, high = high, low
    if high - low < 1e-9 * max(1.0, abs(high)):
        pad = max(1.0, abs(high) * 0.02)
        low, high = low - pad, high + pad
    power = 10.0 ** math.floor(math.log10((high - low) / (max(most, 3) - 1)))
    for step in _steps(power):
        first, last = math.floor(low / step), math.ceil(high / step)
        # A quotient that underflows to zero must not leave a value outside the ticks.
        if first * step > low:
            first -= 1
        if last * step < high:
            last += 1
        if last - first + 1 <= max(most, 3):
            break
    # Rounded to the step's own precision, so 0.1 * 3 is labelled 0.3, not 0.30000000000000004.
    places = max(0, 12 - math.floor(math.log10(step)))
    return [round(i * step, places) for i in range(first, last + 1)]


def label(value: float, decimals: int = 0) -> str:
    """``value`` as a short label: thousands separated, millions and above abbreviated, an
    ASCII minus (the built-in font has no other)."""
    size = abs(value)
    for unit, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6)):
        if size >= scale:
            scaled = value / scale
            text = (f"{scaled:.3g}" if abs(scaled) < 1000 else f"{scaled:,.0f}") + unit
            break
    else:
        text = f"{value:,.{decimals}f}"
    # A value that rounds to zero is not negative.
    return text[1:] if text.startswith("-") and text.strip("-0.,") == "" else text


def decimals_for(ticks: list[float]) -> int:
    """How many decimals tell these ticks apart (0 for whole steps, at most 6)."""
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else 1.0
    for places in range(7):
        if abs(step * 10**places - round(step * 10**places)) < 1e-6:
            return places
    return 6


@dataclass(frozen=True)
class Scale:
    """A linear map from values in ``[low, high]`` to pixels in ``[start, end]`` (``end`` may
    be less than ``start``: a y axis grows upwards)."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        if self.high == self.low:
            return (self.start + self.end) / 2
        return self.start + (value - self.low) / (self.high - self.low) * (self.end - self.start)
