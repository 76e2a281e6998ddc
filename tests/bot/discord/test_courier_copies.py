"""A post made again after a crash, with the nonce of one Discord already made, gives back that
earlier message: the courier keeps what it should show only if the copy shows it. A laid-out
message (Components V2) has no content, so its text displays are what is compared: a table
posted at an earlier moment of the deal must be edited, not taken as current."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.core.base.views import MessageView, laid_out
from bot.discord.courier import _same
from bot.discord.rendering import message_payload


def _copy_of(payload: dict[str, Any]) -> discord.Message:
    """The message Discord gives back for ``payload`` (what the courier reads of it)."""
    view = payload.get("view")
    components = list(view.children) if view is not None else []
    return cast(
        discord.Message,
        SimpleNamespace(content=payload.get("content", ""), components=components, attachments=[]),
    )


def _table(*calls: str) -> MessageView:
    return laid_out((("**Deal 3**", *calls),))


async def test_a_copy_showing_the_same_layout_is_kept_as_it_is() -> None:
    payload = await message_payload(_table("Al plays 5♥ — fifteen for 2"), editing=False)
    assert _same(_copy_of(payload), payload)


async def test_a_copy_laid_out_at_an_earlier_moment_is_edited() -> None:
    earlier = await message_payload(_table("Waiting for Al and Bea to discard."), editing=False)
    payload = await message_payload(_table("Al plays 5♥ — fifteen for 2"), editing=False)
    assert not _same(_copy_of(earlier), payload)


async def test_a_plain_copy_with_other_words_is_edited() -> None:
    earlier = await message_payload(MessageView("Waiting for Al."), editing=False)
    payload = await message_payload(MessageView("Al plays 5♥."), editing=False)
    assert not _same(_copy_of(earlier), payload)
