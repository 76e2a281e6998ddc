"""Shards: which gateway connection gets an event, and the limits on starting sessions.

A bot may split its guilds over several gateway connections, each IDENTIFYing with
`shard: [shard_id, shard_count]`. An event about guild `g` goes to shard
`(g >> 22) % shard_count`; an event with no guild (a DM, an interaction from a DM) goes to
shard 0. Discord limits session starts per bot token: at most `max_concurrency` IDENTIFYs per
5 s (shards whose `shard_id % max_concurrency` differ may identify together; beyond that the
gateway answers op 9 INVALID_SESSION), and `total` (1000) a day; one more resets the token,
ending every session.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from fakediscord.model import EPSILON, Clock

IDENTIFY_PERIOD = 5.0
DAY = 24 * 3600.0
GUILDS_PER_SHARD = 2500

# Events whose payload is the guild itself (its id is `id`, not `guild_id`).
GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def shard_for(guild_id: int | None, shard_count: int) -> int:
    """The shard that gets events about `guild_id` (shard 0 for events with no guild)."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event is about, from its payload (None for DMs and the like)."""
    raw = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass
class SessionStarts:
    """The session start limit of one bot token, as `GET /gateway/bot` reports it."""

    clock: Clock
    total: int = 1000
    max_concurrency: int = 1
    used: int = 0
    day_ends: float = -math.inf
    #: When each rate limit key (`shard_id % max_concurrency`) last identified.
    last: dict[int, float] = field(default_factory=dict)

    def _roll(self, now: float) -> None:
        if now >= self.day_ends - EPSILON:
            self.used = 0
            self.day_ends = now + DAY

    def too_soon(self, shard_id: int) -> bool:
        """Whether an IDENTIFY for `shard_id` now breaks the `max_concurrency` per 5 s."""
        seen = self.last.get(shard_id % self.max_concurrency)
        return seen is not None and self.clock.now() - seen < IDENTIFY_PERIOD - EPSILON

    def start(self, shard_id: int) -> bool:
        """Count a session start; False when it is one more than the day allows."""
        now = self.clock.now()
        self._roll(now)
        self.used += 1
        self.last[shard_id % self.max_concurrency] = now
        return self.used <= self.total

    def as_payload(self) -> dict[str, int]:
        """`session_start_limit` for `GET /gateway/bot` (`reset_after` in milliseconds)."""
        now = self.clock.now()
        self._roll(now)
        return {
            "total": self.total,
            "remaining": max(0, self.total - self.used),
            # (Rounded first: (now + DAY) - now may exceed DAY by a float's last digit.)
            "reset_after": math.ceil(round((self.day_ends - now) * 1000, 3)),
            "max_concurrency": self.max_concurrency,
        }
