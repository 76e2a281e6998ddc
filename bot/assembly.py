"""The composition root: the one place the bot is put together.

:func:`assemble` builds, on one store, the core (:meth:`bot.core.services.Services.build`: the
games, the ledger, ranked play, tournaments, privacy...), the Discord transports around it (what
answers interactions, the click handler, the keeper that sends the owners' messages and the
courier it sends through), this process's place among the bot's processes, the web servers (the
game pages and the Activity) and operations (health, readiness, metrics, the heartbeat). The
Discord client (:class:`bot.discord.app.CribbageBot`) calls it once, in ``setup_hook``; nothing
else wires parts together, and ``bot/discord`` and ``bot/web`` reach the core only through what
this hands them (:class:`~bot.core.services.Services` and the ports the core defines).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from discord.ext import commands

from bot.core.games.computer import THINKS_AT_LENGTH
from bot.core.ledger import MessageKeeper, Pacer
from bot.core.privacy.inventory import Figures, deletion, period, policy_lines, public_lines
from bot.core.services import Services
from bot.core.worker.thinking import WorkerThinking
from bot.discord.activity import DiscordActivity
from bot.discord.courier import Courier
from bot.discord.feature_clicks import FeatureClicks
from bot.discord.interactions import DiscordIO
from bot.discord.members import DiscordMembers
from bot.discord.operations import Operations, readiness_of
from bot.discord.threads import DiscordThreads
from bot.ops.metrics import Metrics
from bot.settings import Settings, StartupError
from bot.store import Dialect, Store
from bot.store.cluster import Cluster
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.links import PageLinks
from bot.web.policy import PolicyFacts
from bot.web.server import WebServer, review_source

__all__ = ["Assembly", "Sending", "assemble", "policy_facts"]


@dataclass(frozen=True, slots=True)
class Sending:
    """What the client does as this process starts or stops being the one that sends."""

    became_sender: Callable[[], Awaitable[None]]
    stopped_sending: Callable[[], None]
    resumed: Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Assembly:
    """The bot, put together: the core and everything around it of one process."""

    services: Services
    #: Runs core calls for interactions and answers them.
    io: DiscordIO
    #: The clicks on every control (a hand's and a lobby's passed on to ``io``).
    clicks: FeatureClicks
    keeper: MessageKeeper
    #: Paces every request to Discord (Discord's limits, per route and in all).
    pacer: Pacer
    cluster: Cluster
    operations: Operations
    #: The game pages' server, when WEB_PORT is set.
    web: WebServer | None
    #: What the Activity's server asks of Discord, when the Activity is on.
    activity_discord: DiscordActivity | None
    #: The tournaments' threads (made by the process that sends).
    threads: DiscordThreads
    #: The worker the expert's plays are made in (None: a core made elsewhere, by a test).
    thinking: WorkerThinking | None


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


async def assemble(
    client: commands.AutoShardedBot,
    settings: Settings,
    store: Store,
    *,
    metrics: Metrics,
    sending: Sending,
    defer_after: float,
    services: Services | None = None,
) -> Assembly:
    """Put the bot together on ``store`` (upgraded) for ``client``; ``services``: a core made
    elsewhere (tests), on that store. Starts the web servers (a port that cannot be served is a
    :class:`StartupError`) and operations."""
    pacer = Pacer()
    members = DiscordMembers(client, pacer, store, fresh=settings.member_check.total_seconds())
    links = page_links(settings)
    # The Activity is served by the game pages' server (CLIENT_SECRET and WEB_PORT set).
    activity = settings.activity and links is not None
    thinking = None
    if services is None:
        # Expert's plays are made in a worker process, beside the event loop (started when an
        # expert seat first throws its cards).
        thinking = WorkerThinking(THINKS_AT_LENGTH)
        services = Services.build(
            store,
            idle_expiry=settings.idle_expiry,
            remind_after=settings.turn_reminder,
            muggins_window=settings.muggins_window,
            count_timeout=settings.count_timeout,
            shared=store.dialect is Dialect.POSTGRES,
            membership=members,
            retention=settings.retention,
            thinking=thinking,
            page_link=links.url if links is not None and links.public_url else None,
            activity=activity,
            meters=metrics,
            left_server_grace=settings.left_server_grace,
            policy_url=f"{settings.public_url}/privacy" if settings.public_url else None,
            contact=settings.privacy_contact,
            ranked_turn=settings.ranked_turn,
        )
    # This process among the bot's processes (which one sends), and its readiness.
    cluster = Cluster(
        store,
        services.feed,
        services.ledger.answers,
        became_sender=sending.became_sender,
        stopped_sending=sending.stopped_sending,
        resumed=sending.resumed,
    )
    readiness = readiness_of(client, store, cluster)
    web, activity_discord = None, None
    if links is not None and settings.web_port is not None:
        reviews = review_source(services.reviews)
        table = None
        if activity and settings.client_secret and settings.web_secret:
            activity_discord = DiscordActivity(client, settings.client_secret)
            table = ActivityServer(
                services,
                store,
                activity_discord,
                Sessions(settings.web_secret),
                reviews=reviews,
                pages=links.url if links.public_url else None,
            )
        web = WebServer(
            services.games,
            services.feed,
            links,
            store,
            host=settings.web_host,
            port=settings.web_port,
            reviews=reviews,
            activity=table,
            health=readiness,
            policy=policy_facts(
                Figures(settings.retention, settings.idle_expiry, settings.left_server_grace),
                settings.privacy_contact,
            ),
        )
        try:
            await web.start()
        except OSError as error:
            if activity_discord is not None:
                await activity_discord.close()
            if thinking is not None:
                thinking.close()
            raise StartupError(
                f"WEB_HOST={settings.web_host} WEB_PORT={settings.web_port}: cannot serve "
                f"the game pages there ({error.strerror or error}); choose another port, or "
                "leave WEB_PORT empty to serve no pages."
            ) from None
    # (The Discord layer keeps a DM click's link with the ledger's part that knows them.)
    dm_links = services.ledger.dm_links
    io = DiscordIO(
        services,
        members,
        remember_dm=dm_links.linked,
        defer_after=defer_after,
        activity=activity_discord is not None,
    )
    keeper = MessageKeeper(
        services.ledger, Courier(client, pacer), pacer, lease=cluster, faults=services.games.faults
    )
    operations = Operations(metrics, readiness, store, cluster, settings)
    operations.watch(client, pacer, web)
    await operations.start()
    return Assembly(
        services=services,
        io=io,
        clicks=FeatureClicks(io),
        keeper=keeper,
        pacer=pacer,
        threads=DiscordThreads(client, pacer),
        cluster=cluster,
        operations=operations,
        web=web,
        activity_discord=activity_discord,
        thinking=thinking,
    )
