"""What the tournaments' director asks of Discord for a pairing: its message posted, a thread
started from it, the thread archived once the game is over (:class:`Threads`, which the Discord
layer implements), and Discord's refusal (:class:`ThreadRefused`); and what a club night's
director asks of it for the night's scheduled event in the server's *Events* list
(:class:`Events`: made, read, changed, an occurrence skipped or moved, who is interested;
:class:`EventRefused`).

A module of its own, importing nothing, so that the Discord layer, which implements it, reads
it where it is defined (a door) without the director behind it; the tournaments wing imports
nothing of the ledger (whose transport, :mod:`bot.core.ledger.transport`, the Discord layer
paces the same requests with).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

__all__ = [
    "EventPlan",
    "EventRefused",
    "EventSeen",
    "EventStatus",
    "Events",
    "ThreadRefused",
    "Threads",
]


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


class EventStatus(IntEnum):
    """A scheduled event's status, as Discord numbers it."""

    SCHEDULED = 1
    ACTIVE = 2
    COMPLETED = 3
    CANCELED = 4


@dataclass(frozen=True, slots=True)
class EventPlan:
    """What a club night's event says: its name and description, its start and end (Unix
    times), where it is (``voice_id``: a voice channel's event; None: an external one whose
    location is the text channel ``channel_id``), and how it recurs (Discord's recurrence
    rule; None: once)."""

    name: str
    description: str
    start: float
    end: float
    channel_id: int
    voice_id: int | None = None
    rule: dict[str, object] | None = None


@dataclass(frozen=True, slots=True)
class EventSeen:
    """An event as Discord has it: its status, the start of the occurrence it stands at (a
    recurring event's, as its rule gives it: an exception moves an occurrence without
    changing this), and the starts of the occurrences it has exceptions for."""

    event_id: int
    status: EventStatus
    start: float
    excepted: tuple[float, ...] = ()
    #: When its recurrence rule starts (None: it does not recur).
    rule_start: float | None = None


class EventRefused(Exception):
    """Discord refused an event: the bot lacks the permission its *Events* entry needs
    (``permission``), or the event is gone (a moderator deleted it: ``gone``)."""

    def __init__(self, said: str, *, permission: bool = False, gone: bool = False) -> None:
        super().__init__(said)
        self.permission = permission
        self.gone = gone


class Events(Protocol):
    """What a club night's director asks of Discord for its event."""

    async def create(self, guild_id: int, plan: EventPlan) -> int:
        """Make the event; its id."""
        ...

    async def find(self, guild_id: int, name: str, start: float) -> int | None:
        """The bot's own event of that name and start, under way (one a stop made without its
        id being kept), if there is one."""
        ...

    async def read(self, guild_id: int, event_id: int) -> EventSeen:
        """The event as Discord has it."""
        ...

    async def edit(
        self,
        guild_id: int,
        event_id: int,
        *,
        description: str | None = None,
        status: EventStatus | None = None,
        start: float | None = None,
        end: float | None = None,
    ) -> EventSeen:
        """Change what is given of the event; the event as it is then."""
        ...

    async def except_occurrence(
        self,
        guild_id: int,
        event_id: int,
        original: float,
        *,
        skip: bool = False,
        start: float | None = None,
        end: float | None = None,
    ) -> None:
        """One occurrence of a recurring event (the one starting at ``original`` by its rule)
        skipped, or moved to ``start`` and ``end``."""
        ...

    async def interested(self, guild_id: int, event_id: int) -> list[tuple[int, str]]:
        """Who is interested in the event (the bot itself aside): their ids and names."""
        ...
