"""Property tests over random sequences of what people do (Hypothesis writes them), every
example run on the test's own store and services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

_Test = TypeVar("_Test", bound=Callable[..., Any])


def on_the_store(examples: int) -> settings:
    """Hypothesis's settings for ``examples`` examples that share the test's store (a
    function-scoped fixture: each example keeps apart by servers or games of its own), with no
    deadline (a step awaits the store)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )


def over_sequences(
    steps: st.SearchStrategy[Any], *, most: int, examples: int, always: Sequence[Any]
) -> Callable[[_Test], _Test]:
    """Runs a test of ``sequence`` over ``examples`` lists of 3 to ``most`` of ``steps``
    (:func:`on_the_store`), and over ``always`` first."""

    def run(test: _Test) -> _Test:
        sequences = given(sequence=st.lists(steps, min_size=3, max_size=most))
        return cast(_Test, on_the_store(examples)(sequences(example(sequence=list(always))(test))))

    return run
