"""The store's part the privacy wing uses (``bot.store.Store`` is one)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.base.feed import Change

__all__ = ["Forgotten", "FormerPlayer", "PrivacyRecords"]


@dataclass(frozen=True, slots=True)
class FormerPlayer:
    """Who a deleted person becomes in what stays for others: a former player's ``id`` and
    ``name`` in their rows, and their names taken out of a game's saved state
    (``snapshot(text, seats)``), its archived record (``archive(record, seats)``: both with
    those seats' names replaced) and its end note (``note(note, the names they played
    under)``: without those names, nor their mention)."""

    id: int
    name: str
    snapshot: Callable[[str, Sequence[int]], str]
    archive: Callable[[bytes, Sequence[int]], bytes]
    note: Callable[[str, Sequence[str]], str]


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What a person's deletion touched that others still see: the games they played (kept
    for their opponents, a former player in their seat), and the changes of the tournaments
    they were in (each moved on in the deletion's transaction), whose messages are to be drawn
    again with a former player in their place, with their coach setting's change, past the
    version any process keeps of it (the setting went with them)."""

    games: list[int]
    changes: list[Change]


class PrivacyRecords(Protocol):
    """A person's rows, their deletion, and the servers the bot left."""

    async def player_data(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """Every row kept about ``user_id``, by kind."""
        ...

    async def open_seats(self, user_id: int) -> list[tuple[int, int, str]]:
        """The open games ``user_id`` sits in: (game id, channel id, status)."""
        ...

    async def open_entries(self, user_id: int) -> list[int]:
        """The channels of the open or running tournaments ``user_id`` is still in."""
        ...

    async def forget_player(
        self, user_id: int, former: FormerPlayer, *, fresh_secret: str
    ) -> Forgotten:
        """Delete their own rows, and put ``former`` in their place elsewhere (with a keyed
        hash of their id where it must still know them: ``fresh_secret``, the secret to keep if
        none is kept yet); what others see of it."""
        ...

    async def left_server(self, guild_id: int, *, at: float) -> None:
        """The bot was removed from ``guild_id``."""
        ...

    async def back_in_server(self, guild_id: int, *, left_by: float | None = None) -> bool:
        """The bot is in ``guild_id``; whether it had been noted as gone (``left_by``: gone by
        then)."""
        ...

    async def servers_left(self) -> dict[int, float]:
        """The servers the bot left, with when."""
        ...

    async def servers_with_data(self) -> set[int]:
        """Every server some data is kept for."""
        ...

    async def forget_server(self, guild_id: int, *, left_by: float) -> list[int]:
        """Delete everything kept for ``guild_id`` as the bot's server, while the note says it
        left by ``left_by`` (none goes once it is back); the games that went."""
        ...

    async def rebuild_server_ratings(self, guild_id: int) -> None:
        """Work ``guild_id``'s ratings out again from the results it has left."""
        ...
