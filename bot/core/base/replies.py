"""What a call hands back to the person who made it, and what a click brings to the core.

These values are plain, immutable data with no Discord types, so the core can be tested
without Discord and the Discord layer (``bot.discord``) only has to send them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from bot.core.base.choices import DEFAULT_LEVEL
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageView
from engine.counting import Counting
from engine.outcome import Scoring
from engine.variants import STANDARD, UnknownVariant, named

__all__ = [
    "Answer",
    "Choice",
    "Click",
    "ClickKind",
    "Clicked",
    "Reply",
    "Sequel",
    "TableAsked",
    "User",
]


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user as the core needs them: the id and the name to show at the table."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class TableAsked:
    """What a person asked of a new table, ``/cribbage new``'s choices or the Activity's (each
    as typed: the core checks it): ``players``, ``target``, ``variant`` and ``teams`` (None:
    not asked, the variant's own), every other seat a computer at ``level``
    (``vs_computer``), the rule for game points, who counts the show, and whether hints are
    allowed. :func:`bot.core.games.lobby.options_of` makes it the table's options, or refuses
    it in one sentence."""

    players: int | None = None
    target: int | None = None
    variant: str | None = None
    teams: str | None = None
    vs_computer: bool = False
    level: str = DEFAULT_LEVEL
    scoring: str = Scoring.LURCH
    counting: str = Counting.AUTO
    hints: bool = False

    def for_everyone(self, players: int) -> TableAsked:
        """The same for ``players`` people and no computer (*Deal everyone in*): the variant
        dropped unless it seats that many (an unknown name is ``/cribbage new``'s to
        refuse)."""
        variant = self.variant
        try:
            if variant is not None and players not in named(variant).seats:
                variant = None
        except UnknownVariant:
            pass
        return replace(self, players=players, variant=variant, vs_computer=False)

    def command(self) -> str:
        """The ``/cribbage new`` line that asks for the table, for where only a command may."""
        asked = [
            f"players:{self.players}" if self.players is not None else "",
            f"target:{self.target}" if self.target is not None else "",
            f"variant:{self.variant}" if self.variant not in (None, STANDARD.name) else "",
            "hints:True" if self.hints else "",
        ]
        return "`" + " ".join(["/cribbage new", *filter(None, asked)]) + "`"


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the user who acted: ``text`` (ephemeral unless it says otherwise), or
    with ``view`` a whole message with controls or pictures (``/cribbage hand``, the lobby)."""

    text: str
    ephemeral: bool = True
    view: MessageView | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice: what the user sees and the value the option receives."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Clicked:
    """The message a control was used on (where it is, its id) and the interaction's token,
    whose webhook may edit that message for 15 minutes; also, for the answer of a command
    that became a message the owner keeps (``/cribbage new``'s lobby), that message."""

    channel_id: int
    message_id: int
    token: str


#: What a hand's control does (``hint``: asks the expert, changes nothing).
ClickKind = Literal["discard", "play", "count", "muggins", "pass", "hint"]


@dataclass(frozen=True, slots=True)
class Click:
    """A hand's control used: on game ``game_id``, of ``kind``, made at ``stamp`` (the moment
    its controls belong to, :attr:`bot.core.base.views.HandControls.stamp`), with ``values`` (the
    cards chosen or played, the count claimed; none for muggins). Read from a custom id and
    a select's values, so nothing in it is trusted."""

    game_id: int
    kind: ClickKind
    stamp: int
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sequel:
    """What follows from an answer once it is sent, for the core alone to act on
    (:meth:`bot.core.services.Services.answered`): the message of ``owner`` kept under ``key``
    that the answer shows (at the owner's ``version``), whether that look was kept with the
    move (``kept``: then it is confirmed, or forgotten if the answer never landed), and
    whether the computer's reply to the move is still to be made (``computer_owes``).
    ``mirror``: the answer is a private copy of the owner's message ``key`` (a move by command
    is answered with the mover's hand), showing the look of this digest: kept up to date
    through the interaction's token while it lives."""

    owner: Owner
    channel_id: int
    version: int
    key: MessageKey | None = None
    kept: bool = False
    computer_owes: bool = False
    mirror: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to one call, for the person who made it.

    ``ok`` is False for a refusal: ``reply`` is one ephemeral sentence and nothing changed.
    Otherwise the interaction is answered with ``update`` when it is set (a click on a message
    an owner keeps, the lobby or a hand, is answered by updating that message to it), else
    with ``reply``. The Discord layer then hands the answer back with whether it landed
    (:meth:`bot.core.services.Services.answered`); what follows is in ``sequel``, which only
    the core reads. Whatever a call changed reaches the owners' messages through the change
    feed, not through the answer. ``note``: a sentence for the person alone that a click's
    update would not say (a wrong call of muggins), sent privately after the update.
    ``stale``: for the refusal of a control from an earlier moment of a game, that game: the
    clicked message, if the game keeps it, is looked at again (see ``StaleControl``).
    ``forgotten``: the call deleted its person's data, so nothing of them is kept from it (the
    DM it came from is not remembered: :meth:`bot.core.services.Services.dm_answered`).
    """

    reply: Reply
    ok: bool = True
    update: MessageView | None = None
    sequel: Sequel | None = None
    note: str | None = None
    stale: Owner | None = None
    forgotten: bool = False

    @property
    def game_id(self) -> int | None:
        """The game the answer is about (None: none, or a refusal)."""
        sequel = self.sequel
        return sequel.owner.id if sequel is not None and sequel.owner.kind == "game" else None

    @property
    def version(self) -> int:
        """The version of the owner the answer shows (0 when it is about none)."""
        return 0 if self.sequel is None else self.sequel.version

    @classmethod
    def refuse(cls, text: str, *, stale: Owner | None = None) -> Answer:
        """A refusal: one ephemeral sentence, nothing else sent, nothing changed (``stale``:
        see the class)."""
        return cls(reply=Reply(text), ok=False, stale=stale)

    @classmethod
    def say(cls, text: str, *, ephemeral: bool = True, view: MessageView | None = None) -> Answer:
        """A plain answer: ``text`` (or ``view``), nothing else to follow."""
        return cls(reply=Reply(text, ephemeral=ephemeral, view=view))

    @classmethod
    def in_place(cls, said: str) -> Answer:
        """A question's answer (Yes or No on a question asked privately): ``said`` privately,
        and the question's message says it in place, without its buttons."""
        return cls(reply=Reply(said), update=MessageView(said))
