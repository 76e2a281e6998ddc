"""The Discord messages a game owns, as plain values: what each should show and where.

Every message a game owns is a projection of the stored game
(:mod:`bot.core.messages.projection`): the lobby, one table message per deal in the channel
(and one more for the show when a deal's text does not fit in one), the result, the notices that are
posted once, and one hand message per person per deal by DM. Each has a stable ``key``; the store
keeps, per key, the Discord message id and a digest of what it last showed, so the Discord layer
sends only what differs and a restart loses nothing a player needs.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, TypeVar, get_args

from bot.core.base.keys import MessageKey
from bot.core.pictures.canvas import Picture

__all__ = [
    "DIGEST_VERSION",
    "ESCAPED_CHARACTERS",
    "HAND_BUTTON",
    "LOBBY_ACTIONS",
    "LOBBY_LABELS",
    "MARKDOWN_SPECIAL",
    "MAX_LAID_OUT",
    "MAX_LAID_OUT_PARTS",
    "MAX_MESSAGE",
    "RESIGN_BUTTON",
    "TABLE_BUTTON",
    "AgainLabel",
    "BoardPicture",
    "CardChoice",
    "ConfirmControls",
    "Controls",
    "ControlsKind",
    "DailyPick",
    "EntryControls",
    "HandControls",
    "LobbyAction",
    "LobbyControls",
    "MessageRecord",
    "MessageView",
    "PageControls",
    "Pool",
    "PrivacyControls",
    "RankedAction",
    "RankedControls",
    "ResultControls",
    "ReviewPages",
    "Rule",
    "Style",
    "first_digest",
    "laid_out",
    "layout_tail",
    "relaid",
    "text_tail",
]

ControlsKind = Literal["discard", "play", "count", "muggins"]
#: What a lobby button does (its custom id says it: ``crib:<game>:lobby:<action>``).
LobbyAction = Literal[
    "join",
    "leave",
    "start",
    "cancel",
    "remove_computer",
    "add_seat",
    "partners",
    "hand",
    "resign",
    "table",
]
#: Every lobby button, in the order they are shown ("hand", *Your hand*, and "resign",
#: *Resign*, are on a private table once it is dealt: see
#: :mod:`bot.core.messages.private_table`; "table", *Play at the table*, opens the game's
#: Activity, on the lobby and the deal's table while the Activity is on).
LOBBY_ACTIONS: tuple[LobbyAction, ...] = get_args(LobbyAction)
#: The lobby action of *Play at the table*.
TABLE_BUTTON: LobbyAction = "table"
#: What each lobby button says, wherever a lobby is drawn (the chat's lobby message and the
#: Activity's lobby alike): the words its refusals and answers name ("press **Join**").
LOBBY_LABELS: dict[LobbyAction, str] = {
    "join": "Join",
    "leave": "Leave",
    "start": "Start",
    "cancel": "Cancel",
    "remove_computer": "Remove computer",
    "add_seat": "Add a seat",
    "partners": "Change partners",
    "hand": "Your hand",
    "resign": "Resign",
    "table": "Play at the table",
}
#: The lobby action of a private table's *Your hand* button.
HAND_BUTTON: LobbyAction = "hand"
#: The lobby action of a private table's *Resign* button (it asks first, as `/cribbage resign`
#: does): there, someone who did not add the app to their account plays from the buttons
#: alone, and could not type the command.
RESIGN_BUTTON: LobbyAction = "resign"

#: Discord's limit on one message's content.
MAX_MESSAGE = 2000
#: What Discord's markdown reads anywhere in a name, each escaped with a backslash (Discord
#: shows a backslashed punctuation mark as the mark alone): emphasis, code, spoilers, quotes,
#: headings, masked links; ``:``, whose ``https://`` Discord would make a link and show a
#: preview of under the message; and ``@``, whose ``@everyone`` and ``@here`` Discord shows
#: highlighted as a call to everyone, pinged or not. (Every ``<…>`` Discord reads, a mention, a
#: timestamp or a link, ends with ``>``: escaped, a name like ``<@123>`` is text.)
MARKDOWN_SPECIAL = "\\*_~`|>#[]():@"
#: Every character :func:`bot.core.base.text.escape` may escape: a page reads each escape back
#: as the character (:func:`bot.web.pages.markdown_html`).
ESCAPED_CHARACTERS = MARKDOWN_SPECIAL + "-+."
#: Characters a laid-out table may hold in all its texts (Discord: 4000 across the text
#: displays of a Components V2 message).
MAX_LAID_OUT = 4000
#: Components a laid-out message may hold, nested ones counted (Discord: 40 in a Components V2
#: message): each group is a container of its own (framed) or set apart by a separator, and
#: each of its texts a text display.
MAX_LAID_OUT_PARTS = 40

#: The two pools of a server's standings (the games a leaderboard ranks): games between people,
#: and with a computer seat.
Pool = Literal["people", "computer"]

#: The rule for game points a board marks the lines of.
Rule = Literal["lurch", "skunk"]


@dataclass(frozen=True, slots=True)
class CardChoice:
    """One card on a hand's controls: ``code`` (``"10D"``, for custom ids and select values),
    ``label`` (``"10♦"``) and whether it may be chosen now."""

    code: str
    label: str
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class HandControls:
    """A hand's controls: ``kind`` ``"discard"`` (a select menu: choose exactly ``pick`` cards
    for the crib), ``"play"`` (one button per card held, disabled ones cannot be played now),
    and with manual counting ``"count"`` (two select menus of the values a hand can score,
    ``claims``: 26 in the standard game, one more than a menu holds; 41 in seven-card) or
    ``"muggins"`` (Muggins! and No muggins alone). ``muggins`` adds them to a count's menus,
    for a player who must count next and may still call muggins on the claim before.

    ``stamp`` says which moment the controls belong to (the deal for a discard, the game's
    version otherwise); it comes back with the click (:class:`bot.core.base.replies.Click`) so that
    a control from an earlier moment gets a clear answer, not a move. ``hint``: a discard's
    or a play's controls offer *Hint* (the expert's choice in the player's place, said to
    them alone: :mod:`bot.core.play.hints`), where the table allows it.
    """

    game_id: int
    kind: ControlsKind
    cards: tuple[CardChoice, ...]
    pick: int
    stamp: int
    claims: tuple[int, ...] = ()
    muggins: bool = False
    # (Left out of the repr, and so of the digests of hands without it: every hand sent before
    # there were hints still shows what it should. The digest adds it when it is there.)
    hint: bool = field(default=False, repr=False)


@dataclass(frozen=True, slots=True)
class LobbyControls:
    """The lobby's buttons (``buttons``; none once the lobby is closed) and the computer levels
    of its "Add computer" menu (none when no seat is free); choosing a level is the lobby
    action ``computer:<level>``."""

    game_id: int
    buttons: tuple[LobbyAction, ...]
    levels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """What the board picture attached to a message shows (drawn when it is sent).

    ``sides`` are the sides' names, ``pegs`` each side's (front, back) peg, ``rule`` the game
    points rule whose lines the board marks (``lurch`` or ``skunk``), ``dealer`` and
    ``winner`` sides when known, ``partners`` whether the sides are teams of partners, and
    ``chances`` each side's chance to win in words ("64%"), shown after a deal's show, and
    ``next_deal`` whether ``dealer`` is the side that deals next (a deal's board after its
    show, beside the chances worked out for that next deal) rather than the one dealing.
    """

    sides: tuple[str, ...]
    pegs: tuple[tuple[int, int], ...]
    target: int
    rule: Rule = "lurch"
    dealer: int | None = None
    winner: int | None = None
    partners: bool = False
    # Out of the repr, so the digests of boards without chances stay as they were stored; the
    # digest adds them when there are some.
    chances: tuple[str, ...] | None = field(default=None, repr=False)
    # Out of the repr likewise; the digest adds it when it is set.
    next_deal: bool = field(default=False, repr=False)


@dataclass(frozen=True, slots=True)
class PageControls:
    """The buttons under a leaderboard page: Previous and Next within ``table`` (``page`` of
    ``pages``, counted from 0), and one to show the other table, of the same ``variant``
    (a variant's games are rated in tables of their own)."""

    table: Pool
    page: int
    pages: int
    # Out of the repr, so the digests of the standard game's pages stay as they were stored;
    # MessageView.digest adds a variant's name.
    variant: str = field(default="standard", repr=False)


@dataclass(frozen=True, slots=True)
class EntryControls:
    """The Join and Leave buttons of a tournament taking entrants (``join``), and a club
    night's Check in (``check_in``: its last minutes, or a late arrival's once it runs)."""

    tournament_id: int
    join: bool = True
    check_in: bool = False

    def __repr__(self) -> str:
        # A field added later is named only where it is not as before (a tournament's Join and
        # Leave), so that the digests stored before club nights still say such a message
        # shows its view, and an upgrade edits none of them (the digests read repr).
        more = ("" if self.join else ", join=False") + (", check_in=True" if self.check_in else "")
        return f"EntryControls(tournament_id={self.tournament_id}{more})"


@dataclass(frozen=True, slots=True)
class ReviewPages:
    """The buttons under a review's page: Previous and Next (``page`` of ``pages``, from 0)
    of ``seat``'s review of game ``game_id``; with ``pages`` 0, the one *Review* button on a
    game's result, which opens each person's own review."""

    game_id: int
    seat: int
    page: int
    pages: int


#: What a result's second button opens: the game again, as *Rematch* (between people) or
#: *Play again* (one person and the computer); the words alone differ.
AgainLabel = Literal["rematch", "again"]


@dataclass(frozen=True, slots=True)
class ResultControls:
    """The buttons on a game's result that offers a rematch: *Review* (``review``: when the
    game can be reviewed) and *Rematch* or *Play again* (``again``), which opens game
    ``game_id`` again at its table. (A result that offers none has :class:`ReviewPages`'
    one *Review* button, as before rematches.) ``hand``: the button is on a player's last
    hand message of the game, by DM, away from its table: pressed there, the rematch opens at
    the table all the same, and the press is answered privately."""

    game_id: int
    again: AgainLabel
    review: bool = True
    hand: bool = False


@dataclass(frozen=True, slots=True)
class DailyPick:
    """The menu of the discard of the day: its six ``cards`` (codes), of which two are chosen,
    for the day ``stamp`` (YYYYMMDD) names."""

    stamp: str
    cards: tuple[str, ...]


#: What a question asks before doing: resign game N, cancel game N (a moderator, once it is
#: dealt), withdraw from tournament N, cancel tournament N, delete person N's data, leave
#: ranked match N.
ConfirmAction = Literal[
    "resign", "cancel", "withdraw", "cancel_tournament", "forget", "leave_match"
]


#: What a ranked card's buttons do: stop the search, or play the expert instead; and what a
#: decided match's last table offers: search for another match.
RankedAction = Literal["stop", "expert", "again"]


@dataclass(frozen=True, slots=True)
class RankedControls:
    """The buttons on a player's ranked card while they search (``entry_id``: their entry):
    *Stop searching*, and once nobody was found for a while *Play the expert instead*; once
    the search ended (stopped, or finding nobody), *Find a ranked match*, which searches for whoever
    presses it, from where they press it. On a decided match's last table (``entry_id``: the
    match's id): *Review* of game ``review`` (when it can be reviewed) and *Find a
    ranked match*."""

    entry_id: int
    buttons: tuple[RankedAction, ...]
    review: int | None = None


@dataclass(frozen=True, slots=True)
class ConfirmControls:
    """Yes and No under a question asked before something that cannot be taken back, shown to
    the asker alone: ``action`` on ``subject`` (a game's id; a tournament's, for
    ``withdraw`` and ``cancel_tournament``; the asker's own user id, for ``forget``)."""

    subject: int
    action: ConfirmAction = "resign"


@dataclass(frozen=True, slots=True)
class PrivacyControls:
    """``/cribbage privacy``'s buttons, for person ``user_id`` alone: *Send me my data* and
    *Delete my data*."""

    user_id: int


#: The controls a message offers (one kind at most): a hand's, the lobby's buttons, a
#: leaderboard page's, a tournament's Join and Leave, a review's pages (or a result's Review
#: button), a result's Review and Rematch, the discard of the day's menu, Yes and No under a
#: question, the privacy buttons, or a ranked card's.
Controls = (
    HandControls
    | LobbyControls
    | PageControls
    | EntryControls
    | ReviewPages
    | ResultControls
    | DailyPick
    | ConfirmControls
    | PrivacyControls
    | RankedControls
)


#: One kind of :data:`Controls` (see :meth:`MessageView.controls_of`).
C = TypeVar("C", bound=Controls)


class Style(Enum):
    """How a message is laid out on Discord."""

    #: Its text, with its pictures (the board, the charts) attached below.
    TEXT = "text"
    #: One panel, the text with the pictures inside it (Components V2); no controls.
    PANEL = "panel"
    #: In groups of texts, each set apart from the next by a rule, in one frame, the picture
    #: and the controls inside it too (Components V2; see :func:`laid_out`).
    LAID_OUT = "laid out"
    #: As LAID_OUT, each group a frame of its own (Discord's containers): a deal's play, then
    #: each hand and the crib of its show, then the scores with the board and the controls.
    FRAMED = "framed"


#: The version of :meth:`MessageView.digest`; digests stored before it (no ``2:`` in front)
#: are read by the first one's rules (see :meth:`MessageView.shows`).
DIGEST_VERSION = 2


@dataclass(frozen=True, slots=True)
class MessageView:
    """What one message shows: its text, at most one kind of :data:`Controls`, possibly the
    board picture or other pictures, laid out in a :class:`Style`."""

    content: str
    controls: Controls | None = None
    board: BoardPicture | None = None
    #: Users the message may notify by mention (closed-DM notices, turn reminders).
    mentions: tuple[int, ...] = ()
    #: Pictures already drawn (the stats charts), attached in this order.
    pictures: tuple[Picture, ...] = ()
    style: Style = Style.TEXT
    #: The groups of texts of a LAID_OUT or FRAMED message (see :func:`laid_out`); ``content``
    #: is then every text of it, one after the other, a line each. A message once laid out
    #: stays so (Discord cannot edit it back into plain text).
    layout: tuple[tuple[str, ...], ...] = ()
    #: A picture from elsewhere shown beside the first group of texts of a laid-out message
    #: (a player's avatar, by its address on Discord's CDN), if any.
    thumbnail: str | None = None
    # The digest, once worked out (the keeper asks for it several times a draw).
    _digest: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        laid = self.style in (Style.LAID_OUT, Style.FRAMED)
        if laid != bool(self.layout):
            raise ValueError("A laid-out message, and it alone, has groups of texts.")
        if self.layout and self.content != "\n".join(t for group in self.layout for t in group):
            raise ValueError("A laid-out message's content is the text of its layout.")

    @property
    def hand(self) -> HandControls | None:
        """A hand's controls, if these are."""
        return self.controls_of(HandControls)

    def controls_of(self, kind: type[C]) -> C | None:
        """The controls, if they are of ``kind`` (for a reader that expects one kind)."""
        return self.controls if isinstance(self.controls, kind) else None

    def offers(self) -> str | None:
        """A short fingerprint of what the message offers its reader to act on now (a hand's
        live controls), or None when it offers nothing (no controls, or none enabled): an edit
        that changes this gives a player their turn; one that does not is a redraw."""
        controls = self.hand
        if controls is None:
            return None
        if controls.kind == "play" and not any(card.enabled for card in controls.cards):
            return None
        return hashlib.blake2b(repr(controls).encode(), digest_size=12).hexdigest()

    def without_controls(self) -> MessageView:
        """The same message with none of its controls (a copy left behind by a newer one)."""
        return dataclasses.replace(self, controls=None)

    def digest(self) -> str:
        """A short fingerprint of everything shown, to tell whether a sent copy is current."""
        if not self._digest:
            shown = repr(
                (
                    self.content,
                    self.controls,
                    self.board,
                    self.board.chances if self.board is not None else None,
                    self.mentions,
                    [p.png for p in self.pictures],
                    self.style.value,
                    self.layout,
                )
            )
            if isinstance(self.controls, PageControls) and self.controls.variant != "standard":
                shown += repr(self.controls.variant)
            if self.board is not None and self.board.next_deal:
                shown += repr("next deal")
            if self.thumbnail is not None:
                # (Added only when there is one, so every digest stored before stays true.)
                shown += repr(self.thumbnail)
            if isinstance(self.controls, HandControls) and self.controls.hint:
                shown += repr("hint")  # (likewise)
            worked_out = hashlib.blake2b(shown.encode(), digest_size=12).hexdigest()
            object.__setattr__(self, "_digest", f"{DIGEST_VERSION}:{worked_out}")
        return self._digest

    def shows(self, digest: str) -> bool:
        """Whether a message whose digest is ``digest`` shows this view: a digest of this
        version, or one stored before it, read by the first version's rules (so an upgrade
        edits no message that shows what it should)."""
        if digest.startswith(f"{DIGEST_VERSION}:"):
            return digest == self.digest()
        return bool(digest) and digest == first_digest(self)


def first_digest(view: MessageView) -> str:
    """The digest as the first version worked it out (kept to read digests stored by it):
    the views of each kind of controls were separate fields then, and a field joined the
    fingerprint only where it was set, so that older digests stayed as they were."""
    controls = view.controls

    def kind(of: type) -> str:
        return _first_repr(controls) if isinstance(controls, of) else "None"

    parts = [
        repr(view.content),
        kind(HandControls),
        kind(LobbyControls),
        repr(view.board),
        repr(view.mentions),
    ]
    if isinstance(controls, PageControls) or view.pictures:
        parts += [kind(PageControls), repr([p.png for p in view.pictures])]
    if isinstance(controls, EntryControls):
        parts.append(kind(EntryControls))
    if view.board is not None and view.board.chances is not None:
        parts.append(repr(view.board.chances))
    if view.style is Style.PANEL:
        parts.append(repr("panel"))
    if isinstance(controls, (ReviewPages, DailyPick)):
        parts += [kind(ReviewPages), kind(DailyPick)]
    if view.layout:
        parts.append(repr(view.layout))
    if view.style is Style.FRAMED:
        parts.append(repr("framed"))
    shown = "(" + ", ".join(parts) + ")"
    return hashlib.blake2b(shown.encode(), digest_size=12).hexdigest()


def _first_repr(controls: object) -> str:
    """``repr`` of controls as the first digests saw it (a hand's were class ``Controls``)."""
    text = repr(controls)
    if isinstance(controls, HandControls):
        return "Controls(" + text.removeprefix("HandControls(")
    return text


def laid_out(groups: Sequence[Sequence[str]], *, framed: bool = False, **parts: Any) -> MessageView:
    """A message laid out in ``groups`` of texts (empty texts and groups left out), with
    ``parts`` (the controls, the board, ...) as :class:`MessageView` takes them; its
    ``content`` is its texts, a line each, for readers that want plain text."""
    kept = tuple(g for g in (tuple(t for t in group if t) for group in groups) if g)
    if not kept:
        kept = (("…",),)  # Discord takes no empty text display
    content = "\n".join(t for group in kept for t in group)
    style = Style.FRAMED if framed else Style.LAID_OUT
    return MessageView(content, layout=kept, style=style, **parts)


def relaid(view: MessageView, groups: Sequence[Sequence[str]], **parts: Any) -> MessageView:
    """``view`` laid out in ``groups`` instead (:func:`laid_out`), in its style, with its
    controls, board and mentions but for those ``parts`` replace."""
    kept = {"controls": view.controls, "board": view.board, "mentions": view.mentions}
    return laid_out(groups, framed=view.style is Style.FRAMED, **(kept | parts))


def text_tail(text: str, room: int) -> str:
    """The end of ``text`` within ``room`` characters, cut with "…" (a show is at a deal's
    end)."""
    if len(text) <= room:
        return text
    return "…" + text[-(room - 1) :] if room > 1 else ""


def layout_tail(groups: Sequence[Sequence[str]], room: int) -> tuple[tuple[str, ...], ...]:
    """The end of a layout's ``groups`` within ``room`` characters, as Discord counts them
    (the texts', across its text displays): whole texts from the end, and the tail of the
    first one that does not fit (:func:`text_tail`)."""
    kept: list[tuple[str, ...]] = []
    for group in reversed(groups):
        texts: list[str] = []
        for text in reversed(group):
            if len(text) > room:
                texts.append(text_tail(text, room))
                room = 0
                break
            texts.append(text)
            room -= len(text)
        kept.append(tuple(reversed(texts)))
        if room <= 0:
            break
    return tuple(reversed(kept))


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """A message a game owns, as last sent: where it is, and a digest of what it showed
    (``""`` when unknown). ``token``/``token_at``: an interaction whose webhook may edit it
    until 15 minutes after ``token_at``: the one it is a follow-up of, or (``original``) the
    latest click on it, whose original response it then is. ``version``: the game's version
    what it shows was drawn at (a record of an older one never replaces a newer one).
    ``unconfirmed_since``: the look is a click's answer, kept with its move, not yet known to
    have reached Discord (since then). ``seen``: for a click's answer, the version of the look
    the click was made on, when its control names it (a card's, a count's: their stamp); it
    is told with the answer (announced beside it, from another process), and is not written
    down."""

    key: MessageKey
    channel_id: int
    message_id: int
    digest: str
    token: str | None = None
    token_at: float | None = None
    original: bool = False
    version: int = 0
    unconfirmed_since: float | None = None
    seen: int | None = None
