"""*Deal everyone in*: a lobby's table made the one that seats everyone who has it open, and
dealt (the Activity's, where Discord says who has the table open). Who sits where, at which
table, and what is refused are :mod:`bot.core.games.everyone`'s; the deal is the lobby's own
*Start* (:class:`~bot.core.play.opening.Lobbies`), with its answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.core.base.entry import answers
from bot.core.base.replies import Answer, User
from bot.core.games import everyone
from bot.core.games.games import Games, OnGames
from bot.core.games.records import GameRecord
from bot.core.play.opening import Lobbies

__all__ = ["DealingIn"]


class DealingIn(OnGames):
    """Seats everyone at a lobby's table and deals."""

    def __init__(self, games: Games, lobbies: Lobbies) -> None:
        self._games = games
        self._lobbies = lobbies

    @answers
    async def deal_in(
        self, game_id: int, user: User, people: Sequence[User], *, guild_id: int | None
    ) -> Answer:
        """``user`` (the lobby's creator) seats ``people`` (those who have the table open, as
        Discord names them; the seated ones keep their seats) at game ``game_id``'s lobby,
        made the table that seats them all, and deals: the answer is the deal's (*Start*'s),
        or the one sentence that refused it."""

        async def seat(record: GameRecord) -> GameRecord:
            chosen = everyone.seats_everyone(record, user, people)
            table = chosen.table
            options = dataclasses.replace(
                record.options,
                num_players=table.players,
                target=table.target,
                scoring=chosen.scoring,
                variant=table.variant.name,
            )
            return await self._games.reseat(record, chosen.seats, options=options)

        await self._games.by_id(game_id, seat, user=user, guild_id=guild_id)
        # (A player who left in between is said by Start's own refusal: "Waiting for 1 more
        # player"; the table stays seated for the rest.)
        return await self._lobbies.click(game_id, "start", user, guild_id=guild_id)
