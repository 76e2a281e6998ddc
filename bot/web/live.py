"""A game page's live part (``…/live``, server-sent events), for every page open on a game.

Live updates come from the change feed, not from the database: the pages follow it once, and a
change of a game somebody watches is drawn once (one read of the game, usually from memory) and
handed to every page open on it. Each page keeps only the latest look it has not yet sent, so a
slow reader costs one string, however many moves it missed; one that takes nothing for
:data:`~bot.web.capacity.SEND_SECONDS` is dropped. The server (:mod:`bot.web.server`) finds the
page's game from its link and lets it in within its share of open files.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from aiohttp import web

from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.patrol import Patrol
from bot.core.games.records import GameRecord
from bot.core.messages.spectator import TableSeen
from bot.web.capacity import SEND_SECONDS
from bot.web.pages import table_fragment

__all__ = ["KEEP_ALIVE_SECONDS", "LivePages", "people_of"]

log = logging.getLogger(__name__)

#: How often an open live page hears something (a comment), so proxies keep it open.
KEEP_ALIVE_SECONDS = 20.0


class LiveReads(Protocol):
    """What the live pages read of a game (the core's ``services.pages``)."""

    async def record(self, game_id: int) -> GameRecord | None:
        """The game as it is now (None: no such game)."""
        ...

    async def seen(self, record: GameRecord) -> TableSeen:
        """The game as its channel shows it now."""
        ...


def people_of(record: GameRecord) -> dict[int, str]:
    """User id -> name, for the mentions in the channel's messages."""
    return {s.user_id: s.name for s in record.seats if s.user_id is not None}


@dataclass(eq=False, slots=True)
class _Viewer:
    """One open live page: the newest look not yet sent to it."""

    waiting: asyncio.Event = field(default_factory=asyncio.Event)
    latest: str | None = None
    version: int = -1
    over: bool = False

    def give(self, version: int, text: str, over: bool) -> None:
        if version <= self.version and not over:
            return
        self.version, self.latest, self.over = version, text, over
        self.waiting.set()


class LivePages:
    """The live pages open on each game, each drawn a game's every change the feed tells
    (``board_src``: the address of a look's board picture)."""

    def __init__(
        self, pages: LiveReads, feed: ChangeFeed, board_src: Callable[[TableSeen], str]
    ) -> None:
        self._pages = pages
        self._feed = feed
        self._board_src = board_src
        self._viewers: dict[int, set[_Viewer]] = {}
        # One drawing at a time per game, for all its pages; a change heard meanwhile draws
        # it once more after.
        self._patrol = Patrol(feed, self._changed, self._draw, clock=time.time, name="crib-page")
        self._closing = asyncio.Event()

    @property
    def watching(self) -> int:
        """How many live pages are open."""
        return sum(len(v) for v in self._viewers.values())

    def follow(self) -> None:
        """Follow the change feed (the server has started)."""
        self._patrol.follow()

    def stop(self) -> None:
        """Stop following the feed, and end the open live pages."""
        self._closing.set()
        self._patrol.stop()
        for viewers in self._viewers.values():
            for viewer in viewers:
                viewer.waiting.set()

    # -- the feed -----------------------------------------------------------------------------
    def _changed(self, change: Change) -> None:
        """A game changed: if a page watches it, draw its new look once for all of them."""
        game_id = change.game_id
        if game_id is None or game_id not in self._viewers:
            return
        self._patrol.ask(game_id)

    async def _draw(self, game_id: int) -> float | None:
        """Draw the game's look once for all the pages that watch it; never again by a timer
        (the feed says when it changes)."""
        try:
            record = await self._pages.record(game_id)
            viewers = self._viewers.get(game_id)
            if record is not None and viewers:
                seen = await self._pages.seen(record)
                text = table_fragment(seen, self._board_src(seen), people_of(record))
                for viewer in tuple(viewers):
                    viewer.give(seen.version, text, seen.over)
        except Exception:
            log.exception("could not draw game %d's page", game_id)
        return None

    # -- one page -----------------------------------------------------------------------------
    async def serve(
        self, request: web.Request, response: web.StreamResponse, record: GameRecord
    ) -> None:
        """Send ``record``'s game's looks to one page (``response``, prepared as an event
        stream) until the game is over, the page goes, or the server stops."""
        shown = request.query.get("v", "")
        viewer = _Viewer(version=int(shown) if shown.isdecimal() and len(shown) < 12 else -1)
        viewers = self._viewers.setdefault(record.id, set())
        viewers.add(viewer)
        if not record.is_open:
            viewer.give(record.version, "", True)
        elif record.version != viewer.version or self._heard_since(record):
            # It changed since the page was drawn: draw it for the page now. (So too when a
            # change newer than the game read was heard before the page watched it: drawn for
            # nobody then.)
            self._patrol.ask(record.id)
        try:
            await _send(response, b"retry: 3000\n\n")
            while not self._closing.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(viewer.waiting.wait(), KEEP_ALIVE_SECONDS)
                if self._closing.is_set():
                    break
                if not viewer.waiting.is_set():
                    await _send(response, b": still here\n\n")
                    continue
                viewer.waiting.clear()
                text, viewer.latest = viewer.latest, None
                if text:
                    await _send(response, _event("table", text))
                if viewer.over:
                    await _send(response, _event("over", "the game is over"))
                    break
        except TimeoutError:
            # It stopped reading: drop it, so nothing waits on it any more.
            if request.transport is not None:
                request.transport.abort()
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            viewers.discard(viewer)
            if not viewers:
                self._viewers.pop(record.id, None)

    def _heard_since(self, record: GameRecord) -> bool:
        """Whether the feed has heard of a version of ``record``'s game newer than it."""
        return self._feed.heard_after(record.id, record.version)


async def _send(response: web.StreamResponse, data: bytes) -> None:
    """Write to a live page; a page that takes nothing for :data:`SEND_SECONDS` raises
    :class:`TimeoutError` (and is closed)."""
    await asyncio.wait_for(response.write(data), SEND_SECONDS)


def _event(name: str, data: str) -> bytes:
    """One server-sent event (each line of ``data`` on a ``data:`` line of its own)."""
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {name}\n{lines}\n".encode()
