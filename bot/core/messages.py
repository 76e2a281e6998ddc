"""The Discord messages a game owns, as plain values: what each should show and where.

Every message a game owns is a projection of the stored game (:mod:`bot.core.projection`): the
lobby, one table message per deal in the channel (and one more for the show when a deal's
text does not fit in one), the result, the notices that are posted once, and one hand message
per person per deal by DM. Each has a stable ``key``; the store keeps, per key, the Discord
message id and a digest of what it last showed, so the Discord layer sends only what differs
and a restart loses nothing a player needs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from bot.core.pictures.canvas import Picture
from bot.core.records import MessageRecord
from bot.core.replies import Controls, LobbyControls

__all__ = ["BoardPicture", "MessageView", "Owed", "PageControls", "Rule", "Table"]

#: The two tables of a server's standings: games between people, and with a computer seat.
Table = Literal["people", "computer"]

#: The rule for game points a board marks the lines of.
Rule = Literal["lurch", "skunk"]


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """What the board picture attached to a message shows (drawn when it is sent).

    ``sides`` are the sides' names, ``pegs`` each side's (front, back) peg, ``rule`` the game
    points rule whose lines the board marks (``lurch`` or ``skunk``), ``dealer`` and
    ``winner`` sides when known, ``partners`` whether each side is a pair of partners.
    """

    sides: tuple[str, ...]
    pegs: tuple[tuple[int, int], ...]
    target: int
    rule: Rule = "lurch"
    dealer: int | None = None
    winner: int | None = None
    partners: bool = False


@dataclass(frozen=True, slots=True)
class PageControls:
    """The buttons under a leaderboard page: Previous and Next within ``table`` (``page`` of
    ``pages``, counted from 0), and one to show the other table."""

    table: Table
    page: int
    pages: int


@dataclass(frozen=True, slots=True)
class MessageView:
    """What one message shows: its text, and at most one kind of controls (a hand's discard
    select or card buttons, or the lobby's buttons), and possibly the board picture."""

    content: str
    controls: Controls | None = None
    lobby: LobbyControls | None = None
    board: BoardPicture | None = None
    #: Users the message may notify by mention (closed-DM notices, turn reminders).
    mentions: tuple[int, ...] = ()
    #: A leaderboard page's buttons.
    pages: PageControls | None = None
    #: Pictures already drawn (the stats charts), attached in this order.
    pictures: tuple[Picture, ...] = ()

    def digest(self) -> str:
        """A short fingerprint of everything shown, to tell whether a sent copy is current."""
        parts: tuple[object, ...] = (
            self.content,
            self.controls,
            self.lobby,
            self.board,
            self.mentions,
        )
        if self.pages is not None or self.pictures:
            # (Only then, so the digests of the games' messages stay as they were stored.)
            parts += (self.pages, [p.png for p in self.pictures])
        shown = repr(parts)
        return hashlib.blake2b(shown.encode(), digest_size=12).hexdigest()


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

    def due(self, sent: MessageRecord | None) -> bool:
        """Whether this has to be sent, given the copy ``sent`` before (if any): a message never
        sent (unless it only exists to be kept up to date), or showing something else (unless
        it is posted once)."""
        if sent is None:
            return not self.existing
        return not self.once and sent.digest != self.view.digest()
