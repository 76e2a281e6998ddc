"""A message's life: from a saved change to what Discord shows, in one place.

An owner (a game, a tournament: :mod:`bot.core.base.owners`) keeps a few messages on Discord, each
under a stable key (``table:3``, ``hand:3:1``). For each (owner, key) the ledger knows, as a
:class:`Life`:

1. **What it should show.** A :class:`Projector` draws every message of an owner from the stored
   owner (a game's: :mod:`bot.core.games.messages.projector`). A message is *owed* when what it
   should show differs from what it shows (:meth:`MessageLedger.owed`).
2. **What it shows**: the copy Discord holds (``Life.shown``, a
   :class:`~bot.core.base.views.MessageRecord`: where it is, a digest of its look, the version of
   the owner it was drawn at, and the interaction's token that may still edit it). It is what
   Discord confirmed: a send's answer, or a click's answer heard to land.
3. **The sends on their way** (``Life.sending``): the attempt (which carrier: the bot's token, or
   an interaction's token and its age; chosen by the pure :func:`~bot.core.ledger.routes.route`)
   and the lease epoch of the sender it began under. The Discord layer checks that epoch right
   before the request is written (:mod:`bot.core.ledger.transport`), so a sender that lost its
   lease never writes; a process that takes over waits out what the one before may still have
   on its way and then looks again at every message touched meanwhile
   (:meth:`MessageLedger.touched_since`, :meth:`MessageLedger.reassert`).
4. **Clicks' answers**, which are part of the life, not beside it: a click on a message the owner
   keeps is answered by updating that message, and the look it gives is *kept* with the move (in
   the move's transaction: ``unconfirmed_since`` set), then *landed* (the Discord layer heard it
   land: :meth:`MessageLedger.answered`) or *lost* (it never did, or not within
   :data:`~bot.core.base.timing.ANSWER_LANDS_WITHIN`: the message is edited again). While an answer
   may be on its way, nothing else is sent to that message (it would be overwritten). This
   process's own answers on their way are ``Life.answering``; one heard before the record of
   its message's post came (the player clicked the moment it appeared) is ``Life.early``.
5. **Copies**: a message posted again (a private table's table, once no token reaches it) leaves
   its older copy behind; one clicked again gives a token that reaches it, and it is closed
   through it (``Life.older``: it shows the table as it is, without controls, saying it moved).
6. **What reaches the store.** What was sent is kept in memory at once and written a moment later
   (:data:`~bot.core.base.timing.WRITE_BEHIND`), many messages in one statement. A follow-up, which
   takes no nonce, is noted as about to be posted first (``Life.posting``, and a pending post in
   the store), so a process that starts or takes over looks for it. No decision rests on what
   is only in memory: :meth:`MessageLedger.settled` writes first.

Alone, the process that sends is the only one writing what was sent, so the ledger reads an
owner's messages once and keeps them in memory. With other processes answering clicks on the
same messages (several processes on one PostgreSQL database), their answers reach it with the
changes they announce (``Change.answered``, ``Change.elsewhere``), and what was sent is read
again from the store after a change heard late.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.core.base.faults import Fault, Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.replies import Clicked, Sequel
from bot.core.base.timing import (
    ANSWER_LANDS_WITHIN,
    CHANNEL_PERIOD,
    CHANNEL_WRITES,
    TOKEN_USABLE,
    WRITE_BEHIND,
)
from bot.core.base.views import MessageRecord, Owed
from bot.core.ledger.records import PendingPost
from bot.core.ledger.routes import Attempt, answer_on_its_way
from bot.core.ledger.storage import MessageRecords
from bot.core.ledger.tokens import DmLinks, FollowupBudget

__all__ = [
    "SENT_KEPT",
    "VIA",
    "Drawing",
    "Life",
    "MessageLedger",
    "Owing",
    "Projector",
    "Send",
    "answer_kept",
    "reached",
]

log = logging.getLogger(__name__)

#: The key under which the latest command's answer about an owner is kept (its token may
#: carry the owner's messages where the bot is not a member).
VIA = "via"
#: Owners whose messages are kept in memory (the rest are read again when next drawn).
SENT_KEPT = 512
#: A write that failed is tried again after this long.
WRITE_RETRY = 1.0
#: How long the changes heard of are remembered for a takeover (what the sender before may
#: have been sending when it stopped: a change waits for its channel's pacing at most a
#: channel's period, and is then sent).
TOUCHED_KEPT = CHANNEL_PERIOD * 2


def answer_kept(clicked: Clicked, key: str, digest: str, version: int, at: float) -> MessageRecord:
    """The record of a click's answer kept with its move: the clicked message (the owner's
    ``key``) shows ``digest``, drawn at ``version``, once the answer lands; the click's token
    (its original response is the message clicked) may edit it again."""
    return reached(clicked, key, digest, at, version=version, unconfirmed_since=at)


def reached(
    shown: Clicked,
    key: str,
    digest: str,
    at: float,
    *,
    original: bool = True,
    version: int = 0,
    unconfirmed_since: float | None = None,
) -> MessageRecord:
    """The owner's message ``key`` as an interaction (made at ``at``) reached it: the message
    ``shown`` (its original response, or with ``original`` False a follow-up of it), showing
    ``digest`` drawn at ``version``, which the interaction's token may edit while it lives."""
    return MessageRecord(
        key,
        shown.channel_id,
        shown.message_id,
        digest,
        token=shown.token,
        token_at=at,
        original=original,
        version=version,
        unconfirmed_since=unconfirmed_since,
    )


