"""The stats charts draw what the data says: the rating line peaks at the best rating, the
provisional games are shaded, bar heights are in proportion to the points; empty, single,
huge and negative inputs still give a readable picture and words."""

from __future__ import annotations

import math
from itertools import product

import pytest
from PIL import Image

from bot.core.pictures.axes import decimals_for, label
from bot.core.pictures.canvas import PAPER, RGB, text_width
from bot.core.pictures.charts import (
    BEST,
    LINE,
    PLOT_BOTTOM,
    PLOT_RIGHT,
    PLOT_TOP,
    PROVISIONAL,
    SERVER,
    TICK_SIZE,
    PointsPerDeal,
    RatingPoint,
    bars_layout,
    points_chart,
    rating_chart,
    rating_layout,
)
from tests.helpers.pixels import colours, near, read_png
from tests.helpers.pixels import where as pixel_search

# The plot and the strip above it, where the best rating's label and the band's name go.
PLOT = (0, PLOT_TOP - 30, PLOT_RIGHT + 1, PLOT_BOTTOM + 1)


def where(image: Image.Image, colour: RGB) -> list[tuple[int, int]]:
    """Every pixel of the plot that is exactly ``colour``."""
    return pixel_search(image, colour, PLOT)


def history(ratings: list[float]) -> list[RatingPoint]:
    return [RatingPoint(game, rating) for game, rating in enumerate(ratings, start=1)]


def test_the_line_peaks_at_the_best_rating() -> None:
    points = history([1000, 1030, 1010, 1090, 1150, 1120, 1180, 1240, 1205, 1190, 1210])
    layout = rating_layout(points)
    image = read_png(rating_chart("Al", points, provisional_through=4).png)
    best = max(points, key=lambda p: p.rating)
    best_x, best_y = layout.x(best.game), layout.y(best.rating)
    gold = where(image, BEST)
    xs, ys = [x for x, _ in gold], [y for _, y in gold]
    assert abs((min(xs) + max(xs)) / 2 - best_x) <= 1
    assert abs((min(ys) + max(ys)) / 2 - best_y) <= 1
    # Nothing of the line rises above the best point's marker.
    line = where(image, LINE)
    assert min(y for _, y in line) >= min(ys)
    # The line passes through every other point, higher ratings higher up.
    for point in points:
        if point is not best:
            assert near(image, (layout.x(point.game), layout.y(point.rating)), LINE)
    heights = [layout.y(p.rating) for p in points]
    assert sorted(range(len(points)), key=lambda i: heights[i]) == sorted(
        range(len(points)), key=lambda i: -points[i].rating
    )


def test_the_provisional_games_are_shaded_and_the_rest_are_not() -> None:
    points = history([0, 8, 15, 19, 24, 26, 25, 29, 33, 30])
    layout = rating_layout(points)
    image = read_png(rating_chart("Al", points, provisional_through=4).png)
    shaded = {x for x, _ in where(image, PROVISIONAL)}
    assert shaded, "no provisional band"
    assert min(shaded) < layout.x(1) < layout.x(4) < max(shaded)
    assert max(shaded) < layout.x(5)
    unshaded = read_png(rating_chart("Al", points, provisional_through=0).png)
    assert where(unshaded, PROVISIONAL) == []


def test_no_games_gives_an_empty_chart_that_says_so() -> None:
    picture = rating_chart("Al", [])
    assert picture.alt_text == "Al has no rated games yet."
    image = read_png(picture.png)
    assert where(image, LINE) == [] and where(image, BEST) == []
    assert len(colours(image.crop((100, PLOT_TOP, 700, PLOT_BOTTOM)))) > 2  # the message


def test_one_game_is_one_point_in_the_middle() -> None:
    picture = rating_chart("Al", [RatingPoint(1, 1000)], provisional_through=4)
    assert picture.alt_text == "Al's rating after game 1: 1,000. Provisional through game 1."
    image = read_png(picture.png)
    gold = where(image, BEST)
    layout = rating_layout([RatingPoint(1, 1000)])
    middle_x = (layout.x.start + layout.x.end) / 2
    assert abs((min(x for x, _ in gold) + max(x for x, _ in gold)) / 2 - middle_x) <= 1


