"""Whether this process is alive, and whether it is ready: what ``/healthz`` and ``/readyz``
answer (:mod:`bot.ops.server`), and what each process writes of itself for
``python -m bot health`` (its heartbeat, :data:`HEARTBEAT_SECONDS`).

Ready is: connected to Discord's gateway (every shard of this process), the database answering
(one round trip within :data:`PING_TIMEOUT`), and the migrations applied. The answer also names
which process holds the sender's lease (the one that sends every message): a bot whose
processes are all ready but where none sends is the alert *no sender* (``docs/running.md``);
and what each part this process runs in the background is doing (``background``: the game
clock, the tournaments' director, the ranked referee and its queue's sweep, the reviews, the
housekeeping, the heartbeat...), each ``running``, ``off`` (another process runs it),
``starting``, ``failing: why`` or ``stopped`` (it should run here and does not): its ``ok`` is
false when one fails or stopped. That is said, not counted in ready (a part that stopped is
no reason to take the process's pages out of a load balancer): ``cribbage_background`` says
the same to the alerts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.base.patrol import Running, well

__all__ = ["HEARTBEAT_SECONDS", "PING_TIMEOUT", "STALE_SECONDS", "Readiness"]

#: How often each process writes its heartbeat (``bot_processes.seen_at``).
HEARTBEAT_SECONDS = 10.0
#: A process not heard from for this long is taken as gone by ``python -m bot health``.
STALE_SECONDS = 3 * HEARTBEAT_SECONDS
#: How long the readiness check waits for the database's answer.
PING_TIMEOUT = 2.0


def _nothing() -> Mapping[str, str]:
    return {}


@dataclass(frozen=True, slots=True)
class Readiness:
    """What this process answers when asked whether it is alive and ready."""

    #: This process's name (host:pid:random), as its leases and heartbeat name it.
    holder: str
    #: Each shard of this process: whether it is connected to the gateway now.
    shards: Callable[[], Mapping[int, bool]]
    #: Whether the migrations are applied.
    migrated: Callable[[], bool]
    #: The last migration this release has.
    release: str
    #: One round trip to the database (raises when it does not answer).
    ping: Callable[[], Awaitable[None]]
    #: Who holds the sender's lease (None: nobody now).
    sender: Callable[[], Awaitable[str | None]]
    #: When this process started (``time.time()``).
    started: float
    #: What each part this process runs in the background is doing, by part (see the
    #: module's docstring, and :class:`~bot.core.base.patrol.Running`).
    background: Callable[[], Mapping[str, str]] = field(default=_nothing)

    def unwell(self) -> str:
        """What this process runs in the background that is not as it should be, for its
        heartbeat (``python -m bot health``): each such part with its state, "; " between
        them ("": every part is well)."""
        return "; ".join(f"{p}: {s}" for p, s in self.background().items() if not well(s))

    def running(self) -> dict[str, bool]:
        """Each part this process runs in the background: whether it runs now (what
        ``cribbage_background`` serves)."""
        return {part: state == Running.RUNNING for part, state in self.background().items()}

    def alive(self) -> dict[str, Any]:
        """The liveness answer: the event loop answered, so the process is alive."""
        return {
            "alive": True,
            "process": self.holder,
            "up_seconds": round(time.time() - self.started, 1),
        }

    async def ready(self) -> tuple[bool, dict[str, Any]]:
        """Whether this process is ready, and the answer that says why (or why not)."""
        shards = {str(shard): up for shard, up in sorted(self.shards().items())}
        gateway = bool(shards) and all(shards.values())
        started = time.perf_counter()
        database: dict[str, Any]
        try:
            await asyncio.wait_for(self.ping(), PING_TIMEOUT)
            database = {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}
        except Exception as error:
            database = {"ok": False, "error": _said(error)}
        sender: dict[str, Any]
        try:
            holder = await asyncio.wait_for(self.sender(), PING_TIMEOUT) if database["ok"] else None
            sender = {"holder": holder, "this_process": holder == self.holder}
        except Exception as error:
            sender = {"holder": None, "error": _said(error)}
        migrated = self.migrated()
        ready = gateway and database["ok"] and migrated
        parts = dict(self.background())
        return ready, {
            "ready": ready,
            "process": self.holder,
            "gateway": {"ok": gateway, "shards": shards},
            "database": database,
            "migrations": {"ok": migrated, "release": self.release},
            "sender": sender,
            "background": {"ok": all(map(well, parts.values())), "parts": parts},
        }


def _said(error: BaseException) -> str:
    """An error in one short line."""
    text = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
