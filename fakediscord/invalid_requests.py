"""Invalid requests: Cloudflare's ban of a bot that keeps making requests Discord refuses.

Discord counts every answer of 401, 403 or 429 (except a 429 with scope `shared`, a limit on a
resource others share) toward 10,000 per 10 minutes per IP; past that, Cloudflare refuses every
request for a while. The emulator keeps the tally (`fd.invalid_requests.count`, readable by
tests) and, with the switch on, refuses everything REST with Cloudflare's answer: a 429 without
`Via` and with a text body, which discord.py raises as `HTTPException` instead of retrying.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from aiohttp import web

from fakediscord.model import EPSILON, Clock

LIMIT = 10_000
WINDOW = 600.0  # seconds
#: How long the ban lasts. Discord does not say; bots report about an hour.
BAN = 3600.0
COUNTED = (401, 403, 429)


class InvalidRequests:
    """The tally of refused requests over the last `window` seconds, and the ban it brings."""

    def __init__(self, clock: Clock, enabled: Callable[[], bool]) -> None:
        self.clock = clock
        self.enabled = enabled
        #: Tests may lower these to provoke the ban quickly.
        self.limit = LIMIT
        self.window = WINDOW
        self.ban = BAN
        #: Every invalid request ever answered (the window aside).
        self.total = 0
        self.banned_until: float | None = None
        self._times: deque[float] = deque()

    @property
    def count(self) -> int:
        """Invalid requests answered in the last `window` seconds."""
        self._forget(self.clock.now())
        return len(self._times)

    def record(self, status: int, scope: str | None = None) -> bool:
        """Count an answer if it is one Discord counts (401, 403, or a 429 not `shared`)."""
        if status not in COUNTED or (status == 429 and scope == "shared"):
            return False
        now = self.clock.now()
        self.total += 1
        self._times.append(now)
        self._forget(now)
        if len(self._times) > self.limit and self.enabled():
            self.banned_until = now + self.ban
        return True

    def banned(self) -> bool:
        """Whether Cloudflare is refusing this bot now."""
        if self.banned_until is None or not self.enabled():
            return False
        if self.clock.now() >= self.banned_until - EPSILON:
            self.banned_until = None
            return False
        return True

    def _forget(self, now: float) -> None:
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()


def cloudflare_ban() -> web.Response:
    """What a banned bot gets: Cloudflare's 429 page, no `Via`, not JSON."""
    return web.Response(
        body=b"error code: 1015", status=429, headers={"Content-Type": "text/plain"}
    )