def test_from_the_first_game_the_line_starts_at_the_starting_rating() -> None:
    # Issue 25, item 10: after one loss the chart was one point labelled "best 963".
    after_a_loss = [RatingPoint(1, 963)]
    picture = rating_chart("Bea", after_a_loss, provisional_through=4, start=1000)
    assert picture.alt_text == (
        "Bea's rating: 1,000 at the start, 963 after game 1. Provisional through game 1."
    )
    image = read_png(picture.png)
    assert where(image, BEST) == [], "no best rating is marked: the start was higher"
    line = [RatingPoint(0, 1000), *after_a_loss]
    layout = rating_layout(line)
    for point in line:
        assert near(image, (layout.x(point.game), layout.y(point.rating)), LINE)
    assert layout.y(1000) < layout.y(963), "the start is drawn higher"
    # A win is marked as the best, above the start.
    won = rating_chart("Bea", [RatingPoint(1, 1040)], provisional_through=4, start=1000)
    assert won.alt_text.startswith("Bea's rating: 1,000 at the start, 1,040 after game 1.")
    gold = where(read_png(won.png), BEST)
    layout = rating_layout([RatingPoint(0, 1000), RatingPoint(1, 1040)])
    assert gold and abs((min(x for x, _ in gold) + max(x for x, _ in gold)) / 2 - layout.x(1)) <= 1
    several = rating_chart("Bea", history([963, 1010, 990]), start=1000).alt_text
    assert several == (
        "Bea's rating over 3 games: 1,000 at the start, 990 now;"
        " best 1,010 after game 2, lowest 963 after game 1."
    )


@pytest.mark.parametrize(
    "ratings",
    [
        [-5e11, 2e12, 9.9e14, -3.0],
        [-1200.0, -800.0, -1500.0],
        [1e15, -1e15],
        [0.001, 0.0012, 0.0011],
        [7.0, 7.0, 7.0],
    ],
    ids=["huge", "negative", "limits", "tiny", "flat"],
)
def test_any_finite_ratings_are_drawn_inside_the_frame(ratings: list[float]) -> None:
    points = history(ratings)
    picture = rating_chart("Al", points, provisional_through=1)
    image = read_png(picture.png)
    layout = rating_layout(points)
    best = max(points, key=lambda p: p.rating)
    assert PLOT_TOP <= layout.y(best.rating) <= PLOT_BOTTOM
    assert all(PLOT_TOP <= layout.y(p.rating) <= PLOT_BOTTOM for p in points)
    assert where(image, BEST)
    # The caption and the tick labels fit between the frame and the plot: nothing drawn
    # against the frame.
    margin = image.crop((8, PLOT_TOP - 12, 20, PLOT_BOTTOM + 12))
    assert colours(margin) == {PAPER}
    assert "best" in picture.alt_text and "lowest" in picture.alt_text


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 2e15])
def test_values_no_chart_can_place_are_refused(bad: float) -> None:
    with pytest.raises(ValueError):
        rating_chart("Al", history([1000, bad]))
    with pytest.raises(ValueError):
        points_chart("Al", PointsPerDeal(1, bad, 2), deals=5)


def test_ratings_out_of_game_order_are_refused() -> None:
    with pytest.raises(ValueError):
        rating_chart("Al", [RatingPoint(2, 1000), RatingPoint(1, 1010)])
    with pytest.raises(ValueError):
        rating_chart("Al", [RatingPoint(1, 1000), RatingPoint(1, 1010)])


