"""The composition root: the one place the bot is put together, above everything it builds.

:func:`client` makes the Discord client (:class:`bot.discord.app.CribbageBot`) and hands it
:func:`assemble`, which the client runs once, in ``setup_hook``, when Discord has taken the
token: it brings the store to this release's schema, then builds on it the core
(:meth:`bot.core.services.Services.build`: the games, the ledger, ranked play, tournaments,
privacy...), the Discord transports around it (what answers interactions, the commands and
the click handlers, the keeper that sends the owners' messages and the courier it sends
through), this process's place among the bot's processes, the web servers (the game pages and
the Activity) and operations (health, readiness, metrics, the heartbeat), and hands the client
what it runs (:class:`~bot.discord.app.Assembled`). Nothing else wires parts together, and
nothing under ``bot/discord``, ``bot/web`` or ``bot/core`` imports this module
(``tests/bot/test_floors.py``).
"""

from __future__ import annotations

import functools
import logging

import aiohttp

from bot.core.base.patrol import Running, running
from bot.core.base.store_errors import UnusableStore
from bot.core.base.text import period
from bot.core.base.timing import DEFER_AFTER
from bot.core.faces import BACKGROUND
from bot.core.games.computer import THINKS_AT_LENGTH
from bot.core.ledger import MessageKeeper, Pacer
from bot.core.privacy.inventory import Figures, deletion, policy_lines, public_lines
from bot.core.sending import Sending
from bot.core.services import Services
from bot.core.settings import CoreSettings, Given
from bot.core.worker.thinking import WorkerThinking
from bot.discord.activity import DiscordActivity
from bot.discord.app import Assembled, CribbageBot
from bot.discord.club_commands import ClubCommands
from bot.discord.commands import CribbageCommands
from bot.discord.courier import Courier, fence_trace
from bot.discord.events import DiscordEvents
from bot.discord.feature_clicks import FeatureClicks
from bot.discord.game_io import GameIO
from bot.discord.interactions import DiscordIO
from bot.discord.members import DiscordMembers
from bot.discord.operations import Operations, readiness_of
from bot.discord.threads import DiscordThreads
from bot.discord.traffic import count_traffic
from bot.ops.health import Readiness
from bot.ops.metrics import Metrics
from bot.settings import Settings, StartupError
from bot.store import Dialect, Store
from bot.store.cluster import Cluster
from bot.store.postgres import out_of_reach
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.links import PageLinks
from bot.web.policy import PolicyFacts
from bot.web.server import WebServer, review_source

__all__ = ["assemble", "client", "policy_facts"]

log = logging.getLogger(__name__)


def client(
    settings: Settings,
    *,
    store: Store | None = None,
    services: Services | None = None,
    defer_after: float = DEFER_AFTER,
) -> CribbageBot:
    """The bot's Discord client, which puts the bot together (:func:`assemble`) once Discord
    has taken its token. ``store``: the store to use (start-up opens and checks it before
    logging in; a test may bring its own), without one the bot opens ``settings.database`` and
    closes it; ``services``: a core made elsewhere (tests), on that store; ``defer_after``:
    seconds a call may take before its interaction is deferred."""
    if services is not None and store is None:
        raise ValueError("Give the bot its services' store too.")
    # This process's metrics (bot.ops.metrics): every request to Discord is counted through
    # the same trace that fences it.
    metrics = Metrics()
    trace = fence_trace()
    count_traffic(trace, lambda: metrics)
    put_together = functools.partial(
        assemble, metrics=metrics, defer_after=defer_after, services=services
    )
    return CribbageBot(settings, put_together, store=store, http_trace=trace)


