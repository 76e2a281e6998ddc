"""Who may meet whom in the ranked queue, and who is paired: pure functions of the entries.

Two waiting players may meet when neither is the other (one entry a player makes that so),
neither blocked the other, and neither was the other's last opponent (never the same opponent
twice in a row). They are paired when their skills (the season rating's ``mu``) are within the
window of the shorter wait of the two: :data:`WINDOW_AT_FIRST` at once, widening by
:data:`WINDOW_GROWTH` a second, and anyone at all once both have waited
:data:`ANYONE_AFTER`. Among those in the window the nearest in skill is chosen, the one who
waited longest on a tie.

A newcomer is matched at once with anyone waiting in the window (:func:`pick`); the sweep
(:func:`pairs`), made every few seconds, pairs those who waited while the windows widened,
longest-waiting first.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Collection, Iterable, Sequence

from bot.core.ranked.records import EntryRecord

__all__ = [
    "ANYONE_AFTER",
    "EXPERT_OFFER_AFTER",
    "SEARCH_AT_MOST",
    "WINDOW_AT_FIRST",
    "WINDOW_GROWTH",
    "Blocks",
    "may_meet",
    "pairs",
    "pick",
    "window",
]

#: How far apart in skill (openskill's mu; a newcomer is 25) two players may be paired at once
#: (about 60 rating points as players see them).
WINDOW_AT_FIRST = 3.0
#: How much the window widens for each second both have waited (about 60 points per 30 s).
WINDOW_GROWTH = 0.1
#: Once both have waited this long, any two who may meet are paired.
ANYONE_AFTER = 120.0

#: After this long with nobody, the card offers a game against the expert instead.
EXPERT_OFFER_AFTER = 180.0
#: A search ends unmatched after this long: well inside the 15 minutes the command's token
#: reaches its card (and so the first game's table, posted through it).
SEARCH_AT_MOST = 12 * 60.0

#: The blocks between players: each as the pair (who blocked, whom).
Blocks = Collection[tuple[int, int]]


def window(waited: float) -> float:
    """How far apart in skill two players may be once both have waited ``waited`` seconds.

    >>> window(0), window(30), window(120)
    (3.0, 6.0, inf)
    """
    if waited >= ANYONE_AFTER:
        return math.inf
    return WINDOW_AT_FIRST + WINDOW_GROWTH * max(0.0, waited)


def may_meet(a: EntryRecord, b: EntryRecord, blocks: Blocks) -> bool:
    """Whether the players of ``a`` and ``b`` may be paired at all: two people, who did not
    just play each other and of whom neither blocked the other."""
    if a.user_id == b.user_id:
        return False
    if a.last_opponent == b.user_id or b.last_opponent == a.user_id:
        return False
    return (a.user_id, b.user_id) not in blocks and (b.user_id, a.user_id) not in blocks


def _fits(a: EntryRecord, b: EntryRecord, now: float) -> bool:
    """Whether ``a`` and ``b`` are close enough in skill for the shorter of their waits."""
    waited = now - max(a.queued_at, b.queued_at)
    return abs(a.mu - b.mu) <= window(waited)


def _better(b: EntryRecord, than: EntryRecord | None, mu: float) -> bool:
    """Whether ``b`` is a better opponent for a player of skill ``mu`` than ``than``: nearer,
    or as near and waiting longer."""
    if than is None:
        return True
    return (abs(b.mu - mu), b.queued_at, b.id) < (abs(than.mu - mu), than.queued_at, than.id)


def pick(
    entry: EntryRecord, candidates: Iterable[EntryRecord], now: float, blocks: Blocks
) -> list[EntryRecord]:
    """Whom ``entry`` may be paired with now among ``candidates`` (other searching entries),
    best first: in the window, nearest in skill, longest waiting on a tie."""
    fitting = [
        c
        for c in candidates
        if c.id != entry.id and may_meet(entry, c, blocks) and _fits(entry, c, now)
    ]
    return sorted(fitting, key=lambda c: (abs(c.mu - entry.mu), c.queued_at, c.id))


def pairs(
    entries: Sequence[EntryRecord], now: float, blocks: Blocks
) -> list[tuple[EntryRecord, EntryRecord]]:
    """The pairs the sweep makes of the searching ``entries``: each, longest waiting first,
    with the best opponent still free in its window (see the module). Each entry is in one
    pair at most."""
    by_skill = sorted(entries, key=lambda e: (e.mu, e.id))
    skills = [e.mu for e in by_skill]
    free = {e.id for e in entries}
    made: list[tuple[EntryRecord, EntryRecord]] = []
    for entry in sorted(entries, key=lambda e: (e.queued_at, e.id)):
        if entry.id not in free:
            continue
        reach = window(now - entry.queued_at)  # (the shorter wait is never longer than this)
        low = 0 if math.isinf(reach) else bisect.bisect_left(skills, entry.mu - reach)
        high = len(by_skill) if math.isinf(reach) else bisect.bisect_right(skills, entry.mu + reach)
        best: EntryRecord | None = None
        for other in by_skill[low:high]:
            if other.id == entry.id or other.id not in free:
                continue
            if not may_meet(entry, other, blocks) or not _fits(entry, other, now):
                continue
            if _better(other, best, entry.mu):
                best = other
        if best is not None:
            free.discard(entry.id)
            free.discard(best.id)
            made.append((entry, best))
    return made
