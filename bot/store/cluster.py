"""This process among the bot's processes on one PostgreSQL database: which one sends, how
changes made elsewhere reach this one's change feed, and who may IDENTIFY when.

A bot token has one global rate limit (50 requests a second) however many processes share it,
and a channel takes 5 new messages per 5 seconds whoever posts them. So exactly one process,
the **sender**, brings every game's messages up to date, through its one paced keeper, and
does the once-per-bot jobs (syncing commands, expiring idle games, the game clock).

The sender is whichever process holds the ``sender`` lease: a row of the ``leases`` table
that lapses ``LEASE`` seconds after it was last renewed, by the database's clock. The sender
renews it every ``LEASE_RENEW_EVERY`` seconds. The others read how long it has left and try for it
the moment it lapses (at once when the sender says it stepped down, on
``STEPPED_DOWN_CHANNEL``), so a sender that is killed, frozen (SIGSTOP, a long pause, a hung
event loop) or cut off from the database is replaced within ``LEASE`` seconds and a little.

Fencing: a sender counts its lease as valid until ``LEASE - LEASE_SAFETY`` seconds after it
sent the renewal that last succeeded, by its own monotonic clock, which runs on while the
process is frozen. Each stretch of validity is an *epoch* (:meth:`Cluster.epoch`); every send
begins under one, and right before its request is written to the network (after any wait for
its turn, inside discord.py's rate limiter or not) the Discord layer asks
:meth:`Cluster.holds` whether this process still sends under it. A sender whose lease is no
longer valid writes nothing (the lease cannot have passed to another process before then),
and one that finds another process holding it stops sending. The process that takes over
waits out what may still be on its way and sends again what the one before may have touched
(``bot.core.ledger.keeper.MessageKeeper.take_over``).

Every process answers the interactions that reach it and stores the moves. A move bumps the
game's version, and on PostgreSQL that same statement announces the change (``pg_notify``,
delivered at commit), so every process hears of every change made by any other one, and
publishes it on its own change feed (:mod:`bot.core.base.feed`), where the sender's keeper and
clock follow it. The sender also looks every little while for games changed lately, should an
announcement have been missed (a connection dropped and made again), and every second for
clicks' answers no process said had landed.

IDENTIFY is limited per token too (``max_concurrency`` sessions per 5 s): before a shard
identifies, its process takes the lease of that shard's rate-limit key for 5 s
(:meth:`bot.store.Store.take_lease`: a row that lapses by itself).

A bot on SQLite is one process: it is the sender from the start and takes no leases.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import secrets
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.core.base.delivery import MessageNews
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.seating import seat_in_key
from bot.core.base.store_errors import StoreUnavailable
from bot.core.base.timing import ANSWER_LANDS_WITHIN, LEASE, LEASE_RENEW_EVERY, LEASE_SAFETY
from bot.core.base.views import MessageRecord
from bot.store.announcing import SEEN_HEAD
from bot.store.game_places import places_of
from bot.store.postgres import PostgresDatabase
from bot.store.queries import SENDER_LEASE
from bot.store.store import ANNOUNCE_CHANNEL, Store

__all__ = ["Cluster"]

log = logging.getLogger(__name__)

#: How often a process that does not send looks at the lease at most (it sleeps until the
#: lease would lapse, but not longer than this).
LOOK_EVERY = 1.0
#: How long the process that holds back (the one with shard 0) lets a lapsed lease lie, so
#: that another process takes it first.
HOLD_BACK = 0.25
#: The channel on which a sender says it has stepped down (games' changes are announced on
#: the store's ``ANNOUNCE_CHANNEL``).
STEPPED_DOWN_CHANNEL = "crib_sender"
#: How often the sender looks for games changed lately (in case an announcement was missed),
#: and how far back.
SWEEP_EVERY = 15.0
SWEEP_OVERLAP = 5.0
#: How often the sender looks for clicks' answers never said to have landed.
UNCONFIRMED_EVERY = 1.0
#: Discord: at most ``max_concurrency`` IDENTIFYs per this many seconds (and a little more, for
#: clocks that differ between machines).
IDENTIFY_PERIOD = 5.0
IDENTIFY_MARGIN = 0.5
IDENTIFY_POLL = 0.25


@dataclasses.dataclass(frozen=True)
class Announced:
    """What an announcement says: the change, and what it means for the owner's messages: a
    click's answer kept with it (``answered``: the look it gave one of them), or that it is
    heard late (``late``: a process of an earlier release names no version)."""

    change: Change
    answered: MessageRecord | None = None
    late: bool = False

    def tell(self, news: MessageNews) -> None:
        """Tell the ledger (``news``) what the announcement means for the messages, before
        the change is published: the answer, for the owner of the message it answers (a
        place, at a game played apart); or that every owner of the change's messages is
        heard of late."""
        owner, places = self.change.owner, self.change.places
        if self.late:
            for late in (owner, *places):
                news.heard_late(late)
        elif self.answered is not None:
            seat = seat_in_key(self.answered.key)
            if places and seat is not None:
                owner = places[seat]
            news.answer_kept_elsewhere(owner, self.answered)


def change_of(payload: str, seen: tuple[MessageKey, int, int] | None = None) -> Announced | None:
    """What an announcement says (``game:12:7:345``: owner, version, channel; then, after
    ``|``, the look a click's answer gave one of its messages, as JSON; a process of an
    earlier release says ``12:345``, the game and its channel), or None. A field of the
    record this release does not know is left out (a later release's). ``seen``: what the
    announcement just before said of the look the click was made on (:func:`seen_of`), given
    to the answer's record when it is of that key and version."""
    head, _, answered = payload.partition("|")
    parts = head.split(":")
    # (A channel is a number below zero for a ranked game: bot.store.game_places.)
    if len(parts) == 2 and parts[0].isdecimal() and _channel(parts[1]):
        return Announced(_change(Owner.game(int(parts[0])), 0, int(parts[1])), late=True)
    if len(parts) != 4 or not (parts[1].isdecimal() and parts[2].isdecimal()):
        return None
    if not _channel(parts[3]):
        return None
    try:
        owner = Owner.parse(f"{parts[0]}:{parts[1]}")
        record = _record(json.loads(answered)) if answered else None
    except (ValueError, TypeError):
        return None
    if record is not None and seen is not None and seen[:2] == (record.key, record.version):
        record = dataclasses.replace(record, seen=seen[2])
    return Announced(_change(owner, int(parts[2]), int(parts[3])), answered=record)


def _change(owner: Owner, version: int, channel_id: int) -> Change:
    """The change of ``owner`` to ``version`` another process announced (or this one found),
    its messages in ``channel_id``, with the places that keep them too (a ranked game's)."""
    return Change(owner, version, channel_id, places=places_of(owner, channel_id))


def _channel(text: str) -> bool:
    """Whether ``text`` is a channel's number as announced (below zero: a game played apart)."""
    return text.removeprefix("-").isdecimal()


def seen_of(payload: str) -> tuple[MessageKey, int, int] | None:
    """What an announcement of the look a click was made on says (``seen|{...}``, just before
    the announcement of its answer: see ``bot.store.announcing``): the answer's key
    and version, and the version of that look; None for any other announcement."""
    head, _, said = payload.partition("|")
    if head != SEEN_HEAD:
        return None
    try:
        fields = json.loads(said)
        return MessageKey.parse(str(fields["key"])), int(fields["version"]), int(fields["seen"])
    except (ValueError, TypeError, KeyError):
        return None


def _record(fields: dict[str, Any]) -> MessageRecord:
    """A message's record from its announced fields, those this release knows (its key, as
    text)."""
    known = {name: fields[name] for name in _RECORD_FIELDS if name in fields}
    if "key" in known:
        known["key"] = MessageKey.parse(str(known["key"]))
    return MessageRecord(**known)


#: The fields of a message's record.
_RECORD_FIELDS = tuple(field.name for field in dataclasses.fields(MessageRecord))


class Cluster:
    """Whether this process is the sender, kept up to date, and what it does on becoming one."""

    def __init__(
        self,
        store: Store,
        feed: ChangeFeed,
        news: MessageNews,
        *,
        became_sender: Callable[[], Awaitable[None]],
        stopped_sending: Callable[[], None] = lambda: None,
        resumed: Callable[[], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Changes made by other processes are published on ``feed``, the ledger told first
        through ``news`` what each means for the messages; ``became_sender`` runs
        when this process takes over as the sender, ``stopped_sending`` when it finds it no
        longer is, ``resumed`` (by default ``became_sender``) when it renewed its lease only
        after it had lapsed by its own clock (it sent nothing meanwhile)."""
        self._resumed = resumed or became_sender
        self._store = store
        self._feed = feed
        self._news = news
        self._stopped_sending = stopped_sending
        self._became_sender = became_sender
        self._clock = clock
        #: Several processes may share the database: leases and announcements are used.
        self.shared = isinstance(store.db, PostgresDatabase)
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.sender = not self.shared
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._stopping = False
        #: What the announcement just heard said of the look a click was made on, for the
        #: next one, its answer's (:func:`seen_of`).
        self._seen: tuple[MessageKey, int, int] | None = None
        self._holds_back = False
        self._swept_at = 0.0
        self._checked_at = 0.0
        #: Until when (``time.monotonic()``) this process's lease is valid by its own clock,
        #: and the epoch that validity belongs to.
        self._valid_until = 0.0
        self._epoch = 1
        #: What failed and was said (once) until it works again.
        self._troubles: set[str] = set()
        #: Whether the last sender stepped down cleanly, as far as this process heard (then
        #: nothing of it is still on its way when this one takes over).
        self.handed_over = False
        #: How many times this process took over sending from another (for the metrics).
        self.takeovers = 0

    @property
    def epochs(self) -> int:
        """How many stretches of validity this process's lease has had (its epoch now)."""
        return self._epoch

    # -- starting and stopping ----------------------------------------------------------------
    async def start(self, *, holds_back: bool = False) -> None:
        """Listen for announcements, try for the sender's lease (at once, unless
        ``holds_back``) and keep looking at it in the background."""
        if not self.shared:
            return
        db = self._store.db
        assert isinstance(db, PostgresDatabase)
        # Its own changes this process publishes as it makes them.
        await db.listen(ANNOUNCE_CHANNEL, self._announced, others_only=True)
        await db.listen(STEPPED_DOWN_CHANNEL, self._stepped_down)
        # The process with shard 0 answers every DM (nearly every click): when others share the
        # work, it leaves sending to one of them, so the two kinds of work go to two cores. It
        # takes over only when none of them has, a moment after the lease lapsed.
        self._holds_back = holds_back
        self.sender = False if holds_back else await self._renew()
        self._swept_at = self._clock()
        said = "is the sender" if self.sender else "does not send (another process does)"
        log.info("this process %s (%s)", said, self.holder)
        self._task = asyncio.create_task(self._watch(), name="crib-sender")

    async def stop(self) -> None:
        """Stop renewing; give the sender's lease up (once what it owed is sent) and tell the
        other processes, so one of them takes over at once."""
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.shared and self.sender:
            self.sender = False
            self._valid_until = 0.0
            try:
                db = self._store.db
                assert isinstance(db, PostgresDatabase)
                await self._store.give_up_lease(SENDER_LEASE, self.holder)
                await db.notify(STEPPED_DOWN_CHANNEL, self.holder)
            except Exception:
                # It lapses by itself in a moment.
                self._failed("give the sender's lease up", sys.exc_info()[1])

    def _stepped_down(self, _payload: str) -> None:
        """The sender said it stepped down (it stopped cleanly, having sent what it owed): take
        the lease at once, and with nothing of it on its way."""
        self.handed_over = True
        self._wake.set()

    # -- the sender's lease -------------------------------------------------------------------
    def held_as(self) -> str | None:
        """The name this process holds the sender's lease under in the database (None on
        SQLite: one process, no lease)."""
        return self.holder if self.shared else None

    def epoch(self) -> int | None:
        """The epoch this process sends under now (None: it may not send)."""
        return self._epoch if self.may_send() else None

    def holds(self, epoch: int) -> bool:
        """Whether this process still sends under ``epoch`` (checked right before a request is
        written: one that waited while the lease lapsed and was taken again is not)."""
        return epoch == self._epoch and self.may_send()

    def may_send(self) -> bool:
        """Whether this process may send now: it is the sender and its lease is still valid
        by its own clock (a sender frozen past it, or that could not renew it in time, sends
        nothing: another process may have taken over)."""
        return self.sender and (not self.shared or time.monotonic() < self._valid_until)

    async def _renew(self) -> bool:
        """Take or renew the sender's lease; whether this process holds it. Its local validity
        is counted from before the request, so it ends before the database's lease does."""
        asked = time.monotonic()
        was_valid = self.may_send()
        held = await self._store.hold_lease(SENDER_LEASE, self.holder, LEASE)
        if held:
            if not was_valid:
                self._epoch += 1  # a new stretch: what began under the last may not go
            self._valid_until = asked + LEASE - LEASE_SAFETY
        return held

    async def _watch(self) -> None:
        """As the sender, renew the lease every ``LEASE_RENEW_EVERY`` seconds; otherwise sleep until
        it would lapse (or the sender says it stepped down) and try for it."""
        while not self._stopping:
            pause = LEASE_RENEW_EVERY if self.sender else await self._lease_left()
            if pause > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=pause)
            self._wake.clear()
            if self._stopping:
                return
            was_valid = self.may_send()
            try:
                if not self.sender and self._holds_back:
                    # A lapsed lease is left a moment to a process that does not hold back.
                    await asyncio.sleep(HOLD_BACK)
                held = await self._renew()
                self._troubles.discard("renew or take the sender's lease")
            except Exception as error:
                # No database, no lease: stop sending (another process may take over).
                self._failed("renew or take the sender's lease", error)
                held = False
            if held and not self.sender:
                self.sender = True
                self.takeovers += 1
                log.info("this process is now the sender (%s)", self.holder)
                await self._take_over(self._became_sender)
                self.handed_over = False
            elif held and not was_valid:
                # Renewed late (the process was frozen, or the database slow): nobody took
                # over meanwhile, but what this process did not send then is sent now.
                log.warning("the sender's lease was renewed late; sending what was held back")
                await self._take_over(self._resumed)
            elif not held and self.sender:
                self.sender = False
                log.warning("this process is no longer the sender (%s)", self.holder)
                self._stopped_sending()
            if self.sender:
                await self._sweep()

    async def _lease_left(self) -> float:
        """How long a process that does not send sleeps before trying for the lease: until it
        would lapse, at most ``LOOK_EVERY``."""
        try:
            left = await self._store.lease_left(SENDER_LEASE)
            self._troubles.discard("look at the sender's lease")
            return min(LOOK_EVERY, left)
        except Exception as error:
            self._failed("look at the sender's lease", error)
            return LOOK_EVERY

    def _failed(self, what: str, error: BaseException | None) -> None:
        """Say once that ``what`` failed, until it works again (a database out of reach
        fails every look: one line, not one traceback a second)."""
        if what in self._troubles:
            return
        self._troubles.add(what)
        if isinstance(error, StoreUnavailable):
            log.warning("could not %s: %s", what, error)
        else:
            log.warning("could not %s", what, exc_info=error)

    async def _take_over(self, then: Callable[[], Awaitable[None]]) -> None:
        try:
            await then()
        except Exception:
            log.exception("could not take over as the sender")

    async def _sweep(self) -> None:
        """Every few seconds, the games with a click's answer that the process that answered
        never said had landed (it may have died first): their messages are drawn again. Less
        often, the games and the players' settings changed since the last look (an
        announcement may have been missed: a dropped connection, a process that changed a game
        while this one was taking over)."""
        now = self._clock()
        if now - self._checked_at >= UNCONFIRMED_EVERY:
            self._checked_at = now
            try:
                found = await self._store.unconfirmed(now - ANSWER_LANDS_WITHIN)
                for owner, version, channel_id in found:
                    self._heard_late(_change(owner, version, channel_id))
                self._troubles.discard("look for unconfirmed answers")
            except Exception as error:
                self._failed("look for unconfirmed answers", error)
        if now - self._swept_at < SWEEP_EVERY:
            return
        since, self._swept_at = self._swept_at - SWEEP_OVERLAP, now
        try:
            for game_id, version, channel_id in await self._store.games_changed_since(since):
                # Heard late, not as it happened: what was sent of its messages is read again.
                self._heard_late(_change(Owner.game(game_id), version, channel_id))
            for user_id, version in await self._store.settings_changed_since(since):
                # (A person's setting: no message is theirs, only what is kept of it moves on.)
                self._feed.publish(Change(Owner.person(user_id), version, 0))
            self._troubles.discard("look for games changed lately")
        except Exception as error:
            self._failed("look for games changed lately", error)

    def _announced(self, payload: str) -> None:
        """A change made in another process: on this process's feed too (the look a click
        was made on, announced just before its answer, goes with that answer)."""
        seen = seen_of(payload)
        if seen is not None:
            self._seen = seen
            return
        seen, self._seen = self._seen, None
        announced = change_of(payload, seen)
        if announced is not None:
            announced.tell(self._news)
            self._feed.publish(announced.change)

    def _heard_late(self, change: Change) -> None:
        """Publish a change heard late (what its messages show is read again first)."""
        Announced(change, late=True).tell(self._news)
        self._feed.publish(change)

    # -- IDENTIFY -----------------------------------------------------------------------------
    async def before_identify(self, shard_id: int, max_concurrency: int) -> None:
        """Wait until this shard may IDENTIFY: no other process's shard with the same rate
        limit key identified in the last 5 seconds (then hold that key for the next 5)."""
        key = f"identify:{shard_id % max(1, max_concurrency)}"
        holder = f"{self.holder}:{shard_id}:{secrets.token_hex(2)}"
        seconds = IDENTIFY_PERIOD + IDENTIFY_MARGIN
        while not await self._store.take_lease(key, holder, now=self._clock(), seconds=seconds):
            await asyncio.sleep(IDENTIFY_POLL)
