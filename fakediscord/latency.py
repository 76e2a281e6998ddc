"""The internet between the bot and Discord: every request and every gateway event takes time.

Off by default (a request crosses 127.0.0.1 in well under a millisecond, and the suite's other
tests keep that speed). With ``FakeDiscord(latency=Latency())``, or ``fd.latency = Latency()``
on a running emulator:

- **REST.** Every request takes a random round trip of ``low`` to ``high`` seconds (40-250 ms
  by default, as a bot far from Discord's edge sees), split at random between the way there
  (before the emulator handles it: Discord has not seen it yet) and the way back (after it was
  handled, before the client reads the answer: Discord has done it, the bot does not know yet).
  Two requests on two connections therefore land in either order, and an answer can come back
  after a later request already landed, as on the internet. (Requests on one connection keep
  their order: aiohttp's client sends the next request on a connection only once it has read
  the answer to the one before.) The gateway's handshake and the CDN's attachments are other
  hosts and take none.
- **Gateway.** Every frame the emulator sends on a connection reaches the client half a round
  trip later (``low / 2`` to ``high / 2``), in the order it was sent, as TCP delivers a stream.

Discord's clocks run on its side of the wire: an interaction's 3 s to be answered start when
Discord sends it (its ``created_at``), so the event's way to the bot and the callback's way
back to Discord count against them, as they do on Discord.

The draws come from one ``random.Random(seed)``: a run can be repeated (the order of the draws
follows the order requests arrive, which a busy machine may change).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from fakediscord.server import FakeDiscord

__all__ = ["Latency", "Outbox", "latency_middleware"]

#: A round trip on the internet between a bot and Discord, in seconds (Discord's docs speak of
#: none; tens to hundreds of milliseconds is what a bot far from Discord's edge sees).
LOW, HIGH = 0.040, 0.250
#: Paths served by other hosts than the API (the gateway's handshake, the CDN): no latency.
OTHER_HOSTS = re.compile(r"^/gw|^/(media/)?attachments/")
#: What a route is named without (as ``fd.delay`` and the other faults name them).
API_PREFIX = re.compile(r"^/api/v\d+")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Latency:
    """How long the wire takes: a round trip of ``low`` to ``high`` seconds, drawn from
    ``rng`` (by default ``random.Random(seed)``)."""

    low: float = LOW
    high: float = HIGH
    seed: int = 0
    rng: random.Random | None = None
    #: Requests delayed so far, and the seconds they spent on the wire in all.
    requests: int = 0
    seconds: float = 0.0
    _draw: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.low <= self.high:
            raise ValueError(f"a round trip from {self.low} s to {self.high} s")
        self._draw = self.rng if self.rng is not None else random.Random(self.seed)

    def round_trip(self) -> tuple[float, float]:
        """One request's way there and way back, in seconds: a round trip of ``low`` to
        ``high``, split at random between the two."""
        total = self._draw.uniform(self.low, self.high)
        there = total * self._draw.random()
        self.requests += 1
        self.seconds += total
        return there, total - there

    def one_way(self) -> float:
        """A gateway frame's way to the client, in seconds: half a round trip."""
        return self._draw.uniform(self.low, self.high) / 2


def latency_middleware(fd: FakeDiscord) -> Callable[..., Any]:
    """Hold each REST request back for its way there, and its answer for its way back, while
    ``fd.latency`` is set (the outermost middleware: everything Discord does with a request,
    its rate limits, its clocks, its record in ``fd.requests``, happens on Discord's side);
    and an answer a test holds on its way back (``fd.delay(route, seconds, back=True)``, or
    ``fd.hold(route)`` until the test releases it)."""

    @web.middleware
    async def wire(request: web.Request, handler: Handler) -> web.StreamResponse:
        if OTHER_HOSTS.match(request.path):
            return await handler(request)
        latency = fd.latency
        there, back = latency.round_trip() if latency is not None else (0.0, 0.0)
        if there:
            await asyncio.sleep(there)
        try:
            return await handler(request)
        finally:
            # A test's answer held on its way back (``fd.delay(..., back=True)``), and the
            # wire's own way back.
            route = f"{request.method} {API_PREFIX.sub('', request.path)}"
            held = fd.faults.held(route)
            if held is not None:
                await held.released.wait()  # (``fd.hold(route)``: until the test lets it go)
            back += fd.faults.late_by(route, back=True)
            if back:
                await asyncio.sleep(back)

    return wire


class Outbox:
    """One gateway connection's frames on their way to the client: each is written once its
    way is over, in the order they were sent."""

    def __init__(self, ws: web.WebSocketResponse, latency: Latency) -> None:
        self.ws = ws
        self.latency = latency
        self._frames: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._deliver())

    def send(self, text: str) -> None:
        """Put ``text`` on the wire: it reaches the client a half round trip from now, after
        every frame sent before it."""
        due = asyncio.get_running_loop().time() + self.latency.one_way()
        self._frames.put_nowait((due, text))

    async def _deliver(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due, text = await self._frames.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if self.ws.closed:
                continue  # lost with the connection (a dispatch stays kept for a RESUME)
            with contextlib.suppress(ConnectionError):
                await self.ws.send_str(text)

    def close(self) -> None:
        """Stop delivering (the connection is closed: what is still on the wire is lost)."""
        self._task.cancel()
