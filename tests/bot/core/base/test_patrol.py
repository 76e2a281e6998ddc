"""Patrol: one visit at a time per id, another after it when asked meanwhile, the next at the
time a look returns, and none once stopped (until it follows the feed again); a runner on
patrol (OnPatrol): a failed visit logged in its own log, or said in its own words, and made
again after the one retry; sequences: the work asked of one key done one piece at a time,
in the order asked, by one task of its own."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner
from bot.core.base.patrol import RETRY_AFTER, OnPatrol, Patrol, SelfWait, Sequences


class Looker:
    """A look that notes when it begins (and sets ``began``) and ends, waits for the test's
    word in between, and returns the due times it is given, in turn (then ``None``)."""

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.said: list[str] = []
        self.began = asyncio.Event()
        self.go = asyncio.Event()
        self.dues: list[float] = []
        self.patrol = Patrol(
            ChangeFeed(), lambda change: None, self.look, clock=lambda: 0.0, name="t"
        )
        self.patrol.follow()

    async def look(self, key: int) -> float | None:
        self.seen.append(key)
        self.said.append(f"{key} begins")
        self.began.set()
        await self.go.wait()
        self.said.append(f"{key} ends")
        return self.dues.pop(0) if self.dues else None


async def test_a_look_asked_for_during_one_is_made_after_it_not_beside_it() -> None:
    looker = Looker()
    looker.patrol.ask(7)
    await asyncio.wait_for(looker.began.wait(), timeout=30)  # (a bound for a hang)
    looker.patrol.ask(7)
    looker.patrol.ask(7)
    looker.go.set()
    await looker.patrol.idle()
    # The second look began once the first had ended (beside it, both would begin first).
    assert looker.said == ["7 begins", "7 ends", "7 begins", "7 ends"]


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


class Flaky(OnPatrol, name="t", failing="could not visit %s"):
    """A runner whose visits fail as the test says: ``KeyError`` unknown, ``LookupError``
    said in its own words."""

    def __init__(self) -> None:
        super().__init__(ChangeFeed(), clock=lambda: 100.0)
        self.errors: list[Exception] = []
        self.said: list[tuple[int, Exception]] = []

    def _heard(self, change: Change) -> None:
        self.look(change.owner.id)

    async def _advance(self, key: int) -> float | None:
        if self.errors:
            raise self.errors.pop(0)
        return 130.0

    def _said(self, key: int, error: Exception) -> bool:
        if type(error) is LookupError:
            self.said.append((key, error))
            return True
        return False


async def test_a_runner_logs_a_failed_visit_in_its_own_log_and_tries_again_after_the_retry(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runner = Flaky()
    visit = runner._visit  # (the visit the patrol makes, and when it comes back)
    assert await visit(4) == 130.0, "a visit that went says when it is due again"
    runner.errors = [KeyError("gone")]
    with caplog.at_level(logging.ERROR, logger=__name__):
        assert await visit(4) == 100.0 + RETRY_AFTER
    (logged,) = caplog.records
    assert logged.name == __name__, "the runner's own log"
    assert logged.getMessage() == "could not visit 4"
    assert logged.exc_info is not None
    caplog.clear()
    refused = LookupError("refused")
    runner.errors = [refused]
    assert await visit(5) == 100.0 + RETRY_AFTER
    assert runner.said == [(5, refused)] and not caplog.records, "said in its own words"


async def test_a_runner_looks_at_what_it_heard_of_while_it_follows_the_feed() -> None:
    runner = Flaky()
    feed = runner._patrol.feed
    runner.errors = [LookupError("once")]
    feed.publish(Change(Owner.game(3), 1, 10))
    await runner.idle()
    assert not runner.said and not runner.running, "nothing is looked at before it follows"
    runner._patrol.follow()
    feed.publish(Change(Owner.game(3), 2, 10))
    await runner.idle()
    assert [key for key, _ in runner.said] == [3], "looked at once it follows the feed"
    runner.stop()
    assert not runner.running


class Steps:
    """Work that notes when it begins (and sets its ``began`` event) and ends, and waits for
    the test's word in between."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.go: dict[str, asyncio.Event] = {}
        self.began: dict[str, asyncio.Event] = {}

    def step(self, name: str, fails: bool = False) -> Callable[[], Awaitable[str]]:
        self.go[name] = asyncio.Event()
        self.began[name] = asyncio.Event()

        async def work() -> str:
            self.said.append(f"{name} begins")
            self.began[name].set()
            await self.go[name].wait()
            self.said.append(f"{name} ends")
            if fails:
                raise LookupError(name)
            return name

        return work


