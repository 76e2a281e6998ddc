"""Who reads a public answer, and so which games it may name one by one.

A public answer (``/cribbage stats``, its head to head, the hall of fame) is read by everyone
who sees the channel it is given in. Totals and ratings tell nothing of one game, but a hand's
cards, a game's score and its date do: they are named only when that game was played where
everyone reading can see it (issue 33: a game in a private thread is its members' alone).
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Audience", "ChannelSight", "OpenChannels"]


class ChannelSight(Protocol):
    """Whether a server's channel is open to all its members."""

    async def open_to_all(self, guild_id: int, channel_id: int) -> bool:
        """Whether every member of ``guild_id`` can see channel or thread ``channel_id`` (not a
        private channel, not a private thread); False when it cannot be told."""
        ...


class OpenChannels:
    """Every channel open to all (tests, and a service with no Discord behind it)."""

    async def open_to_all(self, guild_id: int, channel_id: int) -> bool:
        """Always True."""
        return True


class Audience:
    """The readers of one public answer given in channel ``here`` of server ``guild_id``
    (None: a DM or group DM): :meth:`may_name` says whether a game played in a channel may
    be named to them; each channel is asked about once per answer."""

    def __init__(self, sight: ChannelSight, guild_id: int | None, here: int | None) -> None:
        self._sight = sight
        self._guild_id = guild_id
        self._here = here
        self._known: dict[int, bool] = {}

    async def may_name(self, channel_id: int | None) -> bool:
        """Whether a game played in ``channel_id`` may be named here: it was played here, or
        (in a server) in a channel every member sees. A game outside servers is its
        conversation's alone."""
        if channel_id is None:
            return False
        if channel_id == self._here:
            return True
        if self._guild_id is None:
            return False
        if channel_id not in self._known:
            self._known[channel_id] = await self._sight.open_to_all(self._guild_id, channel_id)
        return self._known[channel_id]
