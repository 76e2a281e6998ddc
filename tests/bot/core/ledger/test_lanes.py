"""The keeper's lanes keep no timer for an owner that no longer wants one (issue 33, item 7: a
game that ended kept its turn reminder's timer, with the closure holding its owner, until the
reminder would have fallen due)."""

from __future__ import annotations

from bot.core.base.owners import Owner
from bot.core.ledger.lanes import Lane, Lanes


async def _nothing(owner: Owner, channel_id: int, lane: Lane) -> None:
    """A sync that sends nothing (these tests look at the timers alone)."""


async def test_a_reminder_goes_once_no_turn_is_awaited() -> None:
    lanes = Lanes(_nothing)
    owner = Owner.game(1)
    lanes.remind(owner, 5, 60.0)
    timer = lanes._reminders[owner]
    lanes.remind(owner, 5, None)
    assert timer.cancelled()
    assert owner not in lanes._reminders


async def test_a_new_reminder_replaces_the_one_set_before() -> None:
    lanes = Lanes(_nothing)
    owner = Owner.game(2)
    lanes.remind(owner, 5, 60.0)
    first = lanes._reminders[owner]
    lanes.remind(owner, 5, 30.0)
    assert first.cancelled() and not lanes._reminders[owner].cancelled()
    lanes.remind(owner, 5, None)
    assert lanes._reminders == {}
