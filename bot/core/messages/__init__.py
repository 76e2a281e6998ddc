"""The messages a game keeps: the table in the channel, each player's hand, the lobby, a private
table's copies, and the pictures they name, drawn from the stored game for the ledger.

This package's names are the wing's face to the other views of a game, the game pages and the
Activity, which draw what the messages draw (the same words, controls, board and chances) and
to the Discord layer's rendering: :func:`draw_board`, :func:`board_alt`, :func:`picture_size`,
:func:`deal_text`, :func:`result_line`, :func:`title_of`, :func:`table_seen`,
:func:`controls_for`, :func:`coach_text`, :func:`owes_move`, :func:`ratings_line`,
:func:`chances`, a result's :func:`again_of` and :func:`series_text`, the lobby's
:func:`partners_text`, :func:`teams_text` and :func:`table_kind`, the lobby as one
person at their own table sees it (:func:`lobby_seen`), and the limits
:data:`MAX_LAID_OUT` and :data:`HAND_BUTTON`.
"""

from __future__ import annotations

from bot.core.base.choices import FEWEST_AT_A_TABLE
from bot.core.base.views import HAND_BUTTON, MAX_LAID_OUT
from bot.core.games.chances import chances
from bot.core.games.everyone import lobby_seen
from bot.core.games.lobby import partners_text, table_kind, teams_text
from bot.core.games.series import again_of, series_text
from bot.core.messages.boards import board_alt, draw_board
from bot.core.messages.game_messages import ratings_line
from bot.core.messages.hand import coach_text
from bot.core.messages.projection import owes_move
from bot.core.messages.prompts import controls_for
from bot.core.messages.spectator import TableSeen, table_seen, title_of
from bot.core.messages.table import deal_text, result_line
from bot.core.pictures.board import picture_size

__all__ = [
    "FEWEST_AT_A_TABLE",
    "HAND_BUTTON",
    "MAX_LAID_OUT",
    "TableSeen",
    "again_of",
    "board_alt",
    "chances",
    "coach_text",
    "controls_for",
    "deal_text",
    "draw_board",
    "lobby_seen",
    "owes_move",
    "partners_text",
    "picture_size",
    "ratings_line",
    "result_line",
    "series_text",
    "table_kind",
    "table_seen",
    "teams_text",
    "title_of",
]
