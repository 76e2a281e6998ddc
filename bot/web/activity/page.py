"""The Activity's page and its built front end: ``GET /activity/`` (the page Discord's proxy
serves at the Activity's root), ``app.js`` and ``app.css`` (built from ``activity/`` into
``static/``, named with a digest of both so a new build is fetched at once).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from importlib import resources

from aiohttp import web

__all__ = ["ActivityPage"]


def _static(name: str) -> bytes | None:
    try:
        return resources.files("bot.web.activity").joinpath("static", name).read_bytes()
    except (FileNotFoundError, OSError):
        return None


class ActivityPage:
    """Serves the page for the application ``client_id()`` names (the SDK is made with it),
    and its script and style, each with ``headers`` (the Activity's content policy)."""

    def __init__(self, client_id: Callable[[], int], headers: Mapping[str, str]) -> None:
        self._client_id = client_id
        self._headers = dict(headers)
        self._script, self._style = _static("app.js"), _static("app.css")
        both = (self._script or b"") + (self._style or b"")
        self._version = hashlib.sha256(both).hexdigest()[:12]

    def add_routes(self, app: web.Application) -> None:
        """Put the page's routes on ``app``."""
        app.router.add_get("/activity", self._to_page)
        app.router.add_get("/activity/", self._page)
        app.router.add_get("/activity/app.js", self._script_file)
        app.router.add_get("/activity/app.css", self._style_file)

    async def _to_page(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(
            "/activity/" + (f"?{request.query_string}" if request.query_string else "")
        )

    async def _page(self, request: web.Request) -> web.Response:
        if self._script is None or self._style is None:
            body = (
                "<p>The table's script is not built: run <code>bash activity/build.sh</code>.</p>"
            )
        else:
            body = '<main id="app"><p class="status">Opening the table…</p></main>'
        html = (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1, '
            'viewport-fit=cover"><meta name="color-scheme" content="dark">'
            '<meta name="referrer" content="no-referrer"><title>Cribbage</title>'
            f'<link rel="stylesheet" href="app.css?v={self._version}"></head>'
            f'<body data-client-id="{self._client_id()}">{body}'
            f'<script src="app.js?v={self._version}"></script></body></html>'
        )
        return web.Response(
            text=html, content_type="text/html", charset="utf-8", headers=self._headers
        )

    async def _script_file(self, request: web.Request) -> web.Response:
        return self._file(self._script, "text/javascript")

    async def _style_file(self, request: web.Request) -> web.Response:
        return self._file(self._style, "text/css")

    def _file(self, body: bytes | None, kind: str) -> web.Response:
        if body is None:
            raise web.HTTPNotFound()
        headers = {**self._headers, "Cache-Control": "max-age=86400"}
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)
