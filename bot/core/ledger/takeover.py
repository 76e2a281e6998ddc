"""A process that begins to send: after the sender before it, and after posts a stop left behind.

A sender that stopped mid-send (killed, frozen, cut off) may still have requests on their way,
may have spent some of each channel's counts, and may have posted a follow-up (which takes no
nonce) without keeping its id. The process that takes over waits out the first, counts the
second as spent and takes what it may have been sending as unknown
(:meth:`Takeover.wait_out`); and before it sends anything of an owner, at start-up too, it looks
for the owner's lost posts (:meth:`Takeover.recovered`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict

from bot.core.base.delivery import Owed
from bot.core.base.faults import Fault
from bot.core.base.owners import Owner
from bot.core.base.timing import CHANNEL_PERIOD, LEASE_SAFETY, REQUEST_LANDS_WITHIN
from bot.core.base.views import MessageRecord
from bot.core.ledger.attempts import Attempts, Crew
from bot.core.ledger.touches import TOUCHED_KEPT
from bot.core.ledger.transport import NotSender, PendingPost, RequestKind, Unavailable

__all__ = ["RECOVERED_KEPT", "Takeover"]

log = logging.getLogger(__name__)

#: How many owners the keeper remembers having looked for lost posts of (one forgotten is
#: looked at again: one read).
RECOVERED_KEPT = 10_000


class _Look:
    """One owner's look for lost posts: its lock, and how many callers hold or wait on it."""

    __slots__ = ("callers", "lock")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.callers = 0


