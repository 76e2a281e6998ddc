"""The bot's traffic with Discord, counted for the metrics (:mod:`bot.ops.metrics`).

Every request the bot makes goes through discord.py's one HTTP session (interaction callbacks
and follow-ups through interactions' tokens too), whose trace hooks the bot already sets for
its fence (:func:`bot.discord.courier.fence_trace`). :func:`count_traffic` adds two to the same
trace: each answer counted by method, route and status (a 429 by its scope too), and the
callback that answers an interaction timed from the interaction's creation, which its id
holds (a snowflake): what Discord's 3 s are measured against.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp
import discord

from bot.core.ledger.transport import Unwritten
from bot.ops.metrics import Metrics

__all__ = ["count_traffic", "route_of"]

_API = re.compile(r"^/api/v\d+")
#: The path segments after which Discord puts a token (an interaction's, a webhook's).
_TOKEN_AFTER = ("interactions", "webhooks")
#: A route is at most this many segments (the bot's longest has 6).
_MOST_SEGMENTS = 8


def route_of(path: str) -> str:
    """A request's path as a route: ids as ``{id}``, tokens as ``{token}``, no query, so the
    routes are few whatever the ids.

    >>> route_of("/api/v10/channels/123/messages/456")
    '/channels/{id}/messages/{id}'
    >>> route_of("/api/v10/interactions/789/aW50ZXJhY3Rpb24/callback")
    '/interactions/{id}/{token}/callback'
    >>> route_of("/api/v10/webhooks/1/tok/messages/@original")
    '/webhooks/{id}/{token}/messages/@original'
    """
    parts = _API.sub("", path.split("?", 1)[0]).strip("/").split("/")
    out: list[str] = []
    for index, part in enumerate(parts[:_MOST_SEGMENTS]):
        if part.isdecimal():
            out.append("{id}")
        elif index >= 2 and parts[index - 2] in _TOKEN_AFTER and out[-1] == "{id}":
            out.append("{token}")
        else:
            out.append(part if len(part) <= 32 else "{long}")
    return "/" + "/".join(out)


def _callback_of(path: str) -> int | None:
    """The interaction an answer's request is for (its id), when it is a callback."""
    parts = _API.sub("", path).strip("/").split("/")
    if len(parts) == 4 and parts[0] == "interactions" and parts[3] == "callback":
        return int(parts[1]) if parts[1].isdecimal() else None
    return None


def count_traffic(
    trace: aiohttp.TraceConfig,
    metrics: Callable[[], Metrics | None],
    clock: Callable[[], float] = time.time,
) -> None:
    """Count every request of ``trace``'s session in ``metrics()`` (None: not yet, while the
    bot starts)."""

    async def ended(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        counts = metrics()
        if counts is None:
            return
        path = params.url.path
        status = params.response.status
        scope = params.response.headers.get("X-RateLimit-Scope") if status == 429 else None
        counts.requested(params.method, route_of(path), str(status), scope)
        interaction = _callback_of(path)
        if interaction is not None and status < 300:
            made = discord.utils.snowflake_time(interaction).timestamp()
            counts.answered(clock() - made)

    async def failed(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        counts = metrics()
        if counts is not None and not isinstance(params.exception, Unwritten):
            # (A request its fence stopped never went: nothing to count.)
            counts.requested(params.method, route_of(params.url.path), "error", None)

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
