"""The Activity's requests and answers as HTTP: the headers every answer carries (its content
policy among them), a request's JSON body and its fields read or refused, and the refusals in
the API's own form (``{"ok": false, "said": ...}``), for :mod:`bot.web.activity.server` and
:mod:`bot.web.activity.acts`."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

__all__ = [
    "ACTIVITY_CSP",
    "API",
    "HEADERS",
    "MAX_BODY",
    "NOT_UNDERSTOOD",
    "TOO_LONG",
    "answer_json",
    "api_refusal",
    "bad",
    "body_of",
    "int_of",
    "parsed",
    "refuse",
    "text_of",
]

#: The Activity page's content policy: only its own origin (which is Discord's proxy in
#: Discord), avatars from Discord's CDN, and framed only by Discord's clients (or its own
#: origin: Discord's proxy serves the client's frame there in fakediscord).
ACTIVITY_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:"
    " https://cdn.discordapp.com; connect-src 'self'; base-uri 'none'; form-action 'none';"
    " frame-ancestors 'self' https://discord.com https://*.discord.com https://discordapp.com"
    " https://*.discordapp.com"
)
#: The largest request body taken (a move is a few dozen bytes).
MAX_BODY = 4096
#: Where the page's requests go (answered in JSON, refusals included).
API = "/activity/api/"
#: A request the server could not read.
NOT_UNDERSTOOD = "That request was not understood."
#: A request body longer than :data:`MAX_BODY`.
TOO_LONG = "That request is too long."

#: The headers of every answer of the Activity's.
HEADERS = {
    "Content-Security-Policy": ACTIVITY_CSP,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def answer_json(data: Any, status: int = 200) -> web.Response:
    """``data`` as the answer's JSON, with the Activity's headers."""
    return web.json_response(data, status=status, headers=HEADERS)


def refuse(text: str, status: int = 400) -> web.Response:
    """A refusal the page shows: ``text``, with ``status``."""
    return answer_json({"ok": False, "said": text}, status)


def bad(text: str = NOT_UNDERSTOOD) -> web.HTTPBadRequest:
    """The 400 (to raise) of a request that cannot be read."""
    return web.HTTPBadRequest(
        text=json.dumps({"ok": False, "said": text}),
        content_type="application/json",
        headers=HEADERS,
    )


async def body_of(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (a 400 for anything else, a 413 past :data:`MAX_BODY`)."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise _too_long(request.content_length)
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise _too_long(len(raw))
    body = parsed(raw or b"null")
    if not isinstance(body, dict):
        raise bad()
    return body


def parsed(raw: bytes | str) -> Any:
    """``raw`` read as JSON; None where it is none: not JSON, not UTF-8, or nested deeper than
    Python's reader goes (a thousand ``[`` fit in a body: that raises RecursionError)."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _too_long(size: int) -> web.HTTPRequestEntityTooLarge:
    # (aiohttp's own text is not JSON and not for a person: it names the byte counts.)
    return web.HTTPRequestEntityTooLarge(
        MAX_BODY,
        size,
        text=json.dumps({"ok": False, "said": TOO_LONG}),
        content_type="application/json",
        headers=HEADERS,
    )


def int_of(body: dict[str, Any], name: str, *, default: int | None = None) -> int:
    """The body's ``name``, a whole number from 0 below 2**63 (a 400 for anything else)."""
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise bad()
    return value


def text_of(body: dict[str, Any], name: str, *, limit: int = 100) -> str:
    """The body's ``name``, a text of 1 to ``limit`` characters (a 400 for anything else)."""
    value = body.get(name)
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise bad()
    return value


def api_refusal(request: web.Request, error: web.HTTPException) -> web.Response | None:
    """The answer to the router's 404 or 405 for an address under ``/activity/api/``, in the
    API's own form (``{"ok": false, "said": ...}``, the Allow header kept), or None for any
    other address or error. The page reads every answer from there as JSON; aiohttp's are
    plain text ("405: Method Not Allowed")."""
    if not request.path.startswith(API) or error.status not in (404, 405):
        return None
    allow = {"Allow": error.headers["Allow"]} if "Allow" in error.headers else {}
    return web.json_response(
        {"ok": False, "said": NOT_UNDERSTOOD}, status=error.status, headers={**HEADERS, **allow}
    )
