"""Buttons and select menus that keep working after a restart.

Every component is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries the game id and
the action (and, for a hand's controls, the moment they belong to and the card), so no View has
to live in memory. The state is in the database; a click is routed to the bot's
:class:`~bot.discord.clicks.Clicks` (``bot.discord.feature_clicks.FeatureClicks``) like a slash
command.

Each control's custom ids (at most 100 characters, Discord's limit) are written once, as the
formats in :mod:`bot.discord.custom_ids` that both build them and read a click's; a control
names its formats, and its template is drawn from them.

The stamp is :attr:`bot.core.base.views.HandControls.stamp`, handed back with the click so that a
control from an earlier moment of the game gets a clear answer instead of acting.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Self, assert_never, cast

import discord

from bot.core.base.choices import LEVEL_BLURBS, level_name
from bot.core.base.replies import Click, ClickKind
from bot.core.base.views import (
    LOBBY_ACTIONS,
    LOBBY_LABELS,
    CardChoice,
    ConfirmAction,
    ConfirmControls,
    DailyPick,
    EntryControls,
    HandControls,
    LobbyAction,
    LobbyControls,
    MessageView,
    PageControls,
    Pool,
    PrivacyControls,
    RankedControls,
    ResultControls,
    ReviewPages,
)
from bot.discord import custom_ids as ids
from bot.discord.clicks import Clicks
from bot.discord.custom_ids import IdFormat
from engine.variants import STANDARD

__all__ = ["COUNT_MENU_SIZE", "DYNAMIC_ITEMS", "Clicks", "controls_view"]

_RED_SUITS = ("H", "D")
_LOBBY_STYLES = {
    "join": discord.ButtonStyle.primary,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.success,
    "cancel": discord.ButtonStyle.danger,
    "remove_computer": discord.ButtonStyle.secondary,
    "add_seat": discord.ButtonStyle.secondary,
    "partners": discord.ButtonStyle.secondary,
    "hand": discord.ButtonStyle.primary,
    "resign": discord.ButtonStyle.secondary,
    "table": discord.ButtonStyle.success,
}
#: How many values the first count menu holds at least (Discord: at most 25 options a menu):
#: the standard game's 26 claims split 13 and 13; more (seven-card cribbage's 41) split in
#: half, so that neither menu passes 25.
COUNT_MENU_SIZE = 13
#: What a select rebuilt from a click carries: Discord sends only the chosen values.
_NO_OPTIONS = [discord.SelectOption(label="-", value="-")]


def _menu(
    custom_id: str,
    placeholder: str,
    options: list[discord.SelectOption],
    *,
    picks: int = 1,
    row: int | None = None,
) -> discord.ui.Select[Any]:
    """A select menu where exactly ``picks`` of ``options`` are chosen (none given: the menu
    rebuilt from a click, which carries only what was chosen)."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        min_values=picks,
        max_values=picks,
        options=options or _NO_OPTIONS,
        row=row,
    )


def _clicks(interaction: discord.Interaction[Any]) -> Clicks:
    """The bot's click handler (the client's ``clicks``)."""
    return cast(Clicks, interaction.client.clicks)


class _Control(discord.ui.DynamicItem[Any], template=r"(?!)"):
    """A component whose custom id is all its state. (This base matches no custom id; its
    subclasses, each with the formats of its ids, are the ones registered.)"""

    #: The formats of this control's custom ids: they build its ids and read its clicks.
    formats: ClassVar[tuple[IdFormat, ...]] = ()

    def __init_subclass__(cls, *, formats: tuple[IdFormat, ...] = ()) -> None:
        cls.formats = formats
        # \d in a template is 0-9 alone: an id forged with other digits ("١٢") names nothing,
        # rather than the game its digits would read as. (A base of controls, naming no
        # format, matches no custom id.)
        made = ids.template(*formats) if formats else r"(?!)"
        super().__init_subclass__(template=re.compile(made, re.ASCII))

    @classmethod
    def parsed(cls, match: re.Match[str]) -> Self:
        """The component a custom id names."""
        return cls.read(*ids.read(match[0], *cls.formats))

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> Self:
        """The component of an id ``made`` wrote, with these ``fields``."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """Rebuild the component from its custom id (discord.py calls this on each click)."""
        return cls.parsed(match)

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the bot."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The component was used."""
        await self.clicked(_clicks(interaction), interaction)

    def _values(self) -> tuple[str, ...]:
        return tuple(getattr(self.item, "values", ()))


