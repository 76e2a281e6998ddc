"""What every answer of the core must be, whatever was asked: a refusal one sentence, and an
answer Discord takes as it is (its text within 2,000 characters, its message within Discord's
limits once the Discord layer lays it out: components, select options, button labels, custom
ids, attachments)."""

from __future__ import annotations

from typing import Any

from bot.core.base.replies import Answer
from bot.core.base.views import MessageView, Style
from bot.discord.rendering import message_payload
from fakediscord.limits import COMPONENTS_V2, MAX_CONTENT, check_message

__all__ = ["MAX_ATTACHMENTS", "check_fits", "check_view_fits", "one_sentence"]

#: Files Discord takes on one message.
MAX_ATTACHMENTS = 10


def one_sentence(text: str) -> bool:
    """Whether ``text`` is a refusal as a player should read it: one line, a sentence."""
    return bool(text.strip()) and "\n" not in text and text.endswith((".", "!", "?"))


async def check_view_fits(view: MessageView) -> None:
    """``view`` as the Discord layer sends it passes Discord's checks (as the emulator makes
    them), and a plain message's text fits without the layer clipping it (a clipped answer
    loses its end: the core must write within the limit)."""
    if view.style is Style.TEXT:
        assert len(view.content) <= MAX_CONTENT, f"{len(view.content)} characters: {view.content!r}"
    payload = await message_payload(view, editing=False)
    files: list[Any] = list(payload.get("files") or ())
    if "file" in payload:
        files.append(payload["file"])
    assert len(files) <= MAX_ATTACHMENTS, len(files)
    layout = payload.get("view")
    components: list[dict[str, Any]] = layout.to_components() if layout is not None else []
    body: dict[str, Any] = {"components": components}
    if view.style is Style.TEXT:
        body["content"] = payload["content"]
    else:
        body["flags"] = COMPONENTS_V2
    check_message(body, has_files=bool(files))


async def check_fits(answer: Answer) -> None:
    """Every part of ``answer`` fits Discord: its reply (the text, or the message it is), the
    look it gives the clicked message, and its note."""
    reply = answer.reply
    assert len(reply.text) <= MAX_CONTENT, f"{len(reply.text)} characters: {reply.text!r}"
    assert len(answer.note or "") <= MAX_CONTENT
    for view in (reply.view, answer.update):
        if view is not None:
            await check_view_fits(view)
