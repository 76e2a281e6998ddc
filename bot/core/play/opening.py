"""Opening a game and its lobby: who sits, computers added and removed, the deal, a cancel.

``/cribbage new`` opens a lobby in a channel (at most one open game per channel); players join
and leave by command or by the lobby's buttons, its creator seats computers from its menu, and
the game deals when every seat is taken and a seated player starts it (a rematch, as its
last seat is taken). A game against the computer is opened, seated and dealt in one
transaction. The rules of who may do what are in :mod:`bot.core.games.lobby`; this stores the
changes and answers.

A click on the lobby message is answered by updating it, and that look is kept with the
change; ``/cribbage new``'s answer is the lobby itself, kept as the game's message from the
start (its id comes once the answer is sent; until then its interaction's token reaches it).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Awaitable, Callable

from bot.core.base import refusals
from bot.core.base.delivery import AnswerKept
from bot.core.base.entry import answers
from bot.core.base.faults import UnreadableGame
from bot.core.base.keys import LOBBY
from bot.core.base.owners import Owner
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Clicked, Reply, Sequel, TableAsked, User
from bot.core.base.seating import BOT_DM_SEATING, CHANNEL_SEATING, Seating, shared_seating
from bot.core.base.store_errors import ChannelBusy
from bot.core.base.text import escape
from bot.core.base.views import ConfirmControls, MessageView
from bot.core.games import lobby
from bot.core.games.computer import LEVELS
from bot.core.games.endings import cancelled_note, closed_note
from bot.core.games.games import Games, Loaded, OnGames
from bot.core.games.lobby import partners_text
from bot.core.games.records import (
    GameRecord,
    GameStatus,
    Lesson,
    Match,
    NewGame,
    Occasion,
    Options,
    Round,
    SeatRecord,
)
from bot.core.games.series import continued_text
from bot.core.messages.answers import OpeningAnswer, lobby_answer
from bot.core.play.dealing import FirstDeals
from engine.variants import named

__all__ = ["Lobbies"]

#: A new game's table when nothing was asked: the standard game for two, to 121.
_ASKED_NOTHING = TableAsked()


class Lobbies(OnGames):
    """The lobby's calls: open, join, leave, add or remove a computer, start, cancel."""

    def __init__(self, games: Games, deals: FirstDeals, *, launch: bool = False) -> None:
        """``deals``: what deals a seated table; ``launch``: the Activity is on (the lobby
        offers *Play at the table*)."""
        self._games = games
        self._deals = deals
        self._launch = launch

    # -- opening --------------------------------------------------------------------------------
    @answers
    async def new_game(
        self,
        guild_id: int | None,
        channel_id: int,
        user: User,
        asked: TableAsked = _ASKED_NOTHING,
        *,
        token: str | None = None,
        private: bool = False,
        lesson: bool = False,
    ) -> Answer:
        """Open a game in this channel with ``user`` in the first seat, at the table ``asked``
        for (:func:`bot.core.games.lobby.options_of` makes its options, and refuses, in one
        sentence, what may not be asked; nothing asked: the standard game for two, to 121).

        Asked against the computer, every other seat is a computer player at the level asked
        and the game deals at once (in the transaction that opens it); otherwise a lobby opens
        (where the creator may add computers). ``token``: the interaction being answered, whose
        answer (the lobby) is the game's lobby message. ``private``: the bot is not a member
        where the game is (:mod:`bot.core.messages.private_table`): that message is its table
        throughout. ``lesson``: a first game of ``/cribbage learn``
        (:mod:`bot.core.play.lessons`).
        """
        options = lobby.options_of(asked)
        store = self._games.store
        # (The store keeps one open game a channel, whichever call or process writes first:
        # a second meets its unique index, ChannelBusy, refused in the same words.)
        if await store.open_game_in_channel(channel_id) is not None:
            raise Refused(refusals.CHANNEL_BUSY)
        now = self._games.now()
        creator = SeatRecord(0, user.id, user.name)
        opening = OpeningAnswer(channel_id, token, now, launch=self._launch)
        dealt: list[tuple[Loaded, int]] = []
        computer = options.vs_computer
        record = await store.create_game(
            NewGame(
                guild_id,
                channel_id,
                creator,
                options,
                seating=BOT_DM_SEATING if lesson else shared_seating(private),
                occasion=Lesson() if lesson else None,
            ),
            now=now,
            fill=(lambda r: lobby.fill_with_computers(r, asked.level)) if computer else None,
            deal=(lambda r: self._deals.for_opening(r, dealt)) if computer else None,
            answered=opening.kept,
        )
        self._deals.opened(record, dealt)
        return await opening.answer(self._games, record)

    async def open_seated(
        self,
        guild_id: int | None,
        channel_id: int,
        players: tuple[User, User],
        options: Options,
        *,
        occasion: Round | Match | None = None,
        seating: Seating = CHANNEL_SEATING,
    ) -> GameRecord:
        """Open a two-player game at the table ``options`` (a table for two) in ``channel_id``
        with both ``players`` seated and the first hand dealt, in one transaction, for its
        ``occasion`` (a tournament's pairing's round, in its thread; a ranked match's game, its
        ``seating`` each player's place apart). The channel's open
        game, if it is this one already (the same two seated, the same table, an occasion's
        as this is), is returned instead: a second call for the same pairing (after a
        restart) opens nothing more. Another game open there (someone's own
        ``/cribbage new`` in the thread) raises :class:`ChannelBusy`: it is not this one.
        The game is opened only by one conditional update of that ranked match or pairing as
        it was read (its version, its state, these two players), in the transaction that
        writes it (else :class:`~bot.core.base.store_errors.OccasionOver`: read again)."""
        # A variant and a length it offers for two, or its sentence, before anything is read.
        named(options.variant).check(2, options.target)
        store = self._games.store
        first, second = players
        found = await store.open_game_in_channel(channel_id)
        if found is not None:
            return self._ours(found, players, options, occasion)
        dealt: list[tuple[Loaded, int]] = []
        try:
            record = await store.create_game(
                NewGame(
                    guild_id,
                    channel_id,
                    SeatRecord(0, first.id, first.name),
                    options,
                    seating=seating,
                    occasion=occasion,
                ),
                now=self._games.now(),
                fill=lambda r: (*r.seats, SeatRecord(1, second.id, second.name)),
                deal=lambda r: self._deals.for_opening(r, dealt),
            )
        except ChannelBusy:
            # Opened meanwhile (the store keeps one open game a channel): this one, by a
            # call before (a process that sent before this one), or someone else's.
            found = await store.open_game_in_channel(channel_id)
            if found is None:
                raise
            return self._ours(found, players, options, occasion)
        self._deals.opened(record, dealt)
        await self._games.announce(record, record.version)
        return record

    @staticmethod
    def _ours(
        found: GameRecord,
        players: tuple[User, User],
        options: Options,
        occasion: Occasion,
    ) -> GameRecord:
        """The channel's open game ``found`` if it is the one :meth:`open_seated` opens (the
        same two seated, the same table, an occasion's as this is); else :class:`ChannelBusy`.
        """
        seated = [s.user_id for s in found.seats]
        # A game is an occasion's when it has one at all: its words are not compared, so a
        # release that words a round otherwise still finds the game it opened.
        ours = (found.occasion is None) == (occasion is None)
        table = (found.options.variant, found.options.target)
        asked = (options.variant, options.target)
        if seated != [players[0].id, players[1].id] or table != asked or not ours:
            raise ChannelBusy()
        return found

    # -- the lobby ------------------------------------------------------------------------------
    @answers
    async def join(self, channel_id: int, user: User) -> Answer:
        """Take a seat in the channel's lobby."""
        return await self._games.in_channel(channel_id, lambda r: self._join(r, user, None))

    @answers
    async def leave(self, channel_id: int, user: User) -> Answer:
        """Give up a seat in the lobby (the creator leaving closes the lobby)."""
        return await self._games.in_channel(channel_id, lambda r: self._leave(r, user, None))

    @answers
    async def start(self, channel_id: int, user: User) -> Answer:
        """Deal, when every seat is taken (any seated player may start)."""
        return await self._games.in_channel(channel_id, lambda r: self._start(r, user, None))

    @answers
    async def cancel(self, channel_id: int, user: User, *, moderator: bool = False) -> Answer:
        """End the game with no result, at once: in the lobby its creator or a moderator may;
        once the cards are dealt only a moderator (a player who wants out resigns, which is a
        loss). ``/cribbage cancel`` asks first once the cards are dealt: :meth:`ask_cancel`."""
        return await self._games.in_channel(
            channel_id, lambda r: self._cancel(r, user, moderator, None)
        )

    @answers
    async def ask_cancel(self, channel_id: int, user: User, *, moderator: bool = False) -> Answer:
        """``/cribbage cancel``: a lobby is cancelled at once; a game being played (a
        moderator's to cancel) asks first, privately, with Yes and No
        (:meth:`confirm_cancel`), and nothing changes yet."""

        async def body(record: GameRecord) -> Answer:
            if record.status is GameStatus.LOBBY:
                return await self._cancel(record, user, moderator, None)
            self._may_cancel(record, user, moderator)
            text = (
                "Cancel this game? It ends at once with no result: no winner, no game points, "
                "no change to anyone's rating. It can't be taken back."
            )
            controls = ConfirmControls(record.id, "cancel")
            return Answer.say(text, view=MessageView(text, controls=controls))

        return await self._games.in_channel(channel_id, body)

    @answers
    async def confirm_cancel(
        self, game_id: int, user: User, yes: bool, *, moderator: bool, guild_id: int | None
    ) -> Answer:
        """The answer to :meth:`cancel`'s question: Yes ends the game with no result (who may is
        asked again), No lets it go on; either way the question's message says so, without its
        buttons."""
        if not yes:
            return Answer.in_place("The game goes on.")

        async def body(record: GameRecord) -> Answer:
            answer = await self._cancel(record, user, moderator, None)
            return dataclasses.replace(answer, update=MessageView("Game cancelled."))

        return await self._games.by_id(game_id, body, user=user, guild_id=guild_id)

    @answers
    async def click(
        self,
        game_id: int,
        action: str,
        user: User,
        clicked: Clicked | None = None,
        *,
        guild_id: int | None,
        moderator: bool = False,
    ) -> Answer:
        """A lobby control: ``"join"``, ``"leave"``, ``"start"``, ``"cancel"``,
        ``"remove_computer"``, ``"partners"`` (the next pairing of a full table of teams),
        or ``"computer:<level>"`` from the "Add computer" menu; the answer updates the lobby
        message (``clicked``), and that look is kept with the change."""
        actions: dict[str, Callable[[GameRecord], Awaitable[Answer]]] = {
            "join": lambda r: self._join(r, user, clicked),
            "leave": lambda r: self._leave(r, user, clicked),
            "start": lambda r: self._start(r, user, clicked),
            "cancel": lambda r: self._cancel(r, user, moderator, clicked),
            "remove_computer": lambda r: self._remove_computer(r, user, clicked),
            "add_seat": lambda r: self._add_seat(r, user, clicked),
            "partners": lambda r: self._partners(r, user, clicked),
        }
        for level in LEVELS:
            actions[f"computer:{level}"] = functools.partial(
                self._add_computer, user=user, level=level, clicked=clicked
            )
        body = actions.get(action)
        if body is None:
            raise Refused(refusals.UNKNOWN_BUTTON)
        return await self._games.by_id(game_id, body, user=user, guild_id=guild_id)

    async def _join(self, record: GameRecord, user: User, clicked: Clicked | None) -> Answer:
        seats = lobby.seats_joining(record, user, self._games.now())
        # (The seat kept for them, or the one free: not always the last.)
        taken = next(s.seat for s in seats if s.user_id == user.id)
        text = f"You're in: seat {taken + 1} of {record.options.num_players}."
        return await self._seat_taken(record, seats, text, user, clicked)

    async def _leave(self, record: GameRecord, user: User, clicked: Clicked | None) -> Answer:
        seats = lobby.seats_leaving(record, user, self._games.now())
        if user.id == record.creator_id:
            line = closed_note(escape(user.name))
            return await self._close(record, line, "You left.", clicked)
        return await self._seats_changed(record, seats, "You left the game.", clicked)

    async def _add_computer(
        self, record: GameRecord, *, user: User, level: str, clicked: Clicked | None
    ) -> Answer:
        seats = lobby.seats_adding_computer(record, user, level, self._games.now())
        text = f"{seats[-1].name} takes seat {len(seats)}."
        return await self._seat_taken(record, seats, text, user, clicked)

    async def _remove_computer(
        self, record: GameRecord, user: User, clicked: Clicked | None
    ) -> Answer:
        seats, name = lobby.seats_removing_computer(record, user)
        return await self._seats_changed(record, seats, f"{name} left the table.", clicked)

    async def _add_seat(self, record: GameRecord, user: User, clicked: Clicked | None) -> Answer:
        players = lobby.seat_added(record, user)
        grown = dataclasses.replace(record.options, num_players=players)
        teams = " (two teams of partners)" if grown.rules.partners else ""
        text = f"The table now seats {players}{teams}: one seat is free, press **Join** to take it."
        return await self._seats_changed(record, list(record.seats), text, clicked, players=players)

    async def _partners(self, record: GameRecord, user: User, clicked: Clicked | None) -> Answer:
        seats = lobby.seats_changing_partners(record, user)
        text = (
            f"Partners now: {partners_text([escape(s.name) for s in seats], record.options.rules)}."
        )
        return await self._seats_changed(record, seats, text, clicked)

    async def _seat_taken(
        self,
        record: GameRecord,
        seats: list[SeatRecord],
        text: str,
        user: User,
        clicked: Clicked | None,
    ) -> Answer:
        """A seat taken by ``user`` (or, the opener's, by a computer): the lobby's new seats
        stored, and a rematch whose table this fills dealt at once, as ``user``'s *Start*
        would (:func:`~bot.core.games.lobby.deals_as_it_fills`); the answer says both."""
        if not lobby.deals_as_it_fills(record, seats, record.options.num_players):
            return await self._seats_changed(record, seats, text, clicked)
        # (The look a click is answered with is the deal's: the seats are stored without one.)
        seated = await self._games.reseat(record, seats)
        dealt = await self._start(seated, user, clicked)
        said = dataclasses.replace(dealt.reply, text=f"{text} {dealt.reply.text}")
        return dataclasses.replace(dealt, reply=said)

    async def _seats_changed(
        self,
        record: GameRecord,
        seats: list[SeatRecord],
        text: str,
        clicked: Clicked | None,
        *,
        players: int | None = None,
    ) -> Answer:
        """Store the lobby's new seats (and, with ``players``, the number it seats); a lobby
        button's answer is the lobby as it is now."""
        players = record.options.num_players if players is None else players
        options = dataclasses.replace(record.options, num_players=players)
        after = dataclasses.replace(
            record, seats=tuple(seats), options=options, version=record.version + 1
        )
        # (A rematch's lobby says the series it continues, while its people are the same.)
        series = await continued_text(self._games.store, after)
        answered = _answered(after, clicked, self._games.now(), self._launch, series)
        updated = await self._games.reseat(record, seats, answered, options=options)
        if sum(1 for seat in seats if not seat.held) == players:
            text += " The table is full: press Start to deal."
        return _lobby_changed(updated, text, answered is not None, self._launch, series)

    async def _start(self, record: GameRecord, user: User, clicked: Clicked | None) -> Answer:
        lobby.check_start(record, user)
        loaded, steps = await self._deals.dealt(record)
        after = dataclasses.replace(record, status=GameStatus.ACTIVE, version=record.version + 1)
        # The lobby keeps the series it continues once the game starts, as its tables say it:
        # read here only for a click on the lobby's Start, whose answer shows it (a rematch's
        # last seat taken deals at once, and a read between its seating and its deal would let
        # the full lobby be drawn on the way); else once the deal is saved.
        series = await continued_text(self._games.store, after) if clicked is not None else ""
        answered = _answered(after, clicked, self._games.now(), self._launch, series)
        await self._games.save_moves(loaded, steps, lambda _: answered)
        updated = await self._games.reread(record.id)
        if clicked is None:
            series = await continued_text(self._games.store, updated)
        text = (
            "Dealing — press **Your hand** on the table to see your cards."
            if record.seating.hands_beside_table
            else "Dealing — your hand is on its way by DM."
        )
        return _lobby_changed(updated, text, answered is not None, self._launch, series)

    async def _cancel(
        self, record: GameRecord, user: User, moderator: bool, clicked: Clicked | None
    ) -> Answer:
        self._may_cancel(record, user, moderator)
        theirs = user.id == record.creator_id or any(s.user_id == user.id for s in record.seats)
        who = escape(user.name) if theirs else None
        return await self._close(record, cancelled_note(who), "Game cancelled.", clicked)

    def _may_cancel(self, record: GameRecord, user: User, moderator: bool) -> None:
        """Refuse unless ``user`` may cancel ``record``'s game now."""
        # (Whether the game can be read matters outside servers only: read it there alone.)
        outside = record.guild_id is None
        unreadable = outside and not moderator and self._unreadable(record)
        lobby.check_cancel(record, user, moderator=moderator, unreadable=unreadable)

    def _unreadable(self, record: GameRecord) -> bool:
        """Whether ``record`` is a started game whose saved state cannot be read."""
        if record.status is GameStatus.LOBBY or record.snapshot is None:
            return False
        try:
            self._games.loaded.load(record)
        except UnreadableGame:
            return True
        return False

    async def _close(
        self, record: GameRecord, line: str, reply: str, clicked: Clicked | None
    ) -> Answer:
        after = dataclasses.replace(
            record, status=GameStatus.CANCELLED, version=record.version + 1, end_note=line
        )
        series = await continued_text(self._games.store, after)
        answered = _answered(after, clicked, self._games.now(), self._launch, series)
        updated = await self._games.close(record, GameStatus.CANCELLED, line, answered)
        return _lobby_changed(updated, reply, answered is not None, self._launch, series)


def _answered(
    after: GameRecord, clicked: Clicked | None, at: float, launch: bool, series: str = ""
) -> AnswerKept | None:
    """The lobby's look once a click on it is answered (None: not a click on the lobby)."""
    if clicked is None:
        return None
    return lobby_answer(after, clicked, at, launch=launch, series=series)


def _lobby_changed(
    record: GameRecord, text: str, kept: bool, launch: bool, series: str = ""
) -> Answer:
    """A change to the lobby: a lobby button's answer updates the lobby message itself (its
    look ``kept`` with the change); a slash command answers ``text``, and the lobby is
    brought up to date with the rest of the game's messages. ``series``: the line of the
    series the game continues (a rematch's, any status)."""
    view: MessageView = lobby.lobby_view(record, launch=launch, series=series)
    sequel = Sequel(Owner.game(record.id), record.channel_id, record.version, LOBBY, kept)
    return Answer(reply=Reply(text), update=view, sequel=sequel)
