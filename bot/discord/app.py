"""The Discord client: start-up, command registration, error translation, idle expiry.

Start-up owns the resources (as in discord.py's ``examples/advanced_startup.py``):
:func:`run_bot` opens the store (which checks the file, refuses a newer schema or a read-only
file, and applies the migrations) before logging in, and closes it on every way out;
``setup_hook`` builds the game service, registers the persistent components, adds and syncs
the ``/cribbage`` commands and starts the idle-expiry task; once connected the bot brings every
open game's messages up to date (what a crash may have left unsent); ``close`` takes no new
moves and sends what is owed. What stops start-up (the database, ``DEV_GUILD_ID``, Discord out
of reach) is a :class:`~bot.settings.StartupError`: one line for whoever runs the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands, tasks

from bot.core.computer import THINKS_AT_LENGTH
from bot.core.service import GameService
from bot.core.storage import UnusableStore
from bot.core.thinking import WorkerThinking
from bot.discord.cluster import Cluster
from bot.discord.commands import CribbageCommands
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.interactions import SORRY, DiscordIO, known_error_text, send_error
from bot.discord.logs import HeldLog, configure_logging
from bot.settings import Settings, StartupError
from bot.store import Dialect, Store
from engine.coach import review_view
from engine.game import Game

__all__ = ["CribbageBot", "point_at_api", "run_bot"]

log = logging.getLogger(__name__)

#: How often idle games are looked for (the expiry itself is days).
EXPIRY_CHECK_MINUTES = 30.0
#: Discord's code for an API call on a server the application is not in.
MISSING_ACCESS = 50001
#: The signals that stop the bot (a host stopping the worker, Ctrl-C).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def point_at_api(api_base: str | None, gateway_url: str | None) -> None:
    """Send the client's REST calls and gateway connection elsewhere (e.g. to fakediscord).

    discord.py reads these class attributes at login, so this must run before ``start``.
    """
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class CribbageBot(commands.AutoShardedBot):
    """The cribbage bot: the ``/cribbage`` group, its components and the game service.

    Sharded as the settings say: without ``SHARD_COUNT`` one gateway connection (shard 0 of 1),
    as an unsharded bot; with it, ``SHARD_IDS`` (or every shard) in this process.
    """

    service: GameService
    store: Store
    cluster: Cluster

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        service: GameService | None = None,
    ) -> None:
        """``store``: the store to use (start-up opens and checks it before logging in; a test
        may bring its own); without one the bot opens ``settings.database`` and closes it.
        ``service``: a game service made elsewhere (tests), on that store."""
        # Only the guilds intent: commands and components arrive as interactions, so the bot
        # needs neither message content nor the member list (no privileged intents).
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            # Nothing reads messages back from the cache (interactions carry what they need),
            # so don't keep the last thousand sent messages as objects.
            max_messages=None,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            shard_count=settings.shard_count or 1,
            **_shard_ids(settings),
        )
        self.settings = settings
        self.io = DiscordIO(self)
        if service is not None and store is None:
            raise ValueError("Give the bot its service's store too.")
        self._given_store = store
        self._given_service = service
        self._owns_store = store is None
        self._store_closed = False
        self._thinking: WorkerThinking | None = None
        self._max_concurrency: int | None = None
        #: Set once the gateway said READY (on any shard): from then on players may act, so
        #: the database holds what they did.
        self.reached_gateway = False
        #: Set once ``setup_hook`` is done and every shard of this process is launched: from
        #: then on a stop signal closes the bot cleanly (before, :func:`run_bot` cancels the
        #: start-up instead).
        self.started = False
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        """Open the store, build the service, register components and commands; find out
        whether this process is the one that sends (then sync the commands)."""
        if self._given_store is not None:
            self.store = self._given_store
        else:
            self.store = await Store.open(self.settings.database)
        if self._given_service is not None:
            self.service = self._given_service
        else:
            # Expert's plays are made in a worker process, beside the event loop (started
            # when an expert seat first throws its cards).
            self._thinking = WorkerThinking(THINKS_AT_LENGTH)
            self.service = GameService.create(
                self.store,
                idle_expiry=self.settings.idle_expiry,
                remind_after=self.settings.turn_reminder,
                muggins_window=self.settings.muggins_window,
                count_timeout=self.settings.count_timeout,
                shared=self.store.dialect is Dialect.POSTGRES,
                membership=self.io.members,
                retention=self.settings.retention,
                thinking=self._thinking,
            )
        self.io.members.store = self.store
        self.cluster = Cluster(self.store, touch=self.io.touch, became_sender=self._became_sender)
        _warm_engine()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.add_command(CribbageCommands())
        shards = self.settings.shard_ids
        await self.cluster.start(
            holds_back=self.settings.several_processes and shards is not None and 0 in shards
        )
        if self.cluster.sender:
            await self._sync_commands()
        else:
            log.info("commands are synced by the process that sends")
        self.expire_idle_games.start()

    async def launch_shards(self) -> None:
        """Connect this process's shards, then count the bot as started. discord.py's
        ``close`` cannot stop a shard it is still connecting (that one retries every 5 s,
        forever), so until they are all launched a stop signal cancels the start-up."""
        await super().launch_shards()
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            # Cancelled as a shard's connection completed: Python 3.11's asyncio.wait_for
            # (around it in discord.py) then returns the connection and drops the
            # cancellation, and the bot would run on after a stop signal.
            raise asyncio.CancelledError
        self.started = True

    async def _became_sender(self) -> None:
        """Another process stopped sending and this one took over: sync the commands (a new
        release may have changed them) and bring every game's messages up to date."""
        await self._sync_commands()
        if self.is_ready():
            await self.io.reconcile()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """With the shards split over several processes, wait for this shard's turn to IDENTIFY
        across all of them (Discord allows ``max_concurrency`` per 5 s per token); a process
        that runs every shard has discord.py's own wait between its shards."""
        if not (self.cluster.shared and self.settings.several_processes):
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if self._max_concurrency is None:
            limits = await self.fetch_session_start_limits()
            self._max_concurrency = limits.max_concurrency
        await self.cluster.before_identify(shard_id or 0, self._max_concurrency)

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            # A development guild gets the commands at once; global sync can take a while.
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as error:
                if error.code != MISSING_ACCESS:
                    raise
                raise StartupError(
                    f"DEV_GUILD_ID={guild_id}: the bot is not in that server, so Discord "
                    "refused its commands there (403, Missing Access). Invite the bot to it "
                    "(README, step 3), or leave DEV_GUILD_ID empty to sync the commands "
                    "globally."
                ) from None
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_connect(self) -> None:
        """A shard's READY: interactions may come from now on."""
        self.reached_gateway = True

    async def on_ready(self) -> None:
        """Log who we are once the gateway is up, and send whatever games are owed (after a
        restart: what the bot was about to send when it stopped). ``on_ready`` comes again
        after a reconnect; reconciling again then is harmless (only differences are sent)."""
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")
        if self.cluster.sender:
            await self.io.reconcile()

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Errors that escape a command: a sentence for known ones, a traceback for the rest."""
        text = known_error_text(error)
        if text is None:
            original = getattr(error, "original", error)
            log.error(
                "error in /%s",
                interaction.command.qualified_name if interaction.command else "?",
                exc_info=original,
            )
            text = SORRY
        await send_error(interaction, text)

    @tasks.loop(minutes=EXPIRY_CHECK_MINUTES)
    async def expire_idle_games(self) -> None:
        """End games nobody has touched for the configured time (no stats); prune the games
        that ended longer ago than the retention period; forget the rate buckets of channels
        and interactions long idle."""
        self.io.pacer.forget_idle()
        if not self.cluster.sender:
            return  # the process that sends expires them, once for the whole bot
        try:
            # Each game's messages go out as it is ended, while the pass goes on in batches.
            await self.service.expire_idle(on_expired=self.io.keeper_touch)
        except Exception:
            log.exception("could not expire idle games")
        try:
            pruned = await self.service.prune()
        except Exception:
            log.exception("could not prune old games")
        else:
            if pruned:
                log.info("pruned %d games that ended over the retention period ago", pruned)

    @expire_idle_games.before_loop
    async def _before_expiry(self) -> None:
        await self.wait_until_ready()

    async def close(self) -> None:
        """Stop the expiry task, take no new moves, send what is owed, close the gateway and
        the store."""
        self.expire_idle_games.cancel()
        if hasattr(self, "service"):
            await self.io.shut_down()
        if hasattr(self, "cluster"):
            await self.cluster.stop()
        if self._thinking is not None:
            self._thinking.close()
        await super().close()
        if self._owns_store and hasattr(self, "store") and not self._store_closed:
            # close() runs twice on a signal (the handler, then `async with`): close once.
            self._store_closed = True
            log.info("database round trips: %d", self.store.db.round_trips)
            await self.store.close()


def _shard_ids(settings: Settings) -> dict[str, Any]:
    """The ``shard_ids`` argument when this process runs only some of the shards."""
    return {} if settings.shard_ids is None else {"shard_ids": list(settings.shard_ids)}


def _warm_engine() -> None:
    """Build the engine's lazily made tables now, at start-up.

    The coach's first review builds them (about 100 ms measured): done in the middle of
    the first deal's show, that held the event loop while every other game's clicks waited
    (the worst latencies in benchmarks/bot_load.py).
    """
    started = time.perf_counter()
    game, _ = Game.new(["a", "b"], target=121, rng=random.Random(0))
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    review_view(game.view(0))
    log.debug("engine tables ready in %.0f ms", (time.perf_counter() - started) * 1000)


def _database_named(settings: Settings) -> str:
    """How a start-up line names the database: the setting, and the file (never the PostgreSQL
    URL itself, which may hold a password)."""
    if settings.database_url:
        return "DATABASE_URL (PostgreSQL)"
    return f"{settings.database_name}={settings.database_path}"


async def open_store(settings: Settings) -> Store:
    """The store ``DATABASE_PATH`` (or ``DATABASE_URL``) names, checked and migrated; a
    :class:`StartupError` naming the setting when it cannot be used (nothing on disk changed
    then)."""
    try:
        store = await Store.open(settings.database)
    except UnusableStore as error:
        raise StartupError(f"{_database_named(settings)}: {error}") from None
    except OSError as error:
        # A PostgreSQL server out of reach (SQLite's problems are UnusableStore).
        raise StartupError(
            f"{_database_named(settings)}: cannot connect ({error}): check that the server runs"
            " and the URL names it."
        ) from None
    version = await store.user_version()
    log.info("database %s ready (schema version %d)", store.db.dialect.value, version)
    return store


def _new_database_file(settings: Settings) -> Path | None:
    """The SQLite file this start will create (None: PostgreSQL, or the file is there)."""
    if settings.database_url:
        return None
    path = Path(settings.database_path)
    return None if os.path.lexists(path) else path


def _remove_database_file(path: Path) -> None:
    """Remove a database file this start created, and SQLite's files beside it."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm", f"{path.name}-journal"):
        # Not there (or not ours to remove): leave it.
        with contextlib.suppress(OSError):
            (path.parent / name).unlink()


