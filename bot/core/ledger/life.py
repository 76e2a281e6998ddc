"""A message's life: from a saved change to what Discord shows, in one place.

An owner (a game, a tournament: :mod:`bot.core.base.owners`) keeps a few messages on Discord, each
under a stable key (``table:3``, ``hand:3:1``). For each (owner, key) the ledger knows, as a
:class:`Life`:

1. **What it should show.** A :class:`~bot.core.base.delivery.Projector` draws every message of
   an owner from the stored owner (a game's: :mod:`bot.core.messages.game_messages`). A message
   is *owed* when what it should show differs from what it shows
   (:meth:`MessageLedger.owed <bot.core.ledger.ledger.MessageLedger.owed>`).
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
   (:class:`~bot.core.ledger.touches.Touches`).
4. **Clicks' answers**, which are part of the life, not beside it: a click on a message the owner
   keeps is answered by updating that message, and the look it gives is *kept* with the move (in
   the move's transaction: ``unconfirmed_since`` set), then *landed* (the Discord layer heard it
   land: :meth:`Answers.answered <bot.core.ledger.answers.Answers.answered>`) or *lost* (it
   never did, or not within :data:`~bot.core.base.timing.ANSWER_LANDS_WITHIN`: the message is
   edited again). While an answer may be on its way, nothing else is sent to that message (it
   would be overwritten). This process's own answers on their way are ``Life.answering`` (those
   a send waits for, ``Life.awaited``: it goes the moment the answer is heard, each answer
   confirming its own look only); one heard before the record of its message's post came (the
   player clicked the moment it appeared) is ``Life.early``.
5. **Copies**: a message posted again (a private table's table, once no token reaches it) leaves
   its older copy behind; one clicked again gives a token that reaches it, and it is closed
   through it (``Life.older``: it shows the table as it is, without controls, saying it moved).
   A player's answers that show their hand are private copies of it (``Life.mirrors``), kept up
   to date while their tokens live, and written down beside it (a process that starts again
   keeps them up to date too).
6. **What reaches the store.** What was sent is kept in memory at once and written a moment later
   (:data:`~bot.core.base.timing.WRITE_BEHIND`), many messages in one statement. A follow-up, which
   takes no nonce, is noted as about to be posted first (``Life.posting``, and a pending post in
   the store), so a process that starts or takes over looks for it. No decision rests on what
   is only in memory: :meth:`MessageLedger.settled
   <bot.core.ledger.ledger.MessageLedger.settled>` writes first.

Alone, the process that sends is the only one writing what was sent, so the ledger reads an
owner's messages once and keeps them in memory. With other processes answering clicks on the
same messages (several processes on one PostgreSQL database), their answers reach it with the
changes they announce (told to the ledger before each is published:
:meth:`Answers.answer_kept_elsewhere <bot.core.ledger.answers.Answers.answer_kept_elsewhere>`),
and what was sent is read again from the store after a change heard late, or when the owner is
drawn at a version whose change is not heard yet (a click's answer kept with it is then in the
store alone).

This module is the model: the life, the lives kept in memory (:class:`Lives`), and the records
the ledger makes of what the wings tell it (:func:`answer_record`). The mechanics are beside it,
one job each, put together by :class:`~bot.core.ledger.ledger.MessageLedger` and handed to whoever
needs each: what each message shows (:mod:`~bot.core.ledger.shown`), what reaches the store
(:mod:`~bot.core.ledger.writes`), clicks' answers (:mod:`~bot.core.ledger.answers`), copies
reached through tokens (:mod:`~bot.core.ledger.copies`) and what a takeover looks at again
(:mod:`~bot.core.ledger.touches`). The wings speak to them through the port,
:mod:`bot.core.base.delivery`: a :class:`~bot.core.base.delivery.Projector` draws an owner's
messages, a change's publisher tells of a click's answer kept with it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

from bot.core.base.delivery import AnswerKept, Owed
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked, Sequel
from bot.core.base.timing import ANSWER_LANDS_WITHIN, CHANNEL_WRITES, TOKEN_USABLE
from bot.core.base.views import MessageRecord
from bot.core.ledger.routes import answer_on_its_way
from bot.core.ledger.transport import Attempt

__all__ = [
    "SENT_KEPT",
    "Again",
    "Life",
    "Lives",
    "Owing",
    "OwnerLives",
    "Send",
    "answer_record",
    "reached",
    "replaces",
]

#: Owners whose messages are kept in memory (the rest are read again when next drawn).
SENT_KEPT = 512


def answer_record(answer: AnswerKept) -> MessageRecord:
    """The ledger's record of a click's answer kept with its move (as a wing says it): the
    clicked message shows the answer's look, drawn at its version, once the answer lands (not
    yet known to: ``unconfirmed_since``); the click's token (its original response is the
    message clicked) may edit it again. The store keeps the same record with the move."""
    record = reached(
        answer.clicked,
        answer.key,
        answer.digest,
        answer.at,
        version=answer.version,
        unconfirmed_since=answer.at,
    )
    return dataclasses.replace(record, seen=answer.seen)


def reached(
    shown: Clicked,
    key: MessageKey,
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
class Owing:
    """What an owner's messages should show now (``owed``, in sending order) beside what was
    last sent (``sent``, by key), and when to look again for a reminder falling due:
    ``check_at`` on the core's clock, ``check_in`` seconds from the moment it was drawn (the
    keeper times it so, whatever its own clock reads); ``again``: once this shows, the owner
    owes another look (:attr:`Drawing.again <bot.core.base.delivery.Drawing.again>`)."""

    owner: Owner
    channel_id: int
    version: int
    owed: tuple[Owed, ...]
    sent: Mapping[MessageKey, MessageRecord]
    check_at: float | None
    check_in: float | None
    again: bool = False


@dataclass(slots=True)
class Send:
    """A request on its way: how it goes, under which lease epoch, since when; when it was
    written to the network (the event loop's clock; None: waiting for its turn), and an event
    set once it has come back (answered, or given up)."""

    attempt: Attempt
    epoch: int
    since: float
    written: float | None = None
    back: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(slots=True)
class Life:
    """Everything this process knows of one message of an owner (see the module)."""

    #: The copy Discord holds, as last sent or answered (None: none known).
    shown: MessageRecord | None = None
    #: The versions of this process's clicks' answers on their way to it, and since when.
    answering: dict[int, float] = field(default_factory=dict)
    #: Those of them a send to it waits for: it is looked at again the moment one is heard.
    awaited: set[int] = field(default_factory=set)
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
    #: while their tokens live (written down too, under :meth:`MessageKey.copy_at
    #: <bot.core.base.keys.MessageKey.copy_at>`: a process that
    #: starts again keeps them up to date, their controls never left for moves made since).
    mirrors: dict[int, MessageRecord] = field(default_factory=dict)
    #: Its player asked for it (a private table's *Your hand*, ``/cribbage hand`` there) and
    #: the answer that shows it is on its way, since then: it may be in front of them already.
    opening: float | None = None
    #: The version of the look a send on its way draws again: the message may show a look of
    #: that version already (an answer taken as lost that landed after all), so a click made on
    #: that version may have been made on the earlier copy (:meth:`Shown.sent
    #: <bot.core.ledger.shown.Shown.sent>`).
    redraws: int | None = None

    def passing(self, now: float) -> bool:
        """Whether it holds anything besides what it shows that must outlive a while out of
        memory (an answer, a post or a send on its way, an older copy a token reaches)."""
        for version, since in list(self.answering.items()):
            if now - since >= ANSWER_LANDS_WITHIN:
                del self.answering[version]  # (its end was never heard: taken as lost)
        self.awaited &= self.answering.keys()
        if self.early is not None and not answer_on_its_way(self.early, now):
            self.early = None  # (its post's record never came: nothing was posted)
        if self.opening is not None and now - self.opening >= ANSWER_LANDS_WITHIN:
            self.opening = None  # (its end was never heard: taken as lost)
        for copies in (self.older, self.mirrors):
            for message_id, copy in list(copies.items()):
                if copy.token_at is None or now - copy.token_at >= TOKEN_USABLE:
                    del copies[message_id]
        return bool(
            self.answering
            or self.early
            or self.opening
            or self.posting
            or self.sending
            or self.older
            or self.mirrors
        )


class Again(Enum):
    """What is kept in memory of an owner's messages may be out of date: they are read again
    from the store when next drawn (``READ``: a change heard late, another process sent
    meanwhile, a version drawn ahead of every change heard), and, ``DOUBT``, every look read is
    taken as unknown (another sender may have sent to them as it stopped): each is edited
    again. Of two asked for, the stronger holds: ``DOUBT`` over ``READ``."""

    READ = 1
    DOUBT = 2

    def with_(self, other: Again | None) -> Again:
        """The stronger of this and ``other``."""
        return self if other is None or self.value >= other.value else other


@dataclass(slots=True)
class OwnerLives:
    """An owner's lives, its channel, and whether its messages as shown were read."""

    lives: dict[MessageKey, Life] = field(default_factory=dict)
    channel_id: int | None = None
    #: Its messages were read from the store, and what is kept of them since is what they show
    #: (sends and clicks' answers kept as they come); False: never read, or forgotten.
    read: bool = False
    #: Read again when next drawn, and how (None: what is kept holds).
    again: Again | None = None
    touched: float = 0.0  # when a change of it was last heard
    #: The version of it whose draw, ahead of every change heard, had its messages read again.
    reread_for: int = 0
    #: When its latest changes were heard (what another sender may have spent on them).
    changes: deque[float] = field(default_factory=lambda: deque(maxlen=CHANNEL_WRITES))
    #: Held while its messages are read again from the store: whoever draws it meanwhile
    #: waits for that read (see :meth:`Shown.kept <bot.core.ledger.shown.Shown.kept>`).
    reading: asyncio.Lock = field(default_factory=asyncio.Lock)

    def read_again(self, how: Again = Again.READ) -> None:
        """Have its messages read again from the store when next drawn (``how``: see
        :class:`Again`; a doubt asked for is never lessened to a plain read)."""
        self.again = how.with_(self.again)

    def life(self, key: MessageKey) -> Life:
        found = self.lives.get(key)
        if found is None:
            found = self.lives[key] = Life()
        return found

    def shown(self) -> dict[MessageKey, MessageRecord]:
        return {key: life.shown for key, life in self.lives.items() if life.shown is not None}


def replaces(record: MessageRecord, known: MessageRecord | None) -> bool:
    """Whether ``record`` is what a message shows rather than ``known``: it is of the same
    version of the owner or a later one, or it is another message (the one before deleted)."""
    return known is None or known.message_id != record.message_id or known.version <= record.version


class Lives:
    """Every owner whose messages this process keeps in memory, with their lives: at most
    :data:`SENT_KEPT` of them, the least recently used forgotten first (all but what is on its
    way, kept until it is done); and the way to have an owner's messages drawn again."""

    def __init__(self, feed: ChangeFeed, now: Callable[[], float]) -> None:
        self._feed = feed
        self._now = now
        self._owners: OrderedDict[Owner, OwnerLives] = OrderedDict()

    def of(self, owner: Owner) -> OwnerLives:
        """The owner's entry, made the newest; entries past :data:`SENT_KEPT` are forgotten,
        oldest first, all but what is on its way (kept until it is done)."""
        entry = self._owners.get(owner)
        if entry is None:
            entry = self._owners[owner] = OwnerLives()
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

    def get(self, owner: Owner) -> OwnerLives | None:
        """The owner's entry, if it has one (left where it is among the others)."""
        return self._owners.get(owner)

    def find(self, owner: Owner, key: MessageKey) -> Life | None:
        """The life of the owner's message ``key``, if one is kept."""
        entry = self._owners.get(owner)
        return None if entry is None else entry.lives.get(key)

    def items(self) -> Iterator[tuple[Owner, OwnerLives]]:
        """Every owner kept, with its entry."""
        return iter(list(self._owners.items()))

    def forget(self, owner: Owner) -> None:
        """Drop the owner's entry."""
        self._owners.pop(owner, None)

    def newer_than(self, owner: Owner, version: int) -> bool:
        """Whether a change of the owner after ``version`` has been heard."""
        latest = self._feed.latest(owner)
        return latest is not None and latest > version

    def look_again(self, owner: Owner, sequel: Sequel | None = None) -> None:
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