#: An action button's label and style, by action.
_Looks = Mapping[str, tuple[str, discord.ButtonStyle]]


class _ActionButton(_Control):
    """A button naming one thing and an action on it: its one format's fields are the thing's
    id (``subject``) and ``action``, its label and style are the action's (``looks``)."""

    #: Each action's label and style.
    looks: ClassVar[_Looks] = {}

    def __init__(self, subject: int, action: str) -> None:
        label, style = self.looks[action]
        (made,) = self.formats
        built = made.build(**{self._subject_field(): subject, "action": action})
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=built))
        self.subject, self.action = subject, action

    @classmethod
    def _subject_field(cls) -> str:
        (made,) = cls.formats
        return next(name for name in made.fields if name != "action")

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> Self:
        return cls(int(fields[cls._subject_field()]), fields["action"])


class LobbyButton(_ActionButton, formats=(ids.LOBBY,)):
    """Join, Leave, Start, Cancel, Remove computer, Add a seat (the opener makes a full table
    one seat larger, as far as its variant seats) or Change partners on a game's lobby; Your
    hand on a private table (a game where the bot is not a member); Play at the table (the
    game's Activity) on the lobby and the live deal's table."""

    looks: ClassVar[_Looks] = {
        action: (LOBBY_LABELS[cast(LobbyAction, action)], style)
        for action, style in _LOBBY_STYLES.items()
    }

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.lobby_click(interaction, self.subject, self.action)


class ComputerSelect(_Control, formats=(ids.COMPUTER,)):
    """The lobby's "Add computer" menu: choosing a level seats a computer at that level."""

    def __init__(self, game_id: int, levels: tuple[str, ...] = ()) -> None:
        options = [
            discord.SelectOption(
                label=level_name(level), value=level, description=LEVEL_BLURBS[level]
            )
            for level in levels
        ]
        super().__init__(_menu(ids.COMPUTER.build(game=game_id), "Add computer…", options, row=1))
        self.game_id = game_id

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> ComputerSelect:
        return cls(int(fields["game"]))

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        level = next(iter(self._values()), "")
        await clicks.lobby_click(interaction, self.game_id, f"computer:{level}")


# A card button names its card; the Muggins! and Hint buttons have none.
class HandButton(_Control, formats=(ids.PLAY, ids.CALL, ids.HINT)):
    """A button on a hand: one card of your hand on your turn (disabled when it cannot be
    played now), Muggins! to take the points an opponent's claim missed, or Hint (what the
    expert would do now, said to you alone)."""

    def __init__(
        self,
        game_id: int,
        kind: ClickKind,
        stamp: int,
        code: str | None = None,
        label: str = "",
        *,
        enabled: bool = True,
    ) -> None:
        if kind == "play":
            assert code is not None
            custom_id = ids.PLAY.build(game=game_id, stamp=stamp, card=code)
            style = (
                discord.ButtonStyle.danger
                if code.endswith(_RED_SUITS)
                else discord.ButtonStyle.secondary
            )
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=label or code, style=style, custom_id=custom_id, disabled=not enabled
            )
        elif kind == "hint":
            button = discord.ui.Button(
                label="💡 Hint",
                style=discord.ButtonStyle.secondary,
                custom_id=ids.HINT.build(game=game_id, stamp=stamp),
                row=2,
            )
        elif kind == "pass":
            # Lets the claim stand, so the table need not wait out the muggins window.
            custom_id = ids.CALL.build(game=game_id, call=kind, stamp=stamp)
            button = discord.ui.Button(
                label="No muggins",
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                row=2,
            )
        else:
            custom_id = ids.CALL.build(game=game_id, call=kind, stamp=stamp)
            button = discord.ui.Button(
                label="Muggins!", style=discord.ButtonStyle.danger, custom_id=custom_id, row=2
            )
        super().__init__(button)
        self.click = Click(game_id, kind, stamp, () if code is None else (code,))

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> HandButton:
        game, stamp = int(fields["game"]), int(fields["stamp"])
        if made is ids.PLAY:
            return cls(game, "play", stamp, fields["card"])
        if made is ids.HINT:
            return cls(game, "hint", stamp)
        kind: ClickKind = "pass" if fields["call"] == "pass" else "muggins"
        return cls(game, kind, stamp)

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.hand_click(interaction, self.click)


