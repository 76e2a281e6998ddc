"""What the process that sends runs (:class:`bot.core.sending.Sending`): the director's and the
referee's start, each a read of the store, is made again until it is done when it fails (the
database out of reach as the process starts or takes over), where it was left half-done for as
long as the process sent: the referee following the feed but the matches under way unread and
the ranked queue never swept, the director blind to the tournaments being played. What each
part is doing is said (``background``), as ``/readyz`` and ``cribbage_background`` show it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, cast

import pytest

from bot.core.base.feed import ChangeFeed
from bot.core.faces import BACKGROUND
from bot.core.sending import Sending
from bot.core.services import Services
from bot.store import Store


class _Keeper:
    """The keeper as the start and stop of sending use it: following the feed, or not."""

    def follow(self, feed: ChangeFeed) -> None:
        self.following = True

    def unfollow(self) -> None:
        self.following = False


def _failing_once(
    store: Store, name: str, said: list[dict[str, str]], sending: Callable[[], Sending]
) -> list[str]:
    """``store.name`` fails the first time it is called; the second time, what ``sending``
    says of its parts then is kept in ``said``; every call noted in the list returned."""
    read: Callable[..., Awaitable[Any]] = getattr(store, name)
    calls: list[str] = []

    async def once(*args: Any) -> Any:
        calls.append(name)
        if len(calls) == 1:
            raise OSError("the database is out of reach")
        if len(calls) == 2:
            said.append(sending().background())
        return await read(*args)

    setattr(store, name, once)
    return calls


async def _until(done: Callable[[], bool]) -> None:
    """Wait for ``done`` (each start made again within a few hundredths of a second)."""

    async def waiting() -> None:
        while not done():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(waiting(), timeout=30)


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_a_start_that_failed_is_made_again_until_it_is_done(
    service: Services, store: Store
) -> None:
    said: list[dict[str, str]] = []
    sending = Sending(
        service, cast(Any, _Keeper()), cast(Any, object()), events=None, retry_after=0.01
    )
    refereed = _failing_once(store, "matches_since", said, lambda: sending)
    directed = _failing_once(store, "recent_tournaments", said, lambda: sending)
    assert set(sending.background().values()) == {"off"}
    sending.start()
    try:
        await _until(lambda: set(sending.background().values()) == {"running"})
        # Each start read the store again, and went on to the end: the queue is swept.
        assert len(refereed) >= 2 and len(directed) == 2
        assert service.ranked_play.sweeping and service.director.running
        # While it was made again, the part said why it was not running yet.
        failing = "failing: OSError: the database is out of reach"
        assert any(s["referee"] == failing and s["ranked_sweep"] == failing for s in said)
        assert any(s["director"] == failing for s in said)
        assert tuple(sending.background()) == BACKGROUND
    finally:
        sending.stop()
    assert set(sending.background().values()) == {"off"}
    assert not service.ranked_play.sweeping and not service.director.running
    await sending.cancel_starts()
