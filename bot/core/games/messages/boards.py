"""The board picture a message names (:class:`~bot.core.base.views.BoardPicture`), drawn or
described: the pictures themselves know nothing of messages (:mod:`bot.core.pictures`)."""

from __future__ import annotations

from bot.core.base.views import BoardPicture
from bot.core.pictures.board import BoardState, Side, board_alt_text, board_picture
from bot.core.pictures.canvas import Picture

__all__ = ["board_alt", "draw_board"]


def _state(board: BoardPicture) -> BoardState:
    sides = tuple(
        Side(name, front, back) for name, (front, back) in zip(board.sides, board.pegs, strict=True)
    )
    return BoardState(
        sides,
        board.target,
        board.rule,
        board.dealer,
        board.winner,
        board.partners,
        board.chances,
    )


def draw_board(board: BoardPicture) -> Picture:
    """The picture of ``board`` (some 15 ms of work: draw it off the event loop)."""
    return board_picture(_state(board))


def board_alt(board: BoardPicture) -> str:
    """The alt text :func:`draw_board` gives ``board``'s picture, without drawing it."""
    return board_alt_text(_state(board))
