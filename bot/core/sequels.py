"""What follows once Discord (or the Activity) has an answer: the *sequels* of the glossary.

An outer layer sends each :class:`~bot.core.base.replies.Answer` a call gave and hands it
back here: the look it gave a message is confirmed or forgotten and the computer's reply made
(:meth:`Sequels.answered`); a private table's hand shown by its own message is followed
(:meth:`Sequels.opening`, :meth:`Sequels.opened`); a table reached through tokens alone is
carried (:meth:`Sequels.carry`); a DM's token kept (:meth:`Sequels.dm_answered`). Besides: an
autocomplete's choices while the store may fail (:meth:`Sequels.offer`), and a fault met
outside a call said as the core says it (:meth:`Sequels.fault_said`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.core.base.faults import Fault, Faults
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.places import Place
from bot.core.base.replies import Answer, Choice, Clicked
from bot.core.ledger.answers import Answers
from bot.core.ledger.copies import Copies
from bot.core.ledger.records import DmLink
from bot.core.ledger.tokens import DmLinks
from bot.core.messages.private_table import TABLE
from bot.core.play.wing import GamesWing
from bot.core.ranked.ranked import Ranked
from bot.core.which_game import WhichGame

__all__ = ["Sequels"]


class Sequels:
    """What follows an answer sent (see the module), on the ledger's parts that keep what the
    messages show (its clicks' answers, the copies tokens reach, the players' DM links)."""

    def __init__(
        self,
        play: GamesWing,
        which: WhichGame,
        ranked: Ranked,
        answers: Answers,
        copies: Copies,
        dm_links: DmLinks,
        faults: Faults,
    ) -> None:
        """``play``: the games' parts (the games, the moves, a private table's resume)."""
        games, moves, resume = play.games, play.moves, play.resume
        self._games = games
        self._moves = moves
        self._which = which
        self._ranked = ranked
        self._resume = resume
        self._answers = answers
        self._copies = copies
        self._dm_links = dm_links
        self._faults = faults

    async def answered(self, answer: Answer, *, landed: bool, shown: Clicked | None) -> None:
        """``answer`` was sent to the person who acted (``landed``), or could not be: the look
        it gave a message is confirmed or forgotten (``shown``: the message that now shows it),
        then the computer's reply to the move, if one was left for now, is made. For the
        refusal of a stale control, ``shown`` is the message clicked, looked at again."""
        sequel = answer.sequel
        if not answer.ok and answer.stale is not None and shown is not None:
            for owner in await self._kept_by(answer.stale):
                await self._answers.doubt(owner, shown.message_id)
        if sequel is None or not answer.ok:
            return
        view = answer.update if answer.update is not None else answer.reply.view
        digest = None if view is None else view.digest()
        try:
            await self._answers.answered(sequel, landed, shown, digest)
        finally:
            if sequel.computer_owes:
                await self._moves.computer_turn(sequel.owner.id)

    async def _kept_by(self, owner: Owner) -> list[Owner]:
        """Who keeps the messages of ``owner``: itself, or for a game played apart its
        places (the message clicked is one of theirs)."""
        record = None if owner.kind is not OwnerKind.GAME else await self._games.record(owner.id)
        if record is None or record.seating.shared:
            return [owner]
        return [self._games.owner_at(record, seat.seat) for seat in record.seats]

    def opening(self, answer: Answer) -> None:
        """``answer`` (a private table's *Your hand*, or ``/cribbage hand`` there: the hand,
        privately) is about to be sent: until it is heard to have gone (:meth:`opened`), its
        player is taken as having their hand in front of them (it may show on Discord before
        the bot hears back: nothing drawn meanwhile tells them to ask for it)."""
        sequel = answer.sequel
        if not answer.ok or answer.reply.view is None or sequel is None or sequel.mirror:
            return  # (a copy of a server game's hand message mirrors it, by DM)
        if sequel.key:
            self._copies.opening(sequel.owner, sequel.key)

    async def opened(
        self, answer: Answer, *, shown: Clicked | None, clicked: Clicked | None
    ) -> None:
        """``answer`` (a private table's *Your hand*: the hand, privately) was sent as a
        message of its own (``shown``) for a click on the table (``clicked``; None: it answers
        ``/cribbage hand``): both are reached through that interaction's token from now on
        (see :meth:`Copies.opened <bot.core.ledger.copies.Copies.opened>`). ``shown`` None:
        it did not go (Discord refused it, or it was not heard back). ``/cribbage hand`` at a
        server's game answers with a copy of the player's hand message (by DM), kept up to
        date as any command's answer that mirrors one (:meth:`answered`)."""
        sequel, view = answer.sequel, answer.reply.view
        if sequel is not None and sequel.mirror is not None:
            await self.answered(answer, landed=shown is not None, shown=shown)
            return
        if sequel is None or sequel.key is None or view is None or not answer.ok:
            return
        if shown is None:
            self._copies.not_opened(sequel.owner, sequel.key)
            return
        await self._copies.opened(
            sequel.owner,
            sequel.key,
            shown,
            view.digest(),
            sequel.version,
            clicked=clicked,
            on=TABLE,
            original=clicked is None,
        )

    async def carry(
        self,
        place: Place,
        user_id: int,
        answer: Answer | None,
        shown: Callable[[], Awaitable[Clicked]],
        *,
        moved: bool,
    ) -> None:
        """An interaction of ``user_id`` in ``place`` was answered where a table is reached
        through tokens alone: its token may post the table again there once no other token
        reaches it (a game left for more than 15 minutes, resumed by whatever comes next: a
        move, a refused click or command, a hand asked for). That is a private table (where
        the bot is not a member), or a ranked player's place (wherever it is). ``answer``: what
        the interaction was answered with (None, or one about nothing: the player's ranked
        place here, or the place's open game, if any); ``shown``: the interaction's original
        response, asked for only when it is needed; ``moved``: it made a move (see
        :meth:`PrivateResume.answered`). A fault is noted here (the answer itself went)."""
        try:
            owner = answer.sequel.owner if answer is not None and answer.sequel else None
            owner = owner or await self._which.carried(place, user_id)
            if owner is None or owner.kind not in (OwnerKind.PLACE, OwnerKind.GAME):
                return
            if owner.kind is OwnerKind.GAME and place.bot_member:
                return  # (the bot's own token reaches a server's tables)
            if owner.kind is OwnerKind.PLACE:
                await self._ranked.carry(owner, await shown(), moved=moved)
            else:
                await self._resume.answered(owner, await shown(), moved=moved)
        except Fault as fault:
            self._faults.note(fault)

    async def settle(self, answer: Answer) -> None:
        """``answer`` was made for nobody (a game ended as a person's data is deleted): what
        it kept is settled as an answer that did not land."""
        if answer.ok and answer.sequel is not None:
            await self._answers.answered(answer.sequel, False, None, None)

    async def dm_answered(
        self, user_id: int, channel_id: int, token: str, answer: Answer | None = None
    ) -> None:
        """An interaction of ``user_id`` in their DM with the bot (``channel_id``) was
        answered (with ``answer``): its token may post their next hand there, for free; unless
        the answer deleted their data, which the DM's id and the token would be again."""
        if answer is not None and answer.forgotten:
            return
        await self._dm_links.linked(DmLink(user_id, channel_id, token, time.time()))

    # -- what the outer layers need besides ------------------------------------------------
    async def offer(self, find: Awaitable[list[Choice]]) -> list[Choice]:
        """An autocomplete's choices: what ``find`` offers; none while the store is out of
        reach (the fault noted once, as a call's is), since an autocomplete has no answer that
        could say so."""
        try:
            return await find
        except Fault as fault:
            self._faults.note(fault)
            return []

    def fault_said(self, error: BaseException) -> str | None:
        """The sentence for ``error`` if it is a fault of the core met outside a call on it
        (the store failing while a DM is remembered, say): noted once per cause and game, and
        said as the core says it. None for any other error."""
        if not isinstance(error, Fault):
            return None
        self._faults.note(error)
        return str(error)
