"""Counts of what the bot asked of Discord, by kind, for tests and benchmarks (`fd.counters`).

Requests are counted as they arrive, refused ones included (a 429 is still a request the bot
made); messages, edits and deletes only when they happen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Counters:
    """What the bot did, by kind. Reset with `fd.counters = Counters()` between phases."""

    #: Requests with the bot token (the routes under the global limit), by route template:
    #: `"POST /channels/{id}/messages"`, `"GET /users/@me"`, ...
    rest: Counter[str] = field(default_factory=Counter)
    #: Interaction callbacks (`POST /interactions/{id}/{token}/callback`): no bot token needed,
    #: outside the global limit.
    callbacks: int = 0
    #: Requests on interaction webhooks (`/webhooks/{app}/{token}`), outside the global limit:
    #: `"followup"` (POST), `"edit"` (PATCH), `"get"`, `"delete"`.
    webhooks: Counter[str] = field(default_factory=Counter)
    #: New messages the bot made visible in a server channel or thread, by channel id, whatever
    #: the route (bot token, interaction response, follow-up); ephemeral ones are not counted.
    channel_messages: Counter[int] = field(default_factory=Counter)
    #: New messages from the bot in a DM, by the user's id, whatever the route.
    dm_messages: Counter[int] = field(default_factory=Counter)
    #: New messages from the bot (through interactions) in a DM between people or a group DM,
    #: by channel id.
    private_messages: Counter[int] = field(default_factory=Counter)
    #: Message edits by way: `"rest"` (bot token), `"webhook"` (interaction token), `"callback"`
    #: (an UPDATE_MESSAGE response to a click).
    edits: Counter[str] = field(default_factory=Counter)
    #: Message deletes by way: `"rest"` or `"webhook"`.
    deletes: Counter[str] = field(default_factory=Counter)
    #: 429s answered, by scope: `"global"`, `"user"` (a route bucket), `"shared"`.
    rate_limited: Counter[str] = field(default_factory=Counter)
    #: Answers that count as invalid requests (401, 403, 429 except `shared`).
    invalid_requests: int = 0

    @property
    def rest_total(self) -> int:
        """All requests with the bot token."""
        return sum(self.rest.values())

    def as_dict(self) -> dict[str, Any]:
        """Plain values, for printing or JSON."""
        return {
            "rest_total": self.rest_total,
            "rest": dict(self.rest),
            "callbacks": self.callbacks,
            "webhooks": dict(self.webhooks),
            "channel_messages": sum(self.channel_messages.values()),
            "dm_messages": sum(self.dm_messages.values()),
            "private_messages": sum(self.private_messages.values()),
            "edits": dict(self.edits),
            "deletes": dict(self.deletes),
            "rate_limited": dict(self.rate_limited),
            "invalid_requests": self.invalid_requests,
        }
