"""The board picture shows what the scores say: each side's front peg at its score and back peg
at the score before, every other hole empty, the lines the game's rule draws, and alt text
with the scores in words. Pixels are read back from the PNG."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.core.base.choices import level_name
from bot.core.games.computer import LEVELS
from bot.core.messages.boards import board_lines
from bot.core.pictures import board as board_module
from bot.core.pictures.board import (
    LINE_COLOUR,
    PEG_COLOURS,
    WINNER_GOLD,
    BoardState,
    Rule,
    Side,
    board_picture,
    game_lines,
    hole_centre,
    name_lines,
    picture_size,
)
from bot.core.pictures.canvas import HOLE, WOOD, draw_text, drawable
from engine.outcome import Scoring
from engine.rules import Rules
from tests.helpers.pixels import colours, near, read_png

ROW = 30  # holes in a row of the track


def pixels(board: BoardState) -> Image.Image:
    image = read_png(board_picture(board).png)
    assert image.size == picture_size(len(board.sides), board.target)
    return image


def what_is_in(image: Image.Image, board: BoardState, side: int, score: int) -> str:
    """``"front"``, ``"back"``, ``"empty"`` or ``"other"``: what the hole's centre shows."""
    centre = hole_centre(len(board.sides), board.target, side, score)
    front, back = PEG_COLOURS[side]
    for name, colour in (("front", front), ("back", back), ("empty", HOLE)):
        if near(image, centre, colour):
            return name
    return "other"


def expected_holes(board: BoardState) -> dict[tuple[int, int], str]:
    """Every (side, hole) on the board, hole 0 the start and ``target`` the game hole, with
    what it should hold."""
    expected = {
        (side, hole): "empty" for side in range(len(board.sides)) for hole in range(board.target)
    }
    for index, side in enumerate(board.sides):
        if side.previous != side.score:
            expected[index, min(side.previous, board.target)] = "back"
        expected[index, min(side.score, board.target)] = "front"
    return expected


def check_every_hole(board: BoardState) -> None:
    image = pixels(board)
    wrong = {
        where: (want, got)
        for where, want in expected_holes(board).items()
        if (got := what_is_in(image, board, *where)) != want
    }
    assert wrong == {}
    # The game hole is shared: empty unless a side got there.
    game = hole_centre(len(board.sides), board.target, 0, board.target)
    reached = [i for i, side in enumerate(board.sides) if side.score >= board.target]
    assert near(image, game, PEG_COLOURS[reached[0]][0] if reached else HOLE)


#: Five players' pegs: the first hole, a row's end and start, the last hole, and the start.
FIVE_PEGS = (("Al", 1, 0), ("Bea", 30, 29), ("Cy", 31, 30), ("Dee", 60, 44), ("Eve", 0, 0))


@pytest.mark.parametrize(
    "board",
    [
        BoardState((Side("Al", 45, 38), Side("Bea", 60, 52))),
        BoardState((Side("Al", 1, 0), Side("Bea", 30, 29))),  # first hole, end of a row
        BoardState((Side("Al", 31, 30), Side("Bea", 120, 91))),  # a row's start, the last hole
        BoardState((Side("Al", 92, 80), Side("Bea", 67, 60), Side("Cy", 0, 0)), rule="skunk"),
        BoardState((Side("Al & Cy", 88, 76), Side("Bea & Dee", 101, 97)), dealer=1, partners=True),
        BoardState((Side("Al", 44, 40), Side("Bea", 60, 58)), target=61),
        BoardState((Side("Al", 17, 5), Side("Bea", 33, 31), Side("Cy", 59, 50)), target=61),
        BoardState((Side("Al", 150, 139), Side("Bea", 91, 80)), target=181),
        BoardState(
            tuple(Side(n, s, p) for n, s, p in FIVE_PEGS), dealer=4, target=121, rule="skunk"
        ),
        BoardState(tuple(Side(n, s, p) for n, s, p in FIVE_PEGS), target=61),
        BoardState(
            (Side("Al & Cy & Eve", 88, 76), Side("Bea & Dee & Fay", 101, 97)), partners=True
        ),
        BoardState(
            (Side("Al & Dee", 88, 76), Side("Bea & Eve", 101, 97), Side("Cy & Fay", 4, 2)),
            dealer=2,
            partners=True,
        ),
    ],
    ids=[
        "two",
        "row-ends",
        "row-starts",
        "three",
        "partners",
        "61",
        "three-61",
        "181",
        "five",
        "five-61",
        "two-teams-of-three",
        "three-teams-of-two",
    ],
)
def test_each_peg_stands_in_its_hole_and_every_other_hole_is_empty(board: BoardState) -> None:
    check_every_hole(board)


