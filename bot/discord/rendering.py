"""A message the core drew (:class:`~bot.core.messages.MessageView`) as discord.py's arguments.

One conversion for every way a message reaches Discord: an interaction's answer or update,
a post or an edit by the bot's token, a webhook's follow-up or edit. Posting attaches the
pictures; editing lists what the message keeps (so a picture or controls it no longer has are
taken away). Nobody is pinged unless the message says whom.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord

from bot.core.boards import draw_board
from bot.core.messages import BoardPicture, MessageView
from bot.core.render.text import MAX_MESSAGE
from bot.discord.components import controls_view

__all__ = ["board_attachment", "board_file", "clip", "message_payload"]


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
    return discord.AllowedMentions(users=[discord.Object(uid) for uid in view.mentions])


#: Characters Discord takes in all the text displays of a Components V2 message.
MAX_PANEL_TEXT = 4000


def _panel(view: MessageView, files: list[discord.File]) -> discord.ui.LayoutView:
    """A panel message (Components V2): one container holding the text and, below it, the
    pictures in a gallery (each shown from its attachment, with its alt text)."""
    text = view.content
    if len(text) > MAX_PANEL_TEXT:
        text = text[: MAX_PANEL_TEXT - 1] + "…"
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay(text)
    )
    if files:
        gallery: discord.ui.MediaGallery[discord.ui.LayoutView] = discord.ui.MediaGallery(
            *(
                discord.MediaGalleryItem(f"attachment://{f.filename}", description=f.description)
                for f in files
            )
        )
        container.add_item(gallery)
    layout = discord.ui.LayoutView(timeout=None)
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


async def message_payload(view: MessageView, *, editing: bool) -> dict[str, Any]:
    """``view`` as keyword arguments for discord.py: for a new message (``editing`` False:
    ``send``, ``send_message``) or an edit of one (``edit``, ``edit_message``,
    ``edit_original_response``), which also takes away what it no longer shows. A panel
    (``view.panel``) goes as a Components V2 layout, its text inside it, with no content."""
    if view.panel:
        if view.controls is not None or view.lobby is not None or view.pages is not None:
            raise ValueError("A panel message carries no controls.")
        files = await _files(view)
        panel: dict[str, Any] = {"view": _panel(view, files), "allowed_mentions": _mentions(view)}
        if editing:
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
