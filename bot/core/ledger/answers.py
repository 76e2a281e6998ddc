"""Clicks' answers: kept with the move, then landed or lost.

A click on a message an owner keeps is answered by updating that message, and the look the answer
gives is kept with the move (in the move's transaction). Whoever publishes the move's change tells
the ledger of it first (:meth:`Answers.answer_kept`, the port
:class:`~bot.core.base.delivery.MessageNews`, with :meth:`~Answers.answer_kept_elsewhere` and
:meth:`~Answers.heard_late` for what another process announced): the answer is then on its way,
and nothing else is sent to that message until it has landed (:meth:`Answers.answered`, from the
Discord layer) or is taken as lost (it never was heard to land, or not within
:data:`~bot.core.base.timing.ANSWER_LANDS_WITHIN`: the message is edited again). A control
refused as being from an earlier moment says the message may show an older look
(:meth:`Answers.doubt`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable

from bot.core.base.delivery import AnswerKept
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked, Sequel
from bot.core.base.timing import ANSWER_LANDS_WITHIN, REQUEST_LANDS_WITHIN
from bot.core.base.views import MessageRecord
from bot.core.ledger.copies import Copies
from bot.core.ledger.life import Lives, answer_record
from bot.core.ledger.shown import Shown
from bot.core.ledger.storage import MessageRecords
from bot.core.ledger.writes import WriteBehind

__all__ = ["Answers"]


@dataclasses.dataclass(frozen=True, eq=False)
class Answers:
    """The clicks' answers to the owners' messages: on their way, landed, or lost, as the
    ledger's parts (its own) know them. ``shared``: other processes answer clicks on the same
    messages too."""

    store: MessageRecords
    lives: Lives
    shown: Shown
    writes: WriteBehind
    copies: Copies
    now: Callable[[], float]
    _: dataclasses.KW_ONLY
    shared: bool

    # -- what a change's publisher tells first (:class:`~bot.core.base.delivery.MessageNews`) ---
    def answer_kept(self, owner: Owner, answer: AnswerKept) -> None:
        """A click's answer kept with the change of ``owner`` about to be published is on its
        way from this process: until it lands, nothing else is sent to that message."""
        self._kept(owner, answer_record(answer), here=True)

    def answer_kept_elsewhere(self, owner: Owner, record: MessageRecord) -> None:
        """A click's answer kept with another process's change of ``owner``, about to be
        published here: that process sends it, and it is what that message shows."""
        self._kept(owner, record, here=False)

    async def way_clear(self, owner: Owner, key: MessageKey) -> None:
        """A click's answer to the owner's message ``key`` is about to go: wait until no send
        of this process to it, already written, can land after it (see
        :meth:`~bot.core.base.delivery.MessageNews.way_clear`)."""
        life = self.lives.find(owner, key)
        send = None if life is None else life.sending
        if send is None or send.written is None:
            # (One still waiting for its turn: a hand's is fenced off, the owner having moved
            # on; another's, written after the answer, is taken by Shown.sent as possibly laid
            # over it, and the message is edited again.)
            return
        left = send.written + REQUEST_LANDS_WITHIN - asyncio.get_running_loop().time()
        if left > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(send.back.wait(), left)

    def heard_late(self, owner: Owner) -> None:
        """The change of ``owner`` about to be published was heard late: what its messages
        show is read again before they are drawn."""
        self.lives.of(owner).read_again()

    def _kept(self, owner: Owner, answered: MessageRecord, *, here: bool) -> None:
        """A click's answer kept with a change of ``owner`` (made in this process, ``here``,
        or in another): it is what that message shows (if it is the message the owner keeps
        under that key: not a private copy)."""
        entry = self.lives.of(owner)
        now = self.now()
        if here:
            entry.life(answered.key).answering[answered.version] = now
        mirror = entry.life(answered.key).mirrors.get(answered.message_id)
        if mirror is not None:
            # A click on a private copy: it shows that answer once it lands (until then it is
            # on its way there, and nothing else is sent to that copy).
            entry.life(answered.key).mirrors[answered.message_id] = answered
            return
        if not entry.read:
            return
        life = entry.life(answered.key)
        known = life.shown
        if known is not None and known.message_id in (answered.message_id, 0):
            message_id = answered.message_id or known.message_id
            record = dataclasses.replace(answered, message_id=message_id)
            if not here and known.version > answered.version:
                # Heard after this process edited that message for a later move: the other
                # process's answer may land over that edit, and then it is what the message
                # shows. Taken as shown until then, so the message is edited again once that
                # answer has landed (through its own token, which reaches it only then).
                life.shown = record
            else:
                self.shown.keep(owner, record)
        elif known is None and answered.message_id == 0:
            life.shown = answered  # /cribbage new's answer: the lobby, its id to come
        elif known is None:
            # A click's answer to a message not kept yet: it was just posted, and the player
            # clicked it before the rest of its owner's messages were sent. (A click on a
            # private copy of the owner's message is dropped when the record comes.)
            life.early = answered

    def sends_answer(self, owner: Owner, record: MessageRecord) -> bool:
        """Whether ``record``, a click's answer kept with a move, is one this process is
        sending: it then hears it land (:meth:`answered`), and until it does it has not. One
        made by another process, this process hears of when its move is saved, not when it
        lands. Asked by a send to its message, which waits for it: that message is looked at
        again the moment it is heard (see :meth:`answered`)."""
        life = self.lives.find(owner, record.key)
        if life is None:
            return False
        since = life.answering.get(record.version)
        if since is None or self.now() - since >= ANSWER_LANDS_WITHIN:
            return False
        life.awaited.add(record.version)
        return True

    async def answered(
        self, sequel: Sequel, landed: bool, shown: Clicked | None, digest: str | None
    ) -> None:
        """An answer was sent (``landed``) or could not be. ``shown`` is the message that now
        shows it (for ``/cribbage new``: its answer), ``digest`` what it shows. A look kept
        with the move is confirmed, or forgotten if the answer never landed (the message is
        edited again); a look not kept with the move is kept now, with the interaction's
        token, which may edit that message again; a message the owner keeps that was only
        reached through the interaction's token learns its id. A private copy (from
        ``/cribbage hand``) is none of the owner's messages, and nothing is kept of it.

        A send to that message that waited for this answer goes at once, landed or not, rather
        than when its hold's timer falls due: what the owner owes it is not the answer's look
        (a private table's lobby, answered "The game has started." by the Start and then
        edited into the table), and on the internet that timer was most of the wait."""
        if sequel.key is None:
            return
        life = self.lives.find(sequel.owner, sequel.key)
        awaited = life is not None and sequel.version in life.awaited
        if life is not None:
            life.awaited.discard(sequel.version)
        try:
            await self._heard(sequel, landed, shown, digest)
        finally:
            if awaited:
                self.lives.look_again(sequel.owner, sequel)

    async def _heard(
        self, sequel: Sequel, landed: bool, shown: Clicked | None, digest: str | None
    ) -> None:
        """What :meth:`answered` keeps of an answer heard to have landed, or not."""
        assert sequel.key is not None
        owner, key = sequel.owner, sequel.key
        if sequel.mirror is not None:
            if landed and shown is not None:
                await self.copies.mirrored(owner, key, shown, sequel.mirror, sequel.version)
            return
        life = self.lives.find(owner, key)
        if life is not None:
            life.answering.pop(sequel.version, None)
            mirror = life.mirrors.get(shown.message_id) if shown else None
            if mirror is not None:
                # A click's answer on a private copy: landed (what it shows) or not (unknown).
                confirmed = dataclasses.replace(
                    mirror,
                    unconfirmed_since=None,
                    digest=mirror.digest if landed else "",
                )
                self.copies.keep_mirror(owner, confirmed)
                self._held_edit_goes(sequel, landed)
                return
        if not landed:
            if sequel.kept:
                # Kept as shown with the move, but it never got there: edit it again.
                await self.shown.forget_look(owner, key, sequel.version)
                self.lives.look_again(owner, sequel)
            return
        if shown is None:
            return
        known = (await self.shown.kept(owner)).get(key)
        if known is None and self.shared:
            # Another process posted that message (a new deal's hand): what it sends reaches
            # this one only through the store, so what this one read of the owner may be from
            # before. Left unconfirmed, the answer would be taken as lost and the message edited
            # again by the process that sends. (Only that message is read: what is kept of the
            # others may hold answers heard of and not in the store.)
            known = (await self.store.messages(owner)).get(key)
        if known is None or known.message_id not in (0, shown.message_id):
            return
        if known.version > sequel.version:
            # A later look was kept since: the player clicked the message again before this
            # answer was heard to land (on the internet, where an answer's way back takes as
            # long as its way there, that is common). Its landing says nothing of the later
            # answer, which may still be on its way: taken as landed, the message was edited
            # through that answer's token before Discord knew it (404 / 10015), and a private
            # table's table was posted again below the lobby.
            return
        record = dataclasses.replace(
            known,
            channel_id=shown.channel_id,
            message_id=shown.message_id,
            unconfirmed_since=None,
        )
        if not sequel.kept and digest is not None:
            record = dataclasses.replace(
                record,
                digest=digest,
                token=shown.token,
                token_at=self.now(),
                original=True,
                version=sequel.version,
            )
        self.shown.keep_and_write(owner, record)
        self._held_edit_goes(sequel, landed)

    def _held_edit_goes(self, sequel: Sequel, landed: bool) -> None:
        """This process's answer landed on a message whose owner changed again while it was on
        its way: the newer look, held until the answer landed (an edit sent first would have
        been laid over by it), is owed now, so the owner is drawn again at once rather than
        when the hold's timer falls due (on the internet, where an answer takes a round trip,
        that was most of a move's wait for the next player's controls)."""
        if landed and sequel.kept and self.lives.newer_than(sequel.owner, sequel.version):
            self.lives.look_again(sequel.owner, sequel)

    async def doubt(self, owner: Owner, message_id: int) -> None:
        """A control on the owner's message ``message_id`` was refused as being from an earlier
        moment of the owner: the message may show an older look than the one last sent to it
        (an edit that reached Discord after a newer one). Unless a click's answer to it is
        still on its way (whose landing brings it up to date), it is edited again: in this
        process at once; with several, by the one that sends, which finds it among the answers
        not known to have landed (as one that never did)."""
        lost = self.now() - ANSWER_LANDS_WITHIN - 1.0
        # What this process sent or heard land and has not written yet is written first (an
        # answer that landed a moment ago is confirmed in the store too).
        await self.writes.flush()
        if not await self.store.doubt_look(owner, message_id, lost if self.shared else None):
            return
        entry = self.lives.get(owner)
        if entry is not None:
            for life in entry.lives.values():
                record = life.shown
                if (
                    record is not None
                    and record.message_id == message_id
                    and record.unconfirmed_since is None
                ):
                    life.shown = dataclasses.replace(record, digest="")
        self.lives.look_again(owner)
