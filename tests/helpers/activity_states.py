"""One reader's Activity, as the page's server draws it (the core's drawing, what the bot said
as the page's HTML), for the tests that read it."""

from __future__ import annotations

from typing import Any

from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord
from bot.core.messages.activity import activity_state as drawn
from bot.web.pages import markdown_html

__all__ = ["activity_state"]


def activity_state(
    record: GameRecord | None, loaded: Loaded | None, viewer: int, **options: Any
) -> dict[str, Any]:
    """What ``viewer``'s Activity shows of ``record`` (:func:`bot.core.messages.activity.
    activity_state`, with ``options``), its markdown as the Activity's server sends it."""
    return drawn(record, loaded, viewer, html=markdown_html, **options)
