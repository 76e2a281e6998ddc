"""What the tournaments' director asks of Discord for a pairing: its message posted, a thread
started from it, the thread archived once the game is over (:class:`Threads`, which the Discord
layer implements), and Discord's refusal (:class:`ThreadRefused`).

A module of its own, importing nothing, so that the Discord layer, which implements it, reads
it where it is defined (a door) without the director behind it; the tournaments wing imports
nothing of the ledger (whose transport, :mod:`bot.core.ledger.transport`, the Discord layer
paces the same requests with).
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["ThreadRefused", "Threads"]


class ThreadRefused(Exception):
    """Discord refused to post a pairing's message or start its thread (a permission is
    missing: the director tries again later), or the channel is gone (``gone``: the
    tournament cannot go on)."""

    def __init__(self, said: str, *, gone: bool = False) -> None:
        super().__init__(said)
        self.gone = gone


class Threads(Protocol):
    """What the director asks of Discord for a pairing."""

    async def post(self, channel_id: int, text: str, nonce: str, mentions: tuple[int, ...]) -> int:
        """Post ``text`` in the channel (``nonce``: the same post made again gives back the
        message made the first time); its id."""
        ...

    async def find_post(self, channel_id: int, since: float, opening: str) -> int | None:
        """The bot's own message posted in the channel since ``since`` (Unix time) whose text
        begins with ``opening`` (None: none): one a stop posted without its id being kept,
        longer ago than Discord remembers a nonce for."""
        ...

    async def start_thread(
        self, channel_id: int, message_id: int, name: str, members: tuple[int, ...]
    ) -> int:
        """Start a public thread from a message (or find the one it started), with
        ``members`` added to it; the thread's id."""
        ...

    async def archive(self, thread_id: int) -> None:
        """Archive a thread (it leaves the channel's list; a message in it reopens it); one
        archived already, or gone, is left as it is."""
        ...
