"""The Discord client: the gateway's events, command registration, errors, housekeeping.

The client is made by the composition root (:func:`bot.assembly.client`), which hands it what
puts the bot together (:data:`Assemble`). ``setup_hook`` (Discord has taken the token by then)
opens the store if none was given and has the bot put together on it (:class:`Assembled`: the
core, what answers interactions, the commands, this process's place among the bot's processes,
operations), registers the persistent components and the ``/cribbage`` commands, and starts the
housekeeping task. The process that sends runs the core's :class:`~bot.core.sending.Sending`
(the keeper following the change feed, the game clock, the director, the referee) and syncs the
commands; once connected it brings every open game's messages up to date (what a crash may have
left unsent). ``close`` takes no new moves and sends what is owed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.core.base.owners import Owner
from bot.core.faces import DiscordFace, Sender
from bot.core.ledger.transport import Pacing
from bot.core.messages.boards import warm_boards
from bot.discord.activity import CribbageTree
from bot.discord.clicks import Clicks
from bot.discord.command_sync import CommandSync
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.interactions import SORRY, DiscordIO, known_error_text, send_error
from bot.discord.interest import InterestHeard
from bot.discord.operations import Operations
from bot.settings import Settings
from bot.store import Store
from bot.store.cluster import Cluster
from engine.coach import review_view
from engine.game import Game
from engine.scoring import claim_values, rank_table
from engine.variants import listed

__all__ = ["Assemble", "Assembled", "CribbageBot", "owed_at_stop", "warm_engine", "warm_up"]

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
#: How long shutting down may take: the moves in flight, then what is owed.
SHUTDOWN_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Assembled:
    """The bot put together on the client once Discord has taken the token (by the
    composition root, :func:`bot.assembly.assemble`): what the client runs."""

    services: DiscordFace
    #: What the process that sends runs (its keeper, the clock, the director, the referee).
    sending: Sender
    #: Runs core calls for interactions and answers them.
    io: DiscordIO
    #: The clicks on every control (the components reach them as the client's ``clicks``).
    clicks: Clicks
    #: The ``/cribbage`` group.
    commands: app_commands.Group
    #: The ``/club`` group (club nights: a command of its own beside ``/cribbage``).
    club: app_commands.Group
    #: The Entry Point command's interaction: opens the Activity (as *Play at the table*).
    launch: Callable[[discord.Interaction[Any]], Awaitable[None]]
    #: Paces every request to Discord (Discord's limits, per route and in all).
    pacer: Pacing
    #: This process among the bot's processes (which one sends).
    cluster: Cluster
    #: Health, readiness, metrics and the heartbeat.
    operations: Operations
    #: Whether the game's Activity is on (its Entry Point command is synced with the others).
    activity: bool
    #: Closes what was opened beside the client: the game pages' server, the Activity's
    #: session with Discord, the worker the expert's plays are made in.
    close: Callable[[], Awaitable[None]]


#: What puts the bot together on the client and its store, once Discord has taken the token
#: (:func:`bot.assembly.assemble`, given to the client by :func:`bot.assembly.client`).
Assemble = Callable[["CribbageBot", Store], Awaitable[Assembled]]


class CribbageBot(commands.AutoShardedBot):
    """The cribbage bot: the ``/cribbage`` group, its components and the core.

    Sharded as the settings say: without ``SHARD_COUNT`` one gateway connection (shard 0 of 1),
    as an unsharded bot; with it, ``SHARD_IDS`` (or every shard) in this process.
    """

    store: Store

    def __init__(
        self,
        settings: Settings,
        assemble: Assemble,
        *,
        http_trace: aiohttp.TraceConfig,
        store: Store | None = None,
    ) -> None:
        """``assemble``: what puts the bot together once Discord has taken the token;
        ``store``: the store to use (start-up opens and checks it before logging in, and
        ``assemble`` upgrades it; a test may bring its own), without one the bot opens
        ``settings.database`` and closes it; ``http_trace``: the HTTP session's hooks (every
        send is checked against this process's lease right before it is written)."""
        super().__init__(**_client_options(settings), http_trace=http_trace)
        self.settings = settings
        self._assemble = assemble
        self._given_store = store
        self._owns_store = store is None
        self._store_closed = False
        #: The bot put together, once ``setup_hook`` has run.
        self.parts: Assembled | None = None
        #: Set as :meth:`close` begins: nothing new reads the store from then on (discord.py
        #: may still dispatch ``on_ready`` after its client was closed).
        self._closing = False
        #: Bringing the games up to date at start-up (on READY) and after taking over from
        #: another process, and saying when that is over: tasks of their own, so that a stop
        #: cancels them before the store closes under them (what they did not reach, the next
        #: start reconciles).
        self._reconciling: asyncio.Task[None] | None = None
        self._taking_over: asyncio.Task[None] | None = None
        self._caught_up: asyncio.Task[None] | None = None
        self._sync = CommandSync(
            self,
            self.tree,
            guild_id=settings.dev_guild_id,
            entry_point=False,
            still_sending=lambda: not self._closing and self._running.cluster.sender,
        )
        #: Set at the first ``on_ready``: a shard's READY after it is a new session.
        self._was_ready = False
        self._max_concurrency: int | None = None
        #: Set once the gateway said READY (on any shard): from then on players may act, so
        #: the database holds what they did.
        self.reached_gateway = False
        #: Set once ``setup_hook`` is done and every shard of this process is launched: from
        #: then on a stop signal closes the bot cleanly (before, :func:`bot.launch.run_bot`
        #: cancels the start-up instead).
        self.started = False
        self.tree.error(self.on_app_command_error)
        #: Who marks a club night's event Interested (or takes it back), heard as it comes.
        self._interest = InterestHeard(self)
        self._interest.listen(self._connection.parsers)

    @property
    def _running(self) -> Assembled:
        """The bot put together (``setup_hook`` has run)."""
        assert self.parts is not None, "the bot is not set up yet"
        return self.parts

    @property
    def clicks(self) -> Clicks:
        """The clicks on every control: a component hands its click here
        (:mod:`bot.discord.components`: discord.py builds one from each click's custom id)."""
        return self._running.clicks

    async def setup_hook(self) -> None:
        """Open the store if none was given and have the bot put together on it (discord.py
        calls this once Discord has taken the token), register components and commands; find
        out whether this process is the one that sends (then sync the commands, and follow the
        change feed)."""
        settings = self.settings
        self.store = self._given_store or await Store.open(settings.database)
        self.parts = parts = await self._assemble(self, self.store)
        self._interest.start(parts.services)
        warm_up()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.add_command(parts.commands)
        self.tree.add_command(parts.club)
        assert isinstance(self.tree, CribbageTree)
        self.tree.launch = parts.launch
        self._sync.entry_point = parts.activity
        shards = settings.shard_ids
        await parts.cluster.start(
            holds_back=settings.several_processes and shards is not None and 0 in shards
        )
        if parts.cluster.sender:
            parts.sending.start()
            await self._sync.soon()
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
    async def became_sender(self) -> None:
        """Another process stopped sending and this one took over: sync the commands (a new
        release may have changed them) and bring every game's messages up to date."""
        parts = self._running
        parts.sending.took_over()
        parts.operations.beat()
        # What is owed first: syncing the commands waits on Discord's own limits. The taking
        # over waits out what the sender before may still have on its way: in a task of its
        # own, so the lease is renewed meanwhile.
        if self.is_ready() and not self._closing:
            handed_over = parts.cluster.handed_over
            self._taking_over = asyncio.get_running_loop().create_task(
                self.reconcile(taking_over=True, handed_over=handed_over), name="crib-take-over"
            )
        await self._sync.soon()

    def stopped_sending(self) -> None:
        """Another process sends now: stop following the feed."""
        self._running.sending.stop()

    async def resumed_sending(self) -> None:
        """This process stayed the sender, but its lease lapsed a while by its own clock (it
        was frozen, or the database slow) and nobody took it: what it held back meanwhile
        goes now (:meth:`Sending.resumed <bot.core.sending.Sending.resumed>`)."""
        self._running.sending.resumed()

    async def reconcile(self, *, taking_over: bool = False, handed_over: bool = False) -> None:
        """Bring every open or recently ended game's messages up to date, and make the timed
        moves that fell due while nobody was looking (start-up, taking over: see
        :meth:`Sending.reconcile <bot.core.sending.Sending.reconcile>`)."""
        sending = self._running.sending
        games = await sending.reconcile(taking_over=taking_over, handed_over=handed_over)
        log.info("reconciling %d games with their messages", games)
        self._caught_up = asyncio.create_task(self._say_caught_up(games))

    async def _say_caught_up(self, games: int) -> None:
        """Say once the reconciliation's sends are all made (an operator sees when a start or a
        takeover is over; a test waits for it)."""
        await self._running.sending.caught_up()
        log.info("caught up: the messages of %d games show what they should", games)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """With the shards split over several processes, wait for this shard's turn to IDENTIFY
        across all of them (Discord allows ``max_concurrency`` per 5 s per token); a process
        that runs every shard has discord.py's own wait between its shards."""
        cluster = self._running.cluster
        if not (cluster.shared and self.settings.several_processes):
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if self._max_concurrency is None:
            limits = await self.fetch_session_start_limits()
            self._max_concurrency = limits.max_concurrency
        await cluster.before_identify(shard_id or 0, self._max_concurrency)

    # -- the gateway ----------------------------------------------------------------------------
    async def on_connect(self) -> None:
        """A shard's READY: interactions may come from now on."""
        self.reached_gateway = True

    async def on_ready(self) -> None:
        """Log who we are once the gateway is up, and send whatever games are owed (after a
        restart: what the bot was about to send when it stopped)."""
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")
        if self.parts is not None:
            self.parts.operations.beat()
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
        parts, present = self._running, {guild.id for guild in self.guilds}
        await self._noting(parts.services.servers.gone_while_away(present, self._my_guild))
        running = self._reconciling
        if running is not None and not running.done():
            # (One at a time: a stop cancels the one it knows of.)
            with contextlib.suppress(Exception):
                await asyncio.shield(running)
        if parts.cluster.sender and not self._closing:
            self._reconciling = asyncio.create_task(self.reconcile(), name="crib-reconcile")
            await self._reconciling

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (not an outage): its data goes after the grace period."""
        await self._noting(self._running.services.servers.left(guild.id))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server, maybe again within the grace period: its data stays."""
        await self._noting(self._running.services.servers.present(guild.id))

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
        parts = self._running
        if not parts.cluster.sender:
            return  # the process that sends expires them, once for the whole bot
        housekeeping = parts.services.housekeeping
        try:
            # Each ended game's messages go out as it is ended (the feed), while the pass goes
            # on in batches.
            await housekeeping.expire_idle()
        except Exception:
            log.exception("could not expire idle games")
        try:
            await parts.services.servers.forget_due()
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
        parts = self.parts
        if parts is not None:
            await parts.io.shut_down(SHUTDOWN_SECONDS / 2)
            unsent = await parts.sending.close(SHUTDOWN_SECONDS / 2)
            if unsent:
                log.warning("shutting down with messages still owed to %s", owed_at_stop(unsent))
            await parts.operations.stop()
            await parts.cluster.stop()
            await parts.close()
        await super().close()
        if self._owns_store and hasattr(self, "store") and not self._store_closed:
            # close() runs twice on a signal (the handler, then `async with`): close once.
            self._store_closed = True
            log.info("database round trips: %d", self.store.db.round_trips)
            await self.store.close()

    async def _stop_reconciling(self) -> None:
        """Cancel a reconciliation still under way (a stop during start-up or a takeover), a
        sync tried again later, someone's interest in an event being noted, and the director's
        and referee's start: each reads the store, which closes at the end of the stop; the
        next start does it again."""
        running = (
            self._reconciling,
            self._taking_over,
            self._caught_up,
            self._sync.again,
            self._interest.stop(),
        )
        tasks_ = [t for t in running if t is not None]
        for task in tasks_:
            task.cancel()
        # Each ends as it handles its cancellation (an already ended one returns at once).
        await asyncio.gather(*tasks_, return_exceptions=True)
        if self.parts is not None:
            await self.parts.sending.cancel_starts()


