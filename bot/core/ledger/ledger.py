"""The ledger put together: every owner's messages, what each should show and what it shows.

:mod:`bot.core.ledger.life` tells a message's life; :class:`MessageLedger` keeps one per (owner,
key), with a part for each job on the same lives. Each part is handed to whoever needs it where
the bot is assembled (the core's :mod:`~bot.core.services`, the keeper's crew): nobody asks the
ledger to pass a question on to a part, and nobody reaches a part through it.

- ``shown``: what each message shows, read once and kept with every send (the keeper);
- ``writes``: what reaches the store: the write-behind, ``flush``, the pending posts (the keeper);
- ``answers``: clicks' answers: told by a change's publisher (the port
  :class:`~bot.core.base.delivery.MessageNews`: the games, ranked play, another process's
  announcements), landed or lost (``Services.answered``), ``doubt``;
- ``copies``: copies that interactions' tokens reach: private copies, older copies, and the
  carriers (the port :class:`~bot.core.base.delivery.Carriers`: a private table's resume,
  ranked play), a hand opened (``Services.opened``);
- ``touches``: when each owner's changes were heard, what a takeover looks at again (the keeper);
- ``dm_links``, ``followups``, ``lapsed``: what is known of interactions' tokens (``tokens.py``:
  the keeper, and the Discord layer for a DM click's link).

The ledger itself draws (:meth:`MessageLedger.owed`), says whether an owner is settled, and notes
what the keeper has on its way.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.core.base.delivery import Projector
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner, OwnerKind
from bot.core.ledger.answers import Answers
from bot.core.ledger.copies import Copies
from bot.core.ledger.life import Lives, Owing, Send
from bot.core.ledger.shown import Shown
from bot.core.ledger.storage import MessageRecords
from bot.core.ledger.tokens import DmLinks, FollowupBudget, LapsedTokens
from bot.core.ledger.touches import Touches
from bot.core.ledger.writes import WriteBehind

__all__ = ["MessageLedger"]


class MessageLedger:
    """Every owner's messages: what each should show, what it shows, what is on its way."""

    def __init__(
        self,
        store: MessageRecords,
        feed: ChangeFeed,
        clock: Callable[[], datetime],
        *,
        faults: Faults,
        shared: bool = False,
    ) -> None:
        """``shared``: other processes answer clicks on the same messages, and keep what their
        answers show (told before each change they announce is published; what was sent is read
        again from the store when a change was heard late, or a message's id is still to come).
        ``faults``: where a store that fails is noted."""
        self._feed = feed
        self._clock = clock
        self._shared = shared
        self._projectors: dict[OwnerKind, Projector] = {}
        self._lives = Lives(feed, self._now)
        #: What was sent and is not written yet, written soon; the pending posts.
        self.writes = WriteBehind(store, self._lives, self._now, faults)
        #: What each message shows, as Discord confirmed it.
        self.shown = Shown(store, self._lives, self.writes, self._now, shared=shared)
        #: The copies of the owners' messages that interactions' tokens reach.
        self.copies = Copies(self._lives, self.shown, self.writes, self._now)
        #: The clicks' answers: on their way, landed, lost.
        self.answers = Answers(
            store, self._lives, self.shown, self.writes, self.copies, self._now, shared=shared
        )
        #: When each owner's changes were heard (what a takeover looks at again).
        self.touches = Touches(self._lives, self._now)
        #: What this process knows of the players' DM channels.
        self.dm_links = DmLinks(store, shared=shared)
        #: Follow-ups posted through each interaction's token where the bot is not a member.
        self.followups = FollowupBudget()
        #: The tokens Discord called expired before this process's clock said so.
        self.lapsed = LapsedTokens()
        feed.subscribe(self._heard)

    def add(self, kind: OwnerKind, projector: Projector) -> None:
        """Draw the messages of owners of ``kind`` with ``projector``."""
        self._projectors[kind] = projector

    def _now(self) -> float:
        return self._clock().timestamp()

    def draws(self, owner: Owner) -> bool:
        """Whether ``owner`` is of a kind that keeps messages here (a person keeps none: their
        changes on the feed are for what the core keeps of them)."""
        return owner.kind in self._projectors

    def _heard(self, change: Change) -> None:
        """A change on the feed: its owner's channel, and when it was heard."""
        if not self.draws(change.owner):
            return
        entry = self._lives.of(change.owner)
        entry.channel_id = change.channel_id
        self.touches.heard(entry)

    # -- drawing --------------------------------------------------------------------------------
    async def owed(self, owner: Owner, now: float | None = None) -> Owing | None:
        """What every message of ``owner`` should show now, beside what was last sent (None
        for an owner that has no messages any more)."""
        heard = self._heard_of(owner)  # (what ``sent`` holds, at least)
        sent = await self.shown.kept(owner)
        moment = self._now() if now is None else now
        projector = self._projectors[owner.kind]
        drawn = await projector.draw(owner, moment, sent)
        if drawn is not None and self._shared and drawn.version > heard:
            # Another process saved this version a moment ago and its change is not heard here
            # yet: a click's answer kept with it is in the store and not in memory. An edit
            # drawn without it goes out while that answer is on its way to the same message:
            # landing after it, the edit shows for a moment the controls the click has just
            # used (a player quick enough clicks them and is told they are out of date); at a
            # private table, landing before it, Discord refuses the answer where the edit laid
            # out what it says in plain text. What the messages show is read again (once for
            # that version: unless its change was heard, or another lane read them, since this
            # one took what it kept) and the owner drawn on that: the answer is then waited for.
            if self._heard_of(owner) < drawn.version:
                entry = self._lives.of(owner)
                entry.read_again()
                entry.reread_for = drawn.version
            sent = await self.shown.kept(owner)
            drawn = await projector.draw(owner, moment, sent)
        if drawn is None:
            return None
        self._lives.of(owner).channel_id = drawn.channel_id
        check_at = drawn.check_at
        # (Seconds from the moment drawn: the core's clock is not the keeper's in tests.)
        check_in = None if check_at is None else check_at - moment
        return Owing(
            owner,
            drawn.channel_id,
            drawn.version,
            drawn.owed,
            sent,
            check_at,
            check_in,
            drawn.again,
        )

    async def settled(self, owner: Owner) -> bool:
        """Whether every message ``owner`` keeps in its channel shows what it should now, as
        Discord confirmed and the store keeps it (the players' DMs aside): nothing more is
        owed there, nothing is on its way, and nothing of it rests in memory alone (what was
        sent is written first), so a decision taken on it holds across a stop."""
        if not await self.writes.flush() or self.writes.holds(owner):
            return False
        entry = self._lives.get(owner)
        if entry is not None and any(life.sending for life in entry.lives.values()):
            return False
        owing = await self.owed(owner)
        if owing is None:
            return True
        return not any(o.user_id is None and o.due(owing.sent.get(o.key)) for o in owing.owed)

    def _heard_of(self, owner: Owner) -> int:
        """The version of the owner up to which what is kept of its messages holds every click's
        answer kept with a change: the latest change heard of it, or a version its messages
        were read again for. (A later version, drawn, may carry an answer another process kept
        that this one has not heard of; alone, this process hears its own change as its save
        returns.)"""
        return max(self._feed.latest(owner) or 0, self._lives.of(owner).reread_for)

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

    # -- what the keeper has on its way ---------------------------------------------------------
    def offered(self, owner: Owner, key: MessageKey, digest: str, offers: str | None) -> None:
        """The owner's message ``key`` was sent showing ``digest``, which offers its player
        ``offers`` to act on (see :meth:`bot.core.base.views.MessageView.offers`)."""
        self._lives.of(owner).life(key).offers = (digest, offers)

    def offering(self, owner: Owner, key: MessageKey, digest: str) -> str | None:
        """What the owner's message ``key``, showing ``digest``, offers its player to act on,
        as far as this process knows (None: nothing, or not known)."""
        life = self._lives.find(owner, key)
        if life is None or life.offers is None or life.offers[0] != digest or not digest:
            return None
        return life.offers[1]

    def sending(self, owner: Owner, key: MessageKey, send: Send | None) -> None:
        """A send of the owner's message ``key`` is on its way (``send``), or ended (None)."""
        life = self._lives.of(owner).life(key)
        life.sending = send

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to this player (see :meth:`Projector.dms_refused`)."""
        await self._projectors[owner.kind].dms_refused(owner, user_id)

    # -- start-up, takeover and housekeeping ----------------------------------------------------
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
        self._lives.forget(owner)
        self.writes.forget(owner)

    def sending_again(self) -> None:
        """This process sends again after another did meanwhile: what it kept in memory may be
        out of date, so every owner's messages are read again from the store."""
        for _, entry in self._lives.items():
            entry.read_again()
        for projector in self._projectors.values():
            projector.sending_again()
