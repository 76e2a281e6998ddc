"""A server's data once the bot has left it: noted when the bot is removed (or found gone at
a start), deleted after the grace period (``LEFT_SERVER_DAYS``) unless the bot is back by
then. The process that sends deletes what is due, with the rest of the housekeeping.

A server's data is what the bot kept there as its member: its games, tournaments, the discard
of the day, who was seen there, and the standings. The games people played there through
their own user installs (private tables: the bot was no member) are theirs and stay, and the
server's standings are worked out again from them."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from bot.core.base.owners import Owner
from bot.core.privacy.records import PrivacyRecords
from bot.core.settings import GRACE

__all__ = ["GRACE", "ServerData"]

log = logging.getLogger(__name__)


class ServerData:
    """The servers the bot left, and their data's deletion after the grace period."""

    def __init__(
        self,
        store: PrivacyRecords,
        *,
        grace: timedelta,
        clock: Callable[[], datetime],
        forget: Callable[[Owner], None],
    ) -> None:
        """``forget``: what this process keeps in memory of an owner deleted, let go."""
        self._store = store
        self.grace = grace
        self._clock = clock
        self._forget = forget

    async def left(self, guild_id: int) -> None:
        """The bot was removed from ``guild_id`` (not an outage: Discord says so apart)."""
        await self._store.left_server(guild_id, at=self._clock().timestamp())
        log.info(
            "removed from server %d: its data goes in %.0f days unless the bot is back",
            guild_id,
            self.grace.total_seconds() / 86_400,
        )

    async def present(self, guild_id: int) -> None:
        """The bot is in ``guild_id`` (it joined, or came back within the grace period)."""
        if await self._store.back_in_server(guild_id):
            log.info("back in server %d: its data is kept", guild_id)

    async def gone_while_away(self, present: set[int], mine: Callable[[int], bool]) -> int:
        """At a start, once every server of this process's shards has come (``present``):
        the servers with data on those shards (``mine``) the bot is no longer in were left
        while it was away; they are noted now (the grace period counts from now). How many."""
        noted = 0
        already = await self._store.servers_left()
        for guild_id in await self._store.servers_with_data():
            if mine(guild_id) and guild_id not in present and guild_id not in already:
                await self.left(guild_id)
                noted += 1
        for guild_id in present & set(already):
            await self.present(guild_id)
        return noted

    async def forget_due(self) -> list[int]:
        """Delete the data of every server left longer ago than the grace period; which."""
        due = self._clock().timestamp() - self.grace.total_seconds()
        done: list[int] = []
        for guild_id, left_at in sorted((await self._store.servers_left()).items()):
            if left_at > due:
                continue
            # Each batch only while the note says so: the bot may be invited back meanwhile,
            # heard by any process (then what is left, and what it plays there, stays).
            games = await self._store.forget_server(guild_id, left_by=due)
            _let_go(self._forget, games)
            # The ratings of what people played there through their own user installs, which
            # stays; then the note goes (a stop before this point does it all again).
            await self._store.rebuild_server_ratings(guild_id)
            if not await self._store.back_in_server(guild_id, left_by=due):
                log.info(
                    "back in server %d as its data was being deleted: %d games went, the rest"
                    " is kept",
                    guild_id,
                    len(games),
                )
                continue
            log.info(
                "deleted the data of server %d (%d games), left over the grace period",
                guild_id,
                len(games),
            )
            done.append(guild_id)
        return done


def _let_go(forget: Callable[[Owner], None], games: Iterable[int]) -> None:
    for game_id in games:
        forget(Owner.game(game_id))