async def assemble(
    bot: CribbageBot,
    store: Store,
    *,
    metrics: Metrics,
    defer_after: float = DEFER_AFTER,
    services: Services | None = None,
) -> Assembled:
    """Put the bot together on ``store`` (brought to this release's schema first) for
    ``bot``; ``services``: a core made elsewhere (tests), on that store. Starts the web
    servers (a port that cannot be served is a :class:`StartupError`) and operations."""
    settings = bot.settings
    if not store.upgraded:
        # Start-up only checked the database: Discord has taken the token now, so a start
        # that Discord refuses has left it exactly as it was.
        await _upgrade(store, settings)
    pacer = Pacer()
    members = DiscordMembers(bot, pacer, store, fresh=settings.member_check.total_seconds())
    thinking = None
    if services is None:
        # Expert's plays are made in a worker process, beside the event loop (started when an
        # expert seat first throws its cards).
        thinking = WorkerThinking(THINKS_AT_LENGTH)
        services = _core(settings, store, members, metrics, thinking)
    # This process among the bot's processes (which one sends), and its readiness.
    cluster = Cluster(
        store,
        services.feed,
        services.ledger.answers,
        became_sender=bot.became_sender,
        stopped_sending=bot.stopped_sending,
        resumed=bot.resumed_sending,
    )
    readiness = readiness_of(bot, store, cluster, lambda: _background(bot))
    try:
        web, activity = await _web(bot, settings, store, services, readiness, metrics)
    except StartupError:
        if thinking is not None:
            thinking.close()
        raise
    io = DiscordIO(services, members, defer_after=defer_after)
    game = GameIO(services, io, activity=activity is not None)
    keeper = MessageKeeper(
        services.ledger, Courier(bot, pacer), pacer, lease=cluster, faults=services.games.faults
    )
    operations = Operations(metrics, readiness, store, cluster, settings)
    operations.watch(bot, pacer, web)
    await operations.start()

    async def close() -> None:
        if thinking is not None:
            thinking.close()
        if web is not None:
            await web.stop()
        if activity is not None:
            await activity.close()

    return Assembled(
        services=services,
        sending=Sending(
            services, keeper, DiscordThreads(bot, pacer), events=DiscordEvents(bot, pacer)
        ),
        io=io,
        clicks=FeatureClicks(services, io, game),
        commands=CribbageCommands(services, io, game),
        club=ClubCommands(services, io),
        launch=game.launch,
        pacer=pacer,
        cluster=cluster,
        operations=operations,
        activity=activity is not None,
        close=close,
    )


def _background(bot: CribbageBot) -> dict[str, str]:
    """What each part ``bot`` runs in the background is doing (every one of
    :data:`~bot.discord.operations.PARTS`): the sender's, then the housekeeping and the
    heartbeat."""
    parts = bot.parts
    if parts is None:
        # (Being put together: nothing runs yet, the heartbeat's first beat aside.)
        found = {part: str(Running.STARTING) for part in (*BACKGROUND, "housekeeping")}
        return found | {"heartbeat": Running.RUNNING}
    found = parts.sending.background()
    found["housekeeping"] = running(bot.expire_idle_games.is_running())
    found["heartbeat"] = running(parts.operations.beating)
    return found


async def _upgrade(store: Store, settings: Settings) -> None:
    """Bring the database start-up checked to this release's schema; what stops that (a newer
    release migrated it meanwhile, the PostgreSQL server went away) is a
    :class:`StartupError` naming the setting, with nothing changed."""
    try:
        await store.upgrade()
    except UnusableStore as error:
        raise StartupError(f"{settings.database_label}: {error}") from None
    except OSError as error:
        # (The PostgreSQL server went away since the start checked it: said as everywhere.)
        raise StartupError(out_of_reach(settings.database, error)) from None
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


def _core(
    settings: Settings,
    store: Store,
    members: DiscordMembers,
    metrics: Metrics,
    thinking: WorkerThinking,
) -> Services:
    """The core on ``store``, as the settings say."""
    return Services.build(
        store, _core_settings(settings, store.dialect), _given(settings, members, metrics, thinking)
    )


