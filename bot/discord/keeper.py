"""The table keeper: makes every game's Discord messages match the stored game.

A game that may have changed is *touched*; its channel's keeper task then asks the service what
the game's messages should show (``GameService.owed``), compares it with what was last sent,
and sends only the difference through the :class:`~bot.discord.courier.Courier`, reporting
each message sent back to the service (which stores its id and digest). Bursts coalesce: while
a channel's buckets are spent, the keeper waits and then draws the game afresh, so three moves in
a second cost one edit of the table, never three. DMs go before the channel's messages, so the
next player's controls are not held up by the table's pacing.

Because the messages are a view of the stored game and what was sent is stored too, nothing a
player needs is lost to a crash: at start-up every open or recently ended game is touched and
whatever is missing or stale is sent. A send that failed is tried again after a pause.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import time
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

import discord

from bot.core.messages import Owed
from bot.core.records import MessageRecord
from bot.discord.courier import ChannelClosed, Courier, DmsClosed, Superseded
from bot.discord.pacing import Pacer, RequestKind

if TYPE_CHECKING:
    from bot.core.service import GameService, Owing

__all__ = ["Lane", "TableKeeper"]

log = logging.getLogger(__name__)

#: A failed send is tried again after this many seconds (doubling, up to the maximum).
RETRY_AFTER = 2.0
RETRY_MAX = 120.0
#: How many passes one sync may make (each draws the game afresh) before it yields.
MAX_PASSES = 20
#: Games brought up to date at once at start-up.
RECONCILE_AT_ONCE = 16


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
    """Per channel and lane, one task with games to bring up to date; timers per game."""

    def __init__(
        self,
        service: GameService,
        courier: Courier,
        pacer: Pacer,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._service = service
        self._courier = courier
        self._pacer = pacer
        self._clock = clock
        self._dirty: dict[tuple[int, Lane], set[int]] = {}
        self._tasks: dict[tuple[int, Lane], asyncio.Task[None]] = {}
        self._timers: dict[tuple[int, Lane], tuple[asyncio.TimerHandle, int]] = {}
        self._failures: dict[tuple[int, Lane], int] = {}
        #: When each game next has a reminder falling due.
        self._reminders: dict[int, asyncio.TimerHandle] = {}
        #: Channels the bot may not post in (gone, or no permission): told once in the log.
        self._closed_channels: set[int] = set()
        #: Set while shutting down: no more timers (reminders, retries) are started.
        self._stopping = False

    # -- asking ---------------------------------------------------------------------------------
    def touch(self, game_id: int, channel_id: int, lanes: tuple[Lane, ...] = tuple(Lane)) -> None:
        """The game may have changed: bring its messages up to date soon."""
        for lane in lanes:
            key = (channel_id, lane)
            self._dirty.setdefault(key, set()).add(game_id)
            if key not in self._tasks:
                name = f"crib-{lane.value}-{channel_id}"
                self._tasks[key] = asyncio.create_task(self._run(key), name=name)

    @property
    def busy(self) -> bool:
        """Whether anything is being sent or waits to be."""
        return bool(self._tasks or self._dirty)

    async def reconcile(self) -> int:
        """Bring every open or recently ended game up to date (start-up); how many there were."""
        games = await self._service.games_to_reconcile()
        for game_id, channel_id in games:
            await self._recover(game_id)
            self.touch(game_id, channel_id)
            if len(self._tasks) >= RECONCILE_AT_ONCE:
                await asyncio.wait(list(self._tasks.values()), return_when=asyncio.FIRST_COMPLETED)
        return len(games)

    async def _recover(self, game_id: int) -> None:
        """Keep what a process that died between posting a DM and keeping its id left behind:
        the newest copy found becomes the message (the next pass edits it to match the game),
        any other copy is deleted, so no second hand with live controls stays in a DM."""
        pending = await self._service.pending_posts(game_id)
        if not pending:
            return
        kept = {record.message_id for record in (await self._service.kept(game_id)).values()}
        for post in pending:
            try:
                found = await self._courier.posted_since(game_id, post, kept)
                if found:
                    *extra, newest = found
                    kept.add(newest)
                    record = MessageRecord(post.key, post.channel_id, newest, "")
                    await self._service.sent(game_id, record)
                    for message_id in extra:
                        await self._courier.delete_dm(post.channel_id, message_id)
                await self._service.looked_for(game_id, post.key)
            except discord.HTTPException as error:
                # Left for the next start; the game is brought up to date all the same.
                log.warning("could not look for %s of game %s: %s", post.key, game_id, error)

    async def flush(self, timeout: float) -> list[int]:
        """Wait (at most ``timeout`` seconds) until everything owed is sent; the games still
        owed something when the time ran out. Games waiting on a timer (the channel's pacing,
        a retry) are looked at now; reminders not yet due are left for the next start."""
        self._stopping = True
        for (game_id, lane), (timer, channel_id) in list(self._timers.items()):
            timer.cancel()
            self.touch(game_id, channel_id, (lane,))
        self._timers.clear()
        for reminder in self._reminders.values():
            reminder.cancel()
        self._reminders.clear()
        deadline = time.monotonic() + timeout
        while self._tasks and (left := deadline - time.monotonic()) > 0:
            await asyncio.wait(list(self._tasks.values()), timeout=left)
        unsent = sorted({g for games in self._dirty.values() for g in games})
        for task in self._tasks.values():
            task.cancel()
        return unsent

    # -- the work -------------------------------------------------------------------------------
    async def _run(self, key: tuple[int, Lane]) -> None:
        channel_id, lane = key
        try:
            while games := self._dirty.pop(key, None):
                for game_id in sorted(games):
                    await self._sync_safely(game_id, channel_id, lane)
        finally:
            self._tasks.pop(key, None)
            # A touch that came in while the task was ending starts a new one.
            if self._dirty.get(key):
                self.touch(next(iter(self._dirty[key])), channel_id, (lane,))

    async def _sync_safely(self, game_id: int, channel_id: int, lane: Lane) -> None:
        try:
            await self._sync(game_id, channel_id, lane)
            self._failures.pop((game_id, lane), None)
        except asyncio.CancelledError:
            raise
        except Exception:
            failures = self._failures.get((game_id, lane), 0) + 1
            self._failures[(game_id, lane)] = failures
            pause = min(RETRY_MAX, RETRY_AFTER * 2 ** (failures - 1))
            log.warning(
                "could not bring game %s up to date (try %d); trying again in %.0f s",
                game_id,
                failures,
                pause,
                exc_info=True,
            )
            self._later(game_id, channel_id, lane, pause)

    def _later(self, game_id: int, channel_id: int, lane: Lane, delay: float) -> None:
        """Look at the game again after ``delay`` seconds (a reminder due, the channel's pacing,
        a retry)."""
        if self._stopping:
            return
        old = self._timers.pop((game_id, lane), None)
        if old is not None:
            old[0].cancel()
        loop = asyncio.get_running_loop()
        handle = loop.call_later(max(0.0, delay), self._fire, game_id, channel_id, lane)
        self._timers[(game_id, lane)] = (handle, channel_id)

    def _remind(self, game_id: int, channel_id: int, delay: float) -> None:
        """Look at the game again, in both lanes, when a reminder falls due: it is a DM, or a
        mention in the channel for a player whose DMs are closed."""
        if self._stopping:
            return
        old = self._reminders.pop(game_id, None)
        if old is not None:
            old.cancel()

        def due() -> None:
            self._reminders.pop(game_id, None)
            self.touch(game_id, channel_id)

        self._reminders[game_id] = asyncio.get_running_loop().call_later(max(0.0, delay), due)

    def _fire(self, game_id: int, channel_id: int, lane: Lane) -> None:
        self._timers.pop((game_id, lane), None)
        self.touch(game_id, channel_id, (lane,))

    async def _sync(self, game_id: int, channel_id: int, lane: Lane) -> None:
        for _ in range(MAX_PASSES):
            owing = await self._service.owed(game_id)
            if owing is None:
                return
            if lane is Lane.HANDS and owing.check_at is not None:
                self._remind(game_id, channel_id, owing.check_at - self._clock())
            due = [
                (o, owing.sent.get(o.key))
                for o in owing.owed
                if (o.user_id is not None) == (lane is Lane.HANDS) and o.due(owing.sent.get(o.key))
            ]
            if not due:
                return
            if lane is Lane.HANDS:
                if not await self._send_hands(owing, due):
                    continue  # the game moved on meanwhile: draw it again
                return
            if owing.channel_id in self._closed_channels:
                return
            # Posts and edits have their own counts in a channel: what may go now goes (a
            # deal's last edit does not wait behind the next deal's post), the rest waits.
            waits = {
                kind: self._pacer.channel_delay(owing.channel_id, kind) for kind in RequestKind
            }
            ready = [(o, k) for o, k in due if waits[_kind(k)] <= 0]
            shown = [await self._deliver(owing, owed, known) for owed, known in ready]
            held = [waits[_kind(k)] for _, k in due if waits[_kind(k)] > 0]
            if held:
                # The channel's counts are spent: come back when they allow, and draw the game
                # afresh then, so every move made meanwhile goes out in the same edit (while
                # shutting down, waiting here is what sends what is owed).
                if not self._stopping:
                    self._later(game_id, channel_id, lane, min(held))
                    return
                await asyncio.sleep(min(held))
                continue
            if all(shown):
                return
            # Discord gave back an earlier copy (a post retried after a crash): edit it.
        log.info("game %s kept changing while it was being sent; looking again", game_id)
        self.touch(game_id, channel_id, (lane,))

    async def _send_hands(self, owing: Owing, due: list[tuple[Owed, MessageRecord | None]]) -> bool:
        """Send the DMs due; False if the game moved on before they were all sent (a move's
        click already updated the mover's hand: an older state must not overwrite it), or one
        shows something else (an earlier copy Discord gave back)."""
        for owed, known in due:
            if await self._service.moved_on(owing):
                return False
            try:
                if not await self._deliver(owing, owed, known):
                    return False
            except Superseded:
                return False  # it moved on while the DM waited for its turn
        return True

    async def _still_current(self, owing: Owing) -> bool:
        return not await self._service.moved_on(owing)

    async def _deliver(self, owing: Owing, owed: Owed, known: MessageRecord | None) -> bool:
        """Send one message and report it; a closed DM or channel is what the game hears of.
        False when the message now shows something other than ``owed`` (Discord gave back an
        earlier copy of a post): it wants an edit."""
        try:
            record = await self._courier.send(
                owing.game_id,
                owing.channel_id,
                owed,
                known,
                functools.partial(self._still_current, owing),
            )
        except DmsClosed:
            assert owed.user_id is not None
            await self._service.dms_refused(owing.game_id, owed.user_id)
            # The channel's notice is owed now, and the table's task may be done already.
            self.touch(owing.game_id, owing.channel_id, (Lane.TABLE,))
            return True
        except ChannelClosed as error:
            if owing.channel_id not in self._closed_channels:
                self._closed_channels.add(owing.channel_id)
                if error.gone:
                    # Deleted, with its game in it: nothing to fix, nothing more to send there.
                    log.info(
                        "channel %s is gone: game %s's messages there are not sent",
                        owing.channel_id,
                        owing.game_id,
                    )
                else:
                    log.warning("cannot post in channel %s (%s)", owing.channel_id, error)
            return True
        except discord.HTTPException as error:
            if owed.once and error.status == 400:
                # A notice Discord will never take: say so, and do not try it forever.
                log.warning("Discord refused %s of game %s: %s", owed.key, owing.game_id, error)
                return True
            raise
        # What it shows was drawn at the game's version then (a record of a later one, kept by
        # another process answering a click on it meanwhile, is not replaced).
        record = dataclasses.replace(record, version=owing.version)
        await self._service.sent(owing.game_id, record)
        return record.digest == owed.view.digest()
