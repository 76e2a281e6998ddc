"""What the Discord layer does for the core: carry one request, say how it went, and keep
Discord's limits while it does.

The core decides everything about a message (what it should show, which way it goes, what is
kept of it: :mod:`bot.core.ledger.life`, :mod:`bot.core.ledger.routes`); the Discord layer's
:class:`Transport` carries one :class:`Attempt` at a time (one :class:`Way` to reach a message)
and reports either what Discord made of it (:class:`Carried`) or, as one of the exceptions here,
why it did not go. It keeps nothing of the core's. What it needs besides are here too: a post
on its way that a stop may have left behind (:class:`PendingPost`), and the pacing of every
request against Discord's limits (:class:`Pacing`, by :class:`RequestKind`). (The threads a
tournament's games are played in are the tournaments' to ask for, since no wing imports the
ledger: :mod:`bot.core.tournaments.threads`.)

Every request is made under a :data:`Fence`: called right before the request is written to the
network (after any wait for its turn, inside discord.py or not), it raises :class:`NotSender`
when this process's lease is no longer the one the send began under, and :class:`Superseded`
when what is about to be sent no longer shows the owner as it is. So a sender that lost its
lease while a request waited can never write it.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord, MessageView

__all__ = [
    "Attempt",
    "Carried",
    "ChannelClosed",
    "ClosedBefore",
    "DmsClosed",
    "Fence",
    "FollowupsUsedUp",
    "MessageGone",
    "NotSender",
    "Pacing",
    "PendingPost",
    "Rejected",
    "RequestKind",
    "Superseded",
    "TokenLapsed",
    "TokenUnreachable",
    "Transport",
    "Unavailable",
    "Unsent",
    "Unwritten",
    "Way",
]


class Way(Enum):
    """How a request reaches a message."""

    #: Edit it through an interaction's token (its original response or a follow-up).
    EDIT_THROUGH = "edit through a token"
    #: Edit it with the bot's token.
    EDIT_AS_BOT = "edit as the bot"
    #: Post it as a follow-up of an interaction (no nonce).
    POST_THROUGH = "post through a token"
    #: Post it with the bot's token (with a nonce); to a user's DM, opened first if need be.
    POST_AS_BOT = "post as the bot"

    @property
    def posts(self) -> bool:
        return self in (Way.POST_THROUGH, Way.POST_AS_BOT)

    @property
    def through_token(self) -> bool:
        return self in (Way.EDIT_THROUGH, Way.POST_THROUGH)


@dataclass(frozen=True, slots=True)
class Attempt:
    """One way to try. ``keep`` is the record kept once it went (for a post, with the channel
    and id Discord gives; its digest emptied if Discord gave back an earlier post showing
    something else). ``channel_id`` is where (None: the DM of ``user_id``, opened first),
    ``message_id`` what is edited, ``token`` (and ``original``: its original response rather
    than a follow-up) the interaction's token it goes through, ``nonce`` a bot's post's nonce,
    ``urgent`` whether a player waits on it to move (it goes first when the bot's requests are
    many)."""

    way: Way
    keep: MessageRecord
    channel_id: int | None = None
    message_id: int | None = None
    token: str | None = None
    token_at: float | None = None
    original: bool = False
    user_id: int | None = None
    nonce: str | None = None
    urgent: bool = False


@dataclass(frozen=True, slots=True)
class PendingPost:
    """A DM that was about to be posted (since ``since``, a Unix time) when last heard of: if
    its id was never kept, the process died between the post and the keeping. ``first_line``:
    what the message's first line says, the same in every look of it (a deal's table its
    header, a hand its deal), as the owner is drawn now (empty: not known): what tells it
    from another message of the owner's posted through the same interaction's token."""

    key: MessageKey
    channel_id: int
    since: float
    first_line: str = ""


class RequestKind(Enum):
    """What a request does to a channel, for the per-channel counts."""

    POST = "post"
    EDIT = "edit"


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


class ClosedBefore(Unwritten):
    """A post with the bot's token into its owner's own channel, which this process found
    closed to it while the post waited for its turn (a lesson's DM, refused to the hand's lane
    or the table's): held back before it was written, as the post that found it would have
    been had it come second."""


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
    """Discord refused a DM to this user (50007), posted in ``channel_id`` (None: not said)."""

    def __init__(self, text: str, *, channel_id: int | None = None) -> None:
        super().__init__(text)
        self.channel_id = channel_id


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
        posted in, since then, that carry controls of ``owner`` and are not among ``kept``,
        and whose first line is the post's (when known): what a process that stopped between
        posting and keeping left behind."""
        ...

    async def delete(self, channel_id: int, message_id: int, fence: Fence) -> None:
        """Delete one of the bot's messages (a second copy left by a crash)."""
        ...


class Pacing(Protocol):
    """Discord's rate limits, kept before each request the Discord layer makes (the core's
    :class:`~bot.core.ledger.pacer.Pacer`): the transport's sends, the tournaments' threads,
    the member lookups."""

    #: Requests waiting for their turn now.
    waiting: int

    def turn(
        self, channel_id: int | None, kind: RequestKind, *, urgent: bool = False
    ) -> AbstractAsyncContextManager[None]:
        """A request with the bot's token (in ``channel_id``; None: none, or a DM not yet
        opened), made inside the block once one more may go (``urgent``: a player waits on
        it)."""
        ...

    def through(self, token: str) -> AbstractAsyncContextManager[None]:
        """A request through an interaction's webhook, made inside the block once one more may
        go."""
        ...