def test_at_nought_both_pegs_are_in_the_start_holes() -> None:
    board = BoardState((Side("Al", 0, 0), Side("Bea", 0, 0), Side("Cy", 0, 0)))
    image = pixels(board)
    for side in range(3):
        assert what_is_in(image, board, side, 0) == "front"
        assert what_is_in(image, board, side, 1) == "empty"
    check_every_hole(board)


def test_a_first_score_leaves_the_back_peg_at_the_start() -> None:
    board = BoardState((Side("Al", 6, 0), Side("Bea", 0, 0)))
    image = pixels(board)
    assert what_is_in(image, board, 0, 0) == "back"
    assert what_is_in(image, board, 0, 6) == "front"


@pytest.mark.parametrize(
    ("target", "score"), [(121, 121), (121, 125), (61, 61), (61, 66), (181, 181), (181, 190)]
)
def test_a_side_that_goes_past_the_target_stands_in_the_game_hole(target: int, score: int) -> None:
    board = BoardState((Side("Al", 50, 40), Side("Bea", score, target - 7)), target=target)
    image = pixels(board)
    game = hole_centre(2, target, 1, score)
    assert game == hole_centre(2, target, 0, target) == hole_centre(2, target, 1, 9_999)
    assert near(image, game, PEG_COLOURS[1][0])
    assert what_is_in(image, board, 1, target - 7) == "back"
    check_every_hole(board)


def line_rows(board: BoardState, hole: int) -> list[tuple[int, int]]:
    """Pixels just before ``hole`` (a row's first hole) across every lane: where its line
    would be drawn."""
    sides = len(board.sides)
    pixels_before: list[tuple[int, int]] = []
    for side in range(sides):
        x, y = hole_centre(sides, board.target, side, hole)
        pixels_before += [(x - dx, y) for dx in range(8, 24)]
    return pixels_before


@pytest.mark.parametrize(
    ("target", "rule", "lines"),
    [
        (121, "lurch", {61}),
        (121, "skunk", {61, 91}),
        (61, "lurch", {31}),
        (61, "skunk", {31}),
    ],
)
def test_the_lines_stand_where_the_rule_puts_them(target: int, rule: Rule, lines: set[int]) -> None:
    assert {hole for hole, _ in game_lines(target, rule)} == lines
    for sides in (2, 3, 5):
        board = BoardState(tuple(Side(n, 0) for n in "ABCDE"[:sides]), target=target, rule=rule)
        image = pixels(board)
        for first in range(ROW + 1, target, ROW):
            before = line_rows(board, first)
            # Every lane is crossed by the line (or by neither of the two bars).
            crossed = {y for x, y in before if near(image, (x, y), LINE_COLOUR)}
            lanes = {y for _, y in before}
            assert crossed == (lanes if first in lines else set()), (sides, first)


def test_the_double_skunk_line_is_doubled() -> None:
    board = BoardState((Side("Al", 0), Side("Bea", 0)), rule="skunk")
    image = pixels(board)

    def bars(hole: int) -> int:
        x, y = hole_centre(2, 121, 0, hole)
        row = [near(image, (x - dx, y), LINE_COLOUR) for dx in range(24, 6, -1)]
        return sum(1 for a, b in zip([False, *row], row, strict=False) if b and not a)

    assert bars(61) == 2  # double skunk
    assert bars(91) == 1  # skunk