# A count menu names its half (0 or 1); the crib select has none.
class HandSelect(_Control, formats=(ids.DISCARD, ids.COUNT)):
    """A menu on a hand: the cards for the crib, or one of the two menus of points to claim
    for the hand you count (manual counting)."""

    def __init__(
        self,
        game_id: int,
        kind: ClickKind,
        stamp: int,
        *,
        cards: tuple[CardChoice, ...] = (),
        pick: int = 1,
        half: int = 0,
        values: tuple[int, ...] = (),
    ) -> None:
        if kind == "discard":
            options = [
                discord.SelectOption(label=c.label, value=c.code) for c in cards if c.enabled
            ]
            select = _menu(
                ids.DISCARD.build(game=game_id, stamp=stamp),
                f"Choose {pick} card{'s' if pick != 1 else ''} for the crib",
                options,
                picks=pick,
            )
        else:
            options = [
                discord.SelectOption(label=f"{v} points" if v != 1 else "1 point", value=str(v))
                for v in values
            ]
            low = f"{values[0]}-{values[-1]}" if values else ""
            select = _menu(
                ids.COUNT.build(game=game_id, stamp=stamp, half=half),
                f"Claim {low} points" if low else "Claim points",
                options,
                row=half,
            )
        super().__init__(select)
        self.game_id, self.kind, self.stamp = game_id, kind, stamp

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> HandSelect:
        game, stamp = int(fields["game"]), int(fields["stamp"])
        if made is ids.DISCARD:
            return cls(game, "discard", stamp)
        return cls(game, "count", stamp, half=int(fields["half"]))

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        click = Click(self.game_id, self.kind, self.stamp, self._values())
        await clicks.hand_click(interaction, click)


#: Each question's two answers: (Yes, No).
_CONFIRM_LABELS = {
    "resign": ("Yes, resign", "No, play on"),
    "cancel": ("Yes, cancel the game", "No, let it go on"),
    "withdraw": ("Yes, withdraw", "No, stay in"),
    "cancel_tournament": ("Yes, cancel the tournament", "No, let it go on"),
    "forget": ("Yes, delete my data", "No, keep it"),
    "leave_match": ("Yes, leave the match", "No, play on"),
}
#: How a question's action is written in its custom id: its format and its question's word.
_CONFIRM_IDS: dict[ConfirmAction, tuple[IdFormat, str]] = {
    "resign": (ids.GAME_QUESTION, "resign"),
    "cancel": (ids.GAME_QUESTION, "cancel"),
    "withdraw": (ids.TOURNAMENT_QUESTION, "withdraw"),
    "cancel_tournament": (ids.TOURNAMENT_QUESTION, "cancel"),
    "forget": (ids.FORGET, "forget"),
    "leave_match": (ids.LEAVE_MATCH, "leave"),
}
#: The question a custom id asks, by its format and word.
_CONFIRM_ACTIONS = {written: action for action, written in _CONFIRM_IDS.items()}


