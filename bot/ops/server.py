"""Health, readiness and metrics over HTTP (aiohttp, as the game pages).

| route | answers |
| --- | --- |
| ``/healthz`` | 200 and a line of JSON while the process's event loop answers (liveness) |
| ``/readyz`` | 200 when ready, else 503, with JSON saying each part (:mod:`bot.ops.health`) |
| ``/metrics`` | the metrics in Prometheus's text format (:mod:`bot.ops.metrics`) |

All three are served on ``OPS_PORT`` (on ``OPS_HOST``, this machine only by default), a port
for the operator's scrapers and probes. The game pages' port, which faces the players, serves
``/healthz`` and ``/readyz`` too (a load balancer in front of the pages checks them there),
saying alive, and ready or not, and nothing more: the process's name (its host and pid), the
lease's holder and the database's errors are for the operator's port alone. Not the metrics.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.ops.health import Readiness
from bot.ops.metrics import Metrics

__all__ = ["OpsServer", "add_health_routes", "add_metrics_route"]

log = logging.getLogger(__name__)


def _json(body: dict[str, Any], status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(body),
        status=status,
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def add_health_routes(app: web.Application, readiness: Readiness, *, public: bool) -> None:
    """``/healthz`` and ``/readyz`` on ``app``: on the operator's port with what each part
    says (:mod:`bot.ops.health`); on a ``public`` one (the game pages') alive, and ready or
    not, alone."""

    async def healthz(_request: web.Request) -> web.Response:
        return _json({"alive": True} if public else readiness.alive())

    async def readyz(_request: web.Request) -> web.Response:
        ready, body = await readiness.ready()
        return _json({"ready": ready} if public else body, 200 if ready else 503)

    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)


def add_metrics_route(app: web.Application, metrics: Metrics) -> None:
    """``/metrics`` on ``app``: the figures read from the database are refreshed first."""
    render = make_aiohttp_handler(metrics.registry, disable_compression=True)

    async def scrape(request: web.Request) -> web.StreamResponse:
        await metrics.refresh()
        return await render(request)

    app.router.add_get("/metrics", scrape)


class OpsServer:
    """``/healthz``, ``/readyz`` and ``/metrics`` on a port of their own."""

    def __init__(self, readiness: Readiness, metrics: Metrics, *, host: str, port: int) -> None:
        """``port`` 0: a free one (:attr:`port` says which once started)."""
        self._readiness = readiness
        self._metrics = metrics
        self._host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        """The aiohttp application (its routes)."""
        app = web.Application()
        add_health_routes(app, self._readiness, public=False)
        add_metrics_route(app, self._metrics)
        return app

    async def start(self) -> None:
        """Listen (raises ``OSError`` when the port cannot be had)."""
        runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self._host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        for address in runner.addresses:
            self.port = int(address[1])
        log.info("health, readiness and metrics at http://%s:%d/", self._host, self.port)

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