def bar_height(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> int:
    """How many pixels of the bar's middle column are the bar's colour."""
    x = (box[0] + box[2]) // 2
    return sum(near(image, (x, y), colour) for y in range(PLOT_TOP - 30, PLOT_BOTTOM))


def test_bar_heights_are_in_proportion_to_the_points() -> None:
    mine, server = PointsPerDeal(3.9, 7.8, 4.1), PointsPerDeal(3.6, 7.6, 4.3)
    image = read_png(points_chart("Al", mine, deals=212, server=server).png)
    layout = bars_layout(mine, server)
    assert [(b.who, b.source) for b in layout.bars] == [
        ("player", "pegging"),
        ("server", "pegging"),
        ("player", "hand"),
        ("server", "hand"),
        ("player", "crib"),
        ("server", "crib"),
    ]
    heights = {
        (bar.who, bar.source): bar_height(image, bar.box, LINE if bar.who == "player" else SERVER)
        for bar in layout.bars
    }
    unit = heights["player", "hand"] / 7.8
    for bar in layout.bars:
        assert abs(heights[bar.who, bar.source] - bar.value * unit) <= 3, bar
        # Each bar ends where the axis puts its value (the axis's grid and labels use y too).
        colour = LINE if bar.who == "player" else SERVER
        x = (bar.box[0] + bar.box[2]) // 2
        top = min(y for y in range(PLOT_TOP - 30, PLOT_BOTTOM) if near(image, (x, y), colour))
        assert abs(top - layout.y(bar.value)) <= 3, bar
    # The player's bars stand left of the server's in each group, groups left to right.
    middles = [(b.box[0] + b.box[2]) / 2 for b in layout.bars]
    assert middles == sorted(middles)


def test_without_a_server_average_only_the_players_bars_are_drawn() -> None:
    mine = PointsPerDeal(2.0, 8.0, 4.0)
    picture = points_chart("Al", mine, deals=40)
    image = read_png(picture.png)
    assert where(image, SERVER) == []
    layout = bars_layout(mine)
    assert [b.who for b in layout.bars] == ["player"] * 3
    hand, crib = (bar_height(image, b.box, LINE) for b in layout.bars[1:])
    assert abs(hand / crib - 2.0) < 0.1
    assert picture.alt_text == (
        "Points per deal for Al over 40 deals: pegging 2.0, hand 8.0, crib 4.0 (14.0 in all)."
    )


def test_negative_points_hang_below_the_zero_line() -> None:
    mine, server = PointsPerDeal(-2.5, 7.8, 0.0), PointsPerDeal(3.6, -1.6, 4.3)
    image = read_png(points_chart("Al", mine, deals=3, server=server).png)
    layout = bars_layout(mine, server)
    zero = layout.y(0)
    for bar in layout.bars:
        left, top, right, bottom = bar.box
        if bar.value < 0:
            assert top == round(zero) and bottom > zero
            colour = LINE if bar.who == "player" else SERVER
            assert near(image, ((left + right) / 2, (top + bottom) / 2), colour)
        else:
            assert bottom == round(zero)
    assert all(PLOT_TOP <= layout.y(t) <= PLOT_BOTTOM for t in layout.ticks)


def test_huge_points_are_drawn_to_scale() -> None:
    mine = PointsPerDeal(1e12, 5e11, 2.5e11)
    image = read_png(points_chart("Al", mine, deals=1).png)
    layout = bars_layout(mine)
    pegging, hand, crib = (bar_height(image, b.box, LINE) for b in layout.bars)
    assert abs(pegging / hand - 2) < 0.05 and abs(hand / crib - 2) < 0.1


def test_no_deals_gives_an_empty_chart_that_says_so() -> None:
    picture = points_chart("Al", PointsPerDeal(0, 0, 0), deals=0)
    assert picture.alt_text == "Al has not played a deal yet."
    assert where(read_png(picture.png), LINE) == []


def test_the_alt_text_has_the_server_average_too() -> None:
    picture = points_chart(
        "Bea", PointsPerDeal(3.94, 7.81, 4.05), deals=1, server=PointsPerDeal(3.6, 7.6, 4.3)
    )
    assert picture.alt_text == (
        "Points per deal for Bea over 1 deal: pegging 3.9, hand 7.8, crib 4.0 (15.8 in all)."
        " Server average: pegging 3.6, hand 7.6, crib 4.3 (15.5 in all)."
    )


@pytest.mark.parametrize("chart", ["rating", "points"])
def test_the_y_axis_says_what_its_values_are(chart: str) -> None:
    # Issue 25: the y axes had values but no caption. It reads upwards beside the values.
    if chart == "rating":
        points = history([1000, 1030, 1010])
        picture = rating_chart("Al", points, start=1000)
        layout = rating_layout([RatingPoint(0, 1000), *points])
        left, ticks = layout.left, layout.ticks
    else:
        player = PointsPerDeal(3.9, 7.8, 4.1)
        picture = points_chart("Al", player, deals=212)
        bars = bars_layout(player)
        left, ticks = bars.left, bars.ticks
    image = read_png(picture.png)
    places = decimals_for(list(ticks))
    values_from = left - 10 - max(text_width(label(t, places), TICK_SIZE) for t in ticks)
    side = (8, PLOT_TOP, math.floor(values_from) - 1, PLOT_BOTTOM)  # left of every value
    every = product(range(side[0], side[2]), range(side[1], side[3]))
    ink = [xy for xy in every if image.getpixel(xy) != PAPER]
    assert ink, "a caption beside the values"
    xs, ys = [x for x, _ in ink], [y for _, y in ink]
    assert max(ys) - min(ys) > 2 * (max(xs) - min(xs)), "turned to read upwards"