class ConfirmButton(
    _Control,
    formats=(ids.GAME_QUESTION, ids.TOURNAMENT_QUESTION, ids.FORGET, ids.LEAVE_MATCH),
):
    """Yes or No under a question asked before something that cannot be taken back (an
    ephemeral message): ``/cribbage resign``, a moderator's ``/cribbage cancel`` of a dealt
    game, ``/cribbage tournament withdraw`` and ``/cribbage tournament cancel``."""

    def __init__(self, subject: int, action: ConfirmAction, yes: bool) -> None:
        made, word = _CONFIRM_IDS[action]
        choice = "yes" if yes else "no"
        super().__init__(
            discord.ui.Button(
                label=_CONFIRM_LABELS[action][0 if yes else 1],
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=made.build(subject=subject, question=word, choice=choice),
            )
        )
        self.subject, self.action, self.yes = subject, action, yes

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> ConfirmButton:
        action = _CONFIRM_ACTIONS[made, fields["question"]]
        return cls(int(fields["subject"]), action, fields["choice"] == "yes")

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.confirm_click(interaction, self.subject, self.action, self.yes)


class PrivacyButton(_ActionButton, formats=(ids.PRIVACY,)):
    """``/cribbage privacy``'s buttons: *Send me my data* (a file, privately) and *Delete my
    data* (which asks first), for the person the id names (anyone else is refused)."""

    looks: ClassVar[_Looks] = {
        "data": ("Send me my data", discord.ButtonStyle.primary),
        "delete": ("Delete my data", discord.ButtonStyle.danger),
    }

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.privacy_click(interaction, self.subject, self.action)


class PageButton(_Control, formats=(ids.BOARD, ids.BOARD_VARIANT)):
    """A leaderboard button: show ``page`` (from 0) of ``table`` in ``variant`` (the standard
    game's ids name none, as before variants). The server is the one the click comes from,
    never the id's, so no button shows another server's players."""

    def __init__(
        self,
        table: Pool,
        page: int,
        label: str = "",
        *,
        enabled: bool = True,
        variant: str = STANDARD.name,
    ) -> None:
        made = ids.BOARD if variant == STANDARD.name else ids.BOARD_VARIANT
        super().__init__(
            discord.ui.Button(
                label=label or "Page",
                style=discord.ButtonStyle.secondary,
                custom_id=made.build(table=table, page=page, variant=variant),
                disabled=not enabled,
            )
        )
        self.table: Pool = table
        self.page = page
        self.variant = variant

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> PageButton:
        table: Pool = "computer" if fields["table"] == "computer" else "people"
        variant = fields.get("variant", STANDARD.name)
        return cls(table, int(fields["page"]), variant=variant)

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.page_click(interaction, self.table, self.page, self.variant)


class EntryButton(_ActionButton, formats=(ids.ENTRY,)):
    """Join or Leave on a tournament's message while it takes entrants; a club night's Check
    in."""

    looks: ClassVar[_Looks] = {
        "join": ("Join", discord.ButtonStyle.primary),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "checkin": ("Check in", discord.ButtonStyle.success),
    }

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.tournament_click(interaction, self.subject, self.action)


def _entry_buttons(entry: EntryControls) -> discord.ui.View:
    made = discord.ui.View(timeout=None)
    if entry.check_in:
        made.add_item(EntryButton(entry.tournament_id, "checkin"))
    if entry.join:
        made.add_item(EntryButton(entry.tournament_id, "join"))
        made.add_item(EntryButton(entry.tournament_id, "leave"))
    return made


class ReviewButton(_Control, formats=(ids.REVIEW, ids.REVIEW_PAGE)):
    """The Review button on a game's result, or Previous / Next on a review's page."""

    def __init__(
        self,
        game_id: int,
        seat: int | None = None,
        page: int = 0,
        label: str = "Review",
        *,
        enabled: bool = True,
    ) -> None:
        made = ids.REVIEW if seat is None else ids.REVIEW_PAGE
        custom_id = made.build(game=game_id, seat=seat, page=page)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
                disabled=not enabled,
            )
        )
        self.game_id, self.seat, self.page = game_id, seat, page

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> ReviewButton:
        if made is ids.REVIEW:
            return cls(int(fields["game"]))
        return cls(int(fields["game"]), int(fields["seat"]), int(fields["page"]))

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.review_click(interaction, self.game_id, self.seat, self.page)


