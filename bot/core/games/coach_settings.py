"""Each player's coach setting: whether the coach's line about their discard is shown to them.

Asked at every move (the clicked hand's new look has the line, or not), so each setting is kept
in memory with its version (:class:`~bot.core.base.recent.Newest`): a change moves it on, here
as it is written and in every other process as the change feed tells them (the person's
change, announced by the store), and a read that such a change overtook on its way is older
than it, so it is never kept over it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner
from bot.core.base.recent import Newest
from bot.core.base.replies import Answer, User
from bot.core.games.storage import UserSettings

__all__ = ["CoachSettings"]

#: How many players' settings are kept in memory at most (the least recently asked go).
SETTINGS_KEPT = 10_000


class CoachSettings:
    """The players' coach settings: read (kept by version), shown and changed."""

    def __init__(
        self, store: UserSettings, clock: Callable[[], datetime], feed: ChangeFeed
    ) -> None:
        """``feed``: where a change is published, and whence changes made in other processes
        are heard (the person's version)."""
        self._store = store
        self._clock = clock
        self._feed = feed
        # user id -> (the setting's version, coach off?), for the players seen lately.
        self._cache: Newest[int, bool] = Newest(
            SETTINGS_KEPT, heard=lambda user: feed.latest(Owner.person(user))
        )

    async def off(self, user_ids: Sequence[int]) -> frozenset[int]:
        """Which of these users turned the coach off."""
        known = {u: self._cache.get(u) for u in user_ids}
        missing = [u for u, kept in known.items() if kept is None]
        if missing:
            read = await self._store.coach_settings(missing)
            for user in missing:
                version, off = read.get(user, (0, False))
                known[user] = off
                # (A setting changed while the read was on its way is newer than what was
                # read: the read is not kept over it.)
                self._cache.keep(user, version, off)
        return frozenset(u for u, off in known.items() if off)

    def forget(self, user_id: int) -> None:
        """Let go of what is kept in memory of ``user_id``'s setting, its versions too (their
        data was deleted: the default is theirs again, its row gone)."""
        self._cache.forget(user_id)
        self._feed.forget(Owner.person(user_id))

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
        version = await self._store.set_coach(user.id, on, now=self._clock().timestamp())
        self._cache.keep(user.id, version, not on)
        # (No channel: a person keeps no message.)
        self._feed.publish(Change(Owner.person(user.id), version, 0))
        if on:
            return Answer.say(
                "Coach on: after each show, your next hand carries a line about your discard."
            )
        return Answer.say("Coach off: no more lines about your discards.")
