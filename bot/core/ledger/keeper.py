"""The keeper: makes every owner's Discord messages match the stored owner.

It follows the change feed (:mod:`bot.core.base.feed`) while this process is the one that sends: an
owner that changed is *touched*; its channel's task then asks the ledger what the owner's
messages should show (:meth:`~bot.core.ledger.ledger.MessageLedger.owed`), and sends only what
differs: for each message, the ways :func:`~bot.core.ledger.routes.route` names, tried in order
through the Discord layer (:class:`~bot.core.ledger.transport.Transport`), reporting what went
back to the ledger. Bursts coalesce: while a channel's counts are spent, the keeper waits and
then draws the owner afresh, so three moves in a second cost one edit of the table, never
three. DMs go in a lane of their own, so the next player's controls are never held up by the
table's pacing; and in that lane what gives a player their turn goes first: a redraw that
offers them nothing new to act on waits while the message's own count is low.

Every request goes under the lease epoch the keeper holds (:class:`Lease`), checked right before
the request is written. A process that takes over (:meth:`MessageKeeper.take_over`) first waits
out what the sender before it may still have on its way, takes what that one may have spent of
each channel's counts as spent, and sends again every message it may have touched.

Because the messages are a view of the stored owner and what was sent is stored too, nothing a
player needs is lost to a crash: at start-up every open or recently ended owner is touched and
whatever is missing or stale is sent. A send that failed is tried again after a pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum
from typing import Protocol

from bot.core.base.faults import Fault, Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.timing import (
    ANSWER_RETRY,
    CHANNEL_PERIOD,
    LEASE_SAFETY,
    REQUEST_LANDS_WITHIN,
    WEBHOOK_PERIOD,
)
from bot.core.base.views import MessageRecord, MessageView, Owed
from bot.core.ledger.ledger import MessageLedger
from bot.core.ledger.life import Owing, Send
from bot.core.ledger.pacer import Pacer, RequestKind
from bot.core.ledger.records import DmLink
from bot.core.ledger.routes import Facts, Way, answer_on_its_way, live, route, through
from bot.core.ledger.transport import (
    ChannelClosed,
    DmsClosed,
    Fence,
    FollowupsUsedUp,
    MessageGone,
    NotSender,
    Rejected,
    Superseded,
    TokenLapsed,
    TokenUnreachable,
    Transport,
)

__all__ = ["AlwaysSender", "Lane", "Lease", "MessageKeeper"]

log = logging.getLogger(__name__)

#: A failed send is tried again after this many seconds (doubling, up to the maximum).
RETRY_AFTER = 2.0
RETRY_MAX = 120.0
#: How many passes one sync may make (each draws the owner afresh) before it yields.
MAX_PASSES = 20
#: Owners brought up to date at once at start-up.
RECONCILE_AT_ONCE = 16
#: How many owners the keeper remembers having looked for lost posts of (one forgotten is
#: looked at again: one read).
RECOVERED_KEPT = 10_000
#: When a change says another follows in a moment (the computer's answer, thought over
#: apart), the table waits for it this long at most, so it changes once.
MORE_COMING_WAIT = 3.0
#: Of a hand message's count of writes (its DM channel's edits, or its token's), a redraw that
#: offers the player nothing new leaves this many for the edit that gives them their turn.
PROMPT_RESERVE = 2


class Lease(Protocol):
    """Whether this process may send, as an epoch: a number that changes whenever its right to
    send was lost and taken again (``bot.store.cluster.Cluster``)."""

    def epoch(self) -> int | None:
        """The epoch this process sends under now (None: it may not send)."""
        ...

    def holds(self, epoch: int) -> bool:
        """Whether this process still sends under ``epoch``, by its own clock."""
        ...


class AlwaysSender:
    """The lease of a bot that is one process (SQLite): it always sends."""

    def epoch(self) -> int | None:
        return 1

    def holds(self, epoch: int) -> bool:
        return True


class Lane(Enum):
    """The queues of a channel: the players' private copies of their hands (through their
    interactions' tokens: what a player moving by command waits on), the players' hands
    (DMs, what someone waits on to move) and the table (the channel's messages, paced and
    coalesced). Each has its own task, so a table edit waiting on the channel's pacing never
    holds up the next player's controls, nor a DM held by discord.py a copy's."""

    COPIES = "copies"
    HANDS = "hands"
    TABLE = "table"


class _Hold(Exception):
    """Nothing went now: look again after ``retry_after`` seconds (None: not until something
    else happens)."""

    def __init__(self, retry_after: float | None) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _kind(known: MessageRecord | None) -> RequestKind:
    """What sending a message costs the channel: a post when none was sent, else an edit."""
    return RequestKind.POST if known is None else RequestKind.EDIT


class MessageKeeper:
    """Per channel and lane, one task with owners to bring up to date; timers per owner."""

    def __init__(
        self,
        ledger: MessageLedger,
        transport: Transport,
        pacer: Pacer,
        *,
        lease: Lease | None = None,
        clock: Callable[[], float] = time.time,
        faults: Faults | None = None,
    ) -> None:
        """``lease``: whether this process may send (always, without one). ``faults``: where a
        store that fails is noted (the core's, so that a game's fault is said once however
        many parts meet it)."""
        self._ledger = ledger
        self._faults = faults or Faults()
        self._transport = transport
        self._pacer = pacer
        self._lease: Lease = lease or AlwaysSender()
        self._clock = clock
        self._dirty: dict[tuple[int, Lane], set[Owner]] = {}
        self._tasks: dict[tuple[int, Lane], asyncio.Task[None]] = {}
        self._timers: dict[tuple[Owner, Lane], tuple[asyncio.TimerHandle, int]] = {}
        self._failures: dict[tuple[Owner, Lane], int] = {}
        #: What was not sent while this process's lease was not valid (see ``resume``).
        self._held_back: set[tuple[Owner, int, Lane]] = set()
        #: When each owner next has a reminder falling due.
        self._reminders: dict[Owner, asyncio.TimerHandle] = {}
        #: Channels the bot may not post in (gone, or no permission): told once in the log.
        self._closed_channels: set[int] = set()
        #: Set while shutting down: no more timers (reminders, retries) are started.
        self._stopping = False
        #: Set once a stop's flush has sent what was owed: nothing more is sent from then on.
        self._closed = False
        self._unsubscribe: Callable[[], None] | None = None
        # Owners whose lost posts were looked for since this process began to send (none is
        # sent to before: see _recovered), and the lock of each look not made yet.
        self._recovered_owners: OrderedDict[Owner, None] = OrderedDict()
        self._recovering: dict[Owner, asyncio.Lock] = {}
        # Open unless a takeover is waiting out what the sender before may still be sending.
        self._open = asyncio.Event()
        self._open.set()

    # -- following the feed ---------------------------------------------------------------------
    def follow(self, feed: ChangeFeed) -> None:
        """Bring every owner that changes up to date from now on (this process sends)."""
        if self._unsubscribe is None:
            self._unsubscribe = feed.subscribe(self._heard)

    def resume(self) -> None:
        """The lease is valid again, and nobody else took it meanwhile: send what was held
        back while it was not."""
        held, self._held_back = self._held_back, set()
        for owner, channel_id, lane in held:
            self.touch(owner, channel_id, (lane,))

    def unfollow(self) -> None:
        """Stop following the feed (another process sends now)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._held_back.clear()  # the process that sends now brings every owner up to date
        self._recovered_owners.clear()  # and one that sends again looks for lost posts again

    def _heard(self, change: Change) -> None:
        if not change.more_coming:
            self.touch(change.owner, change.channel_id)
            return
        # The hands go at once; the table waits a moment for the change that follows.
        self.touch(change.owner, change.channel_id, (Lane.COPIES, Lane.HANDS))
        self._later(change.owner, change.channel_id, Lane.TABLE, MORE_COMING_WAIT)

    # -- asking ---------------------------------------------------------------------------------
    def touch(self, owner: Owner, channel_id: int, lanes: tuple[Lane, ...] = tuple(Lane)) -> None:
        """The owner may have changed: bring its messages up to date soon (not once a stop
        has flushed: see :meth:`flush`)."""
        if self._closed:
            return
        for lane in lanes:
            key = (channel_id, lane)
            self._dirty.setdefault(key, set()).add(owner)
            if key not in self._tasks:
                name = f"crib-{lane.value}-{channel_id}"
                self._tasks[key] = asyncio.create_task(self._run(key), name=name)

    @property
    def busy(self) -> bool:
        """Whether anything is being sent or waits to be."""
        return bool(self._tasks or self._dirty)

    async def reconcile(self) -> list[Owner]:
        """Bring every open or recently ended owner up to date (start-up); which they were."""
        owners = await self._ledger.to_reconcile()
        for owner, channel_id in owners:
            with contextlib.suppress(NotSender):
                # (If not, looked for when this process sends again: see _recovered.)
                await self._recovered(owner)
            self.touch(owner, channel_id)
            if len(self._tasks) >= RECONCILE_AT_ONCE:
                await asyncio.wait(list(self._tasks.values()), return_when=asyncio.FIRST_COMPLETED)
        return [owner for owner, _ in owners]

    async def take_over(self, *, handed_over: bool = False) -> list[Owner]:
        """This process sends now, after another that may have stopped mid-send (killed, frozen,
        cut off): wait out what that one may still have on its way (it stopped writing
        :data:`~bot.core.base.timing.LEASE_SAFETY` before its lease lapsed, which was before this
        one took it, and what it wrote lands within
        :data:`~bot.core.base.timing.REQUEST_LANDS_WITHIN`), count what it may have spent of the
        channels' counts as spent, take every message it may have been sending as unknown, then look
        for lost posts and bring every owner up to date (:meth:`reconcile`). ``handed_over``: the
        one before stepped down cleanly, having
        sent what it owed: nothing of it is on its way."""
        if handed_over:
            return await self.reconcile()
        began = self._clock()
        self._open.clear()
        try:
            touched = self._ledger.touches.touched_since(began - 2 * CHANNEL_PERIOD)
            self._ledger.touches.reassert(owner for owner, _ in touched)
            self._spent_before(touched, began)
            waits = REQUEST_LANDS_WITHIN - LEASE_SAFETY
            await asyncio.sleep(max(0.0, began + waits - self._clock()))
        finally:
            self._open.set()
        return await self.reconcile()

    def _spent_before(self, touched: list[tuple[Owner, int]], now: float) -> None:
        """The channels of the owners another sender was sending lately: each of their
        changes heard in the last channel period may have cost it a post and an edit there,
        which Discord still counts."""
        ages: dict[int, list[float]] = {}
        for owner, channel_id in touched:
            ages.setdefault(channel_id, []).extend(
                now - t for t in self._ledger.touches.changes_of(owner) if now - t < CHANNEL_PERIOD
            )
        for channel_id, heard in ages.items():
            for kind in RequestKind:
                self._pacer.spent_before(channel_id, kind, heard)

    async def _recovered(self, owner: Owner) -> None:
        """Look for the owner's lost posts once after this process began to send, before
        anything of it is sent: a change heard before the start-up's reconciling (a sweep, a
        click) would otherwise post a DM again that a process stopped mid-post already made.
        When the look fails (the lease passed on: :class:`NotSender`; the store) it is made
        again by the next pass."""
        if owner in self._recovered_owners:
            self._recovered_owners.move_to_end(owner)
            return
        # Looked for in the caller's own task (a stop cancels it with them), one at a time
        # per owner: a second caller waits for the first's look, then finds it made.
        async with self._recovering.setdefault(owner, asyncio.Lock()):
            if owner in self._recovered_owners:
                return
            await self._recover(owner)
            self._recovered_owners[owner] = None
            # Whoever still waits on the lock holds it; later callers return above.
            del self._recovering[owner]
            while len(self._recovered_owners) > RECOVERED_KEPT:
                self._recovered_owners.popitem(last=False)

    async def _recover(self, owner: Owner) -> None:
        """Keep what a process that stopped between posting a DM and keeping its id left
        behind: the newest copy found becomes the message (the next pass edits it to match the
        owner), any other copy is deleted, so no second hand with live controls stays in a
        DM."""
        pending = await self._ledger.writes.pending_posts(owner)
        if not pending:
            return
        fence = self._fence(self._epoch())
        kept = {record.message_id for record in (await self._ledger.shown.kept(owner)).values()}
        for post in pending:
            try:
                found = await self._transport.lost_posts(owner, post, kept, fence)
                if found:
                    *extra, newest = found
                    kept.add(newest)
                    record = MessageRecord(post.key, post.channel_id, newest, "")
                    await self._ledger.shown.sent(owner, [record])
                    for message_id in extra:
                        await self._transport.delete(post.channel_id, message_id, fence)
                await self._ledger.writes.looked_for(owner, post.key)
            except (NotSender, Fault):
                raise
            except Exception as error:
                # Left for the next start; the owner is brought up to date all the same.
                log.warning("could not look for %s of %s: %s", post.key, owner, error)

    async def caught_up(self) -> None:
        """Wait until nothing is being sent, waits to be, or waits on a timer (the channels'
        pacing, a retry): after a start or a takeover, the moment every owner reconciled shows
        what it owes (reminders not yet due aside)."""
        loop = asyncio.get_running_loop()
        while not self._stopping and (self._tasks or self._timers):
            running = [task for task in self._tasks.values() if not task.done()]
            if running:
                await asyncio.wait(running)
            elif self._tasks:
                return  # (only tasks cancelled before they ran are left: a stop under way)
            else:
                # A timer fires into a task (``_fire`` touches its owner): wait for it to fire.
                soonest = min(timer.when() for timer, _ in self._timers.values())
                await asyncio.sleep(max(0.0, soonest - loop.time()))

    async def flush(self, timeout: float, *, last: bool = False) -> list[Owner]:
        """Wait (at most ``timeout`` seconds) until everything owed is sent, and write down
        what was sent; the owners still owed something when the time ran out. Owners waiting
        on a timer (the channel's pacing, a retry) are looked at now; reminders not yet due are
        left for the next start. ``last``: the process is stopping, and nothing new is sent
        once what was owed is (what a change heard later owes is the next sender's)."""
        self._stopping = True
        for (owner, lane), (timer, channel_id) in list(self._timers.items()):
            timer.cancel()
            self.touch(owner, channel_id, (lane,))
        self._timers.clear()
        for reminder in self._reminders.values():
            reminder.cancel()
        self._reminders.clear()
        deadline = time.monotonic() + timeout
        while self._tasks and (left := deadline - time.monotonic()) > 0:
            await asyncio.wait(list(self._tasks.values()), timeout=left)
        # From here on nothing new starts: a change heard now (another process's move) would
        # start a send while the lease is being given up, and a post written then, whose id
        # this process never keeps, is posted again by the process taking over (a clean
        # hand-over waits nothing). Whatever the change owes is the next sender's.
        if last:
            self._closed = True
            self.unfollow()
        unsent = sorted({o for owners in self._dirty.values() for o in owners})
        for task in self._tasks.values():
            task.cancel()
        if not await self._ledger.writes.flush():
            log.warning("what was sent could not all be written down before stopping")
        return unsent

    # -- the work -------------------------------------------------------------------------------
    async def _run(self, key: tuple[int, Lane]) -> None:
        channel_id, lane = key
        try:
            await self._open.wait()
            while owners := self._dirty.pop(key, None):
                for owner in sorted(owners):
                    await self._sync_safely(owner, channel_id, lane)
                # What is drawn from memory may never wait on anything: let the rest of the
                # bot (a move being saved, say) go on between passes.
                await asyncio.sleep(0)
        finally:
            self._tasks.pop(key, None)
            # A touch that came in while the task was ending starts a new one.
            if self._dirty.get(key):
                self.touch(next(iter(self._dirty[key])), channel_id, (lane,))

    async def _sync_safely(self, owner: Owner, channel_id: int, lane: Lane) -> None:
        try:
            await self._sync(owner, channel_id, lane)
            self._failures.pop((owner, lane), None)
        except asyncio.CancelledError:
            raise
        except NotSender:
            # The sender's lease lapsed (or passed to another process), perhaps while a
            # request waited for its turn: whoever sends next brings this owner up to date
            # (this process too, once it renews the lease).
            log.info("%s's messages not written: this process no longer sends", owner)
            self._held_back.add((owner, channel_id, lane))
        except Fault as fault:
            # The store fails (full, out of reach): noted once per game, tried again later.
            self._faults.note(fault.about(owner.id) if owner.kind is OwnerKind.GAME else fault)
            self._retry(owner, channel_id, lane)
        except Exception:
            failures = self._retry(owner, channel_id, lane)
            log.warning(
                "could not bring %s up to date (try %d); trying again in %.0f s",
                owner,
                failures,
                min(RETRY_MAX, RETRY_AFTER * 2 ** (failures - 1)),
                exc_info=True,
            )

    def _retry(self, owner: Owner, channel_id: int, lane: Lane) -> int:
        failures = self._failures.get((owner, lane), 0) + 1
        self._failures[(owner, lane)] = failures
        self._later(owner, channel_id, lane, min(RETRY_MAX, RETRY_AFTER * 2 ** (failures - 1)))
        return failures

    def _later(self, owner: Owner, channel_id: int, lane: Lane, delay: float) -> None:
        """Look at the owner again after ``delay`` seconds (the channel's pacing, a retry, the
        change that is coming), unless it is already to be looked at sooner (a pass waits for
        whatever it owes first, never for the last reason given)."""
        if self._stopping:
            return
        loop = asyncio.get_running_loop()
        old = self._timers.get((owner, lane))
        if old is not None:
            if old[0].when() <= loop.time() + delay:
                return
            old[0].cancel()
        handle = loop.call_later(max(0.0, delay), self._fire, owner, channel_id, lane)
        self._timers[(owner, lane)] = (handle, channel_id)

    def _remind(self, owner: Owner, channel_id: int, delay: float) -> None:
        """Look at the owner again, in both lanes, when a reminder falls due: it is a DM, or a
        mention in the channel for a player whose DMs are closed."""
        if self._stopping:
            return
        old = self._reminders.pop(owner, None)
        if old is not None:
            old.cancel()

        def due() -> None:
            self._reminders.pop(owner, None)
            self.touch(owner, channel_id)

        self._reminders[owner] = asyncio.get_running_loop().call_later(max(0.0, delay), due)

    def _fire(self, owner: Owner, channel_id: int, lane: Lane) -> None:
        self._timers.pop((owner, lane), None)
        self.touch(owner, channel_id, (lane,))

    async def _sync(self, owner: Owner, channel_id: int, lane: Lane) -> None:
        await self._recovered(owner)
        for _ in range(MAX_PASSES):
            owing = await self._ledger.owed(owner)
            if owing is None:
                return
            if lane is Lane.COPIES:
                if self._ledger.changing(owner):
                    return  # a move is being saved: its change brings the keeper back
                try:
                    await self._send_mirrors(owing)
                except Superseded:
                    continue  # the owner moved on meanwhile: draw it again
                return
            if lane is Lane.HANDS and owing.check_at is not None:
                self._remind(owner, channel_id, owing.check_at - self._clock())
            due = [
                (o, owing.sent.get(o.key))
                for o in owing.owed
                if (o.user_id is not None) == (lane is Lane.HANDS)
                and not o.mirrors_only
                and o.due(owing.sent.get(o.key))
            ]
            if lane is Lane.TABLE:
                await self._close_older(owing)
            if not due:
                return
            if lane is Lane.HANDS:
                if self._ledger.changing(owner):
                    return  # a move is being saved: its change brings the keeper back
                if not await self._send_hands(owing, due, self._mirrored(owing)):
                    continue  # the owner moved on meanwhile: draw it again
                return
            if owing.channel_id in self._closed_channels:
                return
            # Posts and edits have their own counts in a channel: what may go now goes (a
            # deal's last edit does not wait behind the next deal's post), the rest waits.
            waits = {
                kind: self._pacer.channel_delay(owing.channel_id, kind) for kind in RequestKind
            }
            private = [(o, k) for o, k in due if o.private]
            ready = private + [(o, k) for o, k in due if not o.private and waits[_kind(k)] <= 0]
            shown = await self._deliver_all(owing, ready)
            held = [waits[_kind(k)] for o, k in due if not o.private and waits[_kind(k)] > 0]
            if held:
                # The channel's counts are spent: come back when they allow, and draw the owner
                # afresh then, so every move made meanwhile goes out in the same edit (while
                # shutting down, waiting here is what sends what is owed).
                if not self._stopping:
                    self._later(owner, channel_id, lane, min(held))
                    return
                await asyncio.sleep(min(held))
                continue
            if shown:
                return
            # Discord gave back an earlier copy (a post retried after a crash): edit it.
        log.info("%s kept changing while it was being sent; looking again", owner)
        self.touch(owner, channel_id, (lane,))

    async def _send_mirrors(self, owing: Owing) -> set[str]:
        """Bring the players' private copies of their hands up to date (their answers that
        show their hand: a move by command, ``/cribbage hand``), through their tokens: outside
        every count but the token's own, so a player who moves by command gets their turn
        where they typed, at once. What gives a player their turn goes first; a redraw waits
        while the copy's token has few writes left. The keys whose copies show what is owed
        now."""
        owner, shown = owing.owner, set()
        work: list[tuple[bool, Owed, MessageRecord, MessageView]] = []
        for owed in owing.owed:
            if owed.user_id is None or owed.private:
                continue
            copies = sorted(
                self._ledger.copies.mirrors(owner, owed.key, owed.fallbacks),
                key=lambda c: c.token_at or 0.0,
            )
            if not copies:
                continue
            # The newest copy is kept up to date; an older one (the player answered again
            # since) is closed once: the hand as it is, without its controls.
            *older, newest = copies
            work += [(False, owed, copy, owed.view.without_controls()) for copy in older]
            if newest.digest == owed.view.digest():
                shown.add(owed.key)
            elif answer_on_its_way(newest, self._clock()):
                # A click's answer on its way there would land over an edit made now.
                self._later(owner, owing.channel_id, Lane.COPIES, ANSWER_RETRY)
            else:
                work.append((owed.view.offers() is not None, owed, newest, owed.view))
        for prompt, owed, copy, view in sorted(work, key=lambda item: not item[0]):
            assert copy.token is not None
            if not prompt and self._pacer.webhook_room(copy.token) <= PROMPT_RESERVE:
                # (Looked at again once the token's count allows.)
                self._later(owner, owing.channel_id, Lane.COPIES, WEBHOOK_PERIOD / 2)
                continue
            if not await self._edit_copy(owing, copy, view):
                continue
            if view is owed.view:
                self._ledger.copies.mirror_sent(
                    owner, dataclasses.replace(copy, digest=view.digest(), version=owing.version)
                )
                shown.add(owed.key)
            else:
                self._ledger.copies.mirror_lost(owner, copy)
        return shown

    def _mirrored(self, owing: Owing) -> set[str]:
        """The hands whose newest private copy shows what is owed now: its DM is no longer
        what its player waits on."""
        shown = set()
        for owed in owing.owed:
            if owed.user_id is None or owed.private:
                continue
            copies = self._ledger.copies.mirrors(owing.owner, owed.key, owed.fallbacks)
            newest = max(copies, key=lambda c: c.token_at or 0.0, default=None)
            if newest is not None and newest.digest == owed.view.digest():
                shown.add(owed.key)
        return shown

    async def _edit_copy(self, owing: Owing, copy: MessageRecord, view: MessageView) -> bool:
        """Edit a private copy through its token; False (and it is forgotten) when the token
        reaches it no more."""
        assert copy.token is not None
        try:
            await self._transport.carry(through(copy), view, self._fence(self._epoch(), owing))
        except (TokenLapsed, TokenUnreachable, MessageGone):
            self._ledger.copies.mirror_lost(owing.owner, copy)
            return False
        return True

    async def _send_hands(
        self,
        owing: Owing,
        due: list[tuple[Owed, MessageRecord | None]],
        mirrored: set[str] = frozenset(),  # type: ignore[assignment]
    ) -> bool:
        """Send the DMs due; False if the owner moved on before they were all sent (a move's
        click already updated the mover's hand: an older state must not overwrite it), or one
        shows something else (an earlier copy Discord gave back). What gives a player their
        turn goes before what does not (``mirrored``: the hands a private copy of which shows
        them already, whose DM is no longer what they wait on)."""
        records: list[MessageRecord] = []
        prompts = {
            o.key: o.key not in mirrored and self._prompts(owing.owner, o, k) for o, k in due
        }
        ordered = sorted(due, key=lambda item: not prompts[item[0].key])
        try:
            for owed, known in ordered:
                if self._ledger.moved_on(owing):
                    return False
                if not prompts[owed.key] and self._redraw_waits(owing, owed, known):
                    continue
                if await self._dm_waits(owing, owed, known):
                    continue
                try:
                    record = await self._deliver(owing, owed, known)
                except Superseded:
                    return False  # it moved on while the DM waited for its turn
                if record is not None:
                    records.append(record)
                    self._ledger.offered(owing.owner, owed.key, record.digest, owed.view.offers())
                    if record.digest != owed.view.digest():
                        return False
            return True
        finally:
            await self._ledger.shown.sent(owing.owner, records)

    def _prompts(self, owner: Owner, owed: Owed, known: MessageRecord | None) -> bool:
        """Whether sending ``owed`` gives its player something new to act on (live controls
        the copy shown does not offer, as far as is known): their turn."""
        offers = owed.view.offers()
        if offers is None:
            return False
        return known is None or self._ledger.offering(owner, owed.key, known.digest) != offers

    def _redraw_waits(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> bool:
        """Whether a redraw of a hand (nothing new to act on) waits, leaving the message's
        count of writes to the edit that gives its player their turn: then it is looked at
        again once that count allows. A hand's last look (a finished deal's) never waits so:
        it is owed only while the game keeps its deal."""
        if known is None or owed.private or owed.last:
            return False
        # (The count of the way it would go: its token's while that lives, else its DM's.)
        through = live(known, self._clock()) and known.token is not None
        if through:
            assert known.token is not None
            room = self._pacer.webhook_room(known.token)
        else:
            room = self._pacer.room(known.channel_id, RequestKind.EDIT)
        if room > PROMPT_RESERVE:
            return False
        delay = WEBHOOK_PERIOD / 2 if through else CHANNEL_PERIOD / 2
        self._later(owing.owner, owing.channel_id, Lane.HANDS, delay)
        return True

    async def _dm_waits(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> bool:
        """Whether a hand's post or edit with the bot's token waits for its DM's count (the
        other hands in the same lane are not held up meanwhile): then it is looked at again
        once that count allows."""
        now = self._clock()
        if owed.private or owed.user_id is None or (known is not None and live(known, now)):
            return False  # (through a token: its own count)
        if known is None:
            # A new deal's hand, posted in the player's DM (as a follow-up of their latest
            # click there while its token lives: its own count).
            link = await self._ledger.dm_links.link(owed.user_id)
            if link is None or link.channel_id is None:
                return False
            if live(MessageRecord("", 0, 0, "", link.token, link.token_at), now):
                return False
            channel_id, kind = link.channel_id, RequestKind.POST
        else:
            channel_id, kind = known.channel_id, RequestKind.EDIT
        delay = self._pacer.channel_delay(channel_id, kind)
        if delay <= 0:
            return False
        self._later(owing.owner, owing.channel_id, Lane.HANDS, delay)
        return True

    async def _deliver_all(
        self, owing: Owing, ready: list[tuple[Owed, MessageRecord | None]]
    ) -> bool:
        """Send the channel's messages that may go now and report them in one go; False when
        one now shows something other than what is owed (an earlier copy Discord gave back)."""
        records: list[MessageRecord] = []
        try:
            for owed, known in ready:
                record = await self._deliver(owing, owed, known)
                if record is not None:
                    records.append(record)
        finally:
            await self._ledger.shown.sent(owing.owner, records)
        owed_digests = {o.key: o.view.digest() for o, _ in ready}
        return all(r.digest == owed_digests[r.key] for r in records)

    async def _close_older(self, owing: Owing) -> None:
        """Close the older copies of the owner's messages that a live token reaches (a table
        posted again at a private table, whose older copy was clicked since): each shows the
        message as it is, without controls, saying it moved on."""
        for owed in owing.owed:
            closed = owed.closed
            if closed is None:
                continue
            for copy in self._ledger.copies.older(owing.owner, owed.key):
                if copy.digest == closed.digest():
                    continue
                try:
                    await self._transport.carry(through(copy), closed, self._fence(self._epoch()))
                except (TokenLapsed, TokenUnreachable, MessageGone):
                    self._ledger.copies.closed_older(owing.owner, copy)
                    continue
                self._ledger.copies.closed_older(owing.owner, copy)

    def _epoch(self) -> int:
        epoch = self._lease.epoch()
        if epoch is None:
            raise NotSender
        return epoch

    def _fence(self, epoch: int, owing: Owing | None = None) -> Fence:
        """What a request checks right before it is written: that this process still sends
        under ``epoch``, and (for a player's hand, ``owing`` given) that the owner has not
        moved on while the request waited for its turn."""
        lease, ledger = self._lease, self._ledger

        def fence() -> None:
            if not lease.holds(epoch):
                raise NotSender
            if owing is not None and ledger.moved_on(owing):
                raise Superseded

        return fence

    async def _deliver(
        self, owing: Owing, owed: Owed, known: MessageRecord | None
    ) -> MessageRecord | None:
        """Send one message; the record to keep of it (None: nothing to keep, the DM or the
        channel being closed, which is what the owner hears of instead, or nothing that may
        go now: looked at again when the route says)."""
        try:
            return await self._go(owing, owed, known)
        except _Hold as hold:
            # Not sent now. Where the bot is not a member only an interaction's token reaches
            # a message: the game's next interaction brings one. A click's answer still on
            # its way to the message: edited in a moment, once it has landed (or is taken as
            # lost), since an edit now could land first and then be overwritten by it.
            if hold.retry_after is not None:
                lane = Lane.TABLE if owed.user_id is None else Lane.HANDS
                self._later(owing.owner, owing.channel_id, lane, hold.retry_after)
            return None
        except DmsClosed:
            assert owed.user_id is not None
            await self._ledger.dms_refused(owing.owner, owed.user_id)
            # The channel's notice is owed now, and the table's task may be done already.
            self.touch(owing.owner, owing.channel_id, (Lane.TABLE,))
            return None
        except ChannelClosed as error:
            if owing.channel_id not in self._closed_channels:
                self._closed_channels.add(owing.channel_id)
                if error.gone:
                    # Deleted, with its owner in it: nothing to fix, nothing more to send there.
                    log.info(
                        "channel %s is gone: %s's messages there are not sent",
                        owing.channel_id,
                        owing.owner,
                    )
                else:
                    log.warning("cannot post in channel %s (%s)", owing.channel_id, error)
            return None
        except Rejected as error:
            if owed.once:
                # A notice Discord will never take: say so, and do not try it forever.
                log.warning("Discord refused %s of %s: %s", owed.key, owing.owner, error)
                return None
            raise

    async def _go(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> MessageRecord:
        """Try the ways the route names, in order, until one goes (see :mod:`routes`)."""
        ledger, owner = self._ledger, owing.owner
        # What was sent as it is kept now, not as it was when the owner was drawn: a click's
        # answer kept with a move meanwhile is on its way to that very message.
        sent = await ledger.shown.kept(owner)
        link = None
        if owed.user_id is not None and not owed.private:
            link = await ledger.dm_links.link(owed.user_id)
        now = self._clock()
        facts = Facts(
            owner,
            owing.channel_id,
            sent,
            now,
            mine=lambda record: ledger.answers.sends_answer(owner, record),
            may_carry=ledger.followups.may_carry,
            link=link,
        )
        chosen = route(owed, sent.get(owed.key) if owed.private else known, facts)
        epoch = self._epoch()
        # (A DM that waited for its turn is not sent if the game moved on meanwhile: the
        # keeper draws the hands again; the channel's messages go as drawn.)
        fence = self._fence(epoch, owing if owed.user_id is not None else None)
        lapsed: list[str] = []
        gone = False
        try:
            for attempt in chosen.attempts:
                token = attempt.token
                if token is not None and token in lapsed:
                    continue  # (Discord called it dead through another message)
                if gone and not attempt.way.posts:
                    continue
                private_post = owed.private and attempt.way is Way.POST_THROUGH
                if private_post and not ledger.followups.may_carry(token or ""):
                    continue
                if attempt.way is Way.POST_THROUGH and not owed.private:
                    # A follow-up takes no nonce: if the process stops before its id is kept,
                    # the next one to send looks for it (Transport.lost_posts).
                    assert attempt.channel_id is not None
                    await ledger.writes.posting(owner, owed.key, attempt.channel_id)
                ledger.sending(owner, owed.key, Send(attempt, epoch, now))
                try:
                    carried = await self._transport.carry(attempt, owed.view, fence)
                except TokenLapsed:
                    assert token is not None
                    lapsed.append(token)
                    continue
                except TokenUnreachable:
                    continue
                except FollowupsUsedUp:
                    assert token is not None and attempt.token_at is not None
                    ledger.followups.exhausted(token, attempt.token_at, self._clock())
                    continue
                except MessageGone:
                    # Deleted by someone (or with its channel: posting again says which).
                    log.info("message %s of %s was deleted: posting it again", owed.key, owner)
                    gone = True
                    continue
                finally:
                    ledger.sending(owner, owed.key, None)
                if private_post:
                    assert token is not None and attempt.token_at is not None
                    ledger.followups.carried(token, attempt.token_at, self._clock())
                    if carried.private:
                        # Discord made it ephemeral: its interaction's user may not let apps
                        # answer in public there (Use External Apps), so the copy would be
                        # theirs alone. It goes, and that token carries nothing more.
                        ledger.followups.exhausted(token, attempt.token_at, self._clock())
                        with contextlib.suppress(Exception):
                            await self._transport.delete_followup(token, carried.message_id, fence)
                        continue
                if attempt.way is Way.POST_AS_BOT and attempt.channel_id is None:
                    assert attempt.user_id is not None
                    await ledger.dm_links.linked(
                        DmLink(
                            attempt.user_id,
                            carried.channel_id,
                            link.token if link else None,
                            link.token_at if link else None,
                        )
                    )
                keep = attempt.keep
                if attempt.way.posts:
                    keep = dataclasses.replace(
                        keep, channel_id=carried.channel_id, message_id=carried.message_id
                    )
                if not carried.same:
                    keep = dataclasses.replace(keep, digest="")
                # What it shows was drawn at the owner's version then (a record of a later
                # one, kept by another process answering a click on it meanwhile, is not
                # replaced).
                return dataclasses.replace(keep, version=owing.version)
            raise _Hold(chosen.hold)
        finally:
            if lapsed and owed.private:
                # Discord says these tokens are past their 15 minutes (clocks differ):
                # nothing is tried through them again, and the table says who to wake.
                await ledger.copies.tokens_lapsed(owner, lapsed)
