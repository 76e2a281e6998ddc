"""What this process knows of the players' DM channels: each player's DM channel with the bot and
their latest interaction there (whose token may carry a hand DM), kept in memory and written
down now and then."""

from __future__ import annotations

import time

from bot.core.records import DmLink
from bot.core.storage import MessageRecords

__all__ = ["DM_LINK_REFRESH_SECONDS", "DmLinks"]

#: How often a player's latest DM interaction is written down (its token lives 15 minutes).
DM_LINK_REFRESH_SECONDS = 300.0


class DmLinks:
    """The DM link of each player, as this process learns it and as the store keeps it."""

    def __init__(self, store: MessageRecords, *, shared: bool = False) -> None:
        """``shared``: other processes answer the DMs' clicks too, and write down theirs."""
        self._store = store
        self._shared = shared
        # user id -> their link, and until when it need not be written down again.
        self._links: dict[int, DmLink] = {}
        self._written_until: dict[int, float] = {}

    async def link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known (kept in
        memory as this process learns it; read from the store when the link is not known
        here, or, other processes answering the DMs' clicks, when what is kept is older than
        the store's copy can be: those write theirs down every few minutes)."""
        link = self._links.get(user_id)
        if link is None or (self._shared and not _recent(link)):
            link = await self._store.dm_link(user_id)
            if link is not None:
                self._links[user_id] = link
        return link

    async def linked(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there). A click
        refreshes it in the store at most every few minutes: a token lives 15, and this is
        asked often."""
        self._links[link.user_id] = link
        now = time.monotonic()
        if link.token is not None:
            if self._written_until.get(link.user_id, 0.0) > now:
                return
            self._written_until[link.user_id] = now + DM_LINK_REFRESH_SECONDS
        await self._store.set_dm_link(link)


def _recent(link: DmLink) -> bool:
    """Whether ``link``'s interaction is recent enough that no newer one can be in the store
    yet (a process writes a player's latest down every :data:`DM_LINK_REFRESH_SECONDS`)."""
    return link.token_at is not None and time.time() - link.token_at < DM_LINK_REFRESH_SECONDS
