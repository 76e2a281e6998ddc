"""What reaches the store of what was sent: written a moment after it is kept in memory.

What was sent is kept in memory at once (:mod:`bot.core.ledger.shown`) and written a moment later
(:data:`~bot.core.base.timing.WRITE_BEHIND`), many messages in one statement, with the pending
posts each clears. A follow-up takes no nonce, so it is noted as about to be posted before it
goes (a pending post in the store), and a process that starts or takes over looks for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.core.base.faults import Fault, Faults
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.timing import WRITE_BEHIND
from bot.core.base.views import MessageRecord
from bot.core.ledger.life import Lives, replaces
from bot.core.ledger.storage import MessageRecords
from bot.core.ledger.transport import NotSender, PendingPost

__all__ = ["WRITE_RETRY", "WriteBehind"]

log = logging.getLogger(__name__)

#: A write that failed is tried again after this long.
WRITE_RETRY = 1.0


class WriteBehind:
    """What was sent and is not written yet, written to the store soon, in one go."""

    def __init__(
        self, store: MessageRecords, lives: Lives, now: Callable[[], float], faults: Faults
    ) -> None:
        """``faults``: where a store that fails is noted."""
        self._store = store
        self._lives = lives
        self._now = now
        self._faults = faults
        # What was sent and is not written yet, by owner and key; the pending posts it clears
        # once written; and what is being written now (a read of the store meanwhile would
        # not see it).
        self._unwritten: dict[tuple[Owner, MessageKey], MessageRecord] = {}
        self._cleared: set[tuple[Owner, MessageKey]] = set()
        self._writing: list[dict[tuple[Owner, MessageKey], MessageRecord]] = []
        self._writer: asyncio.Task[None] | None = None
        # One write at a time: a flush waits for the write on its way (see flush).
        self._write_turn = asyncio.Lock()

    def write(self, owner: Owner, record: MessageRecord, *, posted: bool = False) -> None:
        """Have ``record`` written to the store soon, with whatever else is sent meanwhile
        (``posted``: and its pending post cleared in the same write)."""
        if posted:
            self._cleared.add((owner, record.key))
        if replaces(record, self._unwritten.get((owner, record.key))):
            self._unwritten[(owner, record.key)] = record
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_soon())

    def holds(self, owner: Owner) -> bool:
        """Whether anything sent of ``owner`` is not written yet."""
        return any(o == owner for o, _ in self._unwritten)

    def over(
        self, owner: Owner, read: dict[MessageKey, MessageRecord]
    ) -> dict[MessageKey, MessageRecord]:
        """``read`` (the owner's messages as the store has them) with what this process sent
        and has not written yet, or is writing now (so the read may not have seen it): it is
        newer than what was read."""
        for unwritten in (*self._writing, self._unwritten):
            for (unwritten_owner, key), record in unwritten.items():
                if unwritten_owner == owner and replaces(record, read.get(key)):
                    read[key] = record
        return read

    async def _write_soon(self) -> None:
        # Until nothing is left unwritten: what is sent while a write is on its way goes in
        # the next one.
        while self._unwritten:
            await asyncio.sleep(WRITE_BEHIND)
            if not await self.flush():
                await asyncio.sleep(WRITE_RETRY)

    async def flush(self) -> bool:
        """Write what was sent and is not written yet, in one go, once the write on its way
        (the write-behind's) has ended: when it returns True everything sent is in the store.
        (Returning at once while a write was still on its way let a stopping sender give up
        its lease first: the process taking over read the store without the last post's
        record, and posted the hand again, leaving the first copy with live controls.) False
        if the store refused it (it is kept, to be written again)."""
        async with self._write_turn:
            return await self._write()

    async def _write(self) -> bool:
        if not self._unwritten:
            return True
        unwritten, cleared = self._unwritten, self._cleared
        self._unwritten, self._cleared = {}, set()
        self._writing.append(unwritten)
        try:
            await self._store.set_messages(
                [(owner, record) for (owner, _), record in unwritten.items()],
                posted=list(cleared),
            )
        except Exception as error:
            if isinstance(error, Fault):
                self._faults.note(error)  # full, or out of reach: said once, not every try
            else:
                log.warning("could not write what was sent; trying again", exc_info=True)
            for (owner, _), record in unwritten.items():
                if replaces(record, self._unwritten.get((owner, record.key))):
                    self._unwritten[(owner, record.key)] = record
            self._cleared |= cleared
            return False
        finally:
            self._writing.remove(unwritten)
        return True

    def forget(self, owner: Owner) -> None:
        """Drop what is not written yet of an owner that has no messages any more."""
        for key in [k for k in self._unwritten if k[0] == owner]:
            del self._unwritten[key]
        self._cleared = {k for k in self._cleared if k[0] != owner}

    # -- posts that cannot be made idempotent ---------------------------------------------------
    async def posting(
        self, owner: Owner, key: MessageKey, channel_id: int, *, held_as: str | None = None
    ) -> None:
        """A DM of ``owner`` is about to be posted in a way that cannot be made idempotent (an
        interaction's follow-up): remembered until what was sent keeps its id (its pending post
        is cleared in the same write), so a process that starts or takes over after a stop in
        between looks for it (:meth:`pending_posts`). ``held_as``: the name this process holds
        the sender's lease under (several processes): remembered only while it holds it, and
        :class:`NotSender` (nothing posted) once it does not."""
        post = PendingPost(key, channel_id, self._now())
        if not await self._store.set_pending(owner, post, held_as=held_as):
            raise NotSender
        self._lives.of(owner).life(key).posting = True

    async def pending_posts(self, owner: Owner) -> list[PendingPost]:
        """The owner's DMs that were about to be posted when the last process stopped."""
        return await self._store.pending_posts(owner)

    async def looked_for(self, owner: Owner, key: MessageKey) -> None:
        """A pending post was looked for (and kept, if found): forget it."""
        await self._store.clear_pending(owner, key)