#: The words on a result's second button, by what it offers.
_AGAIN_LABELS = {"rematch": "🔁 Rematch", "again": "🔁 Play again"}


class RematchButton(_Control, formats=(ids.REMATCH, ids.REMATCH_HAND)):
    """*Rematch* (or *Play again*) on a game's result: the game opened again at its table, or
    the presser's seat taken in the rematch opened already; or (``hand``) the same on a
    player's last hand message of the game, by DM, answered privately."""

    def __init__(
        self, game_id: int, label: str = _AGAIN_LABELS["rematch"], *, hand: bool = False
    ) -> None:
        made = ids.REMATCH_HAND if hand else ids.REMATCH
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=made.build(game=game_id),
            )
        )
        self.game_id, self.hand = game_id, hand

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> RematchButton:
        return cls(int(fields["game"]), hand=made is ids.REMATCH_HAND)

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        if self.hand:
            await clicks.hand_rematch_click(interaction, self.game_id)
            return
        await clicks.rematch_click(interaction, self.game_id)


class DailySelect(_Control, formats=(ids.DAILY,)):
    """The discard of the day's menu: choose two of the six cards for the crib."""

    def __init__(self, stamp: str, cards: tuple[str, ...] = ()) -> None:
        options = [discord.SelectOption(label=_label(code), value=code) for code in cards]
        super().__init__(
            _menu(ids.DAILY.build(stamp=stamp), "Choose 2 cards for the crib", options, picks=2)
        )
        self.stamp = stamp

    @classmethod
    def read(cls, made: IdFormat, fields: dict[str, str]) -> DailySelect:
        return cls(fields["stamp"])

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.daily_click(interaction, self.stamp, self._values())


class RankedButton(_ActionButton, formats=(ids.RANKED,)):
    """*Stop searching* or *Play the expert instead* on a player's ranked card; *Find a
    ranked match* on the card of a search that ended, or a decided match's last table."""

    looks: ClassVar[_Looks] = {
        "stop": ("Stop searching", discord.ButtonStyle.secondary),
        "expert": ("Play the expert instead", discord.ButtonStyle.primary),
        "again": ("🔎 Find a ranked match", discord.ButtonStyle.primary),
    }

    async def clicked(self, clicks: Clicks, interaction: discord.Interaction[Any]) -> None:
        await clicks.ranked_click(interaction, self.subject, self.action)


def _label(code: str) -> str:
    """A card's code as players see it (``10D`` -> ``10♦``)."""
    return code[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[-1]]


#: Registered in ``setup_hook`` so clicks on messages sent before a restart still work.
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ComputerSelect,
    HandButton,
    HandSelect,
    PageButton,
    EntryButton,
    ReviewButton,
    RematchButton,
    DailySelect,
    ConfirmButton,
    PrivacyButton,
    RankedButton,
)


def _page_buttons(pages: PageControls) -> discord.ui.View:
    """Previous and Next within the table (disabled at its ends), and the other table."""
    made = discord.ui.View(timeout=None)
    page, last, variant = pages.page, pages.pages - 1, pages.variant
    earlier = max(page - 1, 0)
    made.add_item(PageButton(pages.table, earlier, "◀ Previous", enabled=page > 0, variant=variant))
    made.add_item(PageButton(pages.table, page + 1, "Next ▶", enabled=page < last, variant=variant))
    other: Pool = "computer" if pages.table == "people" else "people"
    label = "Against the computer" if other == "computer" else "Between people"
    made.add_item(PageButton(other, 0, label, variant=variant))
    return made


