"""The ledger of the Discord messages every owner keeps: what each should show, what was sent.

An owner (a game today, :mod:`bot.core.owners`) keeps a few messages on Discord, each under a
stable key (``table:3``, ``hand:3:1``). What they should show is a projection of the stored
owner, drawn by the :class:`Projector` of its kind (a game's: :mod:`bot.core.game_messages`);
what was last sent of each (its id, a digest of what it showed, an interaction token that may
still edit it) is kept in the store. The keeper (``bot.discord.keeper``) asks the ledger what an
owner owes (:meth:`MessageLedger.owed`), sends only what differs and reports each message sent
(:meth:`MessageLedger.sent`); it talks to nothing else of the core.

Alone, the process that sends is the only one writing what was sent, so the ledger reads an
owner's messages once and keeps them up to date in memory (a click's answer kept with a move
reaches it on the change feed). With other processes answering clicks on the same messages
(several processes on one PostgreSQL database), their answers reach it with the changes they
announce, and what was sent is read again from the store after a change heard late. The
players' DM channels are kept apart (:mod:`bot.core.dm_links`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.dm_links import DmLinks
from bot.core.faults import Fault, Faults
from bot.core.feed import Change, ChangeFeed
from bot.core.messages import Owed
from bot.core.owners import Owner, OwnerKind
from bot.core.recent import Recent
from bot.core.records import MessageRecord, PendingPost
from bot.core.replies import Clicked, Sequel
from bot.core.storage import MessageRecords

__all__ = ["VIA", "Drawing", "MessageLedger", "Owing", "Projector"]

log = logging.getLogger(__name__)

#: The key under which the latest command's answer about an owner is kept (its token may
#: carry the owner's messages where the bot is not a member).
VIA = "via"
#: Owners whose sent messages are kept in memory (the rest are read again when next drawn).
SENT_KEPT = 512
#: What was sent is written to the store this long after it was sent, with everything else
#: sent meanwhile (one write for many messages); memory has it at once. A stop in between
#: costs nothing a player sees: a post sent again gives back the same message (its nonce), an
#: edit shows what it showed, and a DM posted through a webhook is found again (pending posts).
WRITE_BEHIND = 0.05
#: A write that failed is tried again after this long.
WRITE_RETRY = 1.0
#: A click's answer kept with its move and still not known to have reached Discord this long
#: after it is taken as never having landed (Discord takes an answer within 3 seconds, and the
#: process that answered writes down that it did a moment later): its message is edited again.
UNCONFIRMED_AFTER = 4.0


@dataclass(frozen=True, slots=True)
class Drawing:
    """What an owner's messages should show now, in sending order, drawn at the owner's
    ``version``, and when to draw them again because time alone changes them (a reminder
    falls due), if ever."""

    channel_id: int
    version: int
    owed: tuple[Owed, ...]
    check_at: float | None = None


class Projector(Protocol):
    """Draws the messages of one kind of owner from the stored owner."""

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[str, MessageRecord]
    ) -> Drawing | None:
        """What ``owner``'s messages should show at ``now``, given what was last sent of them
        (``sent``, by key) (None: it has none any more)."""
        ...

    def moving(self, owner: Owner) -> bool:
        """Whether ``owner`` is being changed in this process right now."""
        ...

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to ``user_id``: what it draws from now on says so
        (in the channel instead, say)."""
        ...

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """The owners (and their channels) whose messages may be owed something after a stop:
        what is brought up to date at start-up."""
        ...

    def sending_again(self) -> None:
        """This process sends again after another did: forget what it kept in memory of what
        was sent (another process may have learnt more meanwhile)."""
        ...


@dataclass(frozen=True, slots=True)
class Owing:
    """What an owner's messages should show now (``owed``, in sending order) beside what was
    last sent (``sent``, by key), and when to look again for a reminder falling due."""

    owner: Owner
    channel_id: int
    version: int
    owed: tuple[Owed, ...]
    sent: Mapping[str, MessageRecord]
    check_at: float | None


def _replaces(record: MessageRecord, known: MessageRecord | None) -> bool:
    """Whether ``record`` is what a message shows rather than ``known``: it is of the same
    version of the owner or a later one, or it is another message (the one before deleted)."""
    return known is None or known.message_id != record.message_id or known.version <= record.version


