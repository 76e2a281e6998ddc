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

Every request goes under the lease epoch the keeper holds
(:class:`~bot.core.ledger.attempts.Lease`), checked right before the request is written. A
process that takes over (:meth:`MessageKeeper.take_over`) first waits out what the sender before
it may still have on its way, takes what that one may have spent of each channel's counts as
spent, and sends again every message it may have touched.

Because the messages are a view of the stored owner and what was sent is stored too, nothing a
player needs is lost to a crash: at start-up every open or recently ended owner is touched and
whatever is missing or stale is sent. A send that failed is tried again after a pause; one
Discord did not take for now (a 5xx, Cloudflare's 429, the network) is said once for all
owners, and goes again as soon as Discord takes a request (:mod:`~bot.core.ledger.outage`).

The keeper decides what each pass sends; beside it, one job each: the queues and timers
(:mod:`~bot.core.ledger.lanes`), one message's attempts under the fence
(:mod:`~bot.core.ledger.attempts`), the hands' lanes, prompts first
(:mod:`~bot.core.ledger.hands`), and taking over and finding lost posts
(:mod:`~bot.core.ledger.takeover`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from bot.core.base.faults import Fault, Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.views import MessageRecord
from bot.core.ledger.attempts import Attempts, Crew, Lease
from bot.core.ledger.hands import Hands
from bot.core.ledger.lanes import Lane, Lanes
from bot.core.ledger.ledger import MessageLedger
from bot.core.ledger.life import Owing
from bot.core.ledger.outage import Outage, WatchedTransport
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.takeover import Takeover
from bot.core.ledger.transport import NotSender, RequestKind, Superseded, Transport, Unavailable

__all__ = ["MessageKeeper"]

log = logging.getLogger(__name__)

#: How many passes one sync may make (each draws the owner afresh) before it yields.
MAX_PASSES = 20
#: Owners brought up to date at once at start-up.
RECONCILE_AT_ONCE = 16
#: When a change says another follows in a moment (the computer's answer, thought over
#: apart), the table waits for it this long at most, so it changes once.
MORE_COMING_WAIT = 3.0


def _kind(known: MessageRecord | None) -> RequestKind:
    """What sending a message costs the channel: a post when none was sent, else an edit."""
    return RequestKind.POST if known is None else RequestKind.EDIT


class MessageKeeper:
    """Brings every owner's messages up to date, per channel and lane, in the order players
    need them."""

    def __init__(
        self,
        ledger: MessageLedger,
        transport: Transport,
        pacer: Pacer,
        *,
        lease: Lease,
        clock: Callable[[], float] = time.time,
        faults: Faults,
    ) -> None:
        """``lease``: whether this process may send (:class:`AlwaysSender` for a lone process).
        ``faults``: where a store that fails is noted (the core's, so that a game's fault is
        said once however many parts meet it)."""
        self._ledger = ledger
        self._faults = faults
        self._pacer = pacer
        self._clock = clock
        self._lanes = Lanes(self._sync_safely)
        #: Whether Discord takes requests: when it does again, what waits on a retry goes.
        self._outage = Outage(self._lanes.retry_now)
        crew = Crew.of(ledger, WatchedTransport(transport, self._outage), pacer, self._lanes, clock)
        self._crew = crew
        self._attempts = Attempts(crew, lease)
        self._hands = Hands(crew, self._attempts)
        self._takeover = Takeover(crew, self._attempts)
        #: What was not sent while this process's lease was not valid (see ``resume``).
        self._held_back: set[tuple[Owner, int, Lane]] = set()
        self._unsubscribe: Callable[[], None] | None = None

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
        # The process that sends now brings every owner up to date: nothing is held back,
        # and no timer draws an owner here again; one that sends again looks for lost posts
        # again.
        self._held_back.clear()
        self._lanes.forget_timers()
        self._takeover.forget()
        self._attempts.forget_doubts()

    def _heard(self, change: Change) -> None:
        if not self._ledger.draws(change.owner):
            return  # (a person's change: no message is theirs)
        if not change.more_coming:
            self.touch(change.owner, change.channel_id)
            return
        # The hands go at once; the table waits a moment for the change that follows.
        self.touch(change.owner, change.channel_id, (Lane.COPIES, Lane.HANDS))
        self._lanes.later(change.owner, change.channel_id, Lane.TABLE, MORE_COMING_WAIT)

    # -- asking ---------------------------------------------------------------------------------
    def touch(self, owner: Owner, channel_id: int, lanes: tuple[Lane, ...] = tuple(Lane)) -> None:
        """The owner may have changed: bring its messages up to date soon (not once a stop
        has flushed: see :meth:`flush`)."""
        self._lanes.touch(owner, channel_id, lanes)

    @property
    def busy(self) -> bool:
        """Whether anything is being sent or waits to be."""
        return self._lanes.busy

    async def reconcile(self) -> list[Owner]:
        """Bring every open or recently ended owner up to date (start-up); which they were."""
        owners = await self._ledger.to_reconcile()
        for owner, channel_id in owners:
            # What the sender before posted with the bot's token and never kept is posted
            # again with its nonce first (Discord gives back the same message).
            self._attempts.doubt_posts(owner)
            with contextlib.suppress(NotSender):
                # (If not, looked for when this process sends again: see Takeover.recovered.)
                await self._takeover.recovered(owner)
            self.touch(owner, channel_id)
            await self._lanes.room(RECONCILE_AT_ONCE)
        return [owner for owner, _ in owners]

    async def take_over(self, *, handed_over: bool = False) -> list[Owner]:
        """This process sends now, after another that may have stopped mid-send (killed, frozen,
        cut off): wait out what that one may still have on its way, count what it may have spent
        of the channels' counts as spent, take every message it may have been sending as unknown
        (:meth:`Takeover.wait_out <bot.core.ledger.takeover.Takeover.wait_out>`: nothing is sent
        meanwhile), then look for lost posts and bring every owner up to date
        (:meth:`reconcile`). ``handed_over``: the one before stepped down cleanly, having sent
        what it owed: nothing of it is on its way."""
        if not handed_over:
            with self._lanes.held():
                await self._takeover.wait_out()
        return await self.reconcile()

    async def caught_up(self) -> None:
        """Wait until nothing is being sent, waits to be, or waits on a timer (the channels'
        pacing, a retry): after a start or a takeover, the moment every owner reconciled shows
        what it owes (reminders not yet due aside)."""
        await self._lanes.caught_up()

    async def flush(self, timeout: float, *, last: bool = False) -> list[Owner]:
        """Wait (at most ``timeout`` seconds) until everything owed is sent, and write down
        what was sent; the owners still owed something when the time ran out. Owners waiting
        on a timer (the channel's pacing, a retry) are looked at now; reminders not yet due are
        left for the next start. ``last``: the process is stopping, and nothing new is sent
        once what was owed is (what a change heard later owes is the next sender's)."""
        await self._lanes.drain(timeout)
        # From here on nothing new starts: a change heard now (another process's move) would
        # start a send while the lease is being given up, and a post written then, whose id
        # this process never keeps, is posted again by the process taking over (a clean
        # hand-over waits nothing). Whatever the change owes is the next sender's.
        if last:
            self._lanes.close()
            self.unfollow()
        unsent = self._lanes.cancel()
        if not await self._crew.writes.flush():
            log.warning("what was sent could not all be written down before stopping")
        return unsent

    # -- the work -------------------------------------------------------------------------------
    async def _sync_safely(self, owner: Owner, channel_id: int, lane: Lane) -> None:
        try:
            if await self._sync(owner, channel_id, lane):
                self._attempts.passed(owner, lane)
            self._lanes.succeeded(owner, lane)
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
            self._lanes.retry(owner, channel_id, lane)
        except Unavailable:
            # Discord does not take requests for now (its servers, Cloudflare, the network):
            # said once for all owners (Outage), tried again after a pause, and at once when
            # Discord takes a request again. A post through a token it may have made all the
            # same is looked for before it is made again.
            self._takeover.doubt(owner)
            self._lanes.retry(owner, channel_id, lane)
        except Exception:
            failures, pause = self._lanes.retry(owner, channel_id, lane)
            log.warning(
                "could not bring %s up to date (try %d); trying again in %.0f s",
                owner,
                failures,
                pause,
                exc_info=True,
            )

    async def _sync(self, owner: Owner, channel_id: int, lane: Lane) -> bool:
        """Bring the owner's messages in ``lane`` up to date; whether all it owed went (False:
        some wait on a timer, a change, or another pass)."""
        await self._takeover.recovered(owner)
        for _ in range(MAX_PASSES):
            owing = await self._ledger.owed(owner)
            if owing is None:
                return True
            if lane is Lane.HANDS:
                self._lanes.remind(owner, channel_id, owing.check_in)
            if self._ledger.changing(owner):
                # A move is being saved here: its change brings the keeper back. The draw may
                # hold it already while what is kept of the messages does not yet hold its
                # click's answer (heard once the save returns), and an edit now would land
                # before that answer, which Discord then refuses or lays over it.
                return False
            if lane is Lane.COPIES:
                try:
                    await self._hands.send_mirrors(owing)
                except Superseded:
                    continue  # the owner moved on meanwhile: draw it again
                return True
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
                return True
            if lane is Lane.HANDS:
                if not await self._hands.send(owing, due):
                    continue  # the owner moved on meanwhile: draw it again
                return True
            if self._attempts.closed(owing.channel_id):
                return True
            # Posts and edits have their own counts in a channel: what may go now goes (a
            # deal's last edit does not wait behind the next deal's post), the rest waits.
            waits = {
                kind: self._pacer.channel_delay(owing.channel_id, kind) for kind in RequestKind
            }
            private = [(o, k) for o, k in due if o.tokens_only]
            ready = private + [(o, k) for o, k in due if not o.tokens_only and waits[_kind(k)] <= 0]
            shown = await self._attempts.deliver_all(owing, ready)
            held = [waits[_kind(k)] for o, k in due if not o.tokens_only and waits[_kind(k)] > 0]
            if held:
                # The channel's counts are spent: come back when they allow, and draw the owner
                # afresh then, so every move made meanwhile goes out in the same edit (while
                # shutting down, waiting here is what sends what is owed).
                if not self._lanes.stopping:
                    self._lanes.later(owner, channel_id, lane, min(held))
                    return False
                await asyncio.sleep(min(held))
                continue
            if shown and not owing.again:
                return True
            # Discord gave back an earlier copy (a post retried after a crash): edit it. Or
            # what went owes another look (a private table catching up on the deals it
            # missed): draw it again.
        log.info("%s kept changing while it was being sent; looking again", owner)
        self._lanes.touch(owner, channel_id, (lane,))
        return False

    async def _close_older(self, owing: Owing) -> None:
        """Close the older copies of the owner's messages that a live token reaches (a table
        posted again at a private table, whose older copy was clicked since): each shows the
        message as it is, without controls, saying it moved on."""
        for owed in owing.owed:
            closed = owed.closed
            if closed is None:
                continue
            for copy in self._crew.copies.older(owing.owner, owed.key):
                if copy.digest == closed.digest():
                    continue
                # (Closed, or its token reaches it no more: nothing more is sent to it.)
                await self._attempts.edit_copy(copy, closed)
                self._crew.copies.closed_older(owing.owner, copy)
