"""A message the core drew (:class:`~bot.core.base.views.MessageView`) as discord.py's arguments.

One conversion for every way a message reaches Discord: an interaction's answer or update,
a post or an edit by the bot's token, a webhook's follow-up or edit. Posting attaches the
pictures; editing lists what the message keeps (so a picture or controls it no longer has are
taken away). Nobody is pinged unless the message says whom.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
from collections.abc import Sequence
from typing import Any, cast

import discord

from bot.core.base.views import (
    MAX_LAID_OUT,
    MAX_LAID_OUT_PARTS,
    MAX_MESSAGE,
    TABLE_BUTTON,
    BoardPicture,
    LobbyControls,
    MessageView,
    Style,
)
from bot.core.messages.boards import draw_board
from bot.discord.components import controls_view

__all__ = [
    "MAX_PANEL_COMPONENTS",
    "MAX_PANEL_TEXT",
    "board_attachment",
    "board_file",
    "clip",
    "layout_of",
    "message_payload",
    "without_table",
]


def clip(text: str) -> str:
    """``text`` within Discord's limit for a message (cut with an ellipsis)."""
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def board_file(board: BoardPicture) -> discord.File:
    """The board picture as an attachment, with its alt text for screen readers."""
    picture = draw_board(board)
    return discord.File(
        io.BytesIO(picture.png), filename=picture.filename, description=picture.alt_text
    )


async def board_attachment(board: BoardPicture) -> discord.File:
    """:func:`board_file`, drawn on a worker thread: a picture takes some 15 ms of work that
    would otherwise hold up every other game's interactions."""
    return await asyncio.to_thread(board_file, board)


def _mentions(view: MessageView) -> discord.AllowedMentions:
    """Only the users a message is meant to notify are pinged; names are never mentions."""
    if not view.mentions:
        return discord.AllowedMentions.none()
    users = [discord.Object(uid) for uid in view.mentions]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


#: Characters Discord takes in all the text displays of a Components V2 message (the limit the
#: core lays its tables out within).
MAX_PANEL_TEXT = MAX_LAID_OUT
#: Components Discord takes in a Components V2 message, nested ones counted.
MAX_PANEL_COMPONENTS = MAX_LAID_OUT_PARTS


def _fit(groups: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    """``groups`` within :data:`MAX_PANEL_TEXT` characters in all (the core keeps a table
    within it; this only guards the limit): the texts that do not fit are cut from the end."""
    room = MAX_PANEL_TEXT
    fitted: list[list[str]] = []
    for group in groups:
        kept: list[str] = []
        for text in group:
            if len(text) > room:
                text = text[: room - 1] + "…" if room > 1 else ""
            if text:
                kept.append(text)
                room -= len(text)
        if kept:
            fitted.append(kept)
    return fitted or [["…"]]


def _rows(view: MessageView) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """The message's controls (:func:`controls_view`) as action rows, in the rows a plain
    message would show them in (the same components, so their custom ids are unchanged)."""
    legacy = controls_view(view)
    if legacy is None:
        return []
    items = {
        cast(discord.ui.DynamicItem[Any], i).custom_id: cast(discord.ui.Item[Any], i)
        for i in legacy.children
    }
    return [
        discord.ui.ActionRow(*(items[c["custom_id"]] for c in row["components"]))
        for row in legacy.to_components()
    ]


#: Texts a section holds beside its picture (Discord: one to three text displays).
SECTION_TEXTS = 3


def layout_of(
    groups: tuple[tuple[str, ...], ...],
    files: list[discord.File],
    rows: Sequence[discord.ui.ActionRow[discord.ui.LayoutView]] = (),
    *,
    framed: bool = False,
    thumbnail: str | None = None,
) -> discord.ui.LayoutView:
    """A Components V2 layout: one container holding the texts (each group set apart from the
    next by a separator), the pictures in a gallery (each shown from its attachment, with its
    alt text) and the controls in action rows, in that order. ``framed``: each group is a
    container of its own instead (as many components as the separators would be), the
    pictures and the controls in the last. ``thumbnail``: a picture's address, shown beside
    the first group (a section, whose texts are one to three: more are joined in its last)."""
    layout = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container()
    for i, group in enumerate(_fit(groups)):
        if i and framed:
            layout.add_item(container)
            container = discord.ui.Container()
        elif i:
            container.add_item(discord.ui.Separator())
        if i == 0 and thumbnail is not None:
            texts = [*group[: SECTION_TEXTS - 1], "\n".join(group[SECTION_TEXTS - 1 :])]
            section: discord.ui.Section[discord.ui.LayoutView] = discord.ui.Section(
                *(discord.ui.TextDisplay(t) for t in texts if t),
                accessory=discord.ui.Thumbnail(thumbnail),
            )
            container.add_item(section)
            continue
        for text in group:
            container.add_item(discord.ui.TextDisplay(text))
    if files:
        gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery(
            *(
                discord.MediaGalleryItem(f"attachment://{f.filename}", description=f.description)
                for f in files
            )
        )
        container.add_item(gallery)
    for row in rows:
        container.add_item(row)
    layout.add_item(container)
    return layout


async def _files(view: MessageView) -> list[discord.File]:
    files: list[discord.File] = []
    if view.board is not None:
        files.append(await board_attachment(view.board))
    files += [
        discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt_text)
        for p in view.pictures
    ]
    return files


def without_table(view: MessageView) -> MessageView:
    """``view`` without *Play at the table*: in a stage channel's chat, where Discord opens no
    Activity, the lobby and the deal's table do not offer it."""
    controls = view.controls
    if not isinstance(controls, LobbyControls) or TABLE_BUTTON not in controls.buttons:
        return view
    buttons = tuple(b for b in controls.buttons if b != TABLE_BUTTON)
    return dataclasses.replace(view, controls=dataclasses.replace(controls, buttons=buttons))


async def message_payload(
    view: MessageView, *, editing: bool, activity_here: bool = True
) -> dict[str, Any]:
    """``view`` as keyword arguments for discord.py: for a new message (``editing`` False:
    ``send``, ``send_message``) or an edit of one (``edit``, ``edit_message``,
    ``edit_original_response``), which also takes away what it no longer shows. A panel or a
    laid-out message (``view.style``) goes as a Components V2 layout, its text, pictures and
    controls inside it, with no content. ``activity_here``: Discord may open the Activity where
    it goes (not a stage channel: :func:`without_table`)."""
    if not activity_here:
        view = without_table(view)
    if view.style is not Style.TEXT:
        # Checked only for panels, so a laid-out message's controls are still built once.
        if view.style is Style.PANEL and controls_view(view) is not None:
            raise ValueError("A panel message carries no controls.")
        rows = _rows(view)
        files = await _files(view)
        groups = view.layout or ((view.content,),)
        framed = view.style is Style.FRAMED
        layout = layout_of(groups, files, rows, framed=framed, thumbnail=view.thumbnail)
        panel: dict[str, Any] = {"view": layout, "allowed_mentions": _mentions(view)}
        if editing:
            # No text beside the layout: a plain message laid out by this edit loses its own.
            panel["content"] = None
            panel["attachments"] = files
        elif files:
            panel["files"] = files
        return panel
    payload: dict[str, Any] = {"content": clip(view.content), "allowed_mentions": _mentions(view)}
    components = controls_view(view)
    if components is not None:
        payload["view"] = components
    elif editing:
        payload["view"] = None  # take away controls the message no longer has
    files = await _files(view)
    if editing:
        payload["attachments"] = files
    elif len(files) == 1:
        payload["file"] = files[0]
    elif files:
        payload["files"] = files
    return payload