def _client_options(settings: Settings) -> dict[str, Any]:
    """discord.py's options for the bot's client, as the settings say."""
    # The guilds intent, and the scheduled events' (a club night's event, and who marks it
    # Interested): commands and components arrive as interactions, so the bot needs neither
    # message content nor the member list (no privileged intents).
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_scheduled_events = True
    return {
        "command_prefix": commands.when_mentioned,
        "help_command": None,
        "intents": intents,
        # Nothing reads messages back from the cache (interactions carry what they need), so
        # don't keep the last thousand sent messages as objects.
        "max_messages": None,
        "chunk_guilds_at_startup": False,
        # How long after READY on_ready waits for one more server (GUILD_READY_SECONDS).
        "guild_ready_timeout": settings.guild_ready_seconds,
        # How long the gateway may say nothing before the connection is taken as zombied,
        # closed and resumed (HEARTBEAT_TIMEOUT_SECONDS).
        "heartbeat_timeout": settings.heartbeat_timeout_seconds,
        "member_cache_flags": discord.MemberCacheFlags.none(),
        # Nothing the bot says notifies anyone unless it names whom (a message view's mentions,
        # a thread post's): a name or a tournament typed as "<@id>" or "@everyone" is then
        # only text, in replies too.
        "allowed_mentions": discord.AllowedMentions.none(),
        "shard_count": settings.shard_count or 1,
        # An Entry Point command's interaction opens the Activity (bot.discord.activity).
        "tree_cls": CribbageTree,
        **_shard_ids(settings),
    }


