"""The ledger's records: what the store keeps for the ledger besides each message (a
:class:`~bot.core.base.views.MessageRecord`): posts on their way (to find a lost one after a
stop) and the links to the players' DMs. (What an owner owes is the wings' to say:
:class:`~bot.core.base.delivery.Owed`, the port.)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.base.keys import MessageKey

__all__ = ["DmLink", "PendingPost"]


@dataclass(frozen=True, slots=True)
class PendingPost:
    """A DM that was about to be posted (since ``since``, a Unix time) when last heard of: if
    its id was never kept, the process died between the post and the keeping."""

    key: MessageKey
    channel_id: int
    since: float


@dataclass(frozen=True, slots=True)
class DmLink:
    """What is known of the DM channel with a user: its id, and their latest interaction in
    it (whose webhook may post follow-ups there until 15 minutes after ``token_at``)."""

    user_id: int
    channel_id: int | None
    token: str | None
    token_at: float | None
