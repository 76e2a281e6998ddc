"""Faults on demand: answer chosen REST routes with 429s or server errors a set number of times,
hold chosen requests back for a while before they reach Discord (a slow network), hold their
answers back until the test lets them go, or run a test's action the moment a request has been
handled, before its answer goes back.

A route pattern is a regular expression searched in `"METHOD /path"`, the path without the
`/api/v10` prefix, e.g. `"POST /channels/\\d+/messages"` or `"callback"`.

An error is answered as whoever answers it on the internet does (README, "The internet's
faults"): a 500 with Discord's JSON body; a 502 or 504 with Cloudflare's HTML page (Discord's
servers out of its reach); a 503 with the text of the proxy in front of Discord's API; a 429 from
`FakeDiscord.fail` with Cloudflare's text and neither `Via` nor rate-limit headers (Discord's
own 429 is `FakeDiscord.rate_limit`'s). A test that gives a code or a message gets Discord's
JSON body with them.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from fakediscord.invalid_requests import cloudflare_ban
from fakediscord.ratelimits import too_many

#: Cloudflare's page for a 502 and a 504 (Discord's origin did not answer it), as bots log it.
CLOUDFLARE_PAGE = (
    "<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n"
    "<center><h1>{status} {reason}</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
    "</body>\r\n</html>\r\n"
)
#: What the proxy in front of Discord's API answers with a 503, as bots log it (discord.py:
#: "503 Service Unavailable (error code: 0): upstream connect error or disconnect/reset before
#: headers. reset reason: overflow").
PROXY_503 = "upstream connect error or disconnect/reset before headers. reset reason: overflow"
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
REASONS[504] = "Gateway Time-out"


def edge_error(status: int) -> web.Response:
    """A server error as Discord's edge answers it when the test names no code or message."""
    reason = REASONS.get(status, "Server Error")
    if status in (502, 504):
        page = CLOUDFLARE_PAGE.format(status=status, reason=reason)
        return web.Response(
            body=page.encode(), status=status, headers={"Content-Type": "text/html"}
        )
    if status == 503:
        return web.Response(
            body=PROXY_503.encode(), status=status, headers={"Content-Type": "text/plain"}
        )
    body = {"message": f"{status}: {reason}", "code": 0}
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={"Content-Type": "application/json"}
    )


@dataclass
class Fault:
    """One injected failure, used up after `times` matching requests."""

    pattern: re.Pattern[str]
    times: int
    status: int
    code: int = 0
    message: str = ""
    retry_after: float = 0.0
    is_global: bool = False
    #: X-RateLimit-Scope of a 429: "user", or "shared" (does not count as an invalid request).
    scope: str = "user"
    #: A 429 from Cloudflare, not Discord: its text, no `Via`, no rate-limit headers; it counts
    #: toward nothing Discord counts.
    cloudflare: bool = False
    hits: int = 0

    def response(self) -> web.Response:
        """The response Discord (or Cloudflare, in front of it) would send for this fault."""
        if self.cloudflare:
            return cloudflare_ban()
        if self.status >= 500 and not self.code and not self.message:
            return edge_error(self.status)
        if self.status == 429:
            bucket = {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                "X-RateLimit-Bucket": "fakediscord-fault",
                "X-RateLimit-Scope": self.scope,
            }
            return too_many(
                self.retry_after, is_global=self.is_global, headers={} if self.is_global else bucket
            )
        body_err = {"message": self.message or f"{self.status}: Server Error", "code": self.code}
        return web.Response(
            body=json.dumps(body_err).encode(),
            status=self.status,
            headers={"Content-Type": "application/json"},
        )


@dataclass
class Hook:
    """A test's action run (synchronously) when a request matching `pattern` has been handled,
    before its answer is sent back: the next `times` such requests."""

    pattern: re.Pattern[str]
    action: Callable[[str], object]
    times: int
    routes: list[str] = field(default_factory=list)


@dataclass
class Delay:
    """The next `times` requests matching `pattern` reach Discord `seconds` late (the network
    between the bot and Discord is slow), then are handled as usual; with `back`, they are
    handled at once and their answers reach the bot `seconds` late instead (Discord did it,
    the bot does not know yet)."""

    pattern: re.Pattern[str]
    seconds: float
    times: int
    routes: list[str] = field(default_factory=list)
    back: bool = False


@dataclass
class Hold:
    """The next `times` requests matching `pattern` are handled at once, and their answers
    wait on their way back to the bot until the test lets them go (:meth:`release`): what
    they did shows on Discord while the bot does not know it yet, for exactly as long as the
    test needs to do something meanwhile (a number of seconds would be a guess, too short on
    a busy machine). `routes` holds the requests held so far."""

    pattern: re.Pattern[str]
    times: int
    routes: list[str] = field(default_factory=list)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        """Let the answers held, and any to come, go back to the bot."""
        self.released.set()


class FaultBook:
    """The faults waiting to happen, in the order they were added."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.used: list[tuple[str, int]] = []
        self.hooks: list[Hook] = []
        self.delays: list[Delay] = []
        self.holds: list[Hold] = []

    def hook(self, hook: Hook) -> Hook:
        """Arm a hook."""
        self.hooks.append(hook)
        return hook

    def handled(self, route: str) -> None:
        """Run the hooks armed for `route` (a request to it was just handled)."""
        for hook in list(self.hooks):
            if hook.pattern.search(route):
                hook.routes.append(route)
                if len(hook.routes) >= hook.times:
                    self.hooks.remove(hook)
                hook.action(route)

    def delay(self, delay: Delay) -> Delay:
        """Arm a delay."""
        self.delays.append(delay)
        return delay

    def late_by(self, route: str, *, back: bool = False) -> float:
        """How late a request to `route` reaches Discord (``back``: how late its answer
        reaches the bot) by the first armed delay of that way matching it, counting one use: 0
        when none matches."""
        for delay in self.delays:
            if delay.back == back and delay.pattern.search(route):
                delay.routes.append(route)
                if len(delay.routes) >= delay.times:
                    self.delays.remove(delay)
                return delay.seconds
        return 0.0

    def hold(self, hold: Hold) -> Hold:
        """Arm a hold."""
        self.holds.append(hold)
        return hold

    def held(self, route: str) -> Hold | None:
        """The first armed hold matching `route`, counting one use: its answer waits until
        the hold is released. None when none matches."""
        for hold in self.holds:
            # (Kept once used up: clearing the book lets its answers still held go.)
            if len(hold.routes) < hold.times and hold.pattern.search(route):
                hold.routes.append(route)
                return hold
        return None

    def add(self, fault: Fault) -> Fault:
        """Arm a fault."""
        self.pending.append(fault)
        return fault

    def take(self, route: str) -> Fault | None:
        """The first armed fault matching `route`, counting one use; None if none match."""
        for fault in self.pending:
            if fault.hits < fault.times and fault.pattern.search(route):
                fault.hits += 1
                self.used.append((route, fault.status))
                if fault.hits >= fault.times:
                    self.pending.remove(fault)
                return fault
        return None

    def clear(self) -> None:
        """Disarm every fault, delay, hook and hold (the answers held go back)."""
        self.pending.clear()
        self.hooks.clear()
        self.delays.clear()
        for hold in self.holds:
            hold.release()
        self.holds.clear()
