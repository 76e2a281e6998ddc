"""What an operator reads of this bot process, put together on the running bot: its metrics
(what each part counts, and what is read at each scrape), its readiness, the HTTP server of
both on ``OPS_PORT``, and its heartbeat in the database (``python -m bot health`` reads it).

Built by the composition root (:func:`bot.assembly.assemble`) from the parts it made (the store,
the core, the cluster, the pacer, the game pages' server), each given here as it is, so that
the wiring is in one place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.core.faces import BACKGROUND
from bot.core.ledger.transport import Pacing
from bot.ops.health import HEARTBEAT_SECONDS, Readiness
from bot.ops.metrics import Metrics
from bot.ops.server import OpsServer
from bot.settings import Settings, StartupError
from bot.store import Store
from bot.store.cluster import Cluster
from bot.store.database import migrations
from bot.store.ops_tables import ProcessRow
from bot.store.queries import SENDER_LEASE
from bot.web.server import WebServer

__all__ = ["FORGET_PROCESSES_AFTER", "PARTS", "Operations", "readiness_of"]

log = logging.getLogger(__name__)

#: A process not heard from for this long is forgotten (by the process that sends).
FORGET_PROCESSES_AFTER = 86_400.0
#: Every part a process runs in the background, as ``/readyz`` and ``cribbage_background``
#: name them: the sender's (:data:`bot.core.services.BACKGROUND`), then every process's own
#: (the housekeeping loop, which acts in the sender alone, and the heartbeat).
PARTS = (*BACKGROUND, "housekeeping", "heartbeat")


def readiness_of(
    bot: discord.AutoShardedClient,
    store: Store,
    cluster: Cluster,
    background: Callable[[], Mapping[str, str]],
) -> Readiness:
    """This process's readiness: its shards, its store, the sender's lease, and what each part
    it runs in the background is doing (``background``: by part, every one of
    :data:`PARTS`)."""

    def shards() -> Mapping[int, bool]:
        return {shard_id: not info.is_closed() for shard_id, info in bot.shards.items()}

    async def sender() -> str | None:
        if not cluster.shared:
            return cluster.holder if cluster.sender else None  # (SQLite: one process, the sender)
        held = await store.lease_holder(SENDER_LEASE)
        return None if held is None else held[0]

    return Readiness(
        holder=cluster.holder,
        shards=shards,
        migrated=lambda: store.upgraded,
        release=release_of(store),
        ping=store.ping,
        sender=sender,
        started=time.time(),
        background=background,
    )


def release_of(store: Store) -> str:
    """This release, as the last migration it has."""
    found = migrations(store.db.dialect.migrations_dir)
    return found[-1].name if found else "none"


def _by_label(figures: Mapping[str, float] | None) -> dict[tuple[str, ...], float]:
    """``figures`` by their one label's value, as a labelled metric reads them (none before
    the database was first read)."""
    return {(label,): float(n) for label, n in (figures or {}).items()}


@dataclass
class Operations:
    """The metrics, readiness, HTTP server and heartbeat of one bot process."""

    metrics: Metrics
    readiness: Readiness
    store: Store
    cluster: Cluster
    settings: Settings
    _server: OpsServer | None = None
    _beating: asyncio.Task[None] | None = None
    _games: dict[str, int] | None = None
    _queues: dict[str, int] | None = None
    _sender: str | None = None
    _wake: asyncio.Event | None = None

    def watch(self, bot: commands.AutoShardedBot, pacer: Pacing, web: WebServer | None) -> None:
        """Serve what is read at each scrape, and count every interaction."""
        metrics, store, cluster = self.metrics, self.store, self.cluster
        store.db.observe = metrics.database_unit

        async def interaction(interaction: discord.Interaction[Any]) -> None:
            metrics.interaction(interaction.type.name)

        bot.add_listener(interaction, "on_interaction")
        metrics.watch(
            "cribbage_games",
            "Open games by state (lobby, active), as the database holds them (the same in"
            " every process).",
            lambda: _by_label(self._games),
            labels=("state",),
        )
        metrics.watch(
            "cribbage_queue_length",
            "Players waiting in a queue, by queue (ranked: searching for a ranked match), as"
            " the database holds them (the same in every process).",
            lambda: _by_label(self._queues),
            labels=("queue",),
        )
        metrics.watch(
            "cribbage_pacer_waiting",
            "Requests to Discord waiting in the pacer for a channel's, a token's or the"
            " global count.",
            lambda: float(pacer.waiting),
        )
        metrics.watch(
            "cribbage_sender",
            "1 when this process sends every message (it holds the sender's lease), else 0.",
            lambda: float(cluster.may_send()),
        )
        metrics.watch(
            "cribbage_sender_epoch",
            "The stretches of validity of this process's sender's lease so far.",
            lambda: float(cluster.epochs),
        )
        metrics.watch(
            "cribbage_sender_takeovers",
            "Times this process took over sending from another process.",
            lambda: float(cluster.takeovers),
            counter=True,
        )
        metrics.watch(
            "cribbage_sender_lease",
            "1 for the process that holds the sender's lease, as the database says (none"
            " while nobody holds it).",
            lambda: {} if self._sender is None else {(self._sender,): 1.0},
            labels=("holder",),
        )
        metrics.watch(
            "cribbage_background",
            "1 while a part this process runs in the background runs (the clock, the"
            " director, the referee, the reviews, the housekeeping...), by part, else 0 (off"
            " in a process that does not send, starting, failing, stopped).",
            lambda: _by_label(self.readiness.running()),
            labels=("part",),
        )
        metrics.watch(
            "cribbage_database_round_trips",
            "Round trips to the database (each awaited call to its driver).",
            lambda: float(store.db.round_trips),
            counter=True,
        )
        if web is not None:
            metrics.watch(
                "cribbage_live_pages",
                "Open live game pages (each a stream of the game as it changes).",
                lambda: float(web.watching - _activity_watching(web)),
            )
            if web.activity is not None:
                activity = web.activity
                metrics.watch(
                    "cribbage_activity_connections",
                    "Open connections of the Activity (the table inside Discord).",
                    lambda: float(activity.watching),
                )
        metrics.before_scrape(self._read_store)

    async def _read_store(self) -> None:
        self._games = await self.store.games_by_status()
        self._queues = await self.store.queue_lengths()
        holder = await self.store.lease_holder(SENDER_LEASE) if self.cluster.shared else None
        if not self.cluster.shared:
            holder = (self.cluster.holder, 0.0) if self.cluster.sender else None
        self._sender = None if holder is None else holder[0]

    async def start(self) -> None:
        """Serve on ``OPS_PORT`` (when set) and start the heartbeat."""
        settings = self.settings
        if settings.ops_port is not None:
            server = OpsServer(
                self.readiness, self.metrics, host=settings.ops_host, port=settings.ops_port
            )
            try:
                await server.start()
            except OSError as error:
                raise StartupError(
                    f"OPS_HOST={settings.ops_host} OPS_PORT={settings.ops_port}: cannot serve "
                    f"health and metrics there ({error.strerror or error}); choose another "
                    "port, or leave OPS_PORT empty."
                ) from None
            self._server = server
        self._wake = asyncio.Event()
        self._beating = asyncio.create_task(self._heartbeat(), name="crib-heartbeat")

    def beat(self) -> None:
        """Write the heartbeat now (the gateway connected, or the role changed)."""
        if self._wake is not None:
            self._wake.set()

    @property
    def beating(self) -> bool:
        """Whether the heartbeat is written every :data:`HEARTBEAT_SECONDS` now."""
        return self._beating is not None and not self._beating.done()

    @property
    def port(self) -> int | None:
        """Where health and metrics are served (None: no port of their own)."""
        return None if self._server is None else self._server.port

    async def _heartbeat(self) -> None:
        """Every :data:`HEARTBEAT_SECONDS`, write what this process says of itself; the
        sender also forgets the processes not heard from for a day."""
        readiness, shards = self.readiness, self.settings.shard_ids
        started = readiness.started
        said: str | None = None
        while True:
            up = readiness.shards()
            row = ProcessRow(
                holder=self.cluster.holder,
                host=socket.gethostname(),
                pid=os.getpid(),
                shards="all" if shards is None else ",".join(map(str, shards)),
                release=readiness.release,
                started_at=started,
                seen_at=time.time(),
                gateway=bool(up) and all(up.values()),
                sender=self.cluster.may_send(),
                background=readiness.unwell(),
            )
            try:
                await self.store.heartbeat(row)
                if row.sender:
                    await self.store.forget_processes_unseen(time.time() - FORGET_PROCESSES_AFTER)
                said = None
            except Exception as error:
                if said is None:
                    log.warning("could not write this process's heartbeat: %r", error)
                said = repr(error)
            assert self._wake is not None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), HEARTBEAT_SECONDS)
            self._wake.clear()

    async def stop(self) -> None:
        """Stop the heartbeat (this process's row goes: it stopped cleanly) and the server."""
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
            self._beating = None
            with contextlib.suppress(Exception):
                await self.store.forget_process(self.cluster.holder)
        if self._server is not None:
            await self._server.stop()
            self._server = None


def _activity_watching(web: WebServer) -> int:
    return 0 if web.activity is None else web.activity.watching
