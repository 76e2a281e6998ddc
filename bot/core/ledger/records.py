"""The ledger's records: what the store keeps for the ledger besides each message (a
:class:`~bot.core.base.views.MessageRecord`) and the posts on their way
(:class:`~bot.core.ledger.transport.PendingPost`, the transport's): the links to the players'
DMs. (What an owner owes is the wings' to say: :class:`~bot.core.base.delivery.Owed`, the port.)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DmLink"]


@dataclass(frozen=True, slots=True)
class DmLink:
    """What is known of the DM channel with a user: its id, and their latest interaction in
    it (whose webhook may post follow-ups there until 15 minutes after ``token_at``)."""

    user_id: int
    channel_id: int | None
    token: str | None
    token_at: float | None