def _review_buttons(pages: ReviewPages) -> discord.ui.View:
    """A result's Review button, or a review page's Previous and Next (disabled at its ends)."""
    made = discord.ui.View(timeout=None)
    if pages.pages == 0:
        made.add_item(ReviewButton(pages.game_id, label="🔍 Review"))
        return made
    page, last = pages.page, pages.pages - 1
    game, seat = pages.game_id, pages.seat
    made.add_item(ReviewButton(game, seat, max(page - 1, 0), "◀ Previous", enabled=page > 0))
    made.add_item(ReviewButton(game, seat, min(page + 1, last), "Next ▶", enabled=page < last))
    return made


def _daily_menu(pick: DailyPick) -> discord.ui.View:
    """The discard of the day's menu of six cards."""
    made = discord.ui.View(timeout=None)
    made.add_item(DailySelect(pick.stamp, pick.cards))
    return made


def _hand_controls(controls: HandControls) -> discord.ui.View:
    """A hand's crib select, its card buttons, or its count menus and Muggins! button."""
    made = discord.ui.View(timeout=None)
    game, stamp = controls.game_id, controls.stamp
    if controls.kind == "discard":
        made.add_item(HandSelect(game, "discard", stamp, cards=controls.cards, pick=controls.pick))
    elif controls.kind in ("count", "muggins"):
        claims = controls.claims
        first = max(COUNT_MENU_SIZE, -(-len(claims) // 2))
        halves = (claims[:first], claims[first:])
        for half, values in enumerate(halves):
            if values:
                made.add_item(HandSelect(game, "count", stamp, half=half, values=values))
        if controls.kind == "muggins" or controls.muggins:
            made.add_item(HandButton(game, "muggins", stamp))
            made.add_item(HandButton(game, "pass", stamp))
    else:
        for card in controls.cards:
            made.add_item(
                HandButton(game, "play", stamp, card.code, card.label, enabled=card.enabled)
            )
    if controls.hint and controls.kind in ("discard", "play"):
        made.add_item(HandButton(game, "hint", stamp))
    return made


def controls_view(view: MessageView) -> discord.ui.View | None:
    """The components of a message's controls (a hand's, the lobby's buttons and its "Add
    computer" menu while a seat is free, a leaderboard page's, ...), or none."""
    match view.controls:
        case None:
            return None
        case HandControls() as hand:
            return _hand_controls(hand)
        case LobbyControls() as lobby:
            if not lobby.buttons:
                return None
            made = discord.ui.View(timeout=None)
            for action in LOBBY_ACTIONS:
                if action in lobby.buttons:
                    made.add_item(LobbyButton(lobby.game_id, action))
            if lobby.levels:
                made.add_item(ComputerSelect(lobby.game_id, lobby.levels))
            return made
        case PageControls() as pages:
            return _page_buttons(pages)
        case EntryControls() as entry:
            return _entry_buttons(entry)
        case ReviewPages() as review:
            return _review_buttons(review)
        case ResultControls() as result:
            made = discord.ui.View(timeout=None)
            if result.review:
                made.add_item(ReviewButton(result.game_id, label="🔍 Review"))
            label = _AGAIN_LABELS[result.again]
            made.add_item(RematchButton(result.game_id, label, hand=result.hand))
            return made
        case DailyPick() as pick:
            return _daily_menu(pick)
        case RankedControls() as card:
            made = discord.ui.View(timeout=None)
            if card.review is not None:
                made.add_item(ReviewButton(card.review, label="🔍 Review"))
            for chosen in card.buttons:
                made.add_item(RankedButton(card.entry_id, chosen))
            return made
        case ConfirmControls() as confirm:
            made = discord.ui.View(timeout=None)
            made.add_item(ConfirmButton(confirm.subject, confirm.action, True))
            made.add_item(ConfirmButton(confirm.subject, confirm.action, False))
            return made
        case PrivacyControls() as privacy:
            made = discord.ui.View(timeout=None)
            made.add_item(PrivacyButton(privacy.user_id, "data"))
            made.add_item(PrivacyButton(privacy.user_id, "delete"))
            return made
        case unknown:
            assert_never(unknown)
