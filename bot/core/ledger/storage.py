"""What the ledger needs from a store: the messages each owner keeps on Discord, posts on their
way, and the DM links.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord
from bot.core.ledger.records import DmLink
from bot.core.ledger.transport import PendingPost

__all__ = ["MessageRecords"]


class MessageRecords(Protocol):
    """The Discord messages each owner keeps, and what the keeper knows of the players' DMs."""

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]: ...

    async def set_messages(
        self,
        messages: Sequence[tuple[Owner, MessageRecord]],
        *,
        posted: Sequence[tuple[Owner, MessageKey]] = ...,
    ) -> None: ...

    async def forget_look(self, owner: Owner, key: MessageKey, version: int | None) -> None: ...

    async def doubt_look(self, owner: Owner, message_id: int, lost_since: float | None) -> bool: ...

    async def forget_message(self, owner: Owner, key: MessageKey) -> None: ...

    async def set_pending(
        self, owner: Owner, post: PendingPost, *, held_as: str | None = None
    ) -> bool: ...

    async def pending_posts(self, owner: Owner) -> list[PendingPost]: ...

    async def clear_pending(self, owner: Owner, key: MessageKey) -> None: ...

    async def dm_link(self, user_id: int) -> DmLink | None: ...

    async def set_dm_link(self, link: DmLink) -> None: ...
