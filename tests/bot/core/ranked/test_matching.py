"""Who may meet whom in the ranked queue, and who is paired: never oneself, never one's last
opponent, never across a block; the nearest in skill within a window that widens with the
shorter wait, the longest waiting first."""

from __future__ import annotations

import math

from bot.core.base.places import PlaceKind
from bot.core.ranked.matching import (
    ANYONE_AFTER,
    WINDOW_AT_FIRST,
    may_meet,
    pairs,
    pick,
    window,
)
from bot.core.ranked.records import EntryRecord, EntryStatus


def entry(
    entry_id: int, user: int, mu: float, queued: float = 0.0, last: int | None = None
) -> EntryRecord:
    return EntryRecord(
        user,
        f"P{user}",
        None,
        None,
        100 + user,
        PlaceKind.PRIVATE,
        mu,
        last,
        id=entry_id,
        status=EntryStatus.SEARCHING,
        queued_at=queued,
        match_id=None,
        ended_at=None,
        version=1,
    )


def test_the_window_widens_with_the_wait_and_then_takes_anyone() -> None:
    assert window(0) == WINDOW_AT_FIRST
    assert window(0) < window(30) < window(ANYONE_AFTER - 1)
    assert math.isinf(window(ANYONE_AFTER))


def test_never_oneself_the_last_opponent_or_across_a_block() -> None:
    al, bea = entry(1, 10, 25.0), entry(2, 11, 25.0)
    assert may_meet(al, bea, set())
    assert not may_meet(al, entry(3, 10, 25.0), set())  # the same person, twice
    assert not may_meet(entry(1, 10, 25.0, last=11), bea, set())  # just played each other
    assert not may_meet(al, entry(2, 11, 25.0, last=10), set())
    assert not may_meet(al, bea, {(10, 11)}) and not may_meet(al, bea, {(11, 10)})
    assert may_meet(al, bea, {(10, 12)})


def test_a_newcomer_meets_the_nearest_in_the_window_the_longest_waiting_on_a_tie() -> None:
    newcomer = entry(9, 19, 25.0, queued=100.0)
    near_late = entry(1, 11, 26.0, queued=90.0)
    near_early = entry(2, 12, 24.0, queued=10.0)
    nearer = entry(3, 13, 25.5, queued=95.0)
    far = entry(4, 14, 25.0 + WINDOW_AT_FIRST + 1, queued=0.0)
    found = pick(newcomer, [near_late, near_early, nearer, far], 100.0, set())
    assert [e.id for e in found] == [3, 2, 1]  # nearer first; equally near: longer waiting


def test_the_sweep_pairs_the_longest_waiting_first_each_once_as_the_windows_widen() -> None:
    a = entry(1, 11, 20.0, queued=0.0)
    b = entry(2, 12, 30.0, queued=5.0)  # ten apart: not at first
    c = entry(3, 13, 20.5, queued=8.0)
    d = entry(4, 14, 29.5, queued=9.0)
    assert [(x.id, y.id) for x, y in pairs([a, b, c, d], 10.0, set())] == [(1, 3), (2, 4)]
    # Alone, a and b meet once both have waited long enough for the window to hold them.
    assert pairs([a, b], 10.0, set()) == []
    assert [(x.id, y.id) for x, y in pairs([a, b], 5.0 + ANYONE_AFTER, set())] == [(1, 2)]
    # A block holds whatever the wait; three people make one pair.
    assert pairs([a, b], 5.0 + ANYONE_AFTER, {(12, 11)}) == []
    made = pairs([a, c, entry(5, 15, 20.2, queued=9.5)], 10.0, set())
    assert len(made) == 1 and made[0][0].id == 1
