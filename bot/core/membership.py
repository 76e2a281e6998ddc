"""Who is still a member of a server: what the service asks before taking a move made by DM.

A click in a DM carries no server, so nothing in it shows that the player is still in the
server the game is played in; someone who left (or was removed) would otherwise play on and
have their moves posted there. The Discord layer answers (:class:`Membership`), asking Discord
for the one member without any privileged intent; tests and the playground use
:class:`EveryoneStays`.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["EveryoneStays", "Membership"]


class Membership(Protocol):
    """Whether a user is a member of a server now."""

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """True while ``user_id`` is in ``guild_id`` (True too when it cannot be told: a
        passing failure must not stop a game)."""
        ...


class EveryoneStays:
    """Membership where nobody ever leaves (tests, and a service with no Discord behind it)."""

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Always True."""
        return True