def test_the_winner_is_marked_in_gold_and_nobody_else_is() -> None:
    def gold(board: BoardState) -> int:
        image = pixels(board)
        header = image.crop((0, 0, image.width, 110))
        return sum(
            count for count, colour in header.getcolors(1 << 16) or [] if colour == WINNER_GOLD
        )

    playing = BoardState((Side("Al", 100, 90), Side("Bea", 110, 104)), dealer=0)
    won = BoardState((Side("Al", 100, 90), Side("Bea", 121, 110)))
    resigned = BoardState((Side("Al", 100, 90), Side("Bea", 110, 104)), winner=0)
    assert gold(playing) == 0
    assert gold(won) > 50
    assert gold(resigned) > 50


def test_a_long_name_is_cut_to_its_column() -> None:
    long = "W" * 60
    board = BoardState((Side(long, 5), Side("Bea", 7), Side("Cy", 9)))
    image = pixels(board)
    # Between the first and second columns (see board._draw_header) only wood shows.
    column = (image.width - 40) // 3
    gutter = image.crop((24 + column - 6, 10, 24 + column, 105))
    assert colours(gutter) == {WOOD}


def test_names_are_drawn_with_what_the_font_has() -> None:
    assert drawable("Zoë", "Player 1") == "Zoe"
    assert drawable("Renée  &  José", "Player 1") == "Renee & Jose"
    assert drawable("王小明", "Player 2") == "Player 2"
    assert drawable("🎲🎲", "Player 2") == "Player 2"
    assert drawable("Al 🎲", "Player 1") == "Al"


@pytest.mark.parametrize(
    ("board", "words"),
    [
        (
            BoardState((Side("Al", 45, 38), Side("Bea", 60, 52))),
            "Cribbage board, game to 121, lurch line at 61: Al: 45 (was 38), Bea: 60 (was 52);"
            " Bea leads by 15.",
        ),
        (
            BoardState((Side("Al", 0), Side("Bea", 0)), target=61, rule="skunk", dealer=1),
            "Cribbage board, game to 61, skunk line at 31: Al: 0, Bea: 0; level. Bea deals.",
        ),
        (
            BoardState((Side("Al", 92, 80), Side("Bea", 92, 88), Side("Cy", 3)), rule="skunk"),
            "Cribbage board, game to 121, skunk line at 91 and double skunk line at 61:"
            " Al: 92 (was 80), Bea: 92 (was 88), Cy: 3 (was 0); Al and Bea lead together.",
        ),
        (
            BoardState(
                (Side("Al & Cy", 125, 116), Side("Bea & Dee", 58, 50)), dealer=0, partners=True
            ),
            "Cribbage board, game to 121, lurch line at 61: Al & Cy: 125 (was 116),"
            " Bea & Dee: 58 (was 50); Al & Cy won by 67.",
        ),
        (
            BoardState(
                (Side("Al & Cy", 77, 70), Side("Bea & Dee", 84, 76)), dealer=1, partners=True
            ),
            "Cribbage board, game to 121, lurch line at 61: Al & Cy: 77 (was 70),"
            " Bea & Dee: 84 (was 76); Bea & Dee lead by 7. Bea & Dee have the crib.",
        ),
        (
            BoardState((Side("Al", 40, 30), Side("Bea", 70, 66)), winner=0),
            "Cribbage board, game to 121, lurch line at 61: Al: 40 (was 30), Bea: 70 (was 66);"
            " Al won.",
        ),
    ],
    ids=["leading", "level", "joint-lead", "partners-won", "partners-leading", "resigned"],
)
def test_the_alt_text_says_the_scores_in_words(board: BoardState, words: str) -> None:
    assert board_picture(board).alt_text == words


def test_the_alt_text_keeps_names_as_they_are_and_within_discords_limit() -> None:
    board = BoardState((Side("王小明" * 400, 3), Side("Zoë", 5)))
    words = board_picture(board).alt_text
    assert words.startswith("Cribbage board, game to 121, lurch line at 61: 王小明王小明")
    assert len(words) == 1024


