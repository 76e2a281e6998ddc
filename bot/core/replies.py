"""What a game service call hands back, and the controls a message may carry.

These values are plain data with no Discord types, so the service can be tested without Discord
and the Discord layer (``bot.discord``) only has to send them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from bot.core.messages import MessageView

__all__ = [
    "LOBBY_BUTTONS",
    "CardChoice",
    "Choice",
    "Clicked",
    "Controls",
    "ControlsKind",
    "LobbyButton",
    "LobbyControls",
    "Outcome",
    "Reply",
    "User",
]

ControlsKind = Literal["discard", "play", "count", "muggins"]
LobbyButton = Literal["join", "leave", "start", "cancel", "remove_computer"]
#: Every lobby button, in the order they are shown.
LOBBY_BUTTONS: tuple[LobbyButton, ...] = ("join", "leave", "start", "cancel", "remove_computer")


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user as the service needs them: the id and the name to show at the table."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class CardChoice:
    """One card on a hand's controls: ``code`` (``"10D"``, for custom ids and select values),
    ``label`` (``"10♦"``) and whether it may be chosen now."""

    code: str
    label: str
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class Controls:
    """A hand's controls: ``kind`` ``"discard"`` (a select menu: choose exactly ``pick`` cards
    for the crib), ``"play"`` (one button per card held, disabled ones cannot be played now),
    and with manual counting ``"count"`` (two select menus of the values a hand can score,
    ``claims``: 26 values, one more than a menu holds) or ``"muggins"`` (the Muggins! button
    alone). ``muggins`` adds the Muggins! button to a count's menus, for a player who must
    count next and may still call muggins on the claim before.

    ``stamp`` says which moment the controls belong to (the deal for a discard, the game's
    version otherwise); it comes back with the click (``GameService.click_discard`` /
    ``click_play`` / ``click_count`` / ``click_muggins``) so that a control from an earlier
    moment gets a clear answer, not a move.
    """

    game_id: int
    kind: ControlsKind
    cards: tuple[CardChoice, ...]
    pick: int
    stamp: int
    claims: tuple[int, ...] = ()
    muggins: bool = False


@dataclass(frozen=True, slots=True)
class LobbyControls:
    """The lobby's buttons (``buttons``; none once the lobby is closed) and the computer levels
    of its "Add computer" menu (none when no seat is free); choosing a level is
    ``click_lobby(..., "computer:<level>")``."""

    game_id: int
    buttons: tuple[LobbyButton, ...]
    levels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the user who acted: ``text`` (ephemeral unless it says otherwise), or
    with ``view`` a whole message with controls (``/cribbage hand``: the player's hand)."""

    text: str
    ephemeral: bool = True
    view: MessageView | None = None


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice: what the user sees and the value the option receives."""

    name: str
    value: str


@dataclass(slots=True)
class Outcome:
    """What one service call asks the Discord layer to do.

    1. Answer the interaction: with ``update`` set (a click on a message the game owns: the
       lobby, or a hand), by updating the clicked message to it; otherwise with ``reply``.
    2. When ``computer_owes``, have the computer answer the move (``GameService.computer_turn``).
    3. When ``changed``, bring the game's messages up to date with the stored game (the table,
       the hands, the notices: ``bot.core.projection``), paced within Discord's limits.

    ``ok`` is False when the call was refused and nothing changed (``reply`` then says why).
    """

    reply: Reply
    ok: bool = True
    game_id: int | None = None
    channel_id: int | None = None
    update: MessageView | None = None
    #: The key of the game's message that ``update`` is the new look of (``lobby``,
    #: ``hand:3:1``): once the click is answered, report it with ``GameService.answered``.
    update_key: str | None = None
    changed: bool = False
    #: The game's version after the call (what ``update`` shows), for ``GameService.answered``.
    version: int = 0
    #: The update was kept with the move as what the clicked message shows (the call was given
    #: the click's :class:`Clicked`): no ``answered`` is needed, only ``unanswered`` should the
    #: update not reach Discord.
    answer_kept: bool = False
    #: The computer's answer to the move is still to be made: once the person is answered,
    #: call ``GameService.computer_turn`` (then the game's messages are brought up to date).
    computer_owes: bool = False

    @classmethod
    def refuse(cls, text: str) -> Outcome:
        """A refusal: one ephemeral sentence, nothing else sent, nothing changed."""
        return cls(reply=Reply(text), ok=False)


@dataclass(frozen=True, slots=True)
class Clicked:
    """The message a control was used on (where it is, its id) and the interaction's token,
    whose webhook may edit that message for 15 minutes. A move made from a game's hand message
    is answered by updating that message, and the service keeps that answer with the move, in
    its transaction: a process sending the game's messages then never draws it again from
    before (and sends an older look after the click's answer)."""

    channel_id: int
    message_id: int
    token: str
