"""A picture of the cribbage board: one track per side (two to five), both pegs of each side,
the game hole and the lurch or skunk lines.

The track is laid out in rows of thirty holes read left to right, every side's lane beside the
others' (so who is ahead shows at a glance): six rows for a game to 181, four for 121, two for
61. Holes are grouped in fives as on a wooden board; each lane has its own start hole, and one
game hole closes the last row. The header names each side with its score, up to three sides to
a line (four and five sides take two lines). The front peg stands at a side's score and the
back peg at the score before it, so the last score can be read off the board.

    >>> board = BoardState((Side("Al", 45, 38), Side("Bea", 60, 52)), dealer=0)
    >>> print(board_picture(board).alt_text)  # doctest: +NORMALIZE_WHITESPACE
    Cribbage board, game to 121, lurch line at 61: Al: 45 (was 38), Bea: 60 (was 52);
    Bea leads by 15. Al deals.
    >>> hole_centre(sides=2, target=121, side=1, score=45)  # where Bea's peg would stand on 45
    (384, 258)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.core.pictures.canvas import (
    FRAME,
    HOLE,
    INK,
    MUTED,
    RGB,
    SIDE_COLOURS,
    SIDE_SHAPES,
    WOOD,
    Picture,
    alt_text,
    draw_text,
    drawable,
    fit,
    framed,
    png_bytes,
    sprite,
    stamp,
    text_width,
    tint,
)

__all__ = [
    "LINE_COLOUR",
    "PEG_COLOURS",
    "BoardState",
    "Rule",
    "Side",
    "board_alt_text",
    "board_picture",
    "game_lines",
    "hole_centre",
    "name_lines",
    "picture_size",
]

Rule = Literal["lurch", "skunk"]

WIDTH = 800  # Discord shows it about 400 px wide: drawn at twice that, it stays sharp
ROW = 30  # holes in a row of the track
GROUP = 5  # holes in a group
PITCH = 20  # from one hole to the next
GROUP_GAP = 12  # the extra space between groups of five
ROW_SPAN = (ROW - 1) * PITCH + (ROW // GROUP - 1) * GROUP_GAP
FIRST_X = (WIDTH - ROW_SPAN) // 2
START_X = FIRST_X - 36
GAME_X = FIRST_X + ROW_SPAN + 36
HEADER = 118  # names and scores
HEADER_ROW = 100  # each further line of names and scores (four or five sides)
HEADER_COLUMNS = 3  # sides named on one line of the header, at most
#: The lengths of game a board is drawn for (a picture's own: a row of 30 holes per 30 points,
#: and the game hole; what a game is played to is its rules').
LENGTHS = (61, 121, 181)
#: Sides of more than one player (partners): two teams of two or three, or three teams of two.
MAX_PARTNER_SIDES = 3
LANE = 24  # one side's lane
ROW_GAP = 28  # above each row: hole numbers and line labels
BOTTOM = 18
LINE_X = FIRST_X - 16  # a line before the first hole of a row

LINE_COLOUR: RGB = (176, 18, 48)
PANEL: RGB = tint(WOOD, FRAME, 0.18)  # the track's inset, a shade darker than the header
WINNER_GOLD: RGB = (240, 200, 60)
# Each side's front peg is solid; its back peg is a pale version with a solid rim.
PEG_COLOURS: tuple[tuple[RGB, RGB], ...] = tuple(
    (colour, tint(colour, (255, 255, 255), 0.6)) for colour in SIDE_COLOURS
)
PEG = 21  # a front peg's size; the hollow back peg is a little smaller
HOLE_SIZE = 8
# A side's name in the header: one line, as large as fits, else two lines whose capitals
# (14 px tall) span the side's shape and whose descenders stop above the score.
ONE_LINE_SIZES = (28, 26, 24, 22, 20)
TWO_LINE_SIZE = 20
TWO_LINE_BASELINES = (32, 55)


@dataclass(frozen=True)
class Side:
    """One side of the board: a player, or partners (``"Al & Cy"``), with the score its front
    peg marks and the score before the last one (its back peg)."""

    name: str
    score: int
    previous: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.previous <= self.score:
            raise ValueError(
                f"{self.name}'s back peg ({self.previous}) must be between 0 and the score"
                f" ({self.score})."
            )


@dataclass(frozen=True)
class BoardState:
    """What the board shows: the sides (two to five; with ``partners``, teams: two or three
    of them), the target (61, 121 or 181), the rule for game points (``lurch`` or ``skunk``,
    which decides the lines), and optionally which side deals (for partners: whose crib it
    is) and which has won (by index into ``sides``), and each side's chance to win in words
    (``chances``: "64%"). With ``next_deal`` the dealer is the side that deals next (a
    deal's board after its show, beside the chances for that next deal): the picture marks
    it DEALS NEXT (or NEXT CRIB) and the words say so.

    ``lines`` are the lines to draw, as ``(hole, name)``: the game's, as its rules give them
    (the bot passes them); without them, the lines of the standard game (:func:`game_lines`).
    """

    sides: tuple[Side, ...]
    target: int = 121
    rule: Rule = "lurch"
    dealer: int | None = None
    winner: int | None = None
    partners: bool = False
    chances: tuple[str, ...] | None = None
    lines: tuple[tuple[int, str], ...] | None = None
    next_deal: bool = False

    @property
    def drawn_lines(self) -> tuple[tuple[int, str], ...]:
        """The lines drawn: :attr:`lines`, or the standard game's for the target and rule."""
        return game_lines(self.target, self.rule) if self.lines is None else self.lines

    def __post_init__(self) -> None:
        if not 2 <= len(self.sides) <= len(SIDE_COLOURS):
            raise ValueError(f"A board has two to {len(SIDE_COLOURS)} sides (partners share one).")
        if self.partners and len(self.sides) > MAX_PARTNER_SIDES:
            raise ValueError(f"Partners play as two or {MAX_PARTNER_SIDES} teams.")
        if self.target not in LENGTHS:
            raise ValueError("A game is played to 61, 121 or 181.")
        if self.rule not in ("lurch", "skunk"):
            raise ValueError("The rule for game points is lurch or skunk.")
        for which in (self.dealer, self.winner):
            if which is not None and not 0 <= which < len(self.sides):
                raise ValueError(f"There is no side {which}.")
        if any(side.previous >= self.target for side in self.sides):
            raise ValueError("A back peg cannot be in the game hole: the game would have ended.")
        if sum(side.score >= self.target for side in self.sides) > 1:
            raise ValueError("Only one side can reach the game hole.")
        if self.chances is not None and len(self.chances) != len(self.sides):
            raise ValueError("Each side has one chance to win.")

    def finished_by(self) -> int | None:
        """The side that won: the one named, else the one that reached the target."""
        if self.winner is not None:
            return self.winner
        return next((i for i, s in enumerate(self.sides) if s.score >= self.target), None)


def game_lines(target: int, rule: Rule) -> tuple[tuple[int, str], ...]:
    """The lines on the board of a standard game, as ``(hole, name)``: a loser whose score is
    short of ``hole`` is caught by the line (lurched, skunked, double skunked). (The bot draws
    the lines its game's rules give, :attr:`BoardState.lines`; a test keeps these the same as
    the standard game's.)"""
    if target == 61:
        return ((31, rule),)
    if rule == "lurch":
        return ((61, "lurch"),)
    return ((91, "skunk"), (61, "double skunk"))


def _rows(target: int) -> int:
    return (target - 1) // ROW


def _header_columns(sides: int) -> int:
    """How many sides the header names on one line: all of up to three; else half, rounded
    up (four sides two and two, five three and two)."""
    return sides if sides <= HEADER_COLUMNS else -(-sides // 2)


def _header_height(sides: int) -> int:
    lines = -(-sides // _header_columns(sides))
    return HEADER + (lines - 1) * HEADER_ROW


def _row_top(sides: int, row: int) -> int:
    return _header_height(sides) + row * (ROW_GAP + sides * LANE) + ROW_GAP


def picture_size(sides: int, target: int) -> tuple[int, int]:
    """The board picture's width and height in pixels."""
    return WIDTH, _row_top(sides, _rows(target)) - ROW_GAP + BOTTOM


def _column_x(index: int) -> int:
    return FIRST_X + index * PITCH + (index // GROUP) * GROUP_GAP


def hole_centre(sides: int, target: int, side: int, score: int) -> tuple[int, int]:
    """The pixel at the centre of the hole where ``side``'s peg stands at ``score``, on a board
    of ``sides`` sides played to ``target``: the side's start hole at 0, the game hole (shared
    by all) at ``target`` or beyond."""
    if not 0 <= side < sides:
        raise ValueError(f"There is no side {side}.")
    rows = _rows(target)
    if score >= target:
        return GAME_X, _row_top(sides, rows - 1) + sides * LANE // 2
    if score <= 0:
        return START_X, _row_top(sides, 0) + side * LANE + LANE // 2
    row, column = divmod(score - 1, ROW)
    return _column_x(column), _row_top(sides, row) + side * LANE + LANE // 2


def _lane_colour(side: int) -> RGB:
    return tint(SIDE_COLOURS[side], (255, 255, 255), 0.62)


@lru_cache(maxsize=16)
def _empty_board(sides: int, target: int, drawn: tuple[tuple[int, str], ...]) -> Image.Image:
    """The board without pegs or names: it is the same for every game of a kind, so it is
    drawn once and copied."""
    image, draw = framed(picture_size(sides, target), WOOD)
    width, height = image.size
    top = _header_height(sides) - 4
    draw.rounded_rectangle((12, top, width - 13, height - 13), radius=12, fill=PANEL)
    rows = _rows(target)
    hole = sprite("circle", HOLE_SIZE, HOLE, HOLE, 1)
    lines = dict(drawn)
    for row in range(rows):
        top = _row_top(sides, row)
        left = (START_X if row == 0 else FIRST_X) - 14
        right = _column_x(ROW - 1) + 14
        for side in range(sides):
            lane = (left, top + side * LANE + 2, right, top + (side + 1) * LANE - 2)
            draw.rounded_rectangle(lane, radius=9, fill=_lane_colour(side))
        for column in (9, 19, 29):
            label = str(row * ROW + column + 1)
            draw_text(draw, (_column_x(column), top - 7), label, 16, MUTED, "ms")
        for column in range(ROW):
            for side in range(sides):
                stamp(image, hole, hole_centre(sides, target, side, row * ROW + column + 1))
        first = row * ROW + 1
        if first in lines:
            _draw_line(draw, top, sides, lines[first])
    for side in range(sides):
        stamp(image, hole, hole_centre(sides, target, side, 0))
    game_x, game_y = hole_centre(sides, target, 0, target)
    top = _row_top(sides, rows - 1)
    plate = (game_x - 17, top + 2, game_x + 17, top + sides * LANE - 2)
    draw.rounded_rectangle(plate, radius=12, fill=tint(WINNER_GOLD, PANEL, 0.35))
    stamp(image, sprite("circle", 20, HOLE, HOLE, 1), (game_x, game_y))
    draw_text(draw, (game_x, top - 7), str(target), 17, INK, "ms")
    return image


def _draw_line(draw: ImageDraw.ImageDraw, top: int, sides: int, name: str) -> None:
    bottom = top + sides * LANE
    bars = (LINE_X - 3, LINE_X + 3) if name == "double skunk" else (LINE_X,)
    for x in bars:
        draw.line((x, top - 20, x, bottom + 2), fill=LINE_COLOUR, width=3)
    draw_text(draw, (LINE_X + 8, top - 7), name.capitalize(), 17, LINE_COLOUR)


def _draw_pegs(image: Image.Image, board: BoardState) -> None:
    count = len(board.sides)
    for index, side in enumerate(board.sides):
        (colour, pale), shape = PEG_COLOURS[index], SIDE_SHAPES[index]
        front = hole_centre(count, board.target, index, side.score)
        back = hole_centre(count, board.target, index, side.previous)
        if back != front:
            stamp(image, sprite(shape, PEG - 2, pale, colour, 3), back)
        size = PEG + 6 if side.score >= board.target else PEG
        stamp(image, sprite(shape, size, colour, INK, 1.6), front)


def _column_width(sides: int) -> int:
    """A side's column in the header of a board of ``sides`` sides."""
    return (WIDTH - 40) // _header_columns(sides)


def _name_room(sides: int) -> int:
    """How wide, in pixels, a side's name may be drawn in the header of a board of ``sides``
    sides: its column, less the side's shape before the name and a gutter after it."""
    return _column_width(sides) - 46


def _break(name: str, size: int, room: int) -> tuple[str, str] | None:
    """``name`` broken at a space into two lines of ``size`` pixels, or None when it has no
    space. Partners break at their "&" (after it, else before it) when both lines then fit
    in ``room``, so that each line names one player; otherwise the break that makes the
    longer line shortest."""
    words = name.split(" ")
    breaks = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    at_and = [b for b in breaks if b[0].endswith(" &")] + [b for b in breaks if b[1][:2] == "& "]
    for lines in at_and:
        if max(text_width(line, size) for line in lines) <= room:
            return lines
    if not breaks:
        return None
    return min(breaks, key=lambda lines: max(text_width(line, size) for line in lines))


def name_lines(name: str, sides: int) -> tuple[int, tuple[str, ...]]:
    """The size and the lines a side's ``name`` (already :func:`drawable`) is drawn in, in the
    header of a board of ``sides`` sides: one line, as large as fits from 28 pixels down to
    20; else two lines of 20 (partners one to a line); only a name too long for that (two
    lines of some 20 letters in a column of three) is cut, with an ellipsis. So every
    computer seat's name ("Medium bot 3 & Medium bot 4") and most people's read whole."""
    room = _name_room(sides)
    for size in ONE_LINE_SIZES:
        if text_width(name, size) <= room:
            return size, (name,)
    lines = _break(name, TWO_LINE_SIZE, room)
    if lines is None:
        return ONE_LINE_SIZES[-1], (fit(name, ONE_LINE_SIZES[-1], room),)
    return TWO_LINE_SIZE, tuple(fit(line, TWO_LINE_SIZE, room) for line in lines)


def _draw_name(draw: ImageDraw.ImageDraw, left: int, top: int, name: str, sides: int) -> None:
    size, lines = name_lines(name, sides)
    if len(lines) == 1:
        # Capitals stand about 0.7 of the size tall: centred on the side's shape at y 36.
        draw_text(draw, (left, top + 36 + round(size * 0.35)), lines[0], size, INK, bold=True)
        return
    for row, line in enumerate(lines):
        draw_text(draw, (left, top + TWO_LINE_BASELINES[row]), line, size, INK, bold=True)


def _draw_header(image: Image.Image, board: BoardState) -> None:
    draw = ImageDraw.Draw(image)
    count = len(board.sides)
    column, per_line = _column_width(count), _header_columns(count)
    winner = board.finished_by()
    for index, side in enumerate(board.sides):
        line, place = divmod(index, per_line)
        left, top = 24 + place * column, line * HEADER_ROW
        colour, shape = SIDE_COLOURS[index], SIDE_SHAPES[index]
        stamp(image, sprite(shape, 26, colour, INK, 2), (left + 13, top + 36))
        _draw_name(draw, left + 34, top, drawable(side.name, f"Player {index + 1}"), count)
        score = str(side.score)
        draw_text(draw, (left, top + 100), score, 50, INK, bold=True)
        x = left + text_width(score, 50) + 8
        if side.score > side.previous:
            gain = f"+{side.score - side.previous}"
            draw_text(draw, (x, top + 98), gain, 24, MUTED)
            x += text_width(gain, 24) + 10
        chance = ""
        if board.chances is not None and winner is None:
            chance = f"{board.chances[index]} to win"
            # Right-aligned in the side's column, on the score's baseline.
            draw_text(draw, (left + column - 12, top + 98), chance, 22, INK, "rs")
        room = left + column - 8 - (text_width(chance, 22) + 12 if chance else 0)
        badges = _badges(board, index, winner)
        # The longest badge that fits ("DEALS NEXT", else "DEALER"): none if neither does.
        badge = next((b for b in badges if x + text_width(b, 16) + 12 <= room), "")
        if badge:
            fill = WINNER_GOLD if badge == "WON" else WOOD
            box = (x, top + 78, x + text_width(badge, 16) + 12, top + 100)
            draw.rounded_rectangle(box, radius=6, fill=fill, outline=INK, width=2)
            draw_text(draw, (x + 6, top + 95), badge, 16, INK, bold=True)


def _badges(board: BoardState, index: int, winner: int | None) -> tuple[str, ...]:
    """The badges a side's header may carry, longest first: WON, or the dealer's (the side
    that deals next, after a deal's show)."""
    if winner == index:
        return ("WON",)
    if board.dealer != index:
        return ()
    if board.partners:
        return ("NEXT CRIB", "CRIB") if board.next_deal else ("CRIB",)
    return ("DEALS NEXT", "DEALER") if board.next_deal else ("DEALER",)


def _lead(board: BoardState) -> str:
    ranked = sorted(board.sides, key=lambda s: s.score, reverse=True)
    winner = board.finished_by()
    if winner is not None:
        name = board.sides[winner].name
        if board.sides[winner] is ranked[0] and ranked[0].score > ranked[1].score:
            return f"{name} won by {ranked[0].score - ranked[1].score}"
        return f"{name} won"
    if ranked[0].score == ranked[1].score:
        level = [s.name for s in ranked if s.score == ranked[0].score]
        if len(level) == len(ranked):
            return "all level" if len(level) > 2 else "level"
        return f"{' and '.join(level)} lead together"
    verb = "lead" if board.partners else "leads"
    return f"{ranked[0].name} {verb} by {ranked[0].score - ranked[1].score}"


def _describe(board: BoardState) -> str:
    lines = board.drawn_lines
    marks = " and ".join(f"{name} line at {hole}" for hole, name in lines)
    # Each score set apart from its name (a name may end in a number: "Hard bot 2: 14").
    scores = ", ".join(
        f"{side.name}: {side.score}"
        + (f" (was {side.previous})" if side.previous != side.score else "")
        for side in board.sides
    )
    text = f"Cribbage board, game to {board.target}, {marks}: {scores}; {_lead(board)}."
    if board.dealer is not None and board.finished_by() is None:
        dealer = board.sides[board.dealer].name
        if board.next_deal:
            text += f" {dealer} have the next crib." if board.partners else f" {dealer} deals next."
        else:
            text += f" {dealer} have the crib." if board.partners else f" {dealer} deals."
    if board.chances is not None and board.finished_by() is None:
        said = ", ".join(f"{s.name}: {c}" for s, c in zip(board.sides, board.chances, strict=True))
        text += f" Chances to win — {said}."
    return text


#: The latest boards drawn, kept: a table's message is sent again with its board as it was
#: whenever something else in it changes (a hand's turn, a line of the log), and its picture
#: took some 15 ms of a core each time (in end-to-end games, half the boards a bot drew were
#: one it had drawn before). Some 20 KB each.
BOARDS_KEPT = 64


@lru_cache(maxsize=BOARDS_KEPT)
def board_picture(board: BoardState) -> Picture:
    """The board as a PNG with its alt text (the scores in words): the same picture for the
    same board (the latest :data:`BOARDS_KEPT` are kept)."""
    image = _empty_board(len(board.sides), board.target, board.drawn_lines).copy()
    _draw_header(image, board)
    _draw_pegs(image, board)
    return Picture(png_bytes(image), alt_text(_describe(board)), "board.png")


def board_alt_text(board: BoardState) -> str:
    """The alt text :func:`board_picture` gives ``board``, without drawing it."""
    return alt_text(_describe(board))
