"""Buttons and select menus that keep working after a restart.

Every component is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries the game id and
the action (and, for cards, the deal and the card code), so no View has to live in memory. The
state is in the database; a click is routed through :mod:`bot.discord.interactions` like a
slash command.

Custom ids (at most 100 characters, Discord's limit):

- ``crib:<game>:lobby:<join|leave|start|cancel|remove_computer>``: the lobby message's buttons;
- ``crib:<game>:lobby:computer``: the lobby's "Add computer" menu (values are levels);
- ``crib:<game>:discard:<stamp>``: the crib select menu sent with each deal;
- ``crib:<game>:play:<stamp>:<card code>``: one button per card on your turn;
- ``crib:<game>:count:<stamp>:<0|1>``: the two menus of values to claim for a hand (manual
  counting: 26 values, one more than a select menu holds, so split in two);
- ``crib:<game>:muggins:<stamp>``: the Muggins! button while an opponent's short claim is open;
- ``crib:board:<people|computer>:<page>``: a leaderboard's Previous, Next and other-table
  buttons (the server is the click's own).

The stamp is the service's :attr:`bot.core.replies.Controls.stamp`, handed back with the click so
that a control from an earlier moment of the game gets a clear answer instead of acting.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.core.computer import LEVEL_BLURBS, level_name
from bot.core.messages import MessageView, PageControls, Table
from bot.core.replies import LOBBY_BUTTONS, CardChoice

if TYPE_CHECKING:
    from bot.discord.app import CribbageBot

_CARD_CODE = r"(?:10|[2-9AJQK])[CDHS]"
_RED_SUITS = ("H", "D")
_LOBBY_STYLES = {
    "join": discord.ButtonStyle.primary,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.success,
    "cancel": discord.ButtonStyle.danger,
    "remove_computer": discord.ButtonStyle.secondary,
}
_LOBBY_LABELS = {"remove_computer": "Remove computer"}
#: What each computer level is called in the "Add computer" menu.


def _bot(interaction: discord.Interaction[Any]) -> CribbageBot:
    return interaction.client  # type: ignore[no-any-return]


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"crib:(?P<game>\d+):lobby:(?P<action>join|leave|start|cancel|remove_computer)",
):
    """Join, Leave, Start, Cancel or Remove computer on a game's lobby message."""

    def __init__(self, game_id: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_LOBBY_LABELS.get(action, action.capitalize()),
                style=_LOBBY_STYLES[action],
                custom_id=f"crib:{game_id}:lobby:{action}",
            )
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        """Rebuild the button from its custom id (discord.py calls this on each click)."""
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run the lobby action for whoever clicked."""
        await _bot(interaction).io.lobby_click(interaction, self.game_id, self.action)


class ComputerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"crib:(?P<game>\d+):lobby:computer",
):
    """The lobby's "Add computer" menu: choosing a level seats a computer at that level."""

    def __init__(self, game_id: int, levels: tuple[str, ...] = ()) -> None:
        options = [
            discord.SelectOption(
                label=level_name(level), value=level, description=LEVEL_BLURBS[level]
            )
            for level in levels
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"crib:{game_id}:lobby:computer",
                placeholder="Add computer…",
                min_values=1,
                max_values=1,
                # An item rebuilt from a click carries no options: Discord sends only the value.
                options=options or [discord.SelectOption(label="-", value="-")],
                row=1,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ComputerSelect:
        """Rebuild the menu from its custom id (discord.py calls this on each choice)."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Seat a computer at the chosen level (the service checks who may)."""
        values = list(self.item.values)
        level = values[0] if values else ""
        await _bot(interaction).io.lobby_click(interaction, self.game_id, f"computer:{level}")


class DiscardSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"crib:(?P<game>\d+):discard:(?P<stamp>\d+)",
):
    """The select menu in a deal's DM: choose the card(s) for the crib."""

    def __init__(
        self, game_id: int, stamp: int, cards: tuple[CardChoice, ...] = (), pick: int = 1
    ) -> None:
        options = [discord.SelectOption(label=c.label, value=c.code) for c in cards if c.enabled]
        super().__init__(
            discord.ui.Select(
                custom_id=f"crib:{game_id}:discard:{stamp}",
                placeholder=f"Choose {pick} card{'s' if pick != 1 else ''} for the crib",
                min_values=pick,
                max_values=pick,
                # An item rebuilt from a click carries no options: Discord sends only the values.
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.game_id = game_id
        self.stamp = stamp

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DiscardSelect:
        """Rebuild the select from its custom id (discord.py calls this on each choice)."""
        return cls(int(match["game"]), int(match["stamp"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Discard the chosen cards."""
        values = list(self.item.values)
        await _bot(interaction).io.discard_click(interaction, self.game_id, self.stamp, values)


class PlayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"crib:(?P<game>\d+):play:(?P<stamp>\d+):(?P<card>{_CARD_CODE})",
):
    """One card of your hand on your turn; disabled when it cannot be played now."""

    def __init__(
        self, game_id: int, stamp: int, code: str, label: str = "", *, enabled: bool = True
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or code,
                style=discord.ButtonStyle.danger
                if code.endswith(_RED_SUITS)
                else discord.ButtonStyle.secondary,
                custom_id=f"crib:{game_id}:play:{stamp}:{code}",
                disabled=not enabled,
            )
        )
        self.game_id = game_id
        self.stamp = stamp
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PlayButton:
        """Rebuild the button from its custom id (discord.py calls this on each click)."""
        return cls(int(match["game"]), int(match["stamp"]), match["card"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Play this card."""
        await _bot(interaction).io.play_click(interaction, self.game_id, self.stamp, self.code)


class CountSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"crib:(?P<game>\d+):count:(?P<stamp>\d+):(?P<half>[01])",
):
    """One of the two menus of points to claim for the hand you count (manual counting)."""

    def __init__(self, game_id: int, stamp: int, half: int, values: tuple[int, ...] = ()) -> None:
        options = [
            discord.SelectOption(label=f"{v} points" if v != 1 else "1 point", value=str(v))
            for v in values
        ]
        low = f"{values[0]}-{values[-1]}" if values else ""
        super().__init__(
            discord.ui.Select(
                custom_id=f"crib:{game_id}:count:{stamp}:{half}",
                placeholder=f"Claim {low} points" if low else "Claim points",
                min_values=1,
                max_values=1,
                # An item rebuilt from a click carries no options: Discord sends only the value.
                options=options or [discord.SelectOption(label="-", value="-")],
                row=half,
            )
        )
        self.game_id = game_id
        self.stamp = stamp

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CountSelect:
        """Rebuild the menu from its custom id (discord.py calls this on each choice)."""
        return cls(int(match["game"]), int(match["stamp"]), int(match["half"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Claim the chosen number of points."""
        values = list(self.item.values)
        value = values[0] if values else ""
        await _bot(interaction).io.count_click(interaction, self.game_id, self.stamp, value)


class MugginsButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"crib:(?P<game>\d+):muggins:(?P<stamp>\d+)",
):
    """Muggins! Take the points an opponent's claim missed (the first to press it)."""

    def __init__(self, game_id: int, stamp: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Muggins!",
                style=discord.ButtonStyle.danger,
                custom_id=f"crib:{game_id}:muggins:{stamp}",
                row=2,
            )
        )
        self.game_id = game_id
        self.stamp = stamp

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MugginsButton:
        """Rebuild the button from its custom id (discord.py calls this on each click)."""
        return cls(int(match["game"]), int(match["stamp"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Call muggins."""
        await _bot(interaction).io.muggins_click(interaction, self.game_id, self.stamp)


#: How many values each of the count menus holds (Discord: at most 25 options a menu).
COUNT_MENU_SIZE = 13


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"crib:board:(?P<table>people|computer):(?P<page>\d{1,6})",
):
    """A leaderboard button: show ``page`` (from 0) of ``table``. The server is the one the
    click comes from, never the id's, so no button shows another server's players."""

    def __init__(self, table: Table, page: int, label: str = "", *, enabled: bool = True) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Page",
                style=discord.ButtonStyle.secondary,
                custom_id=f"crib:board:{table}:{page}",
                disabled=not enabled,
            )
        )
        self.table: Table = table
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PageButton:
        """Rebuild the button from its custom id (discord.py calls this on each click)."""
        table: Table = "computer" if match["table"] == "computer" else "people"
        return cls(table, int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show that page in place of this one."""
        await _bot(interaction).io.page_click(interaction, self.table, self.page)


#: Registered in ``setup_hook`` so clicks on messages sent before a restart still work.
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ComputerSelect,
    DiscardSelect,
    PlayButton,
    CountSelect,
    MugginsButton,
    PageButton,
)


def _page_buttons(pages: PageControls) -> discord.ui.View:
    """Previous and Next within the table (disabled at its ends), and the other table."""
    made = discord.ui.View(timeout=None)
    page, last = pages.page, pages.pages - 1
    made.add_item(PageButton(pages.table, max(page - 1, 0), "◀ Previous", enabled=page > 0))
    made.add_item(PageButton(pages.table, page + 1, "Next ▶", enabled=page < last))
    other: Table = "computer" if pages.table == "people" else "people"
    label = "Against the computer" if other == "computer" else "Between people"
    made.add_item(PageButton(other, 0, label))
    return made


def controls_view(view: MessageView) -> discord.ui.View | None:
    """The components of a message the game owns: the lobby's buttons (and its "Add computer"
    menu while a seat is free), a hand's crib select or one button per card, or none."""
    controls, lobby = view.controls, view.lobby
    if view.pages is not None:
        return _page_buttons(view.pages)
    if lobby is not None and lobby.buttons:
        made = discord.ui.View(timeout=None)
        for action in LOBBY_BUTTONS:
            if action in lobby.buttons:
                made.add_item(LobbyButton(lobby.game_id, action))
        if lobby.levels:
            made.add_item(ComputerSelect(lobby.game_id, lobby.levels))
        return made
    if controls is None:
        return None
    made = discord.ui.View(timeout=None)
    if controls.kind == "discard":
        select = DiscardSelect(controls.game_id, controls.stamp, controls.cards, controls.pick)
        made.add_item(select)
    elif controls.kind in ("count", "muggins"):
        claims = controls.claims
        halves = (claims[:COUNT_MENU_SIZE], claims[COUNT_MENU_SIZE:])
        for half, values in enumerate(halves):
            if values:
                made.add_item(CountSelect(controls.game_id, controls.stamp, half, values))
        if controls.kind == "muggins" or controls.muggins:
            made.add_item(MugginsButton(controls.game_id, controls.stamp))
    else:
        for card in controls.cards:
            button = PlayButton(
                controls.game_id, controls.stamp, card.code, card.label, enabled=card.enabled
            )
            made.add_item(button)
    return made
