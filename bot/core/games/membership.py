"""Who is still a member of a server (what the service asks before taking a move made by DM),
and who can see one of its channels (what it asks before showing a game played there).

A click in a DM carries no server, so nothing in it shows that the player is still in the
server the game is played in; someone who left (or was removed) would otherwise play on and
have their moves posted there. The Discord layer answers (:class:`Membership`), asking Discord
for the one member without any privileged intent; tests and the playground use
:class:`EveryoneStays`.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.base.audience import ChannelSight

__all__ = ["Departures", "EveryoneStays", "Membership"]


class Membership(ChannelSight, Protocol):
    """Whether a user is a member of a server now, and who sees its channels."""

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """True while ``user_id`` is in ``guild_id`` (True too when it cannot be told: a
        passing failure must not stop a game)."""
        ...

    async def sees(self, guild_id: int, user_id: int, channel_id: int) -> bool:
        """Whether ``user_id`` can see channel or thread ``channel_id`` of ``guild_id`` (a
        private thread: as one of its members, or one who manages threads); False when it
        cannot be told (what a game shows is kept from whoever might not see it)."""
        ...


class EveryoneStays:
    """Membership where nobody ever leaves (tests, and a service with no Discord behind it)."""

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Always True."""
        return True

    async def sees(self, guild_id: int, user_id: int, channel_id: int) -> bool:
        """Always True: every channel is open to everyone."""
        return True

    async def open_to_all(self, guild_id: int, channel_id: int) -> bool:
        """Always True: every channel is open to everyone."""
        return True


class Departures:
    """The seats whose player is known to have left the game's server (by game): their moves
    by DM are refused, the channel is told once, and the table sends them no reminders. What
    is known here is learnt from :class:`Membership` when such a player acts or is waited on."""

    def __init__(self, membership: Membership) -> None:
        self._membership = membership
        self._seats: dict[int, set[int]] = {}

    def of(self, game_id: int) -> frozenset[int]:
        """The seats of ``game_id`` whose player has left."""
        return frozenset(self._seats.get(game_id, ()))

    async def still_member(self, game_id: int, guild_id: int, seat: int, user_id: int) -> bool:
        """Whether the player in ``seat`` is still a member of the game's server (asked now);
        a player found gone is noted, one found back again is forgotten."""
        member = await self._membership.is_member(guild_id, user_id)
        if not member:
            self._seats.setdefault(game_id, set()).add(seat)
        elif game_id in self._seats:
            # (Kept only for games with someone gone: a map entry per move would never end.)
            self._seats[game_id].discard(seat)
            if not self._seats[game_id]:
                del self._seats[game_id]
        return member

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is a member of ``guild_id`` now (asked; nothing is noted: for
        a person acting on a game no longer played, whose table tells of nobody leaving)."""
        return await self._membership.is_member(guild_id, user_id)

    def forget(self, game_id: int) -> None:
        """Forget an ended game."""
        self._seats.pop(game_id, None)
