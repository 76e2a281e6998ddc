"""Patrol: one visit at a time per id, another after it when asked meanwhile, the next at the
time a look returns, and none once stopped (until it follows the feed again)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.core.base.feed import ChangeFeed
from bot.core.base.patrol import Patrol


class Looker:
    """A look that waits for the test's word and returns the due times it is given, in turn
    (then ``None``)."""

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.go = asyncio.Event()
        self.dues: list[float] = []
        self.patrol = Patrol(
            ChangeFeed(), lambda change: None, self.look, clock=lambda: 0.0, name="t"
        )
        self.patrol.follow()

    async def look(self, key: int) -> float | None:
        self.seen.append(key)
        await self.go.wait()
        return self.dues.pop(0) if self.dues else None


async def test_a_look_asked_for_during_one_is_made_after_it_not_beside_it() -> None:
    looker = Looker()
    looker.patrol.ask(7)
    await asyncio.sleep(0)
    looker.patrol.ask(7)
    looker.patrol.ask(7)
    assert looker.seen == [7]
    looker.go.set()
    await looker.patrol.idle()
    assert looker.seen == [7, 7]


async def test_the_next_look_is_at_the_time_returned_and_none_after_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The timers the patrol sets on the loop, to see that stop cancels the one it set.
    loop = asyncio.get_running_loop()
    timers: list[asyncio.TimerHandle] = []
    call_later = loop.call_later

    def recorded(
        delay: float, callback: Callable[..., object], *args: object
    ) -> asyncio.TimerHandle:
        timers.append(call_later(delay, callback, *args))
        return timers[-1]

    monkeypatch.setattr(loop, "call_later", recorded)
    looker = Looker()
    looker.go.set()
    looker.dues = [0.0]  # due at once, then not again
    looker.patrol.ask(3)
    while len(looker.seen) < 2:
        await asyncio.sleep(0)
    await looker.patrol.idle()
    assert looker.seen == [3, 3]
    timers.clear()
    looker.dues = [0.5]  # the clock stands at 0: a timer that stop cancels
    looker.patrol.ask(3)
    await looker.patrol.idle()
    assert len(timers) == 1 and not timers[0].cancelled(), "the next look is set"
    looker.patrol.stop()
    assert not looker.patrol.running
    assert timers[0].cancelled(), "stop cancels the next look"
    looker.patrol.ask(3)
    await looker.patrol.idle()
    assert looker.seen == [3, 3, 3] and len(timers) == 1, "nothing is looked at or set since"
