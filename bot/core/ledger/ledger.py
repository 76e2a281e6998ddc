"""The ledger put together: every owner's messages, what each should show and what it shows.

:mod:`bot.core.ledger.life` tells a message's life; :class:`MessageLedger` keeps one per (owner,
key). It is the one door into the ledger: whoever uses it (the keeper's side too) asks it, never
its parts, which are its own collaborators, a part for each job:

| part | its job |
| --- | --- |
| ``shown`` | what each message shows: read once, kept with every send (``sent``, ``kept``) |
| ``writes`` | what reaches the store: the write-behind, ``flush``, the pending posts |
| ``answers`` | clicks' answers: told by a change's publisher, landed or lost, ``doubt`` |
| ``copies`` | copies that interactions' tokens reach: private copies, older copies, carriers |
| ``touches`` | when each owner's changes were heard: what a takeover looks at again |
| ``dm_links``, ``followups`` | what is known of interactions' tokens (``tokens.py``) |

The ledger itself draws (:meth:`MessageLedger.owed`), says whether an owner is settled, and notes
what the keeper has on its way; every other question it answers through the part whose job it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.replies import Clicked, Sequel
from bot.core.base.views import MessageRecord
from bot.core.ledger.answers import Answers
from bot.core.ledger.copies import Copies
from bot.core.ledger.life import Lives, Owing, Projector, Send
from bot.core.ledger.records import DmLink, PendingPost
from bot.core.ledger.shown import Shown
from bot.core.ledger.storage import MessageRecords
from bot.core.ledger.tokens import DmLinks, FollowupBudget
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
        shared: bool = False,
        faults: Faults | None = None,
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
        self._writes = WriteBehind(store, self._lives, self._now, faults or Faults())
        #: What each message shows, as Discord confirmed it.
        self._shown = Shown(store, self._lives, self._writes, self._now, shared=shared)
        #: The copies of the owners' messages that interactions' tokens reach.
        self._copies = Copies(self._lives, self._shown, self._writes, self._now)
        #: The clicks' answers: on their way, landed, lost.
        self._answers = Answers(
            store, self._lives, self._shown, self._writes, self._copies, self._now, shared=shared
        )
        #: When each owner's changes were heard (what a takeover looks at again).
        self._touches = Touches(self._lives, self._now)
        #: What this process knows of the players' DM channels.
        self._dm_links = DmLinks(store, shared=shared)
        #: Follow-ups posted through each interaction's token where the bot is not a member.
        self._followups = FollowupBudget()
        feed.subscribe(self._heard)

    def add(self, kind: OwnerKind, projector: Projector) -> None:
        """Draw the messages of owners of ``kind`` with ``projector``."""
        self._projectors[kind] = projector

    def _now(self) -> float:
        return self._clock().timestamp()

    def _heard(self, change: Change) -> None:
        """A change on the feed: its owner's channel, and when it was heard."""
        entry = self._lives.of(change.owner)
        entry.channel_id = change.channel_id
        self._touches.heard(entry)

    # -- what a change's publisher tells first (:class:`~bot.core.base.feed.MessageNews`) ------
    def answer_kept(self, owner: Owner, record: MessageRecord) -> None:
        """A click's answer kept with the change of ``owner`` about to be published is on its
        way from this process: until it lands, nothing else is sent to that message."""
        self._answers.kept(owner, record, here=True)

    def answer_kept_elsewhere(self, owner: Owner, record: MessageRecord) -> None:
        """A click's answer kept with another process's change of ``owner``, about to be
        published here: that process sends it, and it is what that message shows."""
        self._answers.kept(owner, record, here=False)

    def heard_late(self, owner: Owner) -> None:
        """The change of ``owner`` about to be published was heard late: what its messages
        show is read again before they are drawn."""
        self._lives.of(owner).read_again()

    # -- drawing --------------------------------------------------------------------------------
    async def owed(self, owner: Owner, now: float | None = None) -> Owing | None:
        """What every message of ``owner`` should show now, beside what was last sent (None
        for an owner that has no messages any more)."""
        heard = self._heard_of(owner)  # (what ``sent`` holds, at least)
        sent = await self._shown.kept(owner)
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
            sent = await self._shown.kept(owner)
            drawn = await projector.draw(owner, moment, sent)
        if drawn is None:
            return None
        self._lives.of(owner).channel_id = drawn.channel_id
        check_at = drawn.check_at
        # (Seconds from the moment drawn: the core's clock is not the keeper's in tests.)
        check_in = None if check_at is None else check_at - moment
        return Owing(owner, drawn.channel_id, drawn.version, drawn.owed, sent, check_at, check_in)

    async def settled(self, owner: Owner) -> bool:
        """Whether every message ``owner`` keeps in its channel shows what it should now, as
        Discord confirmed and the store keeps it (the players' DMs aside): nothing more is
        owed there, nothing is on its way, and nothing of it rests in memory alone (what was
        sent is written first), so a decision taken on it holds across a stop."""
        if not await self._writes.flush() or self._writes.holds(owner):
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
    def offered(self, owner: Owner, key: str, digest: str, offers: str | None) -> None:
        """The owner's message ``key`` was sent showing ``digest``, which offers its player
        ``offers`` to act on (see :meth:`bot.core.base.views.MessageView.offers`)."""
        self._lives.of(owner).life(key).offers = (digest, offers)

    def offering(self, owner: Owner, key: str, digest: str) -> str | None:
        """What the owner's message ``key``, showing ``digest``, offers its player to act on,
        as far as this process knows (None: nothing, or not known)."""
        life = self._lives.find(owner, key)
        if life is None or life.offers is None or life.offers[0] != digest or not digest:
            return None
        return life.offers[1]

    def sending(self, owner: Owner, key: str, send: Send | None) -> None:
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
        self._writes.forget(owner)

    def sending_again(self) -> None:
        """This process sends again after another did meanwhile: what it kept in memory may be
        out of date, so every owner's messages are read again from the store."""
        for _, entry in self._lives.items():
            entry.read_again()
        for projector in self._projectors.values():
            projector.sending_again()

    # -- what the messages show ---------------------------------------------------------------
    async def kept(self, owner: Owner) -> dict[str, MessageRecord]:
        """The owner's messages as they show now, by key (:meth:`Shown.kept
        <bot.core.ledger.shown.Shown.kept>`: read once, then kept with every send)."""
        return await self._shown.kept(owner)

    async def sent(self, owner: Owner, records: Sequence[MessageRecord]) -> None:
        """Messages of ``owner`` were sent or edited as ``records`` say: kept now, written
        soon (:meth:`Shown.sent <bot.core.ledger.shown.Shown.sent>`)."""
        await self._shown.sent(owner, records)

    async def gone(self, owner: Owner, key: str) -> None:
        """A message of ``owner`` is gone from Discord (someone deleted it): send it again."""
        await self._shown.gone(owner, key)

    # -- what reaches the store -----------------------------------------------------------------
    async def flush(self) -> bool:
        """Write down what was sent and is not written yet; whether all of it was
        (:meth:`WriteBehind.flush <bot.core.ledger.writes.WriteBehind.flush>`)."""
        return await self._writes.flush()

    async def posting(self, owner: Owner, key: str, channel_id: int) -> None:
        """A DM of ``owner`` is about to be posted where it cannot be made idempotent: its
        pending post is written first, looked for after a stop (:meth:`pending_posts`)."""
        await self._writes.posting(owner, key, channel_id)

    async def pending_posts(self, owner: Owner) -> list[PendingPost]:
        """The owner's DMs that were about to be posted when the last process stopped."""
        return await self._writes.pending_posts(owner)

    async def looked_for(self, owner: Owner, key: str) -> None:
        """A pending post was looked for (and kept, if found): forget it."""
        await self._writes.looked_for(owner, key)

    # -- clicks' answers ------------------------------------------------------------------------
    def sends_answer(self, owner: Owner, record: MessageRecord) -> bool:
        """Whether ``record``, a click's answer kept with a move, is this process's to send
        (and not yet heard to land)."""
        return self._answers.sends_answer(owner, record)

    async def answered(
        self, sequel: Sequel, landed: bool, shown: Clicked | None, digest: str | None
    ) -> None:
        """An answer was sent (``landed``) or could not be: what it shows is confirmed, kept or
        forgotten (:meth:`Answers.answered <bot.core.ledger.answers.Answers.answered>`)."""
        await self._answers.answered(sequel, landed, shown, digest)

    async def doubt(self, owner: Owner, message_id: int) -> None:
        """A control on the owner's message ``message_id`` was refused as being from an earlier
        moment: the message may show an older look, and is edited again."""
        await self._answers.doubt(owner, message_id)

    # -- copies that interactions' tokens reach -------------------------------------------------
    def opening(self, owner: Owner, key: str) -> None:
        """The answer that shows the owner's message ``key`` to its player is on its way."""
        self._copies.opening(owner, key)

    def not_opened(self, owner: Owner, key: str) -> None:
        """The answer :meth:`opening` announced did not go."""
        self._copies.not_opened(owner, key)

    def asked(self, owner: Owner) -> frozenset[str]:
        """The keys of the owner's messages their players have in front of them, asked for
        (:meth:`Copies.asked <bot.core.ledger.copies.Copies.asked>`)."""
        return self._copies.asked(owner)

    async def opened(
        self, sequel: Sequel, shown: Clicked, digest: str, *, clicked: Clicked | None, on: str
    ) -> None:
        """The answer that shows the message ``sequel`` names (its owner's, privately) was sent
        as a message of its own, ``shown``, showing ``digest``: for a click on the owner's
        message ``on`` (``clicked``), or as a command's answer (``clicked`` None: ``shown`` is
        its original response) (:meth:`Copies.opened <bot.core.ledger.copies.Copies.opened>`)."""
        if sequel.key is None:
            return
        await self._copies.opened(
            sequel.owner,
            sequel.key,
            shown,
            digest,
            sequel.version,
            clicked=clicked,
            on=on,
            original=clicked is None,
        )

    async def carrier(self, owner: Owner, shown: Clicked, *, check: str | None = None) -> None:
        """An interaction about the owner was answered: its token may carry the owner's
        messages (:meth:`Copies.carrier <bot.core.ledger.copies.Copies.carrier>`)."""
        await self._copies.carrier(owner, shown, check=check)

    async def tokens_lapsed(self, owner: Owner, tokens: Iterable[str]) -> None:
        """These interactions' tokens no longer reach the owner's messages."""
        await self._copies.tokens_lapsed(owner, tokens)

    def mirrors(self, owner: Owner, key: str, before: Iterable[str] = ()) -> list[MessageRecord]:
        """The private copies of the owner's message ``key`` a live token reaches (with those
        of the messages it takes over, ``before``)."""
        return self._copies.mirrors(owner, key, before)

    def mirror_sent(self, owner: Owner, record: MessageRecord) -> None:
        """A private copy was edited to show what ``record`` says."""
        self._copies.mirror_sent(owner, record)

    def mirror_lost(self, owner: Owner, copy: MessageRecord) -> None:
        """A private copy cannot be reached any more (or was closed)."""
        self._copies.mirror_lost(owner, copy)

    def older(self, owner: Owner, key: str) -> list[MessageRecord]:
        """The older copies of the owner's message ``key`` (posted over) a live token reaches."""
        return self._copies.older(owner, key)

    def closed_older(self, owner: Owner, copy: MessageRecord) -> None:
        """An older copy was closed (or its token reaches it no more)."""
        self._copies.closed_older(owner, copy)

    # -- interactions' tokens -------------------------------------------------------------------
    async def dm_link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known."""
        return await self._dm_links.link(user_id)

    async def dm_linked(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there)."""
        await self._dm_links.linked(link)

    def may_carry(self, token: str) -> bool:
        """Whether one more follow-up may be posted through ``token``."""
        return self._followups.may_carry(token)

    def carried(self, token: str, at: float, now: float) -> None:
        """A follow-up was posted through ``token`` (of an interaction made at ``at``)."""
        self._followups.carried(token, at, now)

    def exhausted(self, token: str, at: float, now: float) -> None:
        """Discord said ``token`` takes no more follow-ups: it carries nothing more."""
        self._followups.exhausted(token, at, now)

    # -- what a takeover looks at again ---------------------------------------------------------
    def touched_since(self, since: float) -> list[tuple[Owner, int]]:
        """The owners (and their channels) whose changes were heard since ``since``."""
        return self._touches.touched_since(since)

    def changes_of(self, owner: Owner) -> list[float]:
        """When the owner's latest changes were heard (at most a channel's count of them)."""
        return self._touches.changes_of(owner)

    def reassert(self, owners: Iterable[Owner]) -> None:
        """What these owners' messages show is not known after all: each is edited again."""
        self._touches.reassert(owners)
