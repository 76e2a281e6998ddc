"""The table keeper: makes every owner's Discord messages match the stored owner.

It follows the change feed (:mod:`bot.core.feed`) while this process is the one that sends: an
owner that changed is *touched*; its channel's keeper task then asks the ledger what the owner's
messages should show (:meth:`bot.core.ledger.MessageLedger.owed`), compares it with what was
last sent, and sends only the difference through the :class:`~bot.discord.courier.Courier`,
reporting what it sent back to the ledger, once per pass. Bursts coalesce: while a channel's
buckets are spent, the keeper waits and then draws the owner afresh, so three moves in a second
cost one edit of the table, never three. DMs go in a lane of their own, so the next player's
controls are never held up by the table's pacing.

Because the messages are a view of the stored owner and what was sent is stored too, nothing a
player needs is lost to a crash: at start-up every open or recently ended owner is touched and
whatever is missing or stale is sent. A send that failed is tried again after a pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum

import discord

from bot.core.faults import Fault, Faults
from bot.core.feed import Change, ChangeFeed
from bot.core.ledger import MessageLedger, Owing
from bot.core.messages import Owed
from bot.core.owners import Owner, OwnerKind
from bot.core.records import MessageRecord
from bot.discord.courier import (
    AnswerOnItsWay,
    ChannelClosed,
    Courier,
    DmsClosed,
    NoLiveToken,
    NotSender,
    Superseded,
)
from bot.discord.pacing import Pacer, RequestKind

__all__ = ["Lane", "TableKeeper"]

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


class Lane(Enum):
    """The two queues of a channel: the players' hands (DMs, what someone waits on to move)
    and the table (the channel's messages, paced and coalesced). Each has its own task, so a
    table edit waiting on the channel's pacing never holds up the next player's controls."""

    HANDS = "hands"
    TABLE = "table"


def _kind(known: MessageRecord | None) -> RequestKind:
    """What sending a message costs the channel: a post when none was sent, else an edit."""
    return RequestKind.POST if known is None else RequestKind.EDIT


class TableKeeper:
    """Per channel and lane, one task with owners to bring up to date; timers per owner."""

    def __init__(
        self,
        ledger: MessageLedger,
        courier: Courier,
        pacer: Pacer,
        *,
        clock: Callable[[], float] = time.time,
        faults: Faults | None = None,
    ) -> None:
        """``faults``: where a store that fails is noted (the core's, so that a game's fault
        is said once however many parts meet it)."""
        self._ledger = ledger
        self._faults = faults or Faults()
        self._courier = courier
        self._pacer = pacer
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
        self._unsubscribe: Callable[[], None] | None = None
        # Owners whose lost posts were looked for since this process began to send (none is
        # sent to before: see _recovered), and the lock of each look not made yet.
        self._recovered_owners: OrderedDict[Owner, None] = OrderedDict()
        self._recovering: dict[Owner, asyncio.Lock] = {}

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
        self.touch(change.owner, change.channel_id, (Lane.HANDS,))
        self._later(change.owner, change.channel_id, Lane.TABLE, MORE_COMING_WAIT)

    # -- asking ---------------------------------------------------------------------------------
    def touch(self, owner: Owner, channel_id: int, lanes: tuple[Lane, ...] = tuple(Lane)) -> None:
        """The owner may have changed: bring its messages up to date soon."""
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

    async def _recovered(self, owner: Owner) -> None:
        """Look for the owner's lost posts once after this process began to send, before
        anything of it is sent: a change heard before the start-up's reconciling (a sweep, a
        click) would otherwise post a DM again that a process killed mid-post already made.
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
        """Keep what a process that died between posting a DM and keeping its id left behind:
        the newest copy found becomes the message (the next pass edits it to match the owner),
        any other copy is deleted, so no second hand with live controls stays in a DM."""
        pending = await self._ledger.pending_posts(owner)
        if not pending:
            return
        kept = {record.message_id for record in (await self._ledger.kept(owner)).values()}
        for post in pending:
            try:
                found = await self._courier.posted_since(owner, post, kept)
                if found:
                    *extra, newest = found
                    kept.add(newest)
                    record = MessageRecord(post.key, post.channel_id, newest, "")
                    await self._ledger.sent(owner, [record])
                    for message_id in extra:
                        await self._courier.delete_dm(post.channel_id, message_id)
                await self._ledger.looked_for(owner, post.key)
            except discord.HTTPException as error:
                # Left for the next start; the owner is brought up to date all the same.
                log.warning("could not look for %s of %s: %s", post.key, owner, error)

    async def flush(self, timeout: float) -> list[Owner]:
        """Wait (at most ``timeout`` seconds) until everything owed is sent, and write down
        what was sent; the owners still owed something when the time ran out. Owners waiting
        on a timer (the channel's pacing, a retry) are looked at now; reminders not yet due are
        left for the next start."""
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
        unsent = sorted({o for owners in self._dirty.values() for o in owners})
        for task in self._tasks.values():
            task.cancel()
        if not await self._ledger.flush():
            log.warning("what was sent could not all be written down before stopping")
        return unsent

    # -- the work -------------------------------------------------------------------------------
    async def _run(self, key: tuple[int, Lane]) -> None:
        channel_id, lane = key
        try:
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
            # The sender's lease lapsed (or passed to another process): whoever sends next
            # brings this owner up to date (this process too, once it renews the lease).
            log.debug("%s not sent: this process may not send now", owner)
            self._held_back.add((owner, channel_id, lane))
        except Fault as fault:
            # The store fails (full, out of reach): noted once per game, tried again later.
            self._faults.note(fault.about(owner.id) if owner.kind is OwnerKind.GAME else fault)
            failures = self._failures.get((owner, lane), 0) + 1
            self._failures[(owner, lane)] = failures
            self._later(owner, channel_id, lane, min(RETRY_MAX, RETRY_AFTER * 2 ** (failures - 1)))
        except Exception:
            failures = self._failures.get((owner, lane), 0) + 1
            self._failures[(owner, lane)] = failures
            pause = min(RETRY_MAX, RETRY_AFTER * 2 ** (failures - 1))
            log.warning(
                "could not bring %s up to date (try %d); trying again in %.0f s",
                owner,
                failures,
                pause,
                exc_info=True,
            )
            self._later(owner, channel_id, lane, pause)

    def _later(self, owner: Owner, channel_id: int, lane: Lane, delay: float) -> None:
        """Look at the owner again after ``delay`` seconds (the channel's pacing, a retry, the
        change that is coming)."""
        if self._stopping:
            return
        old = self._timers.pop((owner, lane), None)
        if old is not None:
            old[0].cancel()
        loop = asyncio.get_running_loop()
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
            if lane is Lane.HANDS and owing.check_at is not None:
                self._remind(owner, channel_id, owing.check_at - self._clock())
            due = [
                (o, owing.sent.get(o.key))
                for o in owing.owed
                if (o.user_id is not None) == (lane is Lane.HANDS) and o.due(owing.sent.get(o.key))
            ]
            if not due:
                return
            if lane is Lane.HANDS:
                if self._ledger.changing(owner):
                    return  # a move is being saved: its change brings the keeper back
                if not await self._send_hands(owing, due):
                    continue  # the owner moved on meanwhile: draw it again
                return
            if owing.channel_id in self._closed_channels:
                return
            # Posts and edits have their own counts in a channel: what may go now goes (a
            # deal's last edit does not wait behind the next deal's post), the rest waits.
            waits = {
                kind: self._pacer.channel_delay(owing.channel_id, kind) for kind in RequestKind
            }
            ready = [(o, k) for o, k in due if waits[_kind(k)] <= 0]
            shown = await self._deliver_all(owing, ready)
            held = [waits[_kind(k)] for _, k in due if waits[_kind(k)] > 0]
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

    async def _send_hands(self, owing: Owing, due: list[tuple[Owed, MessageRecord | None]]) -> bool:
        """Send the DMs due; False if the owner moved on before they were all sent (a move's
        click already updated the mover's hand: an older state must not overwrite it), or one
        shows something else (an earlier copy Discord gave back)."""
        records: list[MessageRecord] = []
        try:
            for owed, known in due:
                if self._ledger.moved_on(owing):
                    return False
                try:
                    record = await self._deliver(owing, owed, known)
                except Superseded:
                    return False  # it moved on while the DM waited for its turn
                if record is not None:
                    records.append(record)
                    if record.digest != owed.view.digest():
                        return False
            return True
        finally:
            await self._ledger.sent(owing.owner, records)

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
            await self._ledger.sent(owing.owner, records)
        owed_digests = {o.key: o.view.digest() for o, _ in ready}
        return all(r.digest == owed_digests[r.key] for r in records)

    async def _still_current(self, owing: Owing) -> bool:
        return not self._ledger.moved_on(owing)

    async def _deliver(
        self, owing: Owing, owed: Owed, known: MessageRecord | None
    ) -> MessageRecord | None:
        """Send one message; the record to keep of it (None: nothing to keep, the DM or the
        channel being closed, which is what the owner hears of instead)."""
        try:
            record = await self._courier.send(
                owing.owner,
                owing.channel_id,
                owed,
                known,
                functools.partial(self._still_current, owing),
            )
        except (NoLiveToken, AnswerOnItsWay) as error:
            # Not sent now. Where the bot is not a member only an interaction's token reaches
            # a message: the game's next interaction brings one, and the message is brought up
            # to date. A click's answer still on its way to the message: edited in a moment,
            # once it has landed (or is taken as lost), since an edit now could land first and
            # then be overwritten by the answer's older look.
            if error.retry_after is not None:
                lane = Lane.TABLE if owed.user_id is None else Lane.HANDS
                self._later(owing.owner, owing.channel_id, lane, error.retry_after)
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
        except discord.HTTPException as error:
            if owed.once and error.status == 400:
                # A notice Discord will never take: say so, and do not try it forever.
                log.warning("Discord refused %s of %s: %s", owed.key, owing.owner, error)
                return None
            raise
        # What it shows was drawn at the owner's version then (a record of a later one, kept
        # by another process answering a click on it meanwhile, is not replaced).
        return dataclasses.replace(record, version=owing.version)
