"""The bot's metrics, in Prometheus's text format (the ``prometheus-client`` library).

One :class:`Metrics` per bot process, with a registry of its own (never the library's global
one: a test may run several bots in one process). Two kinds of figure:

- **counted as it happens** (counters and histograms, kept here): interactions by type, the
  time to answer them, Discord requests by route and status, 429s, moves saved, the time of
  each unit of work on the database;
- **read when scraped** (:meth:`Metrics.watch`: a function this module calls at each scrape,
  so nothing is kept twice): games by state, requests waiting in the pacer, the sender's
  lease, database round trips, open live pages and Activity connections. Those that read the
  database are read first (:meth:`Metrics.before_scrape`: a query or two through indexes, one
  scrape at a time).

Every name begins ``cribbage_``. What the database holds for the whole bot (the games by
state, ranked play's queue, the sender's lease) is read from it, so every process serves the
same figure however many share it. :meth:`Metrics.served` lists what a process serves, each
with its type and labels: ``docs/running.md`` lists them all, with the alerts worth having, and
``tests/bot/ops/test_metrics.py`` checks the two against each other, both ways.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["ANSWER_BUCKETS", "Metrics", "Reading", "Served"]

log = logging.getLogger(__name__)

#: The buckets of the time to answer an interaction, in seconds: Discord gives 3 s (past it
#: the user sees "This interaction failed"), so the buckets are fine below it.
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
#: The buckets of a unit of work on the database, in seconds.
DATABASE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
#: How long a scrape waits for the figures read from the database.
STORE_READ_TIMEOUT = 2.0

#: What a watched figure reads: one number, or one per set of label values.
Reading = float | Mapping[tuple[str, ...], float]


@dataclass(frozen=True, slots=True)
class Served:
    """A metric a process serves, as a scrape names it (a counter's name ends ``_total``)."""

    name: str
    #: ``counter``, ``gauge`` or ``histogram``.
    kind: str
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Watched:
    name: str
    documentation: str
    read: Callable[[], Reading]
    labels: tuple[str, ...]
    counter: bool


class _Watching(Collector):
    """The figures read when scraped."""

    def __init__(self) -> None:
        self.watched: list[_Watched] = []

    def collect(self) -> list[Metric]:
        families: list[Metric] = []
        for one in self.watched:
            try:
                reading = one.read()
            except Exception:
                log.exception("could not read the metric %s", one.name)
                continue
            family: GaugeMetricFamily | CounterMetricFamily
            if one.counter:
                family = CounterMetricFamily(one.name, one.documentation, labels=one.labels)
            else:
                family = GaugeMetricFamily(one.name, one.documentation, labels=one.labels)
            if isinstance(reading, Mapping):
                for values, value in reading.items():
                    family.add_metric(list(values), value)
            else:
                family.add_metric([], reading)
            families.append(family)
        return families


class Metrics:
    """The metrics of one bot process (see the module's docstring); it is also the core's
    :class:`~bot.core.base.meters.Meters`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._served: list[Served] = []
        self.interactions = self._counter(
            "cribbage_interactions",
            "Interactions received, by type (application_command, component, autocomplete,"
            " modal_submit).",
            ("type",),
        )
        self.answer_seconds = self._histogram(
            "cribbage_interaction_answer_seconds",
            "Seconds from an interaction's creation (its id) to the bot's answer to it reaching"
            " Discord (the callback); Discord's limit is 3.",
            buckets=ANSWER_BUCKETS,
        )
        self.discord_requests = self._counter(
            "cribbage_discord_requests",
            "Requests made to Discord's API, by method, route (ids as {id}, tokens as {token})"
            " and status (error: no answer came).",
            ("method", "route", "status"),
        )
        self.rate_limited = self._counter(
            "cribbage_discord_rate_limited",
            "Discord's 429 answers, by scope (user: the bot's own counts, global, shared).",
            ("scope",),
        )
        self.moves = self._counter(
            "cribbage_moves",
            "Moves saved (a person's and the computer's, each one of the engine's actions).",
        )
        self.database_seconds = self._histogram(
            "cribbage_database_seconds",
            "Seconds a unit of work on the database took, by kind (read, write, transaction).",
            ("kind",),
            buckets=DATABASE_BUCKETS,
        )
        self._watching = _Watching()
        self.registry.register(self._watching)
        self._refreshers: list[Callable[[], Awaitable[None]]] = []
        self._refreshing: asyncio.Lock | None = None

    def _counter(self, name: str, documentation: str, labels: Sequence[str] = ()) -> Counter:
        self._served.append(Served(f"{name}_total", "counter", tuple(labels)))
        return Counter(name, documentation, labels, registry=self.registry)

    def _histogram(
        self,
        name: str,
        documentation: str,
        labels: Sequence[str] = (),
        *,
        buckets: Sequence[float],
    ) -> Histogram:
        self._served.append(Served(name, "histogram", tuple(labels)))
        return Histogram(name, documentation, labels, buckets=buckets, registry=self.registry)

    def served(self) -> tuple[Served, ...]:
        """Every metric this process serves, as its scrape names it (those read when scraped
        once :meth:`watch` was told of them)."""
        return tuple(self._served)

    # -- the core's meters --------------------------------------------------------------------
    def moved(self, moves: int) -> None:
        """``moves`` moves were saved in one transaction."""
        self.moves.inc(moves)

    # -- what is counted as it happens ---------------------------------------------------------
    def database_unit(self, kind: str, seconds: float) -> None:
        """A unit of work on the database took ``seconds`` (the database's observer)."""
        self.database_seconds.labels(kind).observe(seconds)

    def interaction(self, kind: str) -> None:
        """An interaction of ``kind`` came."""
        self.interactions.labels(kind).inc()

    def answered(self, seconds: float) -> None:
        """An interaction was answered ``seconds`` after it was made."""
        self.answer_seconds.observe(max(0.0, seconds))

    def requested(self, method: str, route: str, status: str, scope: str | None) -> None:
        """A request to Discord was answered with ``status`` (a 429 names its ``scope``)."""
        self.discord_requests.labels(method, route, status).inc()
        if status == "429":
            self.rate_limited.labels(scope or "user").inc()

    # -- what is read when scraped ------------------------------------------------------------
    def watch(
        self,
        name: str,
        documentation: str,
        read: Callable[[], Reading],
        *,
        labels: Sequence[str] = (),
        counter: bool = False,
    ) -> None:
        """Serve ``name`` from ``read()`` at each scrape: a gauge, or (``counter``) a total
        that only grows (``_total`` is added to its name); with ``labels``, ``read`` gives one
        value per tuple of label values."""
        self._watching.watched.append(_Watched(name, documentation, read, tuple(labels), counter))
        kind = "counter" if counter else "gauge"
        self._served.append(Served(f"{name}_total" if counter else name, kind, tuple(labels)))

    def before_scrape(self, refresh: Callable[[], Awaitable[None]]) -> None:
        """Run ``refresh`` (which reads the database for a :meth:`watch` to serve) before each
        scrape."""
        self._refreshers.append(refresh)

    async def refresh(self) -> None:
        """What the scrape reads from the database, read again (one scrape at a time reads
        it; a read that fails or takes too long leaves the last figures)."""
        if self._refreshing is None:
            self._refreshing = asyncio.Lock()
        async with self._refreshing:
            for refresh in self._refreshers:
                try:
                    await asyncio.wait_for(refresh(), STORE_READ_TIMEOUT)
                except Exception as error:
                    log.warning("could not read the metrics' figures from the database: %r", error)
