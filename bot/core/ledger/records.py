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

    @property
    def version(self) -> int:
        """Which of two links of a user is the newer: its interaction's time, in microseconds
        (0: no interaction, only the channel). A link with an older interaction never replaces
        a newer one, in memory (:class:`~bot.core.ledger.tokens.DmLinks`) as in the store
        (``bot.store.message_tables``' ``_KEEP_TOKEN``).

        >>> DmLink(1, 2, "t", 1.5).version, DmLink(1, 2, None, None).version
        (1500000, 0)
        """
        return 0 if self.token_at is None or self.token is None else round(self.token_at * 1e6)