def _with_learned_id(record: MessageRecord, known: MessageRecord | None) -> MessageRecord:
    """``record`` with the message's id, when it was sent through an interaction's original
    response whose id it did not know (0) and the same answer's id was learned meanwhile (the
    answer landed while the edit through its token was on its way)."""
    if (
        known is None
        or record.message_id != 0
        or known.message_id == 0
        or record.token is None
        or record.token != known.token
    ):
        return record
    return dataclasses.replace(record, channel_id=known.channel_id, message_id=known.message_id)


class MessageLedger:
    """What every owner's messages should show, what was sent of them, and what the keeper
    knows of the players' DMs."""

    def __init__(
        self,
        store: MessageRecords,
        feed: ChangeFeed,
        clock: Callable[[], datetime],
        *,
        shared: bool = False,
        faults: Faults | None = None,
    ) -> None:
        """``shared``: other processes answer clicks on the same messages, and keep what their
        answers show (it comes with each change they announce; what was sent is read again
        from the store when a change was heard late, or a message's id is still to come).
        ``faults``: where a store that fails is noted."""
        self._store = store
        self.faults = faults or Faults()
        self._feed = feed
        self._clock = clock
        self._shared = shared
        self._projectors: dict[OwnerKind, Projector] = {}
        # owner -> what was last sent of its messages (kept with every change this process
        # makes or hears of: it is the one that sends them).
        self._sent: Recent[Owner, dict[str, MessageRecord]] = Recent(SENT_KEPT)
        # (owner, key) of the DMs this process said it was about to post (see posting).
        self._posting: set[tuple[Owner, str]] = set()
        #: What this process knows of the players' DM channels.
        self.dm_links = DmLinks(store, shared=shared)
        # owner -> the channel its channel messages go to (from its changes and drawings).
        self._channels: dict[Owner, int] = {}
        # Owners whose messages are read again from the store when next drawn.
        self._unread: set[Owner] = set()
        # The clicks' answers this process is sending, (owner, key, version), and since when.
        self._answering: dict[tuple[Owner, str, int], float] = {}
        # What was sent and is not written yet, by owner and key; and the pending posts it
        # clears once written.
        self._unwritten: dict[tuple[Owner, str], MessageRecord] = {}
        # What is being written now (taken out of _unwritten, not yet in the store): a read of
        # the store meanwhile would not see it.
        self._writing: list[dict[tuple[Owner, str], MessageRecord]] = []
        self._cleared: set[tuple[Owner, str]] = set()
        # Clicks' answers heard for a message not kept yet, by owner and key: one posted a
        # moment ago, whose record comes when the keeper's send of its owner ends (the click
        # came first). Kept over that record when it comes, if it is of the same message.
        self._early: dict[tuple[Owner, str], MessageRecord] = {}
        self._writer: asyncio.Task[None] | None = None
        # When this process began keeping the ledger.
        self._started = self._now()
        feed.subscribe(self._heard)

    def add(self, kind: OwnerKind, projector: Projector) -> None:
        """Draw the messages of owners of ``kind`` with ``projector``."""
        self._projectors[kind] = projector

    def _now(self) -> float:
        return self._clock().timestamp()

    # -- drawing --------------------------------------------------------------------------------
    async def owed(self, owner: Owner, now: float | None = None) -> Owing | None:
        """What every message of ``owner`` should show now, beside what was last sent (None
        for an owner that has no messages any more)."""
        sent = dict(await self._sent_of(owner))
        moment = self._now() if now is None else now
        drawn = await self._projectors[owner.kind].draw(owner, moment, sent)
        if drawn is None:
            return None
        self._channels[owner] = drawn.channel_id
        return Owing(owner, drawn.channel_id, drawn.version, drawn.owed, sent, drawn.check_at)

    async def settled(self, owner: Owner) -> bool:
        """Whether every message ``owner`` keeps in its channel shows what it should now, as
        far as this process sent it (the players' DMs aside): nothing more is owed there."""
        owing = await self.owed(owner)
        if owing is None:
            return True
        return not any(o.user_id is None and o.due(owing.sent.get(o.key)) for o in owing.owed)

    def changing(self, owner: Owner) -> bool:
        """Whether the owner is being changed in this process right now (its change follows
        on the feed once it is saved)."""
        return self._projectors[owner.kind].moving(owner)

    def moved_on(self, owing: Owing) -> bool:
        """Whether the owner has changed since ``owing`` was drawn, or is changing now in this
        process: then what it owes is stale, draw it again."""
        if self.changing(owing.owner):
            return True
        latest = self._feed.latest(owing.owner)
        return latest is not None and latest > owing.version

    # -- what was sent --------------------------------------------------------------------------
    async def _sent_of(self, owner: Owner) -> dict[str, MessageRecord]:
        """What was last sent of an owner's messages: read once and then kept with every send
        and every click's answer heard of on the feed. Read again after a change heard late,
        and (other processes answering too) while a message's id is still to come."""
        sent = self._sent.get(owner)
        stale = owner in self._unread or (
            self._shared and sent is not None and any(r.message_id == 0 for r in sent.values())
        )
        if sent is None or stale:
            self._unread.discard(owner)
            sent = self._unconfirmed_unknown(await self._store.messages(owner))
            # What this process sent and has not written yet (or is writing now, so the read
            # may not have seen it) is newer than what was read.
            for unwritten in (*self._writing, self._unwritten):
                for (unwritten_owner, key), record in unwritten.items():
                    if unwritten_owner == owner and _replaces(record, sent.get(key)):
                        sent[key] = record
            self._sent.keep(owner, sent)
        return sent

    def _unconfirmed_unknown(self, sent: dict[str, MessageRecord]) -> dict[str, MessageRecord]:
        """What was sent, as read from the store, with every click's answer that is not known to
        have landed taken as unknown (to be edited again): one unconfirmed for longer than
        :data:`UNCONFIRMED_AFTER`, and, alone, one kept before this process started (the process
        that answered stopped before it knew; this one knows of its own)."""
        before = self._now() - UNCONFIRMED_AFTER
        if not self._shared:
            before = max(before, self._started)
        for key, record in sent.items():
            since = record.unconfirmed_since
            if since is not None and since < before:
                sent[key] = dataclasses.replace(record, digest="")
        return sent

    def _answering_now(self, owner: Owner, answer: MessageRecord) -> None:
        """This process is sending ``answer`` (a click's answer kept with its move): noted until
        it is heard to land or fail, or until it is taken as lost."""
        now = self._now()
        self._answering[(owner, answer.key, answer.version)] = now
        # (An answer whose end was never heard: its handler failed, and it is taken as lost.)
        while self._answering:
            first = next(iter(self._answering))
            if now - self._answering[first] < UNCONFIRMED_AFTER:
                break
            del self._answering[first]

    def _keep(self, owner: Owner, record: MessageRecord) -> None:
        """``record`` in this process's memory of what was sent, unless what is kept of the
        same message is of a later version."""
        sent = self._sent.peek(owner)
        if sent is not None and _replaces(record, sent.get(record.key)):
            sent[record.key] = record

    def _heard(self, change: Change) -> None:
        """A change on the feed: a click's answer kept with it is what that message shows
        (if it is the message the owner keeps under that key: not a private copy)."""
        self._channels[change.owner] = change.channel_id
        if change.reread:
            self._unread.add(change.owner)
        answered = change.answered
        if answered is None:
            return
        if not change.elsewhere:
            self._answering_now(change.owner, answered)
        sent = self._sent.peek(change.owner)
        known = None if sent is None else sent.get(answered.key)
        if sent is not None and known is not None and known.message_id in (answered.message_id, 0):
            message_id = answered.message_id or known.message_id
            record = dataclasses.replace(answered, message_id=message_id)
            if change.elsewhere and known.version > answered.version:
                # Heard after this process edited that message for a later move: the other
                # process's answer may land over that edit, and then it is what the message
                # shows. Taken as shown until then, so the message is edited again once that
                # answer has landed (through its own token, which reaches it only then).
                sent[answered.key] = record
            else:
                self._keep(change.owner, record)
        elif sent is not None and known is None and answered.message_id == 0:
            sent[answered.key] = answered  # /cribbage new's answer: the lobby, id to come
        elif sent is not None and known is None:
            self._answered_early(change.owner, answered)

    def _answered_early(self, owner: Owner, answered: MessageRecord) -> None:
        """A click's answer to a message this process has not kept yet: it was just posted,
        and the player clicked it before the rest of its owner's messages were sent. (A click
        on a private copy of the owner's message is dropped when the record comes.)"""
        self._early[(owner, answered.key)] = answered
        lost = self._now() - UNCONFIRMED_AFTER
        for where, early in list(self._early.items()):
            if early.unconfirmed_since is None or early.unconfirmed_since < lost:
                del self._early[where]  # (whose record never came: nothing is posted now)

    async def sent(self, owner: Owner, records: Sequence[MessageRecord]) -> None:
        """Messages of ``owner`` were sent or edited as ``records`` say (each drawn at the
        version it carries): kept in memory now, written to the store a moment later with
        whatever else was sent meanwhile (:data:`WRITE_BEHIND`, :meth:`flush`).

        A record of an older version than the look kept of the same message (a click's answer
        that landed while this edit was on its way) may have put that older look over the
        answer: what the message shows is then not known, and it is edited again. A message
        posted and clicked before its record came (the click's answer heard on the feed
        meanwhile) is kept as that answer shows it, and so is a message edited while a click's
        answer to it was heard of (the answer may land over the edit): it is edited again once
        that answer has landed."""
        clobbered = False
        sent = self._sent.peek(owner)
        for record in records:
            known = None if sent is None else sent.get(record.key)
            record = _with_learned_id(record, known)
            early = self._early.pop((owner, record.key), None)
            if known is not None and not _replaces(record, known):
                self._keep(owner, dataclasses.replace(known, digest=""))
                self._unwrite(owner, dataclasses.replace(known, digest=""))
                clobbered = True
                continue
            if self._landing_over(known, record):
                clobbered = True  # (kept as the answer shows it: edited again once it lands)
                continue
            if (
                known is None
                and early is not None
                and early.message_id == record.message_id
                and early.version > record.version
            ):
                # Posted, then clicked and answered before this record came: that answer
                # lands after the post, and may still be on its way.
                self._keep(owner, early)
            else:
                self._keep(owner, record)
            if (owner, record.key) in self._posting:
                self._posting.discard((owner, record.key))
                self._cleared.add((owner, record.key))
            self._unwrite(owner, record)
        if clobbered:
            self._look_again(owner)

    def _landing_over(self, known: MessageRecord | None, record: MessageRecord) -> bool:
        """Whether ``known`` is a click's answer to the message ``record`` edited that may land
        over that edit: heard while the edit was on its way (an edit made knowing of it goes
        through its token, once it has landed), and not yet known to have landed."""
        return (
            known is not None
            and known.unconfirmed_since is not None
            and known.message_id == record.message_id
            and known.token != record.token
            and self._now() - known.unconfirmed_since < UNCONFIRMED_AFTER
        )

    def _unwrite(self, owner: Owner, record: MessageRecord) -> None:
        """Have ``record`` written to the store soon, with whatever else is sent meanwhile."""
        if _replaces(record, self._unwritten.get((owner, record.key))):
            self._unwritten[(owner, record.key)] = record
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_soon())

    async def _write_soon(self) -> None:
        # Until nothing is left unwritten: what is sent while a write is on its way goes in
        # the next one.
        while self._unwritten:
            await asyncio.sleep(WRITE_BEHIND)
            if not await self.flush():
                await asyncio.sleep(WRITE_RETRY)

    async def flush(self) -> bool:
        """Write what was sent and is not written yet, in one go; False if the store refused
        it (it is kept, to be written again)."""
        if not self._unwritten:
            return True
        unwritten, cleared = self._unwritten, self._cleared
        self._unwritten, self._cleared = {}, set()
        self._writing.append(unwritten)
        try:
            await self._store.set_messages(
                [(owner, record) for (owner, _), record in unwritten.items()],
                posted=sorted(cleared),
            )
        except Exception as error:
            if isinstance(error, Fault):
                self.faults.note(error)  # full, or out of reach: said once, not every try
            else:
                log.warning("could not write what was sent; trying again", exc_info=True)
            for (owner, _), record in unwritten.items():
                if _replaces(record, self._unwritten.get((owner, record.key))):
                    self._unwritten[(owner, record.key)] = record
            self._cleared |= cleared
            return False
        finally:
            self._writing.remove(unwritten)
        return True

    async def answered(
        self, sequel: Sequel, landed: bool, shown: Clicked | None, digest: str | None
    ) -> None:
        """An answer was sent (``landed``) or could not be. ``shown`` is the message that now
        shows it (for ``/cribbage new``: its answer), ``digest`` what it shows. A look kept
        with the move is confirmed, or forgotten if the answer never landed (the keeper edits
        it again); a look not kept with the move is kept now, with the interaction's token,
        which may edit that message again; a message the owner keeps that was only reached
        through the interaction's token learns its id. A private copy (from ``/cribbage
        hand``) is none of the owner's messages, and nothing is kept of it."""
        if sequel.key is None:
            return
        owner, key = sequel.owner, sequel.key
        self._answering.pop((owner, key, sequel.version), None)
        if not landed:
            if sequel.kept:
                # Kept as shown with the move, but it never got there: edit it again.
                await self._forget_look(owner, key, sequel.version)
                self._look_again(owner, sequel)
            return
        if shown is None:
            return
        known = (await self._sent_of(owner)).get(key)
        if known is None or known.message_id not in (0, shown.message_id):
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
                token_at=self._now(),
                original=True,
                version=sequel.version,
            )
        self._keep(owner, record)
        self._unwrite(owner, record)

    async def opened(
        self,
        owner: Owner,
        key: str,
        shown: Clicked,
        digest: str,
        version: int,
        *,
        clicked: Clicked | None,
        on: str,
        original: bool = False,
    ) -> None:
        """A click on the owner's message ``on`` (a private table's *Your hand*; ``clicked``)
        was answered by a private message of its own, the owner's message ``key`` (``shown``,
        showing ``digest``, drawn at ``version``): that click's token may edit both for 15
        minutes (the clicked message is its original response, the new one its follow-up).
        ``original``: ``shown`` is the interaction's original response (``/cribbage hand``'s
        answer; nothing was clicked)."""
        now = self._now()
        record = MessageRecord(
            key, shown.channel_id, shown.message_id, digest, shown.token, now, original, version
        )
        await self.sent(owner, [record])
        table = (await self._sent_of(owner)).get(on)
        if clicked is None or table is None or table.message_id != clicked.message_id:
            return  # not the owner's message (an older copy of it): its token reaches no copy
        refreshed = dataclasses.replace(table, token=clicked.token, token_at=now, original=True)
        self._keep(owner, refreshed)
        self._unwrite(owner, refreshed)

    async def carrier(self, owner: Owner, shown: Clicked, *, check: str | None = None) -> None:
        """An interaction about the owner was answered (``shown``: its answer, and the
        interaction's token): where the bot is not a member, that token may post the owner's
        table again once no other reaches it (kept under the key ``via``, which nothing draws).

        ``check``: the key of a message only tokens reach (a private table's table) that the
        answer did not touch. Its token may have lapsed without the bot knowing (Discord's clock
        is its own), and nothing would try it before the game next changes: it is sent again
        now, which edits it through its token while that lives (showing what it shows) and
        otherwise posts it again through this one."""
        record = MessageRecord(
            VIA, shown.channel_id, shown.message_id, "", shown.token, self._now(), True
        )
        await self.sent(owner, [record])
        known = None if check is None else (await self._sent_of(owner)).get(check)
        if known is not None and known.token != shown.token and known.digest:
            # In memory only: a look forgotten here costs at most one edit of what it shows.
            self._keep(owner, dataclasses.replace(known, digest=""))
        self._look_again(owner)

    async def tokens_lapsed(self, owner: Owner, tokens: Sequence[str]) -> None:
        """Discord said these interactions' tokens may no longer reach the owner's messages
        (past their 15 minutes): the messages they reached are kept without them."""
        changed = False
        for record in list((await self._sent_of(owner)).values()):
            if record.token is not None and record.token in tokens:
                lapsed = dataclasses.replace(record, token=None, token_at=None, original=False)
                self._keep(owner, lapsed)
                self._unwrite(owner, lapsed)
                changed = True
        if changed:
            self._look_again(owner)  # what is drawn may say so (a mention on the table)

    async def _forget_look(self, owner: Owner, key: str, version: int | None) -> None:
        """What ``key`` shows is not known after all: it is edited again."""
        await self._store.forget_look(owner, key, version)
        sent = self._sent.peek(owner)
        known = None if sent is None else sent.get(key)
        if sent is not None and known is not None and version in (None, known.version):
            sent[key] = dataclasses.replace(known, digest="")

    def _look_again(self, owner: Owner, sequel: Sequel | None = None) -> None:
        """Have whatever sends the owner's messages draw them again (nothing of the owner
        itself changed)."""
        latest = self._feed.latest(owner)
        version = latest if latest is not None else (sequel.version if sequel else 0)
        channel = sequel.channel_id if sequel is not None else self._channels.get(owner)
        if channel is not None:
            self._feed.publish(Change(owner, version, channel))

    async def gone(self, owner: Owner, key: str) -> None:
        """A message of ``owner`` is gone from Discord (someone deleted it): send it again."""
        await self._store.forget_message(owner, key)
        sent = self._sent.peek(owner)
        if sent is not None:
            sent.pop(key, None)

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to this player (see :meth:`Projector.dms_refused`)."""
        await self._projectors[owner.kind].dms_refused(owner, user_id)

    async def doubt(self, owner: Owner, message_id: int) -> None:
        """A control on the owner's message ``message_id`` was refused as being from an earlier
        moment of the owner: the message may show an older look than the one last sent to it
        (an edit that reached Discord after a newer one). Unless a click's answer to it is
        still on its way (whose landing brings it up to date), it is edited again: in this
        process at once; with several, by the one that sends, which finds it among the answers
        not known to have landed (as one that never did)."""
        lost = self._now() - UNCONFIRMED_AFTER - 1.0
        # What this process sent or heard land and has not written yet is written first (an
        # answer that landed a moment ago is confirmed in the store too).
        await self.flush()
        if not await self._store.doubt_look(owner, message_id, lost if self._shared else None):
            return
        sent = self._sent.peek(owner)
        if sent is not None:
            for key, record in list(sent.items()):
                if record.message_id == message_id and record.unconfirmed_since is None:
                    sent[key] = dataclasses.replace(record, digest="")
        self._look_again(owner)

    def sends_answer(self, owner: Owner, record: MessageRecord) -> bool:
        """Whether ``record``, a click's answer kept with a move, is one this process is
        sending: it then hears it land (:meth:`answered`), and until it does it has not. One
        made by another process, this process hears of when its move is saved, not when it
        lands."""
        return (owner, record.key, record.version) in self._answering

    async def kept(self, owner: Owner) -> dict[str, MessageRecord]:
        """The owner's messages as last sent, by key."""
        return dict(await self._sent_of(owner))

    # -- posts that cannot be made idempotent ---------------------------------------------------
    async def posting(self, owner: Owner, key: str, channel_id: int) -> None:
        """A DM of ``owner`` is about to be posted in a way that cannot be made idempotent (an
        interaction's follow-up): remembered until :meth:`sent` keeps its id, so a start after
        a crash in between looks for it (:meth:`pending_posts`)."""
        await self._store.set_pending(owner, PendingPost(key, channel_id, self._now()))
        self._posting.add((owner, key))

    async def pending_posts(self, owner: Owner) -> list[PendingPost]:
        """The owner's DMs that were about to be posted when the last process died."""
        return await self._store.pending_posts(owner)

    async def looked_for(self, owner: Owner, key: str) -> None:
        """A pending post was looked for (and kept, if found): forget it."""
        await self._store.clear_pending(owner, key)

    # -- the players' DMs -----------------------------------------------------------------------
    # -- start-up and housekeeping ----------------------------------------------------------------
    async def to_reconcile(self) -> list[tuple[Owner, int]]:
        """Every owner (and its channel) whose messages may be owed something: what start-up
        brings up to date."""
        now = self._now()
        found: list[tuple[Owner, int]] = []
        for projector in self._projectors.values():
            found += await projector.to_reconcile(now)
        return found

    def forget(self, owner: Owner) -> None:
        """Drop what is kept in memory of an owner that has no messages any more."""
        self._sent.forget(owner)
        self._channels.pop(owner, None)
        self._early = {k: r for k, r in self._early.items() if k[0] != owner}
        for key in [k for k in self._unwritten if k[0] == owner]:
            del self._unwritten[key]
        self._cleared = {k for k in self._cleared if k[0] != owner}

    def sending_again(self) -> None:
        """This process sends again after another did meanwhile: what it kept in memory may be
        out of date, so every owner's messages are read again from the store."""
        self._unread.update(self._sent)
        for projector in self._projectors.values():
            projector.sending_again()
