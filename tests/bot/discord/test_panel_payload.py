"""A panel message (Components V2) as discord.py's arguments: no content, one container with
the words and the pictures shown from their attachments, within Discord's limits."""

from __future__ import annotations

import pytest

from bot.core.base.views import BoardPicture, HandControls, MessageView, Style
from bot.discord.rendering import MAX_PANEL_TEXT, message_payload
from fakediscord.limits import COMPONENTS_V2, check_message

BOARD = BoardPicture(("Al", "Bea"), ((10, 4), (7, 0)), 121, dealer=0, chances=("55%", "45%"))


async def test_a_panel_holds_its_words_and_its_board() -> None:
    payload = await message_payload(
        MessageView("Deal 3", board=BOARD, style=Style.PANEL), editing=False
    )
    assert "content" not in payload
    layout = payload["view"]
    assert layout.has_components_v2()
    (container,) = layout.to_components()
    words, gallery = container["components"]
    assert container["type"] == 17 and words["type"] == 10 and words["content"] == "Deal 3"
    (picture,) = payload["files"]
    (item,) = gallery["items"]
    assert item["media"]["url"] == f"attachment://{picture.filename}"
    assert "Chances to win — Al: 55%, Bea: 45%" in item["description"]
    # What Discord is sent passes Discord's checks as the emulator makes them.
    check_message({"flags": COMPONENTS_V2, "components": layout.to_components()}, has_files=True)


async def test_long_words_are_cut_to_what_a_panel_takes() -> None:
    payload = await message_payload(MessageView("x" * 5000, style=Style.PANEL), editing=False)
    (container,) = payload["view"].to_components()
    (words,) = container["components"]
    assert len(words["content"]) == MAX_PANEL_TEXT and words["content"].endswith("…")
    assert "files" not in payload


async def test_an_edited_panel_lists_the_pictures_it_keeps() -> None:
    payload = await message_payload(
        MessageView("Deal 3", board=BOARD, style=Style.PANEL), editing=True
    )
    assert [f.filename for f in payload["attachments"]] == ["board.png"]


async def test_a_panel_carries_no_controls() -> None:
    controls = HandControls(game_id=1, kind="play", cards=(), pick=0, stamp=1)
    view = MessageView("x", controls=controls, style=Style.PANEL)
    with pytest.raises(ValueError, match="no controls"):
        await message_payload(view, editing=False)
