"""Each player's coach setting: whether the coach's line about their discard is shown to them.

Asked at every move (the clicked hand's new look has the line, or not), so the answers are
kept in memory for a while: a setting changes rarely, and when it does in this process it is
forgotten at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.core.base.recent import Recent
from bot.core.base.replies import Answer, User
from bot.core.games.storage import UserSettings

__all__ = ["COACH_CACHE_SECONDS", "CoachSettings"]

#: How long a user's coach setting is taken as known (in this process) before it is asked again.
COACH_CACHE_SECONDS = 60.0
#: How many players' settings are kept in memory at most (the least recently asked go).
SETTINGS_KEPT = 10_000


class CoachSettings:
    """The players' coach settings: read (kept a while), shown and changed."""

    def __init__(self, store: UserSettings, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock
        # user id -> (until when, coach off?), for the players seen lately.
        self._cache: Recent[int, tuple[float, bool]] = Recent(SETTINGS_KEPT)

    async def off(self, user_ids: Sequence[int]) -> frozenset[int]:
        """Which of these users turned the coach off."""
        now = time.monotonic()
        known = {u: self._cache.get(u) for u in user_ids}
        missing = [u for u, kept in known.items() if kept is None or kept[0] < now]
        if missing:
            # (A setting changed while the read was on its way may be missing from it: such a
            # read is not kept, or the old setting would stand for the next minute.)
            began = self._cache.changes()
            off = await self._store.coach_off(missing)
            for user in missing:
                known[user] = read = (now + COACH_CACHE_SECONDS, user in off)
                self._cache.keep_read(user, read, began)
        return frozenset(u for u, kept in known.items() if kept is not None and kept[1])

    def forget(self, user_id: int) -> None:
        """Let go of what is kept in memory of ``user_id``'s setting (their data was deleted:
        the default is theirs again)."""
        self._cache.forget(user_id)

    async def coach(self, user: User, on: bool | None = None) -> Answer:
        """``/cribbage coach``: turn the coach's lines on or off for ``user``; None just says
        which it is."""
        if on is None:
            state = "off" if user.id in await self.off([user.id]) else "on"
            return Answer.say(
                f"The coach is {state} for you. After each show, your next hand carries one "
                "line about your discard. Change it with `/cribbage coach setting:on` or "
                "`setting:off`."
            )
        await self._store.set_coach(user.id, on, now=self._clock().timestamp())
        self._cache.forget(user.id)
        if on:
            return Answer.say(
                "Coach on: after each show, your next hand carries a line about your discard."
            )
        return Answer.say("Coach off: no more lines about your discards.")