@dataclass(frozen=True, slots=True)
class Drawing:
    """What an owner's messages should show now, in sending order, drawn at the owner's
    ``version``, and when to draw them again because time alone changes them (a reminder
    falls due), if ever."""

    channel_id: int
    version: int
    owed: tuple[Owed, ...]
    check_at: float | None = None


class Projector:
    """Draws the messages of one kind of owner from the stored owner. :meth:`draw` and
    :meth:`to_reconcile` are each kind's own; the rest have nothing to do unless a kind's
    messages need it (a game's: changed by moves, DMs)."""

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[str, MessageRecord]
    ) -> Drawing | None:
        """What ``owner``'s messages should show at ``now``, given what was last sent of them
        (``sent``, by key) (None: it has none any more)."""
        raise NotImplementedError

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """The owners (and their channels) whose messages may be owed something after a stop:
        what is brought up to date at start-up."""
        raise NotImplementedError

    def moving(self, owner: Owner) -> bool:
        """Whether ``owner`` is being changed in this process right now (its change follows on
        the feed once saved)."""
        return False

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to ``user_id``: what it draws from now on says so
        (in the channel instead, say)."""

    def sending_again(self) -> None:
        """This process sends again after another did: forget what was kept in memory of the
        owners (another process may have learnt more meanwhile)."""


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


@dataclass(frozen=True, slots=True)
class Send:
    """A request on its way: how it goes, under which lease epoch, since when."""

    attempt: Attempt
    epoch: int
    since: float


@dataclass(slots=True)
class Life:
    """Everything this process knows of one message of an owner (see the module)."""

    #: The copy Discord holds, as last sent or answered (None: none known).
    shown: MessageRecord | None = None
    #: The versions of this process's clicks' answers on their way to it, and since when.
    answering: dict[int, float] = field(default_factory=dict)
    #: A click's answer heard before the record of the message's post came.
    early: MessageRecord | None = None
    #: A follow-up of it is about to be posted (a pending post is in the store).
    posting: bool = False
    #: The send on its way.
    sending: Send | None = None
    #: Older copies of it (posted over), by message id, with the token that reaches each.
    older: dict[int, MessageRecord] = field(default_factory=dict)
    #: What the copy shown offers its player to act on (``MessageView.offers``), while it shows
    #: the look of this digest.
    offers: tuple[str, str | None] | None = None
    #: Private copies of it, by message id, each with the token that reaches it: a player's
    #: answers that show their hand (a move by command, ``/cribbage hand``), kept up to date
    #: while their tokens live.
    mirrors: dict[int, MessageRecord] = field(default_factory=dict)

    def passing(self, now: float) -> bool:
        """Whether it holds anything besides what it shows that must outlive a while out of
        memory (an answer, a post or a send on its way, an older copy a token reaches)."""
        for version, since in list(self.answering.items()):
            if now - since >= ANSWER_LANDS_WITHIN:
                del self.answering[version]  # (its end was never heard: taken as lost)
        if self.early is not None and not answer_on_its_way(self.early, now):
            self.early = None  # (its post's record never came: nothing was posted)
        for copies in (self.older, self.mirrors):
            for message_id, copy in list(copies.items()):
                if copy.token_at is None or now - copy.token_at >= TOKEN_USABLE:
                    del copies[message_id]
        return bool(
            self.answering
            or self.early
            or self.posting
            or self.sending
            or self.older
            or self.mirrors
        )


@dataclass(slots=True)
class _Owner:
    """An owner's lives, its channel, and whether its messages as shown were read."""

    lives: dict[str, Life] = field(default_factory=dict)
    channel_id: int | None = None
    read: bool = False
    unread: bool = False  # read again when next drawn (a change heard late)
    doubted: bool = False  # what its messages show is taken as unknown once read again
    touched: float = 0.0  # when a change of it was last heard
    #: When its latest changes were heard (what another sender may have spent on them).
    changes: deque[float] = field(default_factory=lambda: deque(maxlen=CHANNEL_WRITES))
    #: Held while its messages are read again from the store: whoever draws it meanwhile
    #: waits for that read (see MessageLedger._sent_of).
    reading: asyncio.Lock = field(default_factory=asyncio.Lock)

    def life(self, key: str) -> Life:
        found = self.lives.get(key)
        if found is None:
            found = self.lives[key] = Life()
        return found

    def shown(self) -> dict[str, MessageRecord]:
        return {key: life.shown for key, life in self.lives.items() if life.shown is not None}


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
    """Every owner's messages: what each should show, what it shows, what is on its way."""

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
        self._owners: OrderedDict[Owner, _Owner] = OrderedDict()
        #: What this process knows of the players' DM channels.
        self.dm_links = DmLinks(store, shared=shared)
        #: Follow-ups posted through each interaction's token where the bot is not a member.
        self.followups = FollowupBudget()
        # What was sent and is not written yet, by owner and key; the pending posts it clears
        # once written; and what is being written now (a read of the store meanwhile would
        # not see it).
        self._unwritten: dict[tuple[Owner, str], MessageRecord] = {}
        self._cleared: set[tuple[Owner, str]] = set()
        self._writing: list[dict[tuple[Owner, str], MessageRecord]] = []
        self._writer: asyncio.Task[None] | None = None
        # One write at a time: a flush waits for the write on its way (see flush).
        self._write_turn = asyncio.Lock()
        # When this process began keeping the ledger.
        self._started = self._now()
        feed.subscribe(self._heard)

    def add(self, kind: OwnerKind, projector: Projector) -> None:
        """Draw the messages of owners of ``kind`` with ``projector``."""
        self._projectors[kind] = projector

    def _now(self) -> float:
        return self._clock().timestamp()

    def _owner(self, owner: Owner) -> _Owner:
        """The owner's entry, made the newest; entries past :data:`SENT_KEPT` are forgotten,
        oldest first, all but what is on its way (kept until it is done)."""
        entry = self._owners.get(owner)
        if entry is None:
            entry = self._owners[owner] = _Owner()
        self._owners.move_to_end(owner)
        if len(self._owners) > SENT_KEPT:
            now = self._now()
            for old in list(self._owners)[: len(self._owners) - SENT_KEPT]:
                lives = self._owners[old].lives
                if not any(life.passing(now) for life in lives.values()):
                    del self._owners[old]
                else:  # what it shows is read again when next drawn
                    self._owners[old].read = False
                    for life in lives.values():
                        life.shown = None
        return entry

    # -- drawing --------------------------------------------------------------------------------
    async def owed(self, owner: Owner, now: float | None = None) -> Owing | None:
        """What every message of ``owner`` should show now, beside what was last sent (None
        for an owner that has no messages any more)."""
        sent = await self._sent_of(owner)
        moment = self._now() if now is None else now
        drawn = await self._projectors[owner.kind].draw(owner, moment, sent)
        if drawn is None:
            return None
        self._owner(owner).channel_id = drawn.channel_id
        return Owing(owner, drawn.channel_id, drawn.version, drawn.owed, sent, drawn.check_at)

    async def settled(self, owner: Owner) -> bool:
        """Whether every message ``owner`` keeps in its channel shows what it should now, as
        Discord confirmed and the store keeps it (the players' DMs aside): nothing more is
        owed there, nothing is on its way, and nothing of it rests in memory alone (what was
        sent is written first), so a decision taken on it holds across a stop."""
        if not await self.flush() or any(o == owner for o, _ in self._unwritten):
            return False
        entry = self._owners.get(owner)
        if entry is not None and any(life.sending for life in entry.lives.values()):
            return False
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

    # -- what it shows ----------------------------------------------------------------------------
    async def _sent_of(self, owner: Owner) -> dict[str, MessageRecord]:
        """What the owner's messages show: read once and then kept with every send and every
        click's answer heard of on the feed. Read again after a change heard late, and (other
        processes answering too) while a message's id is still to come."""
        entry = self._owner(owner)
        if not entry.reading.locked() and not self._stale(entry):
            return entry.shown()
        # One read at a time, and nobody draws from memory while one is on its way: a caller
        # that came while another read (the keeper's lanes start together after a takeover)
        # would otherwise draw from what was kept before it, without what the last sender
        # posted, and post it again.
        async with entry.reading:
            if not self._stale(entry):
                return entry.shown()
            entry.unread = False
            try:
                read = self._unconfirmed_unknown(await self._store.messages(owner))
            except BaseException:
                entry.unread = True  # (read again by the next to draw it)
                raise
            if entry.doubted:
                entry.doubted = False
                read = {key: dataclasses.replace(r, digest="") for key, r in read.items()}
            # What this process sent and has not written yet (or is writing now, so the read
            # may not have seen it) is newer than what was read.
            for unwritten in (*self._writing, self._unwritten):
                for (unwritten_owner, key), record in unwritten.items():
                    if unwritten_owner == owner and _replaces(record, read.get(key)):
                        read[key] = record
            for life in entry.lives.values():
                life.shown = None
            for key, record in read.items():
                entry.life(key).shown = record
            entry.read = True
        return entry.shown()

    def _stale(self, entry: _Owner) -> bool:
        """Whether what is kept of an owner's messages is to be read from the store first:
        never read, a change heard late, or (other processes answering too) a message's id
        still to come."""
        return (
            not entry.read
            or entry.unread
            or (
                self._shared
                and any(life.shown.message_id == 0 for life in entry.lives.values() if life.shown)
            )
        )

    def _unconfirmed_unknown(self, sent: dict[str, MessageRecord]) -> dict[str, MessageRecord]:
        """What was sent, as read from the store, with every click's answer that is not known to
        have landed taken as unknown (to be edited again): one kept longer than
        :data:`ANSWER_LANDS_WITHIN` ago, and, alone, one kept before this process started (the
        process that answered stopped before it knew; this one knows of its own)."""
        before = self._now() - ANSWER_LANDS_WITHIN
        if not self._shared:
            before = max(before, self._started)
        for key, record in sent.items():
            since = record.unconfirmed_since
            if since is not None and since < before:
                sent[key] = dataclasses.replace(record, digest="")
        return sent

    def _keep(self, owner: Owner, record: MessageRecord) -> None:
        """``record`` as what the message shows, unless what is kept of it is of a later
        version (only for an owner whose messages are in memory: the others are read)."""
        entry = self._owners.get(owner)
        if entry is not None and entry.read:
            life = entry.life(record.key)
            if _replaces(record, life.shown):
                life.shown = record

    def _set(self, owner: Owner, record: MessageRecord) -> None:
        """``record`` as what the message shows, whatever was kept of it."""
        entry = self._owners.get(owner)
        if entry is not None and entry.read:
            entry.life(record.key).shown = record

    # -- clicks' answers --------------------------------------------------------------------------
    def _heard(self, change: Change) -> None:
        """A change on the feed: a click's answer kept with it is what that message shows
        (if it is the message the owner keeps under that key: not a private copy)."""
        entry = self._owner(change.owner)
        entry.channel_id = change.channel_id
        entry.touched = self._now()
        entry.changes.append(entry.touched)
        if change.reread:
            entry.unread = True
        answered = change.answered
        if answered is None:
            return
        now = self._now()
        if not change.elsewhere:
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
            if change.elsewhere and known.version > answered.version:
                # Heard after this process edited that message for a later move: the other
                # process's answer may land over that edit, and then it is what the message
                # shows. Taken as shown until then, so the message is edited again once that
                # answer has landed (through its own token, which reaches it only then).
                life.shown = record
            else:
                self._keep(change.owner, record)
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
        lands."""
        entry = self._owners.get(owner)
        life = None if entry is None else entry.lives.get(record.key)
        if life is None:
            return False
        since = life.answering.get(record.version)
        return since is not None and self._now() - since < ANSWER_LANDS_WITHIN

    async def answered(
        self, sequel: Sequel, landed: bool, shown: Clicked | None, digest: str | None
    ) -> None:
        """An answer was sent (``landed``) or could not be. ``shown`` is the message that now
        shows it (for ``/cribbage new``: its answer), ``digest`` what it shows. A look kept
        with the move is confirmed, or forgotten if the answer never landed (the message is
        edited again); a look not kept with the move is kept now, with the interaction's
        token, which may edit that message again; a message the owner keeps that was only
        reached through the interaction's token learns its id. A private copy (from
        ``/cribbage hand``) is none of the owner's messages, and nothing is kept of it."""
        if sequel.key is None:
            return
        owner, key = sequel.owner, sequel.key
        if sequel.mirror is not None:
            if landed and shown is not None:
                self._mirrored(owner, key, shown, sequel.mirror, sequel.version)
            return
        entry = self._owners.get(owner)
        if entry is not None and key in entry.lives:
            entry.lives[key].answering.pop(sequel.version, None)
            mirror = entry.lives[key].mirrors.get(shown.message_id) if shown else None
            if mirror is not None:
                # A click's answer on a private copy: landed (what it shows) or not (unknown).
                confirmed = dataclasses.replace(
                    mirror,
                    unconfirmed_since=None,
                    digest=mirror.digest if landed else "",
                )
                entry.lives[key].mirrors[mirror.message_id] = confirmed
                return
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

    async def doubt(self, owner: Owner, message_id: int) -> None:
        """A control on the owner's message ``message_id`` was refused as being from an earlier
        moment of the owner: the message may show an older look than the one last sent to it
        (an edit that reached Discord after a newer one). Unless a click's answer to it is
        still on its way (whose landing brings it up to date), it is edited again: in this
        process at once; with several, by the one that sends, which finds it among the answers
        not known to have landed (as one that never did)."""
        lost = self._now() - ANSWER_LANDS_WITHIN - 1.0
        # What this process sent or heard land and has not written yet is written first (an
        # answer that landed a moment ago is confirmed in the store too).
        await self.flush()
        if not await self._store.doubt_look(owner, message_id, lost if self._shared else None):
            return
        entry = self._owners.get(owner)
        if entry is not None:
            for life in entry.lives.values():
                record = life.shown
                if (
                    record is not None
                    and record.message_id == message_id
                    and record.unconfirmed_since is None
                ):
                    life.shown = dataclasses.replace(record, digest="")
        self._look_again(owner)

    # -- what was sent ----------------------------------------------------------------------------
    def offered(self, owner: Owner, key: str, digest: str, offers: str | None) -> None:
        """The owner's message ``key`` was sent showing ``digest``, which offers its player
        ``offers`` to act on (see :meth:`bot.core.base.views.MessageView.offers`)."""
        self._owner(owner).life(key).offers = (digest, offers)

    def offering(self, owner: Owner, key: str, digest: str) -> str | None:
        """What the owner's message ``key``, showing ``digest``, offers its player to act on,
        as far as this process knows (None: nothing, or not known)."""
        entry = self._owners.get(owner)
        life = None if entry is None else entry.lives.get(key)
        if life is None or life.offers is None or life.offers[0] != digest or not digest:
            return None
        return life.offers[1]

    def sending(self, owner: Owner, key: str, send: Send | None) -> None:
        """A send of the owner's message ``key`` is on its way (``send``), or ended (None)."""
        life = self._owner(owner).life(key)
        life.sending = send

    async def sent(self, owner: Owner, records: Sequence[MessageRecord]) -> None:
        """Messages of ``owner`` were sent or edited as ``records`` say (each drawn at the
        version it carries): kept in memory now, written to the store a moment later with
        whatever else was sent meanwhile (:data:`~bot.core.base.timing.WRITE_BEHIND`,
        :meth:`flush`).

        A record of an older version than the look kept of the same message (a click's answer
        that landed while this edit was on its way) may have put that older look over the
        answer: what the message shows is then not known, and it is edited again. A message
        posted and clicked before its record came (the click's answer heard on the feed
        meanwhile) is kept as that answer shows it, and so is a message edited while a click's
        answer to it was heard of (the answer may land over the edit): it is edited again once
        that answer has landed."""
        clobbered = False
        entry = self._owner(owner)
        for record in records:
            life = entry.life(record.key)
            known = life.shown if entry.read else None
            record = _with_learned_id(record, known)
            early, life.early = life.early, None
            if known is not None and not _replaces(record, known):
                unknown = dataclasses.replace(known, digest="")
                self._keep(owner, unknown)
                self._unwrite(owner, unknown)
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
                and answer_on_its_way(early, self._now())
            ):
                # Posted, then clicked and answered before this record came: that answer
                # lands after the post, and may still be on its way.
                self._keep(owner, early)
            else:
                self._keep(owner, record)
            if life.posting:
                # Its pending post goes in the same write as its record.
                life.posting = False
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
            and known.message_id == record.message_id
            and known.token != record.token
            and answer_on_its_way(known, self._now())
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
        """Write what was sent and is not written yet, in one go, once the write on its way
        (the write-behind's) has ended: when it returns True everything sent is in the store.
        (Returning at once while a write was still on its way let a stopping sender give up
        its lease first: the process taking over read the store without the last post's
        record, and posted the hand again, leaving the first copy with live controls.) False
        if the store refused it (it is kept, to be written again)."""
        async with self._write_turn:
            return await self._write()

    async def _write(self) -> bool:
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

    async def kept(self, owner: Owner) -> dict[str, MessageRecord]:
        """The owner's messages as they show now, by key."""
        return dict(await self._sent_of(owner))

    async def gone(self, owner: Owner, key: str) -> None:
        """A message of ``owner`` is gone from Discord (someone deleted it): send it again."""
        await self._store.forget_message(owner, key)
        entry = self._owners.get(owner)
        if entry is not None and key in entry.lives:
            entry.lives[key].shown = None

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to this player (see :meth:`Projector.dms_refused`)."""
        await self._projectors[owner.kind].dms_refused(owner, user_id)

    # -- interactions' tokens -------------------------------------------------------------------
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
        answer; nothing was clicked). A click on an older copy of ``on`` (posted over since)
        gives a token that reaches that copy: it is closed through it."""
        now = self._now()
        record = reached(shown, key, digest, now, original=original, version=version)
        await self.sent(owner, [record])
        if clicked is None:
            return
        table = (await self._sent_of(owner)).get(on)
        if table is None:
            return
        if table.message_id != clicked.message_id:
            self.reached_older(owner, on, clicked)
            return
        refreshed = dataclasses.replace(table, token=clicked.token, token_at=now, original=True)
        self._keep(owner, refreshed)
        self._unwrite(owner, refreshed)

    def reached_older(self, owner: Owner, key: str, clicked: Clicked) -> None:
        """An interaction on an older copy of the owner's message ``key`` (one posted over, at
        a private table) was answered: its token reaches that copy for a while, and the copy
        is closed through it (it shows the message as it is, without controls)."""
        life = self._owner(owner).life(key)
        life.older[clicked.message_id] = reached(clicked, key, "", self._now())
        self._look_again(owner)

    def older(self, owner: Owner, key: str) -> list[MessageRecord]:
        """The older copies of the owner's message ``key`` that a live token reaches."""
        entry = self._owners.get(owner)
        life = None if entry is None else entry.lives.get(key)
        if life is None:
            return []
        life.passing(self._now())
        return list(life.older.values())

    def closed_older(self, owner: Owner, copy: MessageRecord) -> None:
        """An older copy was closed (or cannot be reached any more): nothing more is sent to
        it."""
        entry = self._owners.get(owner)
        life = None if entry is None else entry.lives.get(copy.key)
        if life is not None:
            life.older.pop(copy.message_id, None)

    def _mirrored(self, owner: Owner, key: str, shown: Clicked, digest: str, version: int) -> None:
        """An interaction's answer (``shown``) is a private copy of the owner's message ``key``
        showing ``digest``: kept up to date through its token while that lives (looked at at
        once: the owner may have changed while the answer was on its way)."""
        life = self._owner(owner).life(key)
        life.mirrors[shown.message_id] = reached(shown, key, digest, self._now(), version=version)
        self._look_again(owner)

    def mirrors(self, owner: Owner, key: str, before: Iterable[str] = ()) -> list[MessageRecord]:
        """The private copies of the owner's message ``key`` a live token reaches, with those
        of the messages it takes over (``before``: a player's hand of the deal before, whose
        copies follow their hand into the new deal)."""
        entry = self._owners.get(owner)
        if entry is None:
            return []
        now = self._now()
        life = entry.life(key)
        for old in before:
            moved = entry.lives.get(old)
            if moved is not None and moved.mirrors:
                for copy in moved.mirrors.values():
                    life.mirrors.setdefault(copy.message_id, dataclasses.replace(copy, key=key))
                moved.mirrors.clear()
        life.passing(now)
        return list(life.mirrors.values())

    def mirror_sent(self, owner: Owner, record: MessageRecord) -> None:
        """A private copy was edited to show what ``record`` says."""
        life = self._owner(owner).life(record.key)
        if record.message_id in life.mirrors:
            life.mirrors[record.message_id] = record

    def mirror_lost(self, owner: Owner, copy: MessageRecord) -> None:
        """A private copy cannot be reached any more: nothing more is sent to it."""
        entry = self._owners.get(owner)
        life = None if entry is None else entry.lives.get(copy.key)
        if life is not None:
            life.mirrors.pop(copy.message_id, None)

    async def carrier(self, owner: Owner, shown: Clicked, *, check: str | None = None) -> None:
        """An interaction about the owner was answered (``shown``: its answer, and the
        interaction's token): where the bot is not a member, that token may post the owner's
        table again once no other reaches it (kept under the key ``via``, which nothing draws).

        ``check``: the key of a message only tokens reach (a private table's table) that the
        answer did not touch. Its token may have lapsed without the bot knowing (Discord's clock
        is its own), and nothing would try it before the game next changes: it is sent again
        now, which edits it through its token while that lives (showing what it shows) and
        otherwise posts it again through this one."""
        await self.sent(owner, [reached(shown, VIA, "", self._now())])
        known = None if check is None else (await self._sent_of(owner)).get(check)
        if known is not None and known.token != shown.token and known.digest:
            # In memory only: a look forgotten here costs at most one edit of what it shows.
            self._keep(owner, dataclasses.replace(known, digest=""))
        self._look_again(owner)

    async def tokens_lapsed(self, owner: Owner, tokens: Iterable[str]) -> None:
        """Discord said these interactions' tokens may no longer reach the owner's messages
        (past their 15 minutes): the messages they reached are kept without them."""
        dead = set(tokens)
        changed = False
        for record in list((await self._sent_of(owner)).values()):
            if record.token is not None and record.token in dead:
                lapsed = dataclasses.replace(record, token=None, token_at=None, original=False)
                self._keep(owner, lapsed)
                self._unwrite(owner, lapsed)
                changed = True
        if changed:
            self._look_again(owner)  # what is drawn may say so (a mention on the table)

    async def _forget_look(self, owner: Owner, key: str, version: int | None) -> None:
        """What ``key`` shows is not known after all: it is edited again."""
        await self._store.forget_look(owner, key, version)
        entry = self._owners.get(owner)
        life = None if entry is None else entry.lives.get(key)
        known = None if life is None else life.shown
        if life is not None and known is not None and version in (None, known.version):
            life.shown = dataclasses.replace(known, digest="")

    def _look_again(self, owner: Owner, sequel: Sequel | None = None) -> None:
        """Have whatever sends the owner's messages draw them again (nothing of the owner
        itself changed)."""
        latest = self._feed.latest(owner)
        version = latest if latest is not None else (sequel.version if sequel else 0)
        entry = self._owners.get(owner)
        channel = sequel.channel_id if sequel is not None else None
        if channel is None and entry is not None:
            channel = entry.channel_id
        if channel is not None:
            self._feed.publish(Change(owner, version, channel))

    # -- posts that cannot be made idempotent ---------------------------------------------------
    async def posting(self, owner: Owner, key: str, channel_id: int) -> None:
        """A DM of ``owner`` is about to be posted in a way that cannot be made idempotent (an
        interaction's follow-up): remembered until :meth:`sent` keeps its id, so a process that
        starts or takes over after a stop in between looks for it (:meth:`pending_posts`)."""
        await self._store.set_pending(owner, PendingPost(key, channel_id, self._now()))
        self._owner(owner).life(key).posting = True

    async def pending_posts(self, owner: Owner) -> list[PendingPost]:
        """The owner's DMs that were about to be posted when the last process stopped."""
        return await self._store.pending_posts(owner)

    async def looked_for(self, owner: Owner, key: str) -> None:
        """A pending post was looked for (and kept, if found): forget it."""
        await self._store.clear_pending(owner, key)

    # -- start-up, takeover and housekeeping ----------------------------------------------------
    async def to_reconcile(self) -> list[tuple[Owner, int]]:
        """Every owner (and its channel) whose messages may be owed something: what start-up
        brings up to date."""
        now = self._now()
        found: list[tuple[Owner, int]] = []
        for projector in self._projectors.values():
            found += await projector.to_reconcile(now)
        return found

    def touched_since(self, since: float) -> list[tuple[Owner, int]]:
        """The owners (and their channels) whose changes were heard since ``since`` (as far
        back as :data:`TOUCHED_KEPT`): the messages another sender may have been sending."""
        return [
            (owner, entry.channel_id)
            for owner, entry in self._owners.items()
            if entry.touched >= since and entry.channel_id is not None
        ]

    def changes_of(self, owner: Owner) -> list[float]:
        """When the owner's latest changes were heard (at most a channel's count of them)."""
        entry = self._owners.get(owner)
        return [] if entry is None else list(entry.changes)

    def reassert(self, owners: Iterable[Owner]) -> None:
        """What these owners' messages show is not known after all (another process may have
        sent to them as it stopped): each is edited again, in memory only (a look forgotten
        costs one edit at most)."""
        for owner in owners:
            entry = self._owners.get(owner)
            if entry is None:
                continue
            entry.unread = entry.doubted = True  # read again, and taken as unknown
            entry.touched = 0.0

    def forget(self, owner: Owner) -> None:
        """Drop what is kept in memory of an owner that has no messages any more."""
        self._owners.pop(owner, None)
        for key in [k for k in self._unwritten if k[0] == owner]:
            del self._unwritten[key]
        self._cleared = {k for k in self._cleared if k[0] != owner}

    def sending_again(self) -> None:
        """This process sends again after another did meanwhile: what it kept in memory may be
        out of date, so every owner's messages are read again from the store."""
        for entry in self._owners.values():
            entry.unread = True
        for projector in self._projectors.values():
            projector.sending_again()
