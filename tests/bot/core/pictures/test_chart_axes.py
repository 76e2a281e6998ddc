"""Chart axes: round ticks that cover the data, labels short enough to fit, and a linear map
from values to pixels."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.core.pictures.axes import LIMIT, Scale, check_values, decimals_for, label, nice_ticks

finite = st.floats(min_value=-LIMIT, max_value=LIMIT, allow_nan=False)


@example(570.6124506023369, 570.6124518731209, 5)  # (a step read as 4.9999994e-07)
@given(finite, finite, st.integers(min_value=3, max_value=10))
def test_ticks_cover_the_values_evenly_and_are_few(low: float, high: float, most: int) -> None:
    ticks = nice_ticks(low, high, most)
    assert 2 <= len(ticks) <= most
    assert ticks[0] <= min(low, high) and ticks[-1] >= max(low, high)
    # Evenly spaced, but for the floats' own rounding (not rounded to a fixed number of
    # places: a step of 2.5e-06 is no coarser than one of 2.5).
    steps = [b - a for a, b in pairwise(ticks)]
    assert max(steps) - min(steps) <= 1e-9 * max(1.0, max(abs(t) for t in ticks))
    step = ticks[1] - ticks[0]
    assert step > 0
    # The step is 1, 2, 2.5 or 5 times a power of ten. (Read from two ticks, it carries their
    # rounding: 570.612451 - 570.6124505 is 4.9999994e-07. A range is never narrower than a
    # billionth of its values, so that error stays within a few millionths of the step.)
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert any(math.isclose(mantissa, m, rel_tol=1e-5) for m in (1, 2, 2.5, 5, 10)), step


def test_a_flat_range_is_widened_around_its_value() -> None:
    assert nice_ticks(1000, 1000) == [980.0, 990.0, 1000.0, 1010.0, 1020.0]
    assert nice_ticks(0, 0) == [-1.0, -0.5, 0.0, 0.5, 1.0]


@pytest.mark.parametrize(
    ("value", "decimals", "text"),
    [
        (1512.4, 0, "1,512"),
        (-3.25, 1, "-3.2"),
        (-0.04, 1, "0.0"),
        (0, 0, "0"),
        (2_500_000, 0, "2.5M"),
        (-7.5e9, 0, "-7.5B"),
        (1e15, 0, "1,000T"),
        (999_999, 0, "999,999"),
    ],
)
def test_labels_are_short(value: float, decimals: int, text: str) -> None:
    assert label(value, decimals) == text


def test_decimals_tell_the_ticks_apart() -> None:
    assert decimals_for([900, 1000]) == 0
    assert decimals_for([0, 2.5, 5]) == 1
    assert decimals_for([0.001, 0.0012]) == 4
    assert decimals_for([7]) == 0


def test_a_scale_maps_ends_to_ends_and_can_run_upwards() -> None:
    y = Scale(0, 10, 300, 100)
    assert (y(0), y(10), y(5)) == (300, 100, 200)
    assert Scale(4, 4, 10, 20)(4) == 15


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), LIMIT * 2])
def test_values_beyond_the_limit_are_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="finite numbers"):
        check_values([1.0, bad], "Ratings")
