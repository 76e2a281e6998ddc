"""What the Discord layer does for the ledger: carry one request, and say how it went.

The core decides everything about a message (what it should show, which way it goes, what is
kept of it: :mod:`bot.core.ledger.life`, :mod:`bot.core.ledger.routes`); the Discord layer's
:class:`Transport` carries one :class:`~bot.core.ledger.routes.Attempt` at a time and reports
either what Discord made of it (:class:`Carried`) or, as one of the exceptions here, why it did
not go. It keeps nothing of the core's.

Every request is made under a :data:`Fence`: called right before the request is written to the
network (after any wait for its turn, inside discord.py or not), it raises :class:`NotSender`
when this process's lease is no longer the one the send began under, and :class:`Superseded`
when what is about to be sent no longer shows the owner as it is. So a sender that lost its
lease while a request waited can never write it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.core.base.owners import Owner
from bot.core.base.views import MessageView
from bot.core.ledger.records import PendingPost
from bot.core.ledger.routes import Attempt

__all__ = [
    "Carried",
    "ChannelClosed",
    "DmsClosed",
    "Fence",
    "FollowupsUsedUp",
    "MessageGone",
    "NotSender",
    "Rejected",
    "Superseded",
    "TokenLapsed",
    "TokenUnreachable",
    "Transport",
    "Unavailable",
    "Unsent",
    "Unwritten",
]

#: Called right before a request is written: raises :class:`NotSender` or :class:`Superseded`
#: if it may not go.
Fence = Callable[[], None]


@dataclass(frozen=True, slots=True)
class Carried:
    """What Discord made of an attempt that went: the message's channel and id (a post's new
    ones), whether it shows what was sent (``same``: False when a post with this nonce was made
    before and Discord gave that one back, showing something else), and whether Discord made
    a follow-up ephemeral (``private``: seen by its interaction's user alone)."""

    channel_id: int
    message_id: int
    same: bool = True
    private: bool = False


class Unsent(Exception):
    """Nothing was sent; the subclasses say why."""


class Unwritten(Unsent):
    """Refused by its fence right before it was written: Discord saw none of it, so it counts
    toward none of Discord's limits (the pacer gives its places back)."""


class NotSender(Unwritten):
    """This process may not send now: its lease lapsed by its own clock, or another holds it."""


class Superseded(Unwritten):
    """The owner moved on while the request waited for its turn: an older look must not go."""


class TokenLapsed(Unsent):
    """Discord says the interaction's token is past its 15 minutes (401 / 50027)."""


class TokenUnreachable(Unsent):
    """The interaction's webhook reaches nothing (404 / 10015: its answer has not landed, or it
    never had an original response), or the message is in an archived thread it may not
    reopen: the bot's own token may still do it."""


class FollowupsUsedUp(Unsent):
    """The interaction has had every follow-up Discord gives (40094)."""


class MessageGone(Unsent):
    """The message was deleted (404 / 10008): post it again."""


class DmsClosed(Unsent):
    """Discord refused a DM to this user (50007)."""


class ChannelClosed(Unsent):
    """The bot may not post or edit in the channel: ``gone`` (10003), or no permission."""

    def __init__(self, text: str, *, gone: bool = False) -> None:
        super().__init__(text)
        self.gone = gone


class Rejected(Unsent):
    """Discord refused the request itself (400): sending it again would change nothing."""


class Unavailable(Exception):
    """Discord did not take the request, for now: a server error (a 5xx that discord.py gave
    up trying again, or did not try again: a 503), Cloudflare refusing the bot (a 429 without
    Discord's rate-limit headers), or Discord out of reach (the network). Whether Discord made
    anything of it is not known (a post through a token, which takes no nonce, is looked for
    before it is made again); the message is sent again once Discord takes requests."""


class Transport(Protocol):
    """Carries the ledger's requests to Discord (``bot.discord.courier.Courier``)."""

    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        """Make ``attempt`` with ``view``; raise one of this module's :class:`Unsent` when it
        did not go, :class:`Unavailable` when Discord did not take it for now (any other
        exception: a failure to try again later)."""
        ...

    async def delete_followup(self, token: str, message_id: int, fence: Fence) -> None:
        """Delete a follow-up posted through ``token`` (one Discord made ephemeral)."""
        ...

    async def lost_posts(
        self, owner: Owner, post: PendingPost, kept: set[int], fence: Fence
    ) -> list[int]:
        """The ids, oldest first, of the bot's messages in the DM ``post`` was about to be
        posted in, since then, that carry controls of ``owner`` and are not among ``kept``:
        what a process that stopped between posting and keeping left behind."""
        ...

    async def delete(self, channel_id: int, message_id: int, fence: Fence) -> None:
        """Delete one of the bot's messages (a second copy left by a crash)."""
        ...