@pytest.mark.parametrize(
    "make",
    [
        lambda: BoardState((Side("Al", 1),)),
        lambda: BoardState(tuple(Side(n, 1) for n in "ABCDEF")),
        lambda: BoardState(tuple(Side(n, 1) for n in "ABCD"), partners=True),
        lambda: BoardState((Side("Al", 1), Side("Bea", 2)), target=100),
        lambda: BoardState((Side("Al", 1), Side("Bea", 2)), target=241),
        lambda: BoardState((Side("Al", 1), Side("Bea", 2)), rule="double"),  # type: ignore[arg-type]
        lambda: BoardState((Side("Al", 1), Side("Bea", 2)), dealer=2),
        lambda: BoardState((Side("Al", 121, 119), Side("Bea", 122, 110))),
        lambda: BoardState((Side("Al", 130, 121), Side("Bea", 2))),
        lambda: Side("Al", 5, 7),
        lambda: Side("Al", -1, 0),
        lambda: hole_centre(2, 121, 2, 5),
    ],
)
def test_impossible_boards_are_refused(make: object) -> None:
    assert callable(make)
    with pytest.raises(ValueError):
        make()


def test_the_largest_board_stays_small() -> None:
    board = BoardState(
        (Side("Beatrice Longname", 119, 101), Side("Al & Cy", 90, 88), Side("Dee", 60, 59)),
        rule="skunk",
        dealer=2,
    )
    assert len(board_picture(board).png) < 150_000
    five = BoardState(
        tuple(Side(f"{n} Longname", 119, 101) for n in ("Al", "Bea", "Cy", "Dee", "Eve")),
        dealer=2,
    )
    assert len(board_picture(five).png) < 250_000


def test_a_seven_card_board_has_six_rows_and_its_lurch_line_at_91() -> None:
    rules = Rules(target=181)
    board = BoardState((Side("Al", 0), Side("Bea", 0)), target=181, lines=board_lines(rules))
    assert board.drawn_lines == ((91, "lurch"),)
    image = pixels(board)
    for first in range(ROW + 1, 181, ROW):
        crossed = {y for x, y in line_rows(board, first) if near(image, (x, y), LINE_COLOUR)}
        assert bool(crossed) == (first == 91), first
    # Six rows of holes: the last one's holes end at 180, the game hole after them.
    assert hole_centre(2, 181, 0, 180)[1] > hole_centre(2, 181, 0, 150)[1]
    assert hole_centre(2, 181, 0, 181)[0] > hole_centre(2, 181, 0, 180)[0]


def test_four_or_five_sides_are_named_on_two_lines_of_the_header() -> None:
    board = BoardState(tuple(Side(n, s, p) for n, s, p in FIVE_PEGS), dealer=3)
    image = pixels(board)
    # Each side's shape, in its colour, where its column of the header puts it: three on the
    # first line, two on the second.
    column = (image.width - 40) // 3
    for index in range(5):
        line, place = divmod(index, 3)
        assert near(image, (24 + place * column + 13, 36 + line * 100), PEG_COLOURS[index][0])
    # The track starts below both lines: the first hole of the first lane is under y 200.
    assert hole_centre(5, 121, 0, 1)[1] > 200


# Every name a computer seat can have: its level's name, numbered from the second on.
COMPUTER_NAMES = [
    name
    for level in LEVELS
    for name in (level_name(level), *(f"{level_name(level)} {n}" for n in range(2, 5)))
]
LONG_PERSON = "Bartholomew Fitzgerald-Smythe Jr"  # 32 characters, Discord's longest name


