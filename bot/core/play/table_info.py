"""What a person may look at in a channel's game without moving: their hand (privately, with
its controls), the table with its board picture, and the autocomplete of the card options.

Nothing here changes a game. The hand is drawn from that seat's view and the table from the
public view only, so a hidden card cannot reach anyone else.
"""

from __future__ import annotations

import asyncio
import dataclasses

from bot.core.base import refusals
from bot.core.base.entry import answers
from bot.core.base.faults import Fault
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Choice, Reply, Sequel, User
from bot.core.base.views import MessageView, Style
from bot.core.games import archive, lobby
from bot.core.games.chances import chances_line, start_of_deal_chances
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games, Loaded, OnGames
from bot.core.games.records import GameRecord, GameStatus
from bot.core.games.storage import Archives
from bot.core.messages.answers import private_copy
from bot.core.messages.projection import board_of, hand_view
from bot.core.messages.prompts import discard_completions, play_completions
from bot.core.messages.status import ended_without_result_text, last_result_text, status_text
from engine.phase import Phase
from engine.views import SeatView

__all__ = ["TableInfo"]


class TableInfo(OnGames):
    """Private and public looks at a channel's game."""

    def __init__(self, games: Games, coach: CoachSettings, archives: Archives) -> None:
        self._games = games
        self._coach = coach
        self._archives = archives

    @answers
    async def hand(self, channel_id: int, user: User) -> Answer:
        """The user's hand, privately, with the controls for what they can do now: at a
        server's game a copy of their hand message (by DM); at a private table, or a ranked
        game, that seat's hand message itself from then on (as its *Your hand* opens it)."""

        async def body(record: GameRecord) -> Answer:
            if record.seating.tokens_only:
                return await self._own(record, user)
            loaded, seat, view = await self._hand_of(record, user)
            deal = loaded.game.state.deal_number
            if loaded.game.state.phase is Phase.OVER:
                return Answer.say(view.content, view=view)
            # A private copy of their hand message, kept up to date while the command's token
            # lives (the players whose DMs are closed play from it).
            shown = private_copy(view)
            sequel = Sequel(
                Owner.game(record.id),
                record.channel_id,
                record.version,
                MessageKey.hand(deal, seat),
                mirror=shown.digest(),
            )
            return Answer(reply=Reply(view.content, view=shown), sequel=sequel)

        return await self._games.in_channel(channel_id, body)

    @answers
    async def own_hand(self, game_id: int, user: User, *, guild_id: int | None) -> Answer:
        """A private table's *Your hand*: the clicker's hand of the current deal, privately,
        with its controls; the message that answers is that seat's hand message from then on
        (its key and the game's version are in the answer's sequel)."""

        return await self._games.by_id(
            game_id, lambda r: self._own(r, user), user=user, guild_id=guild_id
        )

    async def _hand_of(self, record: GameRecord, user: User) -> tuple[Loaded, int, MessageView]:
        """``user``'s seat at the game and their hand there, coached as they chose."""
        loaded, seat = self._games.loaded.seated(record, user)
        coach = user.id not in await self._coach.off([user.id])
        return loaded, seat, hand_view(loaded, seat, coach=coach)

    async def _own(self, record: GameRecord, user: User) -> Answer:
        if not record.seating.tokens_only:
            # Only a private table has the button (a forged click on a server's game: its
            # hands are the players' DMs).
            raise Refused(refusals.UNKNOWN_BUTTON)
        loaded, seat, view = await self._hand_of(record, user)
        deal = loaded.game.state.deal_number
        sequel = Sequel(
            self._games.owner_at(record, seat),
            record.channel_id,
            record.version,
            MessageKey.hand(deal, seat),
        )
        return Answer(reply=Reply(view.content, view=view), sequel=sequel)

    @answers
    async def status(self, channel_id: int, *, public: bool = False) -> Answer:
        """The table: the board picture, dealer, phase, turn, count and series; privately
        unless ``public``. When the place's last game is over (finished, cancelled or expired),
        how it ended."""
        store = self._games.store
        record = await store.open_game_in_channel(channel_id)
        if record is None:
            record = await store.last_game_in_channel(channel_id)
        if record is None:
            raise Refused(refusals.NO_GAME)
        ranked = record.in_match
        if record.status in (GameStatus.CANCELLED, GameStatus.EXPIRED):
            text = ended_without_result_text(
                record.end_note, ranked=ranked, lesson=record.in_lesson
            )
            return Answer.say(text, ephemeral=not public)
        if record.status is GameStatus.LOBBY:
            view = MessageView(lobby.lobby_view(record).content)
        else:
            loaded = await self._finished_or_loaded(record)
            table = loaded.game.public_view()
            board = board_of(loaded.log, table)
            if record.status is GameStatus.FINISHED:
                ended = record.ended(loaded.game)
                text = last_result_text(table, ended, ranked=ranked, lesson=record.in_lesson)
            else:
                text = status_text(table)
                odds = start_of_deal_chances(table)
                if odds is not None:
                    # Before anything is scored in a deal, the expert's table applies as is.
                    board = dataclasses.replace(board, chances=odds)
                    text += "\n" + chances_line([board.sides[0], board.sides[1]], odds)
            # The board inside the answer, with the words above it (Components V2).
            view = MessageView(text, board=board, style=Style.PANEL)
        return Answer.say(view.content, ephemeral=not public, view=view)

    async def _finished_or_loaded(self, record: GameRecord) -> Loaded:
        """The game of ``record``: from its snapshot, or, for a game pruned since it finished,
        replayed from its archive record (on a worker thread: a replay is a whole game)."""
        if record.snapshot is not None:
            return self._games.loaded.load(record)
        kept = await self._archives.archived(record.id)
        if kept is None:
            raise Refused(refusals.NO_GAME)
        found = await asyncio.to_thread(archive.restore, kept)
        return Loaded(record, found.game, found.tally, found.log, found.shuffles, found.seeds)

    async def _seat_view(self, channel_id: int, user_id: int) -> SeatView | None:
        record = await self._games.store.open_game_in_channel(channel_id)
        if record is None or record.status is not GameStatus.ACTIVE:
            return None
        seat = record.seat_of(user_id)
        if seat is None:
            return None
        return self._games.loaded.load(record).game.view(seat)

    async def _seat_view_or_none(self, channel_id: int, user_id: int) -> SeatView | None:
        """:meth:`_seat_view`, or None when the game cannot be read or the store fails
        (noted once; the command itself says why when it is sent)."""
        try:
            return await self._seat_view(channel_id, user_id)
        except Fault as fault:
            self.faults.note(fault)
            return None

    async def autocomplete_discard(
        self, channel_id: int, user_id: int, current: str
    ) -> list[Choice]:
        """The user's cards matching what they typed (empty when they have nothing to discard).

        Cards already typed in full stay in front, so ``"5H J"`` offers ``"5H JD"``,
        ``"5H JC"`` and so on.
        """
        view = await self._seat_view_or_none(channel_id, user_id)
        return [] if view is None else discard_completions(view, current)

    async def autocomplete_play(self, channel_id: int, user_id: int, current: str) -> list[Choice]:
        """Only the cards the user may legally play now (empty when it is not their turn)."""
        view = await self._seat_view_or_none(channel_id, user_id)
        return [] if view is None else play_completions(view, current)
