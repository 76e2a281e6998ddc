"""Which game each channel's table inside Discord shows, and to whom: the channel's game (known
from its last change, without a read), a reader's ranked game played from there (watched from
its players' places), and whether the channel is the bot's own DM (asked of Discord once)."""

from __future__ import annotations

from bot.core.faces import WebFace
from bot.core.games.records import GameRecord
from bot.web.activity.identity import ActivityDiscord, ActivityRefused

__all__ = ["TableGames"]


class TableGames:
    """The games the Activity's tables show, by channel, kept from the changes heard."""

    def __init__(self, services: WebFace, discord: ActivityDiscord) -> None:
        self._services = services
        self._discord = discord
        #: The game each channel changed last (the channel's game, without a read).
        self._games_of: dict[int, int] = {}
        #: Whether each DM the table ran in is the bot's own, by channel id.
        self._bots_dms: dict[int, bool] = {}
        #: The channels each ranked game is watched from (its players' places, where a page of
        #: theirs was drawn it), by game id.
        self._ranked_at: dict[int, set[int]] = {}

    def changed(self, channel_id: int, game_id: int) -> None:
        """Game ``game_id`` of ``channel_id`` changed (or was opened there): the channel's game
        now, unless it knows of a later one."""
        known = self._games_of.get(channel_id)
        if known is None or game_id >= known:
            self._games_of[channel_id] = game_id

    def watched_from(self, game_id: int) -> set[int]:
        """The channels a ranked game is watched from (its players' places)."""
        return self._ranked_at.get(game_id, set())

    async def channel_game(self, channel_id: int) -> GameRecord | None:
        """The channel's open game, else its last one (None: it never had one)."""
        pages = self._services.pages
        known = self._games_of.get(channel_id)
        record = None if known is None else await pages.record(known)
        if record is not None and record.is_open:
            return record
        found = await pages.open_game(channel_id) or await pages.last_game(channel_id)
        if found is not None:
            self._games_of[channel_id] = found.id
        return found

    async def ranked_game(self, channel_id: int, user_id: int) -> GameRecord | None:
        """The ranked game ``user_id`` plays from ``channel_id``, if any (their place's table
        shows it there, and so does their Activity; between two games of the match, the one
        just over, until the next is dealt): noted so its changes reach the page."""
        here = await self._services.which.ranked_game(channel_id, user_id)
        record = None if here is None else await self._services.pages.last_game(here)
        if record is not None:
            self._ranked_at.setdefault(record.id, set()).add(channel_id)
        return record

    async def reader_game(self, channel_id: int, user_id: int) -> GameRecord | None:
        """The game a reader's Activity in ``channel_id`` shows: their ranked game played from
        here, else the channel's."""
        return await self.ranked_game(channel_id, user_id) or await self.channel_game(channel_id)

    async def bots_dm(self, channel_id: int, guild_id: int | None, user_id: int) -> bool:
        """Whether ``channel_id`` is the bot's own DM (with ``user_id``), where no game is
        opened from the table, as ``/cribbage new`` is refused there. Asked of Discord once per
        channel (its trouble, noted in the log, leaves it unknown: asked again at the next
        look)."""
        if guild_id is not None or not user_id:
            return False
        known = self._bots_dms.get(channel_id)
        if known is None:
            try:
                known = await self._discord.bots_dm(channel_id, user_id)
            except ActivityRefused:
                return False
            self._bots_dms[channel_id] = known
        return known