class Takeover:
    """Takes over from the sender before, and looks for the posts a stop left behind."""

    def __init__(self, crew: Crew, attempts: Attempts) -> None:
        self._crew = crew
        self._attempts = attempts
        # Owners whose lost posts were looked for, each with the lease epoch the look was made
        # under (it stands for that stretch of sending alone: none is sent to before, see
        # recovered), and the look of each owner being made, while anyone waits on it.
        self._recovered_owners: OrderedDict[Owner, int] = OrderedDict()
        self._recovering: dict[Owner, _Look] = {}

    async def wait_out(self) -> None:
        """Wait out what the sender before may still have on its way (it stopped writing
        :data:`~bot.core.base.timing.LEASE_SAFETY` before its lease lapsed, which was before
        this process took it, and what it wrote lands within
        :data:`~bot.core.base.timing.REQUEST_LANDS_WITHIN`), having counted what it may have
        spent of the channels' counts as spent and taken every message it may have been
        sending as unknown."""
        began = self._crew.clock()
        touched = self._crew.touches.touched_since(began - TOUCHED_KEPT)
        self._crew.touches.reassert(owner for owner, _ in touched)
        self._spent_before(touched, began)
        waits = REQUEST_LANDS_WITHIN - LEASE_SAFETY
        await asyncio.sleep(max(0.0, began + waits - self._crew.clock()))

    def _spent_before(self, touched: list[tuple[Owner, int]], now: float) -> None:
        """The channels of the owners another sender was sending lately: each of their
        changes heard in the last channel period may have cost it a post and an edit there,
        which Discord still counts."""
        ages: dict[int, list[float]] = {}
        for owner, channel_id in touched:
            ages.setdefault(channel_id, []).extend(
                now - t for t in self._crew.touches.changes_of(owner) if now - t < CHANNEL_PERIOD
            )
        for channel_id, heard in ages.items():
            for kind in RequestKind:
                self._crew.pacer.spent_before(channel_id, kind, heard)

    def forget(self) -> None:
        """Another process sends now: this one, once it sends again, looks for lost posts
        again (under a new epoch, which its old looks do not stand for anyway)."""
        self._recovered_owners.clear()

    def doubt(self, owner: Owner) -> None:
        """A request for the owner went unanswered (Discord did not take it for now): a post
        through a token may have been made all the same, so its lost posts are looked for
        again before anything more of it is sent (one read of the store when none is
        pending)."""
        self._recovered_owners.pop(owner, None)

    async def recovered(self, owner: Owner) -> None:
        """Look for the owner's lost posts once in each stretch of this process's sending (a
        lease epoch), before anything of it is sent: a change heard before the start-up's
        reconciling (a sweep, a click) would otherwise post a DM again that a process stopped
        mid-post already made. :class:`NotSender` when this process may not send: a look made
        then (drawn on a timer after it was deposed, when nothing was lost yet) stood for the
        next takeover, whose look was never made, and hands posted by a sender frozen before
        keeping their ids were posted a second time. When the look fails (the lease passed on:
        :class:`NotSender`; the store) it is made again by the next pass."""
        epoch = self._attempts.epoch()
        if self._recovered_owners.get(owner) == epoch:
            self._recovered_owners.move_to_end(owner)
            return
        # Looked for in the caller's own task (a stop cancels it with them), one at a time
        # per owner: a second caller waits for the first's look, then finds it made (or, the
        # looks forgotten meanwhile, the epoch moved on, makes its own).
        look = self._recovering.get(owner)
        if look is None:
            look = self._recovering[owner] = _Look()
        look.callers += 1
        try:
            async with look.lock:
                epoch = self._attempts.epoch()
                if self._recovered_owners.get(owner) == epoch:
                    return
                await self._recover(owner)
                self._recovered_owners[owner] = epoch
                self._recovered_owners.move_to_end(owner)
                while len(self._recovered_owners) > RECOVERED_KEPT:
                    self._recovered_owners.popitem(last=False)
        finally:
            # The look stays while anyone holds or waits on it: a caller that came meanwhile
            # waits on the same lock, never beside it on a new one.
            look.callers -= 1
            if look.callers == 0:
                del self._recovering[owner]

    async def _recover(self, owner: Owner) -> None:
        """Keep what a process that stopped between posting a DM and keeping its id left
        behind: the newest copy found becomes the message (the next pass edits it to match the
        owner), any other copy is deleted, so no second hand with live controls stays in a
        DM."""
        pending = await self._crew.writes.pending_posts(owner)
        if not pending:
            return
        fence = self._attempts.fence(self._attempts.epoch())
        kept = {record.message_id for record in (await self._crew.shown.kept(owner)).values()}
        # Each post found by its first line as the owner is drawn now (the same in every look
        # of a message): two tables posted through one token a moment apart, both left
        # unkept, were taken one for the other, and the earlier deleted.
        owing = await self._crew.ledger.owed(owner)
        drawn = {o.key: o for o in (owing.owed if owing else ())}
        for post in pending:
            owed = drawn.get(post.key)
            if owed is not None and owed.tokens_only and owing is not None:
                await self._unseen(owner, post, owed, owing.version)
                continue
            first = "" if owed is None else owed.view.content.split("\n", 1)[0]
            post = dataclasses.replace(post, first_line=first)
            try:
                found = await self._crew.transport.lost_posts(owner, post, kept, fence)
                if found:
                    *extra, newest = found
                    kept.add(newest)
                    record = MessageRecord(post.key, post.channel_id, newest, "")
                    await self._crew.shown.sent(owner, [record])
                    for message_id in extra:
                        await self._crew.transport.delete(post.channel_id, message_id, fence)
                await self._crew.writes.looked_for(owner, post.key)
            except (NotSender, Fault, Unavailable):
                raise  # (looked for again by the next pass)
            except Exception as error:
                # Left for the next start; the owner is brought up to date all the same.
                log.warning("could not look for %s of %s: %s", post.key, owner, error)

    async def _unseen(self, owner: Owner, post: PendingPost, owed: Owed, version: int) -> None:
        """A call posted once at a private table (a player called to press *Your hand*) that
        may have been posted before the stop: where the bot is not a member it cannot read the
        conversation to look, and a follow-up is found by its id alone (Discord: Get Followup
        Message; Execute Webhook takes no nonce: fakediscord/README.md). It is taken as posted:
        a call said twice notifies twice, where one lost leaves the table's own line naming
        whom it waits on."""
        if owed.once:
            seen = MessageRecord(post.key, post.channel_id, 0, owed.view.digest(), version=version)
            await self._crew.shown.sent(owner, [seen])
        await self._crew.writes.looked_for(owner, post.key)
