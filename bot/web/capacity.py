"""How many connections the pages may hold, from the process's open-file limit.

Each connection to the pages' server is a file descriptor, and so is every connection the
Discord client makes, the database's files and sockets, the worker processes' pipes and the
logs. Once the process runs out, accepting fails, Discord's requests fail and SQLite cannot
open its journal: the pages would starve the games. So:

- at start the process raises its soft open-file limit to the hard one
  (:func:`raise_open_files`: a service manager's default soft limit is often 1,024 while the
  hard one is far higher);
- the pages' server then takes what is left, less :data:`RESERVED` descriptors kept for
  Discord and the database, and only :data:`MARGIN` of that (:func:`capacity`): that many
  connections in all, and live pages up to that less :data:`FETCH_ROOM` (the page fetches,
  the script, the board pictures), never more than :data:`MAX_LIVE_PAGES`.

>>> capacity(soft=1024, in_use=40)
Capacity(connections=582, live_pages=454)
>>> capacity(soft=65536, in_use=40).live_pages
2000
>>> capacity(soft=200, in_use=40)
Capacity(connections=0, live_pages=0)
"""

from __future__ import annotations

import contextlib
import logging
import os
import resource
from dataclasses import dataclass

from aiohttp import web

__all__ = [
    "FETCH_ROOM",
    "MARGIN",
    "MAX_CONNECTIONS",
    "MAX_LIVE_PAGES",
    "RESERVED",
    "RETRY_AFTER",
    "SEND_SECONDS",
    "Admission",
    "Capacity",
    "capacity",
    "no_room",
    "open_files",
    "raise_open_files",
    "soft_limit",
]

log = logging.getLogger(__name__)

#: Descriptors never given to the pages: the Discord client's connections (discord.py's
#: HTTP pool holds up to 100, and a gateway per shard), the database (SQLite's file, journal
#: and shared memory; PostgreSQL's pool), the worker processes' pipes, the logs, and room for
#: the games to grow while the pages are full.
RESERVED = 256
#: The share of what is left that the pages' server may hold (the rest is slack: the count of
#: open descriptors is read once, at start).
MARGIN = 0.8
#: Of the pages' connections, kept for what is not a live page: page fetches, the script,
#: board pictures (a page's live stream is refused before these run out).
FETCH_ROOM = 128
#: The most live pages one process keeps open, however high its limit (each costs a few KiB
#: and a draw handed to it on every move: the pages must never slow the games).
MAX_LIVE_PAGES = 2000
#: What a refused live page is told to wait before trying again (seconds).
RETRY_AFTER = 60
#: A live page or socket that takes nothing of what is sent to it for this long is closed (its
#: reader stopped reading: its buffers would otherwise grow with every move).
SEND_SECONDS = 30.0
#: The most connections the pages' server holds at once, however high the limit.
MAX_CONNECTIONS = MAX_LIVE_PAGES + 4 * FETCH_ROOM
# Linux refuses a soft limit above this (fs.nr_open's default) when the hard one is
# unlimited.
_UNLIMITED_CAP = 1 << 20


@dataclass(frozen=True, slots=True)
class Capacity:
    """What the pages' server may hold: ``connections`` in all, ``live_pages`` of them
    live streams."""

    connections: int
    live_pages: int


def capacity(*, soft: int, in_use: int) -> Capacity:
    """What the pages may hold with a soft limit of ``soft`` descriptors, ``in_use`` of which
    are open already."""
    spare = max(0, soft - in_use - RESERVED)
    connections = min(MAX_CONNECTIONS, int(spare * MARGIN))
    live = min(MAX_LIVE_PAGES, max(0, connections - FETCH_ROOM))
    return Capacity(connections, live)


class Admission:
    """What the pages' server lets in within its share (:class:`Capacity`): another live page,
    another connection. The first refusal of a spell is one warning, the rest are counted
    until a live page is taken again (one line then): under pressure the log stays short."""

    def __init__(self, limits: Capacity | None = None) -> None:
        """``limits``: the share; without one it is worked out at :meth:`start` from the
        process's open-file limit."""
        self.limits = limits
        #: Refusals since the last live page was taken (None: not refusing).
        self._refusing: int | None = None

    def start(self) -> Capacity:
        """The share, worked out now from the open-file limit if none was given."""
        if self.limits is None:
            self.limits = capacity(soft=soft_limit(), in_use=open_files())
        return self.limits

    def live_page(self, watching: int) -> bool:
        """Whether another live page may open with ``watching`` open (a game's page or the
        Activity's); a page taken after refusals ends their spell."""
        if self.limits is None or watching >= self.limits.live_pages:
            self._refused("live pages", watching)
            return False
        if self._refusing is not None:
            log.info("game pages: taking live pages again (%d refused)", self._refusing)
            self._refusing = None
        return True

    def connection(self, open_now: int) -> bool:
        """Whether another connection may be held with ``open_now`` held: beyond the share it
        is closed at once, so the pages never take what Discord needs."""
        if self.limits is None or open_now >= self.limits.connections:
            self._refused("connections", open_now)
            return False
        return True

    def _refused(self, what: str, count: int) -> None:
        if self._refusing is None:
            self._refusing = 0
            log.warning(
                "game pages: %d %s open, the most this process takes (its open-file limit is "
                "%d): refusing more until some close",
                count,
                what,
                soft_limit(),
            )
        self._refusing += 1


def open_files() -> int:
    """How many descriptors this process has open (Linux's /proc; elsewhere a guess that errs
    high)."""
    with contextlib.suppress(OSError):
        return len(os.listdir("/proc/self/fd"))
    return 64


def raise_open_files() -> tuple[int, int]:
    """Raise this process's soft open-file limit to its hard one (as far as the system lets
    it); the soft and hard limits after. Logs the change, or why it could not."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = _UNLIMITED_CAP if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError) as error:
            log.warning(
                "could not raise the open-file limit from %d to %d: %s", soft, wanted, error
            )
        else:
            log.info("open-file limit raised from %d to %d", soft, wanted)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft, hard


def soft_limit() -> int:
    """This process's soft open-file limit (an unlimited one counted as very high)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return _UNLIMITED_CAP if soft == resource.RLIM_INFINITY else soft


def no_room() -> web.Response:
    """The answer to a live page refused for want of room: the page keeps what it shows and
    tries again after :data:`RETRY_AFTER`; the connection is closed, so it holds no file."""
    busy = web.Response(
        status=503,
        text="Too many pages are open at once; this one will try again.",
        headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"},
    )
    busy.force_close()
    return busy