def _shard_ids(settings: Settings) -> dict[str, Any]:
    """The ``shard_ids`` argument when this process runs only some of the shards."""
    return {} if settings.shard_ids is None else {"shard_ids": list(settings.shard_ids)}


@functools.cache
def warm_up() -> None:
    """What the bot makes ready as it starts, once a process: the engine's tables
    (:func:`warm_engine`) and the boards' fonts and empty boards
    (:func:`bot.core.messages.boards.warm_boards`). Once: a process forked from one warmed already
    (the tests' bots are, from one that imported the bot: ``fakediscord.warm``) finds it done,
    where each of them built it all again (20 ms of a start's CPU) and drew its first board
    (another 47)."""
    warm_engine()
    warm_boards()


def warm_engine() -> None:
    """Build the engine's lazily made tables now, at start-up.

    The coach's first review builds them (about 100 ms measured; its first near the end of a
    game, the chance to win's, as many again): done in the middle of
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
    # Near the end the coach weighs the chance to win, from tables of its own.
    review_view(game.view(0), scores=(100, 100))
    for variant in listed():
        rules = variant.rules()
        for crib in (False, True):
            rank_table(rules.show_size(crib=crib) + 1, rules.points)
        claim_values(rules)  # what a claim at a manual show may name
    log.debug("engine tables ready in %.0f ms", (time.perf_counter() - started) * 1000)