def _core_settings(settings: Settings, dialect: Dialect) -> CoreSettings:
    """The core's settings, as the operator's ``settings`` say, on a database of ``dialect``
    (PostgreSQL: other processes of the bot may share it)."""
    return CoreSettings(
        idle_expiry=settings.idle_expiry,
        remind_after=settings.turn_reminder,
        muggins_window=settings.muggins_window,
        count_timeout=settings.count_timeout,
        retention=settings.retention,
        left_server_grace=settings.left_server_grace,
        ranked_turn=settings.ranked_turn,
        shared=dialect is Dialect.POSTGRES,
        activity=_activity_on(settings),
        policy_url=f"{settings.public_url}/privacy" if settings.public_url else None,
        contact=settings.privacy_contact,
    )


def _given(
    settings: Settings, members: DiscordMembers, metrics: Metrics, thinking: WorkerThinking
) -> Given:
    """What the root hands the core: the members as Discord says, the worker, the metrics,
    and the pages' links when the pages are served at a public address."""
    links = page_links(settings)
    public = links if links is not None and links.public_url else None
    return Given.real(
        members,
        thinking,
        metrics,
        page_link=None if public is None else public.url,
        league_link=None if public is None else public.league_url,
    )


async def _web(
    bot: CribbageBot,
    settings: Settings,
    store: Store,
    services: Services,
    health: Readiness,
    metrics: Metrics,
) -> tuple[WebServer | None, DiscordActivity | None]:
    """The game pages' server, started, and what the Activity's server asks of Discord (each
    None when not served): a port that cannot be served is a :class:`StartupError`."""
    links = page_links(settings)
    if links is None or settings.web_port is None:
        return None, None
    reviews = review_source(services.pages)
    table, activity = None, None
    if _activity_on(settings) and settings.client_secret and settings.web_secret:
        # (Its OAuth2 calls have an HTTP session of their own: counted as the bot's are.)
        counted = aiohttp.TraceConfig()
        count_traffic(counted, lambda: metrics)
        activity = DiscordActivity(bot, settings.client_secret, trace=counted)
        table = ActivityServer(
            services,
            activity,
            Sessions(settings.web_secret),
            reviews=reviews,
            pages=links.url if links.public_url else None,
        )
    web = WebServer(
        services.pages,
        services.feed,
        links,
        host=settings.web_host,
        port=settings.web_port,
        reviews=reviews,
        activity=table,
        health=health,
        policy=policy_facts(
            Figures(settings.retention, settings.idle_expiry, settings.left_server_grace),
            settings.privacy_contact,
        ),
    )
    try:
        await web.start()
    except OSError as error:
        if activity is not None:
            await activity.close()
        raise StartupError(
            f"WEB_HOST={settings.web_host} WEB_PORT={settings.web_port}: cannot serve "
            f"the game pages there ({error.strerror or error}); choose another port, or "
            "leave WEB_PORT empty to serve no pages."
        ) from None
    return web, activity


def _activity_on(settings: Settings) -> bool:
    """Whether the Activity is on: asked for (CLIENT_SECRET), and served by the game pages'
    server (WEB_PORT and WEB_SECRET set)."""
    return settings.activity and page_links(settings) is not None


def policy_facts(figures: Figures, contact: str | None) -> PolicyFacts:
    """What the privacy policy and the terms state: this bot's ``figures`` and ``contact``,
    and what is kept about a person as the inventory says it
    (:mod:`bot.core.privacy.inventory`)."""
    return PolicyFacts(
        idle_expiry=period(figures.idle_expiry),
        grace=period(figures.grace),
        kept=policy_lines(figures),
        public=public_lines(),
        deletion=deletion(),
        contact=contact,
    )


def page_links(settings: Settings) -> PageLinks | None:
    """The game pages' links, when the pages are served (WEB_PORT and WEB_SECRET set)."""
    if settings.web_port is None or settings.web_secret is None:
        return None
    return PageLinks(settings.web_secret, settings.public_url)
