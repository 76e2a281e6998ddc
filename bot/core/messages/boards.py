"""The board picture a message names (:class:`~bot.core.base.views.BoardPicture`), drawn,
described or measured: what the Discord layer attaches and the pages show. The pictures
themselves know nothing of messages nor of the rules (:mod:`bot.core.pictures`), so the lines
the game's scale puts on the board are read from the rules value here."""

from __future__ import annotations

from bot.core.base.views import BoardPicture
from bot.core.pictures.board import BoardState, Side, board_alt_text, board_picture, picture_size
from bot.core.pictures.canvas import Picture
from engine.outcome import Scoring, final_scores
from engine.rules import Rules

__all__ = ["board_alt", "board_lines", "board_size", "draw_board", "warm_boards"]


def board_lines(rules: Rules) -> tuple[tuple[int, str], ...]:
    """The lines the board draws for a game by ``rules``, as ``(hole, name)``: its scale's
    (``"lurch"``, ``"skunk"``, ``"double skunk"``)."""
    return tuple((hole, kind.value.replace("_", " ")) for hole, kind in rules.lines)


def _state(board: BoardPicture) -> BoardState:
    # The winner's front peg in the game hole (a board has none past it), so its words say
    # the win as the result does: "won by 14" at 61-47, never by 15 at "62".
    fronts = final_scores([front for front, _ in board.pegs], board.winner, board.target)
    sides = tuple(
        Side(name, front, back)
        for name, front, (_, back) in zip(board.sides, fronts, board.pegs, strict=True)
    )
    # The picture names the game's target and scale; the lines are the rules' for them.
    scale = Rules(target=board.target, scoring=Scoring(board.rule))
    return BoardState(
        sides,
        board.target,
        board.rule,
        board.dealer,
        board.winner,
        board.partners,
        board.chances,
        board_lines(scale),
        next_deal=board.next_deal,
    )


def draw_board(board: BoardPicture) -> Picture:
    """The picture of ``board`` (some 15 ms of work: draw it off the event loop)."""
    return board_picture(_state(board))


def board_alt(board: BoardPicture) -> str:
    """The alt text :func:`draw_board` gives ``board``'s picture, without drawing it."""
    return board_alt_text(_state(board))


def board_size(board: BoardPicture) -> tuple[int, int]:
    """The width and height of ``board``'s picture, in pixels, without drawing it."""
    return picture_size(len(board.sides), board.target)


def warm_boards() -> None:
    """Load the fonts and PNG's encoder, and draw the empty boards of two and three sides to
    121, now (at start-up): a process's first board took some 47 ms more than the next, all
    of it in the first table of its first game."""
    for sides in (2, 3):
        draw_board(BoardPicture(tuple(f"{n}" for n in range(sides)), ((0, 0),) * sides, 121))
