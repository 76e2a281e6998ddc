"""What each message shows (``Life.shown``): read from the store once, then kept with every send.

Alone, the process that sends is the only one writing what was sent, so an owner's messages are
read once and then kept in memory with every send and every click's answer heard of on the feed.
They are read again after a change heard late, and (other processes answering clicks too) while a
message's id is still to come; one read at a time, and whoever draws the owner meanwhile waits
for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from bot.core.base.keys import VIA, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.timing import ANSWER_LANDS_WITHIN
from bot.core.base.views import MessageRecord
from bot.core.ledger.life import Again, Lives, OwnerLives, replaces
from bot.core.ledger.routes import answer_on_its_way
from bot.core.ledger.storage import MessageRecords
from bot.core.ledger.writes import WriteBehind

__all__ = ["Shown"]


def _clicked_on(answer: MessageRecord, record: MessageRecord) -> bool:
    """Whether ``answer``, a click's answer to the message ``record`` is of, was made on the
    look ``record`` gave it: the click's controls were drawn at ``record``'s version, and a
    look drawn at a version is sent only where the message does not show it yet, so the
    click was made on this one, after it landed."""
    return (
        answer.seen is not None
        and answer.seen == record.version
        and answer.version > record.version
        and answer.message_id == record.message_id
    )


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


class Shown:
    """What the owners' messages show, as Discord confirmed it: read once, kept in memory."""

    def __init__(
        self,
        store: MessageRecords,
        lives: Lives,
        writes: WriteBehind,
        now: Callable[[], float],
        *,
        shared: bool,
    ) -> None:
        """``shared``: other processes answer clicks on the same messages, and keep what their
        answers show (what was sent is read again while a message's id is still to come)."""
        self._store = store
        self._lives = lives
        self._writes = writes
        self._now = now
        self._shared = shared
        # When this process began keeping the ledger.
        self._started = now()

    async def kept(self, owner: Owner) -> dict[MessageKey, MessageRecord]:
        """The owner's messages as they show now, by key: read once and then kept with every
        send and every click's answer heard of on the feed. Read again after a change heard
        late, and (other processes answering too) while a message's id is still to come."""
        entry = self._lives.of(owner)
        if not entry.reading.locked() and not self._stale(entry):
            return entry.shown()
        # One read at a time, and nobody draws from memory while one is on its way: a caller
        # that came while another read (the keeper's lanes start together after a takeover)
        # would otherwise draw from what was kept before it, without what the last sender
        # posted, and post it again.
        async with entry.reading:
            if not self._stale(entry):
                return entry.shown()
            again, entry.again = entry.again, None
            try:
                read = self._unconfirmed_unknown(await self._store.messages(owner))
            except BaseException:
                entry.read_again(again or Again.READ)  # (read again by the next to draw it)
                raise
            # A doubt asked for while the read was on its way is this read's (the store may
            # have answered before it was asked): the next read, asked for with it, is plain.
            if Again.DOUBT in (again, entry.again):
                if entry.again is Again.DOUBT:
                    entry.again = Again.READ
                read = {key: dataclasses.replace(r, digest="") for key, r in read.items()}
            # What this process sent and has not written yet (or is writing now, so the read
            # may not have seen it) is newer than what was read.
            read = self._writes.over(owner, read)
            for life in entry.lives.values():
                life.shown = None
            for key, record in read.items():
                if key.copy is None:
                    entry.life(key).shown = record
                elif record.token is not None:
                    # A private copy written down (by a process before this one, say): kept up
                    # to date through its token while that lives; what this process knows of
                    # it is newer.
                    of = key.message()
                    entry.life(of).mirrors.setdefault(key.copy, dataclasses.replace(record, key=of))
            entry.read = True
        return entry.shown()

    def _stale(self, entry: OwnerLives) -> bool:
        """Whether what is kept of an owner's messages is to be read from the store first:
        never read, a change heard late, or (other processes answering too) a message's id
        still to come (an answer's, learnt through its token: a call taken as posted after a
        stop keeps no id, nor does a carrier with no message of its own, and none comes)."""
        return (
            not entry.read
            or entry.again is not None
            or (
                self._shared
                and any(
                    life.shown.message_id == 0 and life.shown.token is not None
                    for key, life in entry.lives.items()
                    if life.shown and key != VIA
                )
            )
        )

    def _unconfirmed_unknown(
        self, sent: dict[MessageKey, MessageRecord]
    ) -> dict[MessageKey, MessageRecord]:
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

    def keep(self, owner: Owner, record: MessageRecord) -> None:
        """``record`` as what the message shows, unless what is kept of it is of a later
        version (only for an owner whose messages are in memory: the others are read)."""
        entry = self._lives.get(owner)
        if entry is not None and entry.read:
            life = entry.life(record.key)
            if replaces(record, life.shown):
                life.shown = record

    def keep_and_write(self, owner: Owner, record: MessageRecord) -> None:
        """``record`` as what the message shows (see :meth:`keep`), written to the store soon."""
        self.keep(owner, record)
        self._writes.write(owner, record)

    async def sent(self, owner: Owner, records: Sequence[MessageRecord]) -> None:
        """Messages of ``owner`` were sent or edited as ``records`` say (each drawn at the
        version it carries): kept in memory now, written to the store a moment later with
        whatever else was sent meanwhile (:data:`~bot.core.base.timing.WRITE_BEHIND`,
        :meth:`WriteBehind.flush <bot.core.ledger.writes.WriteBehind.flush>`).

        A record of an older version than the look kept of the same message (a click's answer
        that landed while this edit was on its way) may have put that older look over the
        answer: what the message shows is then not known, and it is edited again. A message
        posted and clicked before its record came (the click's answer heard on the feed
        meanwhile) is kept as that answer shows it, and so is a message edited while a click's
        answer to it was heard of (the answer may land over the edit): it is edited again once
        that answer has landed."""
        clobbered = False
        entry = self._lives.of(owner)
        for record in records:
            life = entry.life(record.key)
            known = life.shown if entry.read else None
            record = _with_learned_id(record, known)
            early, life.early = life.early, None
            redraws, life.redraws = life.redraws, None
            if known is not None and _clicked_on(known, record) and redraws != record.version:
                # A click's answer made on the very look this edit gave (its controls' stamp
                # is this edit's version): the edit had landed before the click, so it cannot
                # have landed over the answer. Taken as it might have, it was sent again
                # through the answer's token, and on the internet that second edit often
                # landed after the player's next click's answer, showing its used controls
                # again (issue 46). Not so for an edit that drew again a look the message may
                # have shown already: the click may have been made on that earlier copy, and
                # its answer landed before this edit (after a restart: the answer taken as
                # lost had landed, and the player clicked it while it was sent again).
                continue
            if known is not None and not replaces(record, known):
                self.keep_and_write(owner, dataclasses.replace(known, digest=""))
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
                self.keep(owner, early)
            else:
                self.keep(owner, record)
            # Its pending post, if any, goes in the same write as its record.
            self._writes.write(owner, record, posted=life.posting)
            life.posting = False
        if clobbered:
            self._lives.look_again(owner)

    def sending_look(self, owner: Owner, key: MessageKey, version: int) -> None:
        """A look drawn at ``version`` is about to be sent to the owner's message ``key``:
        noted when the message may show a look of that version already, for :meth:`sent` (a
        click made on that version may have been made on the earlier copy)."""
        life = self._lives.of(owner).life(key)
        known = life.shown
        life.redraws = version if known is not None and known.version >= version else None

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

    async def forget_look(self, owner: Owner, key: MessageKey, version: int | None) -> None:
        """What ``key`` shows is not known after all: it is edited again."""
        await self._store.forget_look(owner, key, version)
        life = self._lives.find(owner, key)
        known = None if life is None else life.shown
        if life is not None and known is not None and version in (None, known.version):
            life.shown = dataclasses.replace(known, digest="")

    async def gone(self, owner: Owner, key: MessageKey) -> None:
        """A message of ``owner`` is gone from Discord (someone deleted it): send it again."""
        await self._store.forget_message(owner, key)
        life = self._lives.find(owner, key)
        if life is not None:
            life.shown = None
