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
(several processes on one PostgreSQL database), what was sent is read from the store each time.
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.feed import Change, ChangeFeed
from bot.core.messages import Owed
from bot.core.owners import Owner, OwnerKind
from bot.core.records import DmLink, MessageRecord, PendingPost
from bot.core.replies import Clicked, Sequel
from bot.core.storage import MessageRecords

__all__ = ["DM_LINK_REFRESH_SECONDS", "Drawing", "MessageLedger", "Owing", "Projector"]

#: How often a player's latest DM interaction is written down (its token lives 15 minutes).
DM_LINK_REFRESH_SECONDS = 300.0
#: Owners whose sent messages are kept in memory (the rest are read again when next drawn).
SENT_KEPT = 512


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
    ) -> None:
        """``shared``: other processes answer clicks on the same messages (what was sent is
        then read from the store each time)."""
        self._store = store
        self._feed = feed
        self._clock = clock
        self._shared = shared
        self._projectors: dict[OwnerKind, Projector] = {}
        # owner -> what was last sent of its messages (kept with every change this process
        # makes or hears of: it is the one that sends them).
        self._sent: OrderedDict[Owner, dict[str, MessageRecord]] = OrderedDict()
        # (owner, key) of the DMs this process said it was about to post (see posting).
        self._posting: set[tuple[Owner, str]] = set()
        # user id -> until when their DM link need not be written again.
        self._dm_linked: dict[int, float] = {}
        # owner -> the channel its channel messages go to (from its changes and drawings).
        self._channels: dict[Owner, int] = {}
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

    def moved_on(self, owing: Owing) -> bool:
        """Whether the owner has changed since ``owing`` was drawn, or is changing now in this
        process: then what it owes is stale, draw it again."""
        if self._projectors[owing.owner.kind].moving(owing.owner):
            return True
        latest = self._feed.latest(owing.owner)
        return latest is not None and latest != owing.version

    # -- what was sent --------------------------------------------------------------------------
    async def _sent_of(self, owner: Owner) -> dict[str, MessageRecord]:
        """What was last sent of an owner's messages: read once and then kept with every send
        (read every time when other processes keep what their answers show)."""
        if self._shared:
            return await self._store.messages(owner)
        sent = self._sent.get(owner)
        if sent is None:
            sent = await self._store.messages(owner)
            self._sent[owner] = sent
            while len(self._sent) > SENT_KEPT:
                self._sent.popitem(last=False)
        self._sent.move_to_end(owner)
        return sent

    def _keep(self, owner: Owner, record: MessageRecord) -> None:
        """``record`` in this process's memory of what was sent, unless what is kept of the
        same message is of a later version."""
        sent = self._sent.get(owner)
        if sent is None:
            return
        known = sent.get(record.key)
        if (
            known is None
            or known.message_id != record.message_id
            or known.version <= record.version
        ):
            sent[record.key] = record

    def _heard(self, change: Change) -> None:
        """A change on the feed: a click's answer kept with it is what that message shows
        (if it is the message the owner keeps under that key: not a private copy)."""
        self._channels[change.owner] = change.channel_id
        answered = change.answered
        if answered is None:
            return
        sent = self._sent.get(change.owner)
        known = None if sent is None else sent.get(answered.key)
        if known is not None and known.message_id in (answered.message_id, 0):
            self._keep(change.owner, dataclasses.replace(answered, message_id=known.message_id))
        elif sent is not None and known is None and answered.message_id == 0:
            sent[answered.key] = answered  # /cribbage new's answer: the lobby, id to come

    async def sent(self, owner: Owner, records: Sequence[MessageRecord]) -> None:
        """Messages of ``owner`` were sent or edited as ``records`` say (each drawn at the
        version it carries). One that lost to a record of a later version, kept meanwhile by a
        click's answer, may have put an older look over that answer: it is edited again."""
        if not records:
            return
        posted = [r.key for r in records if (owner, r.key) in self._posting]
        self._posting.difference_update((owner, key) for key in posted)
        overtaken = await self._store.set_messages(owner, records, posted=posted)
        for record in records:
            self._keep(owner, record)
        if overtaken:
            for key in overtaken:
                await self._forget_look(owner, key, None)
            self._look_again(owner)

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
        await self._store.set_answered(owner, record)
        self._keep(owner, record)

    async def _forget_look(self, owner: Owner, key: str, version: int | None) -> None:
        """What ``key`` shows is not known after all: it is edited again."""
        await self._store.forget_look(owner, key, version)
        sent = self._sent.get(owner)
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
        sent = self._sent.get(owner)
        if sent is not None:
            sent.pop(key, None)

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to this player (see :meth:`Projector.dms_refused`)."""
        await self._projectors[owner.kind].dms_refused(owner, user_id)

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
    async def dm_link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known."""
        return await self._store.dm_link(user_id)

    async def dm_linked(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there). A click
        refreshes it at most every few minutes: a token lives 15, and this is asked often."""
        now = time.monotonic()
        if link.token is not None:
            if self._dm_linked.get(link.user_id, 0.0) > now:
                return
            self._dm_linked[link.user_id] = now + DM_LINK_REFRESH_SECONDS
        await self._store.set_dm_link(link)

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
        self._sent.pop(owner, None)
        self._channels.pop(owner, None)
