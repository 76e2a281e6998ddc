"""The Discord client: the composition of the bot, command registration, errors, housekeeping.

``setup_hook`` brings the store :func:`bot.discord.launch.run_bot` opened and checked to this
release's schema (Discord has taken the token by then), and puts the bot together on it: the
core (:class:`~bot.core.services.Services`), what answers interactions
(:class:`~bot.discord.interactions.DiscordIO`), the keeper that sends the owners' messages and
the courier it sends through, and this process's place among the bot's processes
(:class:`~bot.store.cluster.Cluster`); it registers the persistent components, adds and syncs
the ``/cribbage`` commands and starts the housekeeping task. The process that sends follows the
change feed with its keeper and its game clock; once connected it brings every open game's
messages up to date (what a crash may have left unsent). ``close`` takes no new moves and sends
what is owed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.assembly import Sending, assemble
from bot.core.ports import UnusableStore
from bot.core.services import Services
from bot.core.vocabulary import DEFER_AFTER, Owner, OwnerKind
from bot.discord.activity import CribbageTree, DiscordActivity, sync_entry_point
from bot.discord.commands import CribbageCommands
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.courier import fence_trace, unavailable
from bot.discord.feature_clicks import FeatureClicks
from bot.discord.interactions import (
    SORRY,
    DiscordIO,
    known_error_text,
    send_error,
)
from bot.discord.operations import Operations
from bot.discord.traffic import count_traffic
from bot.ops.metrics import Metrics
from bot.settings import Settings, StartupError
from bot.store import Store
from bot.store.cluster import Cluster
from bot.web.server import WebServer
from engine.coach import review_view
from engine.game import Game
from engine.scoring import claim_values, rank_table
from engine.variants import listed

__all__ = ["CribbageBot"]

log = logging.getLogger(__name__)

#: How many owners still owed at a stop its log line names (the rest are counted).
UNSENT_NAMED = 10


def owed_at_stop(unsent: Sequence[Owner]) -> str:
    """The owners still owed something at a stop, for its log line: counted, and named up to
    :data:`UNSENT_NAMED` (a stop under load may leave thousands owed, which the next sender
    sends; one log line must stay a line)."""
    named = ", ".join(str(owner) for owner in unsent[:UNSENT_NAMED])
    more = len(unsent) - UNSENT_NAMED
    return f"{len(unsent)} owners: {named}" + (f" and {more} more" if more > 0 else "")


#: How often idle games are looked for (the expiry itself is days).
EXPIRY_CHECK_MINUTES = 30.0
#: Discord's code for an API call on a server the application is not in.
MISSING_ACCESS = 50001
#: How long shutting down may take: the moves in flight, then what is owed.
SHUTDOWN_SECONDS = 10.0
#: A command sync Discord did not take for now (a 5xx, Cloudflare's 429, the network) is
#: tried again after this long, the pause doubling each time up to the most.
SYNC_RETRY = 5.0
SYNC_RETRY_MAX = 300.0


async def _upgrade(store: Store, settings: Settings) -> None:
    """Bring the database start-up checked to this release's schema; what stops that (a newer
    release migrated it meanwhile, the PostgreSQL server went away) is a
    :class:`StartupError` naming the setting, with nothing changed."""
    try:
        await store.upgrade()
    except UnusableStore as error:
        raise StartupError(f"{settings.database_label}: {error}") from None
    except OSError as error:
        raise StartupError(f"{settings.database_label}: cannot connect ({error}).") from None
    version = await store.user_version()
    applied = f"; applied {', '.join(store.migrated)}" if store.migrated else ""
    log.info("database %s ready (schema version %d%s)", store.db.dialect.value, version, applied)
    newer = await store.newer_migrations()
    if newer:
        log.warning(
            "the database has migrations of a newer release (%s), which say this release runs"
            " beside them: an upgrade is under way",
            ", ".join(newer),
        )


class CribbageBot(commands.AutoShardedBot):
    """The cribbage bot: the ``/cribbage`` group, its components and the core.

    Sharded as the settings say: without ``SHARD_COUNT`` one gateway connection (shard 0 of 1),
    as an unsharded bot; with it, ``SHARD_IDS`` (or every shard) in this process.
    """

    store: Store
    services: Services
    io: DiscordIO
    #: The clicks on every control (leaderboards, tournaments, reviews, the daily,
    #: confirmations; a hand's and a lobby's passed on to ``io``), answered through ``io``.
    clicks: FeatureClicks
    cluster: Cluster

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        services: Services | None = None,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        """``store``: the store to use (start-up opens and checks it before logging in, and
        ``setup_hook`` upgrades it; a test may bring its own); without one the bot opens
        ``settings.database`` and closes it. ``services``: a core made elsewhere (tests), on
        that store. ``defer_after``: seconds a call may take before its interaction is
        deferred."""
        # Only the guilds intent: commands and components arrive as interactions, so the bot
        # needs neither message content nor the member list (no privileged intents).
        intents = discord.Intents.none()
        intents.guilds = True
        #: This process's metrics (:mod:`bot.ops.metrics`): every request to Discord is
        #: counted through the same trace that fences it.
        metrics = Metrics()
        trace = fence_trace()
        count_traffic(trace, lambda: metrics)
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            # Nothing reads messages back from the cache (interactions carry what they need),
            # so don't keep the last thousand sent messages as objects.
            max_messages=None,
            chunk_guilds_at_startup=False,
            # How long after READY on_ready waits for one more server (GUILD_READY_SECONDS).
            guild_ready_timeout=settings.guild_ready_seconds,
            # How long the gateway may say nothing before the connection is taken as zombied,
            # closed and resumed (HEARTBEAT_TIMEOUT_SECONDS).
            heartbeat_timeout=settings.heartbeat_timeout_seconds,
            member_cache_flags=discord.MemberCacheFlags.none(),
            # Nothing the bot says notifies anyone unless it names whom (a message view's
            # mentions, a thread post's): a name or a tournament typed as "<@id>" or
            # "@everyone" is then only text, in replies too.
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count or 1,
            # Every send is checked against this process's lease right before it is written.
            http_trace=trace,
            # An Entry Point command's interaction opens the Activity (bot.discord.activity).
            tree_cls=CribbageTree,
            **_shard_ids(settings),
        )
        if services is not None and store is None:
            raise ValueError("Give the bot its services' store too.")
        self.settings = settings
        self.metrics = metrics
        #: Health, readiness, metrics' wiring and the heartbeat, once set up.
        self.operations: Operations | None = None
        self.defer_after = defer_after
        self._given_store = store
        self._given_services = services
        # The task that says when a reconciliation is over (kept so it is not collected early).
        self._caught_up: asyncio.Task[None] | None = None
        self._owns_store = store is None
        self._store_closed = False
        #: Set as :meth:`close` begins: nothing new reads the store from then on (discord.py
        #: may still dispatch ``on_ready`` after its client was closed).
        self._closing = False
        #: Bringing the games up to date at start-up (on READY) and after taking over from
        #: another process: tasks of their own, so that a stop cancels them before the store
        #: closes under them (what they did not reach, the next start reconciles).
        self._reconciling: asyncio.Task[None] | None = None
        self._taking_over: asyncio.Task[None] | None = None
        #: Syncing the commands again, after Discord did not take them for now.
        self._syncing: asyncio.Task[None] | None = None
        #: The director's and the referee's start (each reads the store): cancelled by a stop
        #: as the reconciliations are.
        self._directing: asyncio.Task[None] | None = None
        self._refereeing: asyncio.Task[None] | None = None
        #: Set at the first ``on_ready``: a shard's READY after it is a new session.
        self._was_ready = False
        #: The game pages' server, when WEB_PORT is set.
        self.web: WebServer | None = None
        #: What the Activity's server asks of Discord, when the Activity is on.
        self.activity_discord: DiscordActivity | None = None
        self._max_concurrency: int | None = None
        #: Set once the gateway said READY (on any shard): from then on players may act, so
        #: the database holds what they did.
        self.reached_gateway = False
        #: Set once ``setup_hook`` is done and every shard of this process is launched: from
        #: then on a stop signal closes the bot cleanly (before,
        #: :func:`bot.discord.launch.run_bot` cancels the start-up instead).
        self.started = False
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        """Bring the store to this release's schema (discord.py calls this once Discord has
        taken the token), put the bot together on it, register components and commands; find
        out whether this process is the one that sends (then sync the commands, and follow the
        change feed)."""
        settings = self.settings
        self.store = self._given_store or await Store.open(settings.database)
        if not self.store.upgraded:
            # Start-up only checked the database: Discord has taken the token now, so a
            # start that Discord refuses has left it exactly as it was.
            await _upgrade(self.store, settings)
        built = await assemble(
            self,
            settings,
            self.store,
            metrics=self.metrics,
            sending=Sending(self._became_sender, self._stop_sending, self._resume_sending),
            defer_after=self.defer_after,
            services=self._given_services,
        )
        self.services, self.cluster, self.keeper = built.services, built.cluster, built.keeper
        self.web, self.activity_discord, self.thinking = (
            built.web,
            built.activity_discord,
            built.thinking,
        )
        self.operations = built.operations
        self.io, self.clicks, self.pacer = built.io, built.clicks, built.pacer
        #: The tournaments' threads, made by the process that sends.
        self.threads = built.threads
        _warm_engine()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.add_command(CribbageCommands())
        shards = settings.shard_ids
        await self.cluster.start(
            holds_back=settings.several_processes and shards is not None and 0 in shards
        )
        if self.cluster.sender:
            self._start_sending()
            await self._sync_commands_soon()
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

    # -- sending ------------------------------------------------------------------------------
    def _start_sending(self) -> None:
        """This process sends: its keeper and its game clock follow the change feed."""
        self.keeper.follow(self.services.feed)
        self.services.clock.start()
        # Finished games' reviews, made in the review worker (one at a time, at low priority).
        self.services.auto_reviews.start()
        # The tournaments are directed, and the ranked matches refereed, by the process that
        # sends, from the store.
        loop = asyncio.get_running_loop()
        self._directing = loop.create_task(
            self.services.director.start(self.threads), name="crib-direct"
        )
        self._refereeing = loop.create_task(self.services.ranked.start(), name="crib-referee")

    def _stop_sending(self) -> None:
        """Another process sends now: stop following the feed."""
        self.keeper.unfollow()
        self.services.clock.stop()
        self.services.director.stop()
        self.services.ranked.stop()
        self.services.auto_reviews.stop()

    async def _became_sender(self) -> None:
        """Another process stopped sending and this one took over: sync the commands (a new
        release may have changed them) and bring every game's messages up to date."""
        self.services.ledger.sending_again()
        self._start_sending()
        if self.operations is not None:
            self.operations.beat()
        # What is owed first: syncing the commands waits on Discord's own limits. The taking
        # over waits out what the sender before may still have on its way: in a task of its
        # own, so the lease is renewed meanwhile.
        if self.is_ready() and not self._closing:
            handed_over = self.cluster.handed_over
            self._taking_over = asyncio.get_running_loop().create_task(
                self.reconcile(taking_over=True, handed_over=handed_over), name="crib-take-over"
            )
        await self._sync_commands_soon()

    async def _resume_sending(self) -> None:
        """This process stayed the sender, but its lease lapsed a while by its own clock (it
        was frozen, or the database slow) and nobody took it: what it held back meanwhile
        goes now (what it kept of the messages is read again, in case another process sent
        in between)."""
        self.services.ledger.sending_again()
        self.keeper.resume()

    async def reconcile(self, *, taking_over: bool = False, handed_over: bool = False) -> None:
        """Bring every open or recently ended game's messages up to date, and make the timed
        moves that fell due while nobody was looking (start-up, taking over: then first wait
        out what the sender before may still have on its way, see
        :meth:`MessageKeeper.take_over`; ``handed_over``: the one before stepped down
        cleanly)."""
        if taking_over:
            owners = await self.keeper.take_over(handed_over=handed_over)
        else:
            owners = await self.keeper.reconcile()
        self.services.clock.start(o.id for o in owners if o.kind is OwnerKind.GAME)
        log.info("reconciling %d games with their messages", len(owners))
        self._caught_up = asyncio.create_task(self._say_caught_up(len(owners)))

    async def _say_caught_up(self, games: int) -> None:
        """Say once the reconciliation's sends are all made (an operator sees when a start or a
        takeover is over; a test waits for it)."""
        await self.keeper.caught_up()
        log.info("caught up: the messages of %d games show what they should", games)

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

    async def _sync_commands_soon(self) -> None:
        """Sync the commands; when Discord does not take the request for now (a 5xx,
        Cloudflare's 429, the network), say so in one line and try again in the background,
        the pause doubling each time (the commands synced before stay meanwhile)."""
        try:
            await self._sync_commands()
        except Exception as error:
            refused = unavailable(error)
            if refused is None:
                raise
            log.warning(
                "could not sync the commands (%s): trying again in %.0f s", refused, SYNC_RETRY
            )
            self._syncing = asyncio.create_task(self._sync_later(SYNC_RETRY), name="crib-sync")

    async def _sync_later(self, pause: float) -> None:
        """Sync the commands after ``pause`` seconds, and again, the pause doubling, for as long
        as Discord does not take the request (while this process sends)."""
        while True:
            await asyncio.sleep(pause)
            if self._closing or not self.cluster.sender:
                return  # (the process that sends now syncs them)
            try:
                await self._sync_commands()
                return
            except Exception as error:
                refused = unavailable(error)
                if refused is None:
                    log.exception("could not sync the commands")
                    return
                pause = min(SYNC_RETRY_MAX, pause * 2)
                log.info("could not sync the commands (%s): trying again in %.0f s", refused, pause)

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
            if self.activity_discord is not None:
                # (An Entry Point command is global only: made alone, the others left be.)
                try:
                    await sync_entry_point(self, with_globals=None)
                except discord.HTTPException as error:
                    log.warning(
                        "could not sync the Activity's Entry Point command (%s): an app has one "
                        "at most; name it launch in the developer portal, or delete it",
                        error,
                    )
                else:
                    log.info("synced the Activity's Entry Point command")
        elif self.activity_discord is not None:
            # A bulk overwrite replaces every global command: the Entry Point goes with them.
            payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
            await sync_entry_point(self, with_globals=payload)
            log.info("synced %d global commands and the Activity's Entry Point", len(payload))
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_connect(self) -> None:
        """A shard's READY: interactions may come from now on."""
        self.reached_gateway = True

    async def on_ready(self) -> None:
        """Log who we are once the gateway is up, and send whatever games are owed (after a
        restart: what the bot was about to send when it stopped)."""
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")
        if self.operations is not None:
            self.operations.beat()
        if self._closing:
            return  # (READY's delay ran out as a stop began: the next start reconciles)
        if self._was_ready:
            # Every shard identified again (one shard: on_shard_ready has seen to it).
            return
        self._was_ready = True
        await self._bring_up_to_date()

    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard's session is ready. Once the bot was ready, that is a new session: Discord
        ended the one before (op 9, or a RESUME it refused) and the events of the time between
        never came, so every game's messages are brought up to date, as at a start. (discord.py
        sends ``on_ready`` again only when every shard of the process identified again: a
        process running several shards heard nothing of one shard's new session.)"""
        if not self._was_ready or self._closing:
            return  # (the start's on_ready brings them up to date)
        log.info(
            "shard %s began a new session (Discord ended the one before: what happened "
            "between never came); bringing every game's messages up to date",
            shard_id,
        )
        await self._bring_up_to_date()

    async def _bring_up_to_date(self) -> None:
        """In the process that sends: every open or recently ended game's messages brought up
        to date (only differences are sent), in a task of its own, which a stop cancels
        (discord.py's event task is not kept); and, in any process, the servers the bot was
        removed from while it was away (or while its session was down) begin their grace
        period now."""
        present = {guild.id for guild in self.guilds}
        await self._noting(self.services.servers.gone_while_away(present, self._my_guild))
        running = self._reconciling
        if running is not None and not running.done():
            # (One at a time: a stop cancels the one it knows of.)
            with contextlib.suppress(Exception):
                await asyncio.shield(running)
        if self.cluster.sender and not self._closing:
            self._reconciling = asyncio.create_task(self.reconcile(), name="crib-reconcile")
            await self._reconciling

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (not an outage): its data goes after the grace period."""
        await self._noting(self.services.servers.left(guild.id))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server, maybe again within the grace period: its data stays."""
        await self._noting(self.services.servers.present(guild.id))

    async def _noting(self, work: Awaitable[object]) -> None:
        try:
            await work
        except Exception:
            log.exception("could not note a server the bot joined or left")

    def _my_guild(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s events reach this process (its shard is one of ours)."""
        count = self.settings.shard_count or 1
        mine = self.settings.shard_ids
        return mine is None or (guild_id >> 22) % count in mine

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
        that ended longer ago than the retention period."""
        if not self.cluster.sender:
            return  # the process that sends expires them, once for the whole bot
        housekeeping = self.services.housekeeping
        try:
            # Each ended game's messages go out as it is ended (the feed), while the pass goes
            # on in batches.
            await housekeeping.expire_idle()
        except Exception:
            log.exception("could not expire idle games")
        try:
            await self.services.servers.forget_due()
        except Exception:
            log.exception("could not delete the data of the servers the bot left")
        try:
            pruned = await housekeeping.prune()
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
        self._closing = True
        self.expire_idle_games.cancel()
        await self._stop_reconciling()
        if hasattr(self, "io"):
            await self.io.shut_down(SHUTDOWN_SECONDS / 2)
            self.services.clock.stop()
            self.services.director.stop()
            self.services.ranked.stop()
            self.services.auto_reviews.stop()
            unsent = await self.keeper.flush(SHUTDOWN_SECONDS / 2, last=True)
            if unsent:
                log.warning("shutting down with messages still owed to %s", owed_at_stop(unsent))
        if self.operations is not None:
            await self.operations.stop()
        if hasattr(self, "cluster"):
            await self.cluster.stop()
        thinking = getattr(self, "thinking", None)
        if thinking is not None:
            thinking.close()
        if self.web is not None:
            await self.web.stop()
        if self.activity_discord is not None:
            await self.activity_discord.close()
        await super().close()
        if self._owns_store and hasattr(self, "store") and not self._store_closed:
            # close() runs twice on a signal (the handler, then `async with`): close once.
            self._store_closed = True
            log.info("database round trips: %d", self.store.db.round_trips)
            await self.store.close()

    async def _stop_reconciling(self) -> None:
        """Cancel a reconciliation still under way (a stop during start-up or a takeover), and
        the director's and referee's start: each reads the store, which closes at the end of
        the stop; the next start does it again."""
        running = (
            self._reconciling,
            self._taking_over,
            self._caught_up,
            self._syncing,
            self._directing,
            self._refereeing,
        )
        tasks_ = [t for t in running if t is not None]
        for task in tasks_:
            task.cancel()
        # Each ends as it handles its cancellation (an already ended one returns at once).
        await asyncio.gather(*tasks_, return_exceptions=True)


def _shard_ids(settings: Settings) -> dict[str, Any]:
    """The ``shard_ids`` argument when this process runs only some of the shards."""
    return {} if settings.shard_ids is None else {"shard_ids": list(settings.shard_ids)}


def _warm_engine() -> None:
    """Build the engine's lazily made tables now, at start-up.

    The coach's first review builds them (about 100 ms measured): done in the middle of
    the first deal's show, that held the event loop while every other game's clicks waited
    (the worst latencies in benchmarks/bot_load.py).

    Every variant's shows are read too (their rank tables and what a claim may name, shipped
    as data: :mod:`engine.scoring`; some 30 ms), so a variant's first game works nothing out
    between its interaction and the answer. Seven-card's rank table, once built in its first
    deal (a second of CPU, in a thread that still held the interpreter), kept the event loop
    from deferring that interaction within Discord's 3 s on a busy machine.
    """
    started = time.perf_counter()
    game, _ = Game.new(["a", "b"], target=121, rng=random.Random(0))
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    review_view(game.view(0))
    for variant in listed():
        rules = variant.rules()
        for crib in (False, True):
            rank_table(rules.show_size(crib=crib) + 1, rules.points)
        claim_values(rules)  # what a claim at a manual show may name
    log.debug("engine tables ready in %.0f ms", (time.perf_counter() - started) * 1000)
