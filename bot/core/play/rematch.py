"""*Rematch* (or *Play again*) pressed on a game's result: the game opened again at its table.

The first press of one of the game's people opens the rematch (the options and seats of the
game before: :func:`bot.core.games.series.seats_again`), seating them and keeping every
other person's seat for them; against the computer it is dealt at once, as ``/cribbage new
vs_computer:True`` is. Its answer is the new lobby, in the channel (a message of its own: the
result stays as it was). Each other person then takes their seat with one press, of *Rematch*
on the result or *Join* on the lobby, and the press that fills the table deals it
(:func:`bot.core.games.lobby.deals_as_it_fills`): one press each, no *Start*.

A player's last hand message of the game, by DM, offers the same button
(:meth:`Rematches.press_on_hand`): pressed there, the rematch opens at the table all the same,
its lobby posted by the bot (as for the press of the table inside Discord), and the presser
is told privately where it is.

A press that cannot open it gets one sentence and changes nothing: the game offers no
rematch (:func:`~bot.core.games.series.no_rematch`), the presser did not play in it, they are
in the rematch already, it has started, or the table has moved on (a game was opened there
since). Never two lobbies: the store opens a rematch only while the game it replays is the
last one opened at its table and has none yet, in the transaction that opens it (two
processes pressing at once: one opens it, the other's press takes a seat in it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable

from bot.core.base import refusals
from bot.core.base.entry import answers
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Reply, User
from bot.core.base.seating import shared_seating
from bot.core.base.store_errors import ChannelBusy
from bot.core.games.games import Games, Loaded, OnGames
from bot.core.games.records import GameRecord, GameStatus, NewGame, SeatRecord
from bot.core.games.series import again_of, continued_said, no_rematch, seats_again
from bot.core.messages.answers import OpeningAnswer
from bot.core.play.dealing import FirstDeals
from bot.core.play.opening import Lobbies

__all__ = ["Rematches", "TableRefusal"]

#: Why a person may not open or join a game at a table (its channel, its server: None outside
#: servers), as the caller that knows the place tells it: the bot may no longer post there,
#: or their ranked match is played there. None: they may.
TableRefusal = Callable[[int, int | None], Awaitable[str | None]]

#: The refusals of a player's press that speak of the rematch open at the table (they are in
#: it, or it has started): pressed by DM, they say where it is.
_ABOUT_THE_REMATCH = (refusals.REMATCH_SEATED, refusals.REMATCH_STARTED)


class Rematches(OnGames):
    """A result's *Rematch* and *Play again*."""

    def __init__(
        self, games: Games, deals: FirstDeals, lobbies: Lobbies, *, launch: bool = False
    ) -> None:
        """``deals``: what deals a rematch against the computer as it opens; ``lobbies``: where
        a person takes their seat in a rematch opened already; ``launch``: the Activity is on
        (the lobby offers *Play at the table*)."""
        self._games = games
        self._deals = deals
        self._lobbies = lobbies
        self._launch = launch

    @answers
    async def press(
        self,
        game_id: int,
        user: User,
        *,
        guild_id: int | None,
        channel_id: int,
        token: str | None = None,
        private: bool = False,
    ) -> Answer:
        """``user`` pressed *Rematch* on game ``game_id``'s result, in ``channel_id`` of the
        server ``guild_id`` (None: outside servers). ``token``: the interaction, whose answer
        (the new lobby) is the rematch's lobby message; ``private``: the bot is not a member
        there (:mod:`bot.core.messages.private_table`)."""
        before = await self._games.record(game_id)
        if before is None:
            raise Refused(refusals.UNKNOWN_GAME)
        if guild_id is not None and before.guild_id is not None and guild_id != before.guild_id:
            raise Refused(refusals.OTHER_SERVER)
        if channel_id != before.channel_id:
            raise Refused(refusals.OTHER_CHANNEL)
        why = no_rematch(before)
        if why is not None:
            raise Refused(why)
        found = await self._open(before, user, token, private)
        if isinstance(found, Answer):
            return found
        # The rematch is open: the press takes the presser's seat in it, as Join does.
        return await self._lobbies.click(found.id, "join", user, guild_id=guild_id)

    @answers
    async def press_on_hand(self, game_id: int, user: User, refusal: TableRefusal) -> Answer:
        """``user`` pressed *Rematch* (or *Play again*) on their last hand message of game
        ``game_id``, by DM, away from its table: pressed as on its result (:meth:`press`), at
        the table, where no interaction carries the lobby (the keeper posts it with the
        bot's own token), and answered privately with where the rematch is. Refused, in a
        sentence, as on the result, and too where the game's hands are beside its table
        (its table offers the button), where the presser has left its server, or where
        ``refusal`` says why not at its table."""
        before = await self._games.record(game_id)
        if before is None or before.seating.hands_beside_table:
            raise Refused(refusals.UNKNOWN_GAME)
        why = no_rematch(before)
        if why is not None:
            raise Refused(why)
        if before.seat_of(user.id) is None:
            raise Refused(refusals.REMATCH_NOT_PLAYED)
        guild_id, channel_id = before.guild_id, before.channel_id
        # (A click by DM carries no server: whether they are still in it is asked.)
        if guild_id is not None and not await self._games.departures.is_member(guild_id, user.id):
            raise Refused(refusals.LEFT_SERVER)
        why = await refusal(channel_id, guild_id)
        if why is not None:
            raise Refused(why)
        answer = await self.press(game_id, user, guild_id=guild_id, channel_id=channel_id)
        if not answer.ok:
            if answer.reply.text not in _ABOUT_THE_REMATCH:
                return answer
            # (Said away from the table: where the rematch they are told of is, too.)
            return Answer.refuse(f"{answer.reply.text} It's in <#{channel_id}>.")
        if answer.reply.ephemeral:
            # Their kept seat taken in the rematch opened already: what Join says, and where.
            said = f"{answer.reply.text} The rematch is in <#{channel_id}>."
        elif again_of(before) == "again":
            said = f"Dealt again in <#{channel_id}>: your hand is on its way by DM."
        else:
            said = (
                f"Rematch opened in <#{channel_id}>, your seat taken: the cards are dealt as "
                "the others take theirs."
            )
        # (Never an update: the hand message pressed stays as it is.)
        return dataclasses.replace(answer, reply=Reply(said), update=None)

    async def _open(
        self, before: GameRecord, user: User, token: str | None, private: bool
    ) -> Answer | GameRecord:
        """The rematch opened (its answer), or the rematch open already (the presser takes a
        seat in it), or the sentence why neither (the store opens one rematch of a game, and
        one open game a channel, whichever press or process writes first)."""
        store = self._games.store
        last = await store.last_game_in_channel(before.channel_id)
        if last is not None and last.id != before.id:
            return _opened_already(before, last, user)
        if before.seat_of(user.id) is None:
            raise Refused(refusals.REMATCH_NOT_PLAYED)
        rows = await store.series_results(before.id)
        now = self._games.now()
        opening = OpeningAnswer(
            before.channel_id,
            token,
            now,
            launch=self._launch,
            # (Against the computer it is dealt at once: its lobby, closed, says it too.)
            series=lambda record: continued_said(record, rows),
        )
        alone = again_of(before) == "again"
        last_results = [row for row in rows if row.game_id == before.id]
        dealt: list[tuple[Loaded, int]] = []
        try:
            record = await store.create_game(
                NewGame(
                    before.guild_id,
                    before.channel_id,
                    SeatRecord(0, user.id, user.name),
                    before.options,
                    seating=shared_seating(private),
                    rematch_of=before.id,
                ),
                now=now,
                fill=lambda _: seats_again(before, user, now),
                # Against the computer it deals at once, the loser of the game before first.
                deal=(lambda r: self._deals.for_opening(r, dealt, last_results)) if alone else None,
                answered=opening.kept,
            )
        except ChannelBusy:
            # Another process opened it first, or a game was opened here meanwhile.
            last = await store.last_game_in_channel(before.channel_id)
            if last is None or last.id == before.id:
                raise
            return _opened_already(before, last, user)
        self._deals.opened(record, dealt)
        return await opening.answer(self._games, record)


def _opened_already(before: GameRecord, last: GameRecord, user: User) -> GameRecord:
    """The rematch ``last`` of ``before``, open for ``user`` to take a seat in; else the
    sentence why not: the table moved on, the rematch has started, ``user`` sits in it
    already, or did not play and the rematch has no free seat to offer them (they may press
    *Join* on it)."""
    if last.rematch_of != before.id:
        raise Refused(refusals.MOVED_ON)
    if last.status is not GameStatus.LOBBY:
        raise Refused(refusals.REMATCH_STARTED if last.is_open else refusals.MOVED_ON)
    if last.seat_of(user.id) is not None:
        raise Refused(refusals.REMATCH_SEATED)
    if before.seat_of(user.id) is None and last.held_for(user.id) is None:
        raise Refused(refusals.REMATCH_JOIN)
    return last
