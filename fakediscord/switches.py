"""Which of Discord's limits an emulator enforces: every one is on unless a test turns it off.

`FakeDiscord(limits=Limits(channel_messages=False))` builds an emulator without one of them;
`fd.limits.identify = False` turns one off on a running emulator. A limit that is off is not
advertised either (no `X-RateLimit-*` headers for its bucket), so the real client does not pace
itself against a limit nobody enforces.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass
class Limits:
    """The switches, one per limit Discord enforces; all on by default."""

    #: 50 requests per second per bot token, across every route called with the token
    #: (interaction callbacks and interaction webhooks are exempt).
    global_requests: bool = True
    #: 5 new messages per 5 s in one channel (bot token, `POST /channels/{id}/messages`).
    channel_messages: bool = True
    #: 5 edits per 5 s in one channel (bot token), counted apart from new messages.
    channel_edits: bool = True
    #: 5 deletes per second in one channel (bot token).
    channel_deletes: bool = True
    #: Every other route: 50 requests per second per route and resource, with its headers.
    route_buckets: bool = True
    #: 10,000 answers of 401, 403 or 429 in 10 minutes bring a temporary Cloudflare ban.
    invalid_requests: bool = True
    #: `max_concurrency` IDENTIFYs per 5 s, and `session_starts` (1000) a day per token.
    identify: bool = True
    #: 10 MiB per file, 10 files per message, and the Attach Files permission for uploads.
    uploads: bool = True
    #: Interaction tokens stop working `token_lifetime` (15 min) after the interaction.
    token_expiry: bool = True
    #: At most 5 follow-ups per interaction that only a user install authorised (the app is
    #: not installed where it was used).
    followups: bool = True
    #: Every request held to Discord's OpenAPI description of its API (`openapi.py`): path,
    #: query and body; what it refuses is answered 400 / 50035.
    openapi: bool = True

    @classmethod
    def none(cls) -> Limits:
        """Every limit off (the emulator as lenient as before these limits existed)."""
        return cls(**{f.name: False for f in dataclasses.fields(cls)})