def drawn_names(board: BoardState, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each side's name as the header draws it: its lines (bold, above the scores) read in
    order and joined with a space."""
    lines: dict[float, list[str]] = {}

    def spy(
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        text: str,
        size: int,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        if kwargs.get("bold") and xy[1] < 64:  # the scores stand on y 100
            lines.setdefault(xy[0], []).append(text)
        draw_text(draw, xy, text, size, *args, **kwargs)

    monkeypatch.setattr(board_module, "draw_text", spy)
    board_picture.__wrapped__(board)  # (drawn, never one kept from before)
    return [" ".join(lines[x]) for x in sorted(lines)]


def test_a_board_drawn_before_is_the_same_picture_without_drawing_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = BoardState((Side("Al", 40, 31), Side("Bea", 52, 50)), dealer=0, chances=("4%", "96%"))
    again = BoardState((Side("Al", 40, 31), Side("Bea", 52, 50)), dealer=0, chances=("4%", "96%"))
    moved = BoardState((Side("Al", 42, 40), Side("Bea", 52, 50)), dealer=0, chances=("4%", "96%"))
    picture = board_picture(first)
    drawn: list[str] = []
    monkeypatch.setattr(board_module, "draw_text", lambda *a, **k: drawn.append(a[2]))
    assert board_picture(again) is picture and drawn == []
    other = board_picture(moved)
    assert drawn and other.png != picture.png and "42" in other.alt_text


@pytest.mark.parametrize(("first", "second"), list(itertools.product(LEVELS, repeat=2)))
def test_computer_partners_of_any_levels_are_named_whole(
    first: str, second: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "Medium bot & Medium bot 3" was drawn "Medium bot & Medium b…".
    names = (
        f"{level_name(first)} 3 & {level_name(second)} 4",
        f"{level_name(second)} & {level_name(first)} 2",
    )
    board = BoardState((Side(names[0], 40, 31), Side(names[1], 52, 50)), dealer=0, partners=True)
    assert drawn_names(board, monkeypatch) == list(names)
    assert all(name in board_picture(board).alt_text for name in names)


def test_every_pair_of_computer_names_fits_on_one_line() -> None:
    for first, second in itertools.permutations(COMPUTER_NAMES, 2):
        name = f"{first} & {second}"
        size, lines = name_lines(name, 2)
        assert lines == (name,) and size >= 20, name
    for alone in COMPUTER_NAMES:
        assert name_lines(alone, 3) == (28, (alone,))
        assert name_lines(f"{LONG_PERSON} & {alone}", 2)[1] in {
            (f"{LONG_PERSON} &", alone),
            (LONG_PERSON, f"& {alone}"),
        }


@pytest.mark.parametrize(
    "board",
    [
        BoardState((Side(LONG_PERSON, 3), Side("Bea", 5))),
        BoardState((Side(LONG_PERSON, 3), Side("Hard bot", 5), Side("Cy", 9)), dealer=0),
        BoardState(
            (Side(f"{LONG_PERSON} & Expert bot 2", 3), Side("Expert bot & Medium bot", 5)),
            dealer=0,
            partners=True,
            chances=("40%", "60%"),
        ),
    ],
    ids=["two", "three", "partners"],
)
def test_a_long_name_of_a_person_reads_whole_within_its_column(
    board: BoardState, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert drawn_names(board, monkeypatch) == [side.name for side in board.sides]
    image = pixels(board)
    column = (image.width - 40) // len(board.sides)
    for edge in range(1, len(board.sides)):  # only wood between the columns
        gutter = image.crop((24 + edge * column - 6, 10, 24 + edge * column, 105))
        assert colours(gutter) == {WOOD}
    # The names stop short of the scores, whose figures stand from y 64.
    assert colours(image.crop((12, 60, image.width - 12, 64))) == {WOOD}


@pytest.mark.parametrize("target", [121, 61])
@pytest.mark.parametrize("rule", ["lurch", "skunk"])
def test_the_pictures_own_lines_are_the_standard_games_rules(target: int, rule: Rule) -> None:
    # The bot draws the lines its game's rules give; a picture drawn without them shows the
    # standard game's, which must be the same.
    rules = Rules.standard(2, target=target, scoring=Scoring(rule))
    assert game_lines(target, rule) == board_lines(rules)
