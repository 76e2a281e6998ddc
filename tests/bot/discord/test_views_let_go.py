"""A view sent as an ephemeral answer is let go once sent (issue 33, the soak): discord.py
keeps such a view, with a task, for 15 minutes, though every control the bot sends is a
dynamic item dispatched by its custom id alone. A view with any other kind of control is
left as it is."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.components import ConfirmButton
from bot.discord.interactions import _let_go


async def test_a_view_of_dynamic_items_is_stopped_once_sent() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(3, "resign", True))
    view.add_item(ConfirmButton(3, "resign", False))
    kwargs: dict[str, Any] = {"content": "Resign?", "view": view}
    _let_go(kwargs)
    assert view.is_finished()


async def test_a_view_with_another_control_is_left_alone() -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="plain", custom_id="plain"))
    _let_go({"view": view})
    assert not view.is_finished()
    _let_go({"content": "no view"})  # (nothing to let go)
