"""The acts the core offers the outer layers: a command or a control, by a person in a place,
run on what it acts on for them there (:class:`~bot.core.which_game.WhichGame`), or refused
as that command would be. An outer layer translates an interaction into one call here and
composes no resolver of its own: each act holds its :class:`~bot.core.base.places.Ask`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.core.base.places import BUTTON_ASKS, Ask, Place, PlaceKind, Resolved
from bot.core.base.replies import Answer, Choice, Clicked, TableAsked, User
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
        self._moves = play.moves
        self._lobbies = play.lobbies
        self._rematches = play.rematches
        self._table = play.table
        self._standings = standings
        self._daily = daily
        self._ranked = ranked

    # -- the game commands: on the game they act on for the person here ---------------------

    async def _on_the_game(
        self, ask: Ask, place: Place, user: User, call: Callable[[int], Awaitable[Answer]]
    ) -> Answer:
        """``call`` on the channel of the game ``ask`` acts on for ``user`` here."""

        async def act(found: Resolved) -> Answer:
            return await call(found.channel_id)

        return await self._which.run(ask, place, user.id, act)

    async def _moved(
        self, ask: Ask, place: Place, user: User, move: Callable[[int, bool], Awaitable[Answer]]
    ) -> Answer:
        """A move by command: ``move`` on the game's channel, and whether its answer copies
        the mover's hand (not where it was typed beside that hand: the bot's DM, where it
        came)."""

        async def act(found: Resolved) -> Answer:
            return await move(found.channel_id, not found.beside_hand)

        return await self._which.run(ask, place, user.id, act)

    async def new(
        self, place: Place, user: User, asked: TableAsked, *, token: str | None
    ) -> Answer:
        """``/cribbage new``: a game opened here, ``user`` in its first seat, its lobby the
        answer (``token``: the command's, which carries the table where the bot is not a
        member, a private table)."""
        lobbies = self._lobbies

        async def act(found: Resolved) -> Answer:
            return await lobbies.new_game(
                place.guild_id,
                found.channel_id,
                user,
                asked,
                token=token,
                private=not place.bot_member,
            )

        return await self._which.run(Ask.NEW, place, user.id, act)

    async def join(self, place: Place, user: User) -> Answer:
        """``/cribbage join``: a seat in the lobby."""
        lobbies = self._lobbies
        return await self._on_the_game(Ask.JOIN, place, user, lambda ch: lobbies.join(ch, user))

    async def leave(self, place: Place, user: User) -> Answer:
        """``/cribbage leave``: the seat given up before the deal."""
        lobbies = self._lobbies
        return await self._on_the_game(Ask.LEAVE, place, user, lambda ch: lobbies.leave(ch, user))

    async def start(self, place: Place, user: User) -> Answer:
        """``/cribbage start``: the first hand dealt once every seat is taken."""
        lobbies = self._lobbies
        return await self._on_the_game(Ask.START, place, user, lambda ch: lobbies.start(ch, user))

    async def cancel(self, place: Place, user: User) -> Answer:
        """``/cribbage cancel``: asked first (its creator in the lobby, a moderator at any
        time)."""
        lobbies, moderator = self._lobbies, place.moderator
        return await self._on_the_game(
            Ask.CANCEL, place, user, lambda ch: lobbies.ask_cancel(ch, user, moderator=moderator)
        )

    async def resign(self, place: Place, user: User) -> Answer:
        """``/cribbage resign``: asked first."""
        moves = self._moves
        return await self._on_the_game(
            Ask.RESIGN, place, user, lambda ch: moves.ask_resign(ch, user)
        )

    async def status(self, place: Place, user: User, *, public: bool) -> Answer:
        """``/cribbage status``: the table, privately unless ``public``."""
        table = self._table
        return await self._on_the_game(
            Ask.STATUS, place, user, lambda ch: table.status(ch, public=public)
        )

    async def discard(self, place: Place, user: User, cards: str) -> Answer:
        """``/cribbage discard``: cards thrown to the crib."""
        moves = self._moves
        return await self._moved(
            Ask.DISCARD, place, user, lambda ch, copy: moves.discard(ch, user, cards, mirror=copy)
        )

    async def play(self, place: Place, user: User, card: str) -> Answer:
        """``/cribbage play``: a card played in the pegging."""
        moves = self._moves
        return await self._moved(
            Ask.PLAY, place, user, lambda ch, copy: moves.play(ch, user, card, mirror=copy)
        )

    async def count(self, place: Place, user: User, points: int) -> Answer:
        """``/cribbage count``: a hand's count claimed, with manual counting."""
        moves = self._moves
        return await self._moved(
            Ask.COUNT, place, user, lambda ch, copy: moves.count(ch, user, points, mirror=copy)
        )

    # -- controls and the rest ---------------------------------------------------------------

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

    async def rematch_on_hand(
        self, user: User, game_id: int, cannot_post: Callable[[int, int | None], str | None]
    ) -> Answer:
        """*Rematch* (or *Play again*) on ``user``'s last hand of game ``game_id``, by DM: the
        rematch opened at the game's table (:meth:`Rematches.press_on_hand
        <bot.core.play.rematch.Rematches.press_on_hand>`), refused where the bot may no longer
        post there (``cannot_post(channel_id, guild_id)``: its sentence, or None) or where
        ``/cribbage new`` there would be refused them (their ranked match)."""
        which = self._which

        async def refusal(channel_id: int, guild_id: int | None) -> str | None:
            lacking = cannot_post(channel_id, guild_id)
            if lacking is not None:
                return lacking
            return await which.seat_refusal(channel_id, guild_id, user.id)

        return await self._rematches.press_on_hand(game_id, user, refusal)

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
