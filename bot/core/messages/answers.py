"""What a person's move or lobby click shows them, as it is saved.

A move says what happened (who moved, from which hand message, with which click); this module
says what that means for the messages: a move made from a hand message is answered by updating
that message, and its new look is kept with the move (an
:class:`~bot.core.base.delivery.AnswerKept`, of which the ledger and the store make their
records), so whatever sends the game's messages never draws it from before the move; a move by
command is answered with the mover's hand as it is now, a private copy of their hand message
that the command's token keeps up to date (its controls come with the first edit, once the copy
is written down). A lobby's control (or the command that opened it) is answered with the lobby,
kept likewise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from bot.core.base.delivery import AnswerKept
from bot.core.base.keys import LOBBY, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, Clicked, Reply, Sequel
from bot.core.base.views import MessageView, laid_out
from bot.core.games.games import Games, Loaded
from bot.core.games.lobby import lobby_view
from bot.core.games.records import GameRecord
from bot.core.messages.projection import hand_message
from engine.phase import Phase

__all__ = ["Answering", "MoveAnswer", "OpeningAnswer", "lobby_answer", "private_copy"]


@dataclass(frozen=True, slots=True)
class Answering:
    """A move made from a hand message: the deal it is the hand of, (when the caller gave
    it) the click, whose answer is kept with the move, and the version of the look the click
    was made on, when its control names it (``AnswerKept.seen``)."""

    deal: int
    clicked: Clicked | None = None
    seen: int | None = None


class MoveAnswer:
    """What the move of ``seat`` in ``record``'s game shows its mover: drawn by :meth:`kept`
    as the move is saved (the look kept with it), then said by :meth:`answer`.

    ``answering``: the hand message whose control was used. ``mirror``: a move by command,
    answered with the mover's hand (not at a private table, where hands are the players' own
    copies). ``coach_off``: the people who turned the coach off. ``now``: the core's clock."""

    def __init__(
        self,
        record: GameRecord,
        seat: int | None,
        coach_off: frozenset[int],
        *,
        answering: Answering | None,
        mirror: bool,
        now: Callable[[], float],
    ) -> None:
        self._record = record
        self._seat = seat
        self._coach_off = coach_off
        self._answering = answering if seat is not None else None
        self._mirror = mirror and seat is not None and not record.seating.tokens_only
        self._now = now
        # Drawn as the move is saved, each with its key: the clicked hand's new look; the
        # mover's hand now.
        self._update: tuple[MessageKey, MessageView] | None = None
        self._hand: tuple[MessageKey, MessageView] | None = None

    @staticmethod
    def asks_coach(record: GameRecord, answering: Answering | None, mirror: bool) -> bool:
        """Whether the answer shows a hand (then the coach settings of the people are read)."""
        return answering is not None or (mirror and not record.seating.tokens_only)

    def kept(self, saved: Loaded) -> AnswerKept | None:
        """Draw the answer on the game as saved; the record of the click's answer to keep
        with the move (None: no click to answer, or none known)."""
        seat = self._seat
        if seat is None:
            return None
        if self._mirror and saved.game.state.phase is not Phase.OVER:
            deal = saved.game.state.deal_number
            self._hand = (MessageKey.hand(deal, seat), self._hand_of(saved, deal))
        answering = self._answering
        if answering is None:
            return None
        key = MessageKey.hand(answering.deal, seat)
        update = self._update = (key, self._hand_of(saved, answering.deal))
        if answering.clicked is None:
            return None
        return AnswerKept(
            key,
            answering.clicked,
            update[1].digest(),
            saved.record.version,
            self._now(),
            seen=answering.seen,
        )

    def answer(self, said: str, owner: Owner, version: int, *, computer_owes: bool) -> Answer:
        """The answer to the mover, saying ``said``, once the move was saved at ``version``
        (``owner``: whose messages the mover is shown)."""
        update = self._update
        clicked = self._answering is not None and self._answering.clicked is not None
        sequel = Sequel(
            owner,
            self._record.channel_id,
            version,
            key=None if update is None else update[0],
            kept=clicked and update is not None,
            computer_owes=computer_owes,
        )
        if self._hand is not None:
            key, view = self._hand
            shown = private_copy(laid_out(((said,), *view.layout), controls=view.controls))
            sequel = dataclasses.replace(sequel, key=key, mirror=shown.digest())
            return Answer(reply=Reply(said, view=shown), sequel=sequel)
        return Answer(
            reply=Reply(said), update=None if update is None else update[1], sequel=sequel
        )

    def _hand_of(self, saved: Loaded, deal: int) -> MessageView:
        assert self._seat is not None
        user = self._record.seats[self._seat].user_id
        return hand_message(
            saved, self._seat, deal, coach=user is None or user not in self._coach_off
        )


def private_copy(view: MessageView) -> MessageView:
    """What answers a command with a private copy of the player's hand (a move by command,
    ``/cribbage hand``): ``view`` without its controls. They come with the keeper's first edit
    of the copy, once it is written down (``Copies.mirrored``): an answer that carried them
    would show them on Discord before the bot heard it land, and a bot killed in between would
    never know the copy, which then offered used controls until its token lapsed. The edit
    draws the hand as it is, controls and all."""
    return dataclasses.replace(view, controls=None)


def lobby_answer(
    record: GameRecord, reached: Clicked, at: float, *, launch: bool, series: str = ""
) -> AnswerKept:
    """The lobby message as an interaction's answer shows it: ``record``'s lobby (``series``:
    the line of the series a rematch's lobby continues), reachable through the interaction's
    token from ``at`` (the message's id is 0 until the answer tells it)."""
    view = lobby_view(record, launch=launch, series=series)
    return AnswerKept(LOBBY, reached, view.digest(), record.version, at)


class OpeningAnswer:
    """The answer to the interaction that opens a game (``/cribbage new``, a result's
    *Rematch*): the lobby itself, in the channel (closed already where the game deals at
    once), kept as the game's message from the start, reached through the interaction's
    ``token`` (None: no interaction answers with it; the keeper posts it). ``series``: the
    line of the series a rematch's lobby says, from the game as opened."""

    def __init__(
        self,
        channel_id: int,
        token: str | None,
        at: float,
        *,
        launch: bool,
        series: Callable[[GameRecord], str] = lambda _: "",
    ) -> None:
        self._channel_id = channel_id
        self._token = token
        self._at = at
        self._launch = launch
        self._series = series
        self._kept: AnswerKept | None = None

    def kept(self, record: GameRecord) -> AnswerKept | None:
        """The lobby's look as the answer shows it, kept with the game as it opens (for the
        store's ``create_game``)."""
        if self._token is None:
            return None
        clicked = Clicked(self._channel_id, 0, self._token)
        series = self._series(record)
        self._kept = lobby_answer(record, clicked, self._at, launch=self._launch, series=series)
        return self._kept

    async def answer(self, games: Games, record: GameRecord) -> Answer:
        """The game opened as ``record``, announced (the ledger told first of the answer kept
        with it, so it knows it is this process's to send: nothing edits it through its token
        before it has landed), and the answer."""
        await games.announce(record, record.version, answered=self._kept)
        view = lobby_view(record, launch=self._launch, series=self._series(record))
        sequel = Sequel(Owner.game(record.id), record.channel_id, record.version, key=LOBBY)
        return Answer(reply=Reply(view.content, ephemeral=False, view=view), sequel=sequel)
