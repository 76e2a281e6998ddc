"""The acts the core offers the outer layers: a command or a control, by a person in a place,
run on what it acts on for them there (:class:`~bot.core.which_game.WhichGame`), or refused
as that command would be. An outer layer translates an interaction into one call here and
composes no resolver of its own: each act holds its :class:`~bot.core.base.places.Ask`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.places import BUTTON_ASKS, Ask, Place, PlaceKind, Resolved
from bot.core.base.replies import Answer, Choice, Clicked, User
from bot.core.base.views import Pool
from bot.core.daily.daily import DailyDiscard
from bot.core.play.wing import GamesWing
from bot.core.ranked.ranked import Ranked
from bot.core.standings.standings import Standings
from bot.core.which_game import WhichGame

__all__ = ["Acts"]


class Acts:
    """What a person's command or control does where they are (see the module)."""

    def __init__(
        self,
        which: WhichGame,
        play: GamesWing,
        standings: Standings,
        daily: DailyDiscard,
        ranked: Ranked,
    ) -> None:
        """``play``: the games' parts (their lobbies, rematches and tables)."""
        self._which = which
        self._lobbies = play.lobbies
        self._rematches = play.rematches
        self._table = play.table
        self._standings = standings
        self._daily = daily
        self._ranked = ranked

    async def lobby_click(
        self,
        place: Place,
        user: User,
        game_id: int,
        action: str,
        clicked: Clicked | None,
        *,
        moderator: bool,
    ) -> Answer:
        """A lobby's control (Join, Leave, Start, Cancel...) on game ``game_id``: Join refused
        where ``/cribbage join`` would be (where the clicker's ranked match is)."""
        lobbies, guild_id = self._lobbies, place.guild_id

        async def act(_: Resolved) -> Answer:
            return await lobbies.click(
                game_id, action, user, clicked, guild_id=guild_id, moderator=moderator
            )

        return await self._which.run(BUTTON_ASKS.get(action), place, user.id, act)

    async def rematch(self, place: Place, user: User, game_id: int, *, token: str) -> Answer:
        """*Rematch* (or *Play again*) on game ``game_id``'s result: refused where
        ``/cribbage new`` would be; where the bot is not a member, the answer is the table
        throughout."""
        rematches = self._rematches

        async def act(found: Resolved) -> Answer:
            return await rematches.press(
                game_id,
                user,
                guild_id=place.guild_id,
                channel_id=found.channel_id,
                token=token,
                private=not place.bot_member,
            )

        return await self._which.run_rematch(place, user.id, act)

    async def hand(self, place: Place, user: User) -> Answer:
        """``/cribbage hand``: the person's hand in the game it acts on for them here."""
        table = self._table

        async def act(found: Resolved) -> Answer:
            return await table.hand(found.channel_id, user)

        return await self._which.run(Ask.HAND, place, user.id, act)

    async def offer_discard(self, place: Place, user_id: int, typed: str) -> list[Choice]:
        """``/cribbage discard``'s cards offered as typed, in the game it acts on here."""
        return await self._which.offered(
            Ask.DISCARD, place, user_id, typed, self._table.autocomplete_discard
        )

    async def offer_play(self, place: Place, user_id: int, typed: str) -> list[Choice]:
        """``/cribbage play``'s card offered as typed, in the game it acts on here."""
        return await self._which.offered(
            Ask.PLAY, place, user_id, typed, self._table.autocomplete_play
        )

    async def leaderboard_page(
        self, place: Place, user_id: int, *, table: Pool, page: int, variant: str
    ) -> Answer:
        """A leaderboard's Previous, Next or other-table button: that page (where
        ``/cribbage leaderboard`` works: a server)."""
        standings = self._standings

        async def act(found: Resolved) -> Answer:
            return await standings.leaderboard(
                found.server_id, table=table, page=page, variant=variant
            )

        return await self._which.run(Ask.LEADERBOARD, place, user_id, act)

    async def daily_choose(
        self, place: Place, user: User, stamp: str, cards: Sequence[str]
    ) -> Answer:
        """The discard of the day chosen (where ``/cribbage daily`` works: a server)."""
        daily = self._daily

        async def act(found: Resolved) -> Answer:
            return await daily.choose(found.guild_id, user, stamp, cards)

        return await self._which.run(Ask.DAILY, place, user.id, act)

    async def ranked_play(
        self, place: Place, user: User, *, avatar: str | None, token: str | None
    ) -> Answer:
        """``/cribbage ranked play``, or *Find a ranked match*: the person joins the queue
        from where they are, refused where the command would be."""
        ranked = self._ranked

        async def act(found: Resolved) -> Answer:
            return await ranked.play(
                user,
                avatar=avatar,
                guild_id=found.guild_id,
                channel_id=found.channel_id,
                place=PlaceKind.of(place),
                token=token,
            )

        return await self._which.run(Ask.RANKED_PLAY, place, user.id, act)