async def test_work_on_one_key_is_done_one_piece_at_a_time_in_the_order_asked() -> None:
    sequences: Sequences[int] = Sequences("t")
    steps = Steps()
    first = asyncio.ensure_future(sequences.run(7, steps.step("click")))
    second = asyncio.ensure_future(sequences.run(7, steps.step("clock")))
    other = asyncio.ensure_future(sequences.run(8, steps.step("elsewhere")))
    # Work on another key, asked after "clock", begins once the loop has let everything asked
    # before it begin that could: "clock" would have by then.
    async with asyncio.timeout(5):
        await steps.began["elsewhere"].wait()
    assert steps.said == ["click begins", "elsewhere begins"], "one at a time a key, keys apart"
    steps.go["clock"].set()
    # Free to end at once, "clock" still waits for "click": work on a third key, asked after
    # its word was given, begins and ends meanwhile.
    probe = steps.step("probe")
    steps.go["probe"].set()
    async with asyncio.timeout(5):
        assert await sequences.run(9, probe) == "probe"
    assert "clock begins" not in steps.said, "asked second, done second"
    steps.go["click"].set()
    steps.go["elsewhere"].set()
    assert list(await asyncio.gather(first, second, other)) == ["click", "clock", "elsewhere"]
    assert steps.said.index("click ends") < steps.said.index("clock begins")
    assert steps.said.index("probe ends") < steps.said.index("clock begins")
    assert len(sequences) == 0 and not sequences.busy(7), "a key with nothing queued holds nothing"


async def test_a_failure_goes_to_its_caller_and_the_next_work_goes_on() -> None:
    sequences: Sequences[int] = Sequences("t")
    steps = Steps()
    failing = asyncio.ensure_future(sequences.run(7, steps.step("refused", fails=True)))
    after = asyncio.ensure_future(sequences.run(7, steps.step("next")))
    steps.go["refused"].set()
    steps.go["next"].set()
    with pytest.raises(LookupError):
        await failing
    assert await after == "next"


async def test_work_whose_caller_stopped_waiting_before_its_turn_is_left_out() -> None:
    sequences: Sequences[int] = Sequences("t")
    steps = Steps()
    first = asyncio.ensure_future(sequences.run(7, steps.step("first")))
    gone = asyncio.ensure_future(sequences.run(7, steps.step("gone")))
    # "first" under way, "gone" queued behind it (asked before "first" began) when it leaves.
    async with asyncio.timeout(5):
        await steps.began["first"].wait()
    gone.cancel()
    steps.go["first"].set()
    assert await first == "first"
    # Work asked for after it on the same key runs once everything queued before it has: when
    # it ends, the work whose caller left would have run (free to end, so it would show).
    steps.go["gone"].set()
    later = steps.step("later")
    steps.go["later"].set()
    assert await sequences.run(7, later) == "later"
    assert steps.said == ["first begins", "first ends", "later begins", "later ends"]
    assert len(sequences) == 0


async def test_work_that_waits_on_its_own_sequence_is_refused_not_left_hanging() -> None:
    sequences: Sequences[int] = Sequences("t")

    async def inner() -> str:
        return "never"

    async def outer() -> str:
        return await sequences.run(7, inner)

    with pytest.raises(SelfWait):
        await asyncio.wait_for(sequences.run(7, outer), 5)
