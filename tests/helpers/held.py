"""A call held on its way: for the tests of what a process does when something changes while
one of its reads waits on the store (the change lands between the read's start and its end,
every time, with no sleep)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

__all__ = ["held"]


def held(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, *, answered: bool = False
) -> tuple[asyncio.Event, asyncio.Event]:
    """Hold each call of ``owner``'s method ``name`` until the test lets it go on: the event
    set when one is reached, and the event to set to let it (and those after it) go on.
    ``answered``: the call is made first and its answer held (a read of one statement, done
    before the change the test makes, whose caller hears of it after)."""
    reached, go_on = asyncio.Event(), asyncio.Event()
    calls = getattr(owner, name)

    async def waiting(*args: Any, **kwargs: Any) -> Any:
        answer = await calls(*args, **kwargs) if answered else None
        reached.set()
        await go_on.wait()
        return answer if answered else await calls(*args, **kwargs)

    monkeypatch.setattr(owner, name, waiting)
    return reached, go_on