async def _log_in(bot: CribbageBot, token: str, settings: Settings) -> None:
    """Log in (which runs ``setup_hook``); Discord out of reach is a :class:`StartupError`."""
    try:
        await bot.login(token)
    except (aiohttp.ClientConnectionError, OSError) as error:
        where = settings.discord_api_base or f"{discord.http.Route.BASE} (Discord)"
        fix = "check DISCORD_API_BASE" if settings.discord_api_base else "check the network"
        raise StartupError(
            f"Cannot reach the Discord API at {where} ({error or type(error).__name__}): {fix},"
            " then start the bot again.",
            status=1,
        ) from None


async def run_bot(settings: Settings) -> None:
    """Run the bot until it is closed or the process gets SIGTERM/SIGINT.

    The store is opened (and checked) before logging in, and closed on every way out. A stop
    signal once the bot is set up and its shards launched closes it cleanly (no new moves,
    what is owed is sent); during start-up it stops the start-up where it is. Raises
    :class:`StartupError` for what stops start-up (the database, ``DEV_GUILD_ID``, Discord out
    of reach).

    A start that ends before the gateway said READY changes nothing on disk: a SQLite file it
    created is removed again. Its log lines wait until it is logged in and set up; a start
    that fails shows only its warnings and errors, so its reason is the one line that counts.
    """
    token = settings.discord_token
    if not token:
        raise ValueError("DISCORD_TOKEN is not set.")
    point_at_api(settings.discord_api_base, settings.discord_gateway_url)
    configure_logging(settings.log_level)
    held = HeldLog()
    new_file = _new_database_file(settings)
    loop = asyncio.get_running_loop()
    starting = asyncio.current_task()
    assert starting is not None
    bot: CribbageBot | None = None
    stopping = False
    closing: list[asyncio.Task[None]] = []  # held, so the task is not collected mid-way

    def stop() -> None:
        nonlocal stopping
        if stopping:
            return
        stopping = True
        if bot is not None and bot.started:
            # A host stopping the worker gets a clean shutdown: queued messages go out first.
            closing.append(asyncio.ensure_future(bot.close()))
        else:
            # Closing the client halfway through logging in breaks it ("Connector is closed");
            # cancelling unwinds whatever was opened so far, the store included.
            starting.cancel()

    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop)
    try:
        store = await open_store(settings)
        try:
            bot = CribbageBot(settings, store=store)
            async with bot:
                await _log_in(bot, token, settings)
                held.release()
                await bot.connect()
        finally:
            log.info("database round trips: %d", store.db.round_trips)
            # The store's worker thread would keep the process alive: close it whatever
            # happened (shielded, so a stop signal now cannot leave it half closed).
            await asyncio.shield(store.close())
    except asyncio.CancelledError:
        if not stopping:
            raise
        held.release()
        log.info("stopped during start-up")
    finally:
        held.drop()
        if new_file is not None and not (bot is not None and bot.reached_gateway):
            _remove_database_file(new_file)
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)
            handler = previous[sig]
            if handler is not None:
                signal.signal(sig, handler)
