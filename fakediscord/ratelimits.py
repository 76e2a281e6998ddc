"""Discord's rate limits: the global 50 per second per bot token, and the per-route buckets.

Every request is checked before it is handled. A request that passes gets its bucket's
`X-RateLimit-*` headers (the real client paces itself by them before its next request in the
same bucket); one that does not gets the 429 Discord sends, with `Retry-After`, a JSON body with
`retry_after` and `global`, `X-RateLimit-Scope` and a `Via` header (without `Via`, discord.py
takes a 429 for a Cloudflare ban and gives up).

The buckets (the header `X-RateLimit-Bucket` names them):

- `messages`: per channel, new messages 5 per 5 s and edits 5 per 5 s, each with its own count
  (Discord answers both with the same bucket name; discord.py therefore keeps one bucket for
  both and may still be refused when it mixes them in a burst, as against Discord).
- `message-deletes`: per channel, 5 deletes per second.
- every other route: a bucket named after its route template, 50 per second per resource (the
  channel, guild, interaction or webhook token in its path); it never binds before the global
  limit, but its headers are there as on Discord.

Windows are fixed: a bucket's count starts at its first request and resets `period` seconds
later, on the emulator's injectable clock.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from aiohttp import web

from fakediscord.model import EPSILON, Clock
from fakediscord.switches import Limits

GLOBAL_LIMIT = 50  # requests per GLOBAL_PERIOD per bot token
GLOBAL_PERIOD = 1.0
# Beyond this many windows, the expired ones are dropped (a long run touches many channels).
PRUNE_AT = 20_000

#: Sent on every 429: discord.py retries only a 429 that carries it.
VIA = "1.1 google"


@dataclass(frozen=True)
class BucketKind:
    """One kind of bucket: its name on the wire, its limit and period, and its switch."""

    name: str
    limit: int
    period: float
    switch: str


CREATE = BucketKind("messages", 5, 5.0, "channel_messages")
EDIT = BucketKind("messages", 5, 5.0, "channel_edits")
DELETE = BucketKind("message-deletes", 5, 1.0, "channel_deletes")
ROUTE = BucketKind("", 50, 1.0, "route_buckets")

# Route templates (see `route_template`) of the per-channel message buckets.
CHANNEL_BUCKETS = {
    "POST /channels/{id}/messages": CREATE,
    "PATCH /channels/{id}/messages/{id}": EDIT,
    "DELETE /channels/{id}/messages/{id}": DELETE,
}
# Path parameters that key a bucket (Discord's "major parameters", plus the interaction).
MAJOR = ("channel", "guild", "interaction", "app", "token")


@dataclass
class Window:
    """A fixed window: at most `limit` uses from its first use until `resets_at`."""

    limit: int
    period: float
    used: int = 0
    resets_at: float = -math.inf

    def take(self, now: float) -> bool:
        """Use one request if the window has room (starting a new window if it expired)."""
        if now >= self.resets_at - EPSILON:
            self.used = 0
            self.resets_at = now + self.period
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def reset_after(self, now: float) -> float:
        """Seconds until the window resets, rounded up to the millisecond."""
        return max(0.0, math.ceil((self.resets_at - now) * 1000) / 1000)


@dataclass
class Verdict:
    """What the limiter decided: headers for a response, or a 429 to answer instead."""

    headers: dict[str, str]
    refusal: web.Response | None = None
    scope: str | None = None  # "global" or "user" when refused


def route_template(method: str, canonical: str) -> str:
    """`"POST /channels/{id}/messages"` from aiohttp's `/api/v{version}/channels/{channel}/...`.

    Ids become `{id}`; an interaction or webhook token stays `{token}`.
    """
    path = canonical.split("}", 1)[1] if canonical.startswith("/api/v{") else canonical
    parts = [
        p if not p.startswith("{") else ("{token}" if p == "{token}" else "{id}")
        for p in path.split("/")
    ]
    return f"{method} {'/'.join(parts)}"


def too_many(retry_after: float, *, is_global: bool, headers: Mapping[str, str]) -> web.Response:
    """Discord's 429: body with `retry_after` and `global`, `Retry-After`, `Via`, the scope."""
    body = {"message": "You are being rate limited.", "retry_after": retry_after}
    body["global"] = is_global
    all_headers = {
        "Content-Type": "application/json",
        "Via": VIA,
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        all_headers["X-RateLimit-Global"] = "true"
    all_headers.update(headers)
    return web.Response(body=json.dumps(body).encode(), status=429, headers=all_headers)


class RateLimiter:
    """The global windows per bot token and the route buckets of one emulator."""

    def __init__(self, limits: Limits, clock: Clock, wall: Callable[[], float] = time.time) -> None:
        self.limits = limits
        self.clock = clock
        self.wall = wall
        self._global: dict[str, Window] = {}
        self._buckets: dict[tuple[str, str, str], Window] = {}
        self._names: dict[str, str] = {}

    def check(self, token: str | None, template: str, params: Mapping[str, str]) -> Verdict:
        """Count one request; `token` is the bot token for bot-token routes, else None.

        `template` is the route template and `params` the path's parameters.
        """
        now = self.clock.now()
        if token is not None and self.limits.global_requests:
            window = self._global.get(token)
            if window is None:
                window = self._global[token] = Window(GLOBAL_LIMIT, GLOBAL_PERIOD)
            if not window.take(now):
                refusal = too_many(window.reset_after(now), is_global=True, headers={})
                return Verdict({}, refusal, "global")
        kind = self._kind(template)
        if kind is None:
            return Verdict({})
        name = kind.name or self._name(template)
        if kind is ROUTE:
            resource = ",".join(params[k] for k in MAJOR if k in params)
        else:
            resource = params.get("channel", "")
        key = (name, kind.switch, resource if kind is not ROUTE else f"{template}|{resource}")
        window = self._buckets.get(key)
        if window is None:
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            window = self._buckets[key] = Window(kind.limit, kind.period)
        allowed = window.take(now)
        reset_after = window.reset_after(now)
        headers = {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(window.limit - window.used),
            "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": name,
        }
        if allowed:
            return Verdict(headers)
        return Verdict(headers, too_many(reset_after, is_global=False, headers=headers), "user")

    def _kind(self, template: str) -> BucketKind | None:
        kind = CHANNEL_BUCKETS.get(template)
        if kind is not None and getattr(self.limits, kind.switch):
            return kind
        # A channel bucket switched off leaves its route as lenient as any other.
        return ROUTE if self.limits.route_buckets else None

    def _name(self, template: str) -> str:
        name = self._names.get(template)
        if name is None:
            # Discord's bucket names are opaque hashes; one per route template here.
            name = self._names[template] = hashlib.md5(
                template.encode(), usedforsecurity=False
            ).hexdigest()[:16]
        return name

    def _prune(self, now: float) -> None:
        expired = [key for key, window in self._buckets.items() if now >= window.resets_at]
        for key in expired:
            del self._buckets[key]
