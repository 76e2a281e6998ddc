"""The ledger's records: what an owner owes (:class:`Owed`, a message it should show), and what
the store keeps for the ledger besides each message: posts on their way (to find a lost one
after a stop) and the links to the players' DMs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.base.views import MessageRecord, MessageView

__all__ = ["DmLink", "Owed", "PendingPost"]


@dataclass(frozen=True, slots=True)
class PendingPost:
    """A DM that was about to be posted (since ``since``, a Unix time) when last heard of: if
    its id was never kept, the process died between the post and the keeping."""

    key: str
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


@dataclass(frozen=True, slots=True)
class Owed:
    """A message the game owes: ``key`` names it for good (``table:3``, ``hand:3:1``), ``user_id``
    is the person it is a DM to (None: the game's channel), ``once`` marks a message that is
    posted once and never edited (a notice, a turn reminder), ``existing`` one that is only
    brought up to date if it was ever sent (a hand message whose deal is over)."""

    key: str
    view: MessageView
    user_id: int | None = None
    once: bool = False
    existing: bool = False
    #: Sent in this order among the game's owed messages (lower first).
    order: int = field(default=0, compare=False)
    #: Of a game where the bot is not a member: reached through interactions' tokens alone
    #: (never the bot's own token; see :mod:`bot.core.ledger.routes`).
    private: bool = field(default=False, compare=False)
    #: The keys of other messages whose interactions' tokens may carry this one where the bot
    #: is not a member (a player's hand of the deals before, for the hand of a new deal).
    fallbacks: tuple[str, ...] = field(default=(), compare=False)
    #: What an older copy of this message shows once a token reaches it (a table posted
    #: again: the older copy says it moved on, with no controls); None: it has none.
    closed: MessageView | None = field(default=None, compare=False)
    #: What a player's older private copy of this hand shows once a newer one took over (it
    #: is not kept up to date after: it says the hand moved on, with no controls); None: the
    #: hand as it is, without its controls.
    superseded: MessageView | None = field(default=None, compare=False)
    #: Only its private copies are kept up to date (a player's answers that show their hand),
    #: not the message itself (their DMs are closed).
    mirrors_only: bool = field(default=False, compare=False)
    #: What it shows now is its last look (a finished deal's hand), owed only for a while (as
    #: long as the game keeps that deal): it goes as soon as its channel allows, never held
    #: back to leave room for a player's turn, or the deals after it could end first.
    last: bool = field(default=False, compare=False)

    def due(self, sent: MessageRecord | None) -> bool:
        """Whether this has to be sent, given the copy ``sent`` before (if any): a message never
        sent (unless it only exists to be kept up to date), or showing something else (unless
        it is posted once); never one whose private copies alone are kept up to date."""
        if self.mirrors_only:
            return False
        if sent is None:
            return not self.existing
        return not self.once and not self.view.shows(sent.digest)
