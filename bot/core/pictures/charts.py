"""The charts of ``/cribbage stats``: a player's rating over their games, and their points per
deal from pegging, hand and crib beside their server's average.

    >>> history = [RatingPoint(1, 1000), RatingPoint(2, 1040), RatingPoint(3, 1025)]
    >>> print(rating_chart("Al", history, provisional_through=3).alt_text)
    ... # doctest: +NORMALIZE_WHITESPACE
    Al's rating over 3 games: 1,000 after game 1, 1,025 now; best 1,040 after game 2,
    lowest 1,000 after game 1. Provisional through game 3.
    >>> print(points_chart("Al", PointsPerDeal(3.9, 7.8, 4.1), deals=212).alt_text)
    ... # doctest: +NORMALIZE_WHITESPACE
    Points per deal for Al over 212 deals: pegging 3.9, hand 7.8, crib 4.1 (15.8 in all).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw

from bot.core.pictures.axes import Scale, check_values, decimals_for, label, nice_ticks
from bot.core.pictures.canvas import (
    GRID,
    INK,
    MUTED,
    PAPER,
    RGB,
    SIDE_COLOURS,
    Picture,
    alt_text,
    draw_text,
    draw_text_up,
    drawable,
    fit,
    framed,
    png_bytes,
    smooth_line,
    sprite,
    stamp,
    text_width,
)

__all__ = [
    "BarsLayout",
    "PointsPerDeal",
    "RatingLayout",
    "RatingPoint",
    "bars_layout",
    "points_chart",
    "rating_chart",
    "rating_layout",
]

WIDTH, HEIGHT = 800, 420
PLOT_TOP, PLOT_BOTTOM, PLOT_RIGHT = 118, HEIGHT - 64, WIDTH - 44
LINE: RGB = SIDE_COLOURS[0]
BEST: RGB = (240, 200, 60)
PROVISIONAL: RGB = (238, 228, 210)
SERVER: RGB = (200, 200, 200)
TICK_SIZE = 17
#: The axes' captions ("game", "rating"): their size, and where the y axis's stands.
CAPTION_SIZE, CAPTION_X = 15, 28
SOURCES = ("pegging", "hand", "crib")


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after their game number ``game`` (1 is their first rated game)."""

    game: int
    rating: float


@dataclass(frozen=True)
class PointsPerDeal:
    """Average points per deal from each source."""

    pegging: float
    hand: float
    crib: float

    @property
    def total(self) -> float:
        """Points per deal in all."""
        return self.pegging + self.hand + self.crib


@dataclass(frozen=True)
class RatingLayout:
    """Where the rating chart puts things: game numbers to x, ratings to y, the y ticks."""

    x: Scale
    y: Scale
    ticks: tuple[float, ...]
    left: int


@dataclass(frozen=True)
class Bar:
    """One bar: whose (``"player"`` or ``"server"``), which source, its value and its box."""

    who: str
    source: str
    value: float
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class BarsLayout:
    """Where the points chart puts things: values to y, the y ticks, the bars."""

    y: Scale
    ticks: tuple[float, ...]
    left: int
    bars: tuple[Bar, ...]


def _blank(title: str, subtitle: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image, draw = framed((WIDTH, HEIGHT), PAPER)
    draw_text(draw, (28, 50), fit(title, 30, WIDTH - 56), 30, INK, bold=True)
    draw_text(draw, (28, 84), fit(subtitle, 20, WIDTH - 56), 20, MUTED)
    return image, draw


def _y_axis(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    layout_y: Scale,
    ticks: Sequence[float],
    left: int,
    caption: str,
) -> None:
    """The grid lines and their values, and ``caption``, what the values are, up the side."""
    places = decimals_for(list(ticks))
    for tick in ticks:
        y = layout_y(tick)
        draw.line((left, y, PLOT_RIGHT, y), fill=GRID, width=2 if tick == 0 else 1)
        draw_text(draw, (left - 10, y), label(tick, places), TICK_SIZE, MUTED, "rm")
    draw_text_up(image, (CAPTION_X, (PLOT_TOP + PLOT_BOTTOM) / 2), caption, CAPTION_SIZE, MUTED)


def _empty(image: Image.Image, draw: ImageDraw.ImageDraw, message: str) -> Image.Image:
    middle = ((PLOT_TOP + PLOT_BOTTOM) / 2, WIDTH / 2)
    draw_text(draw, (middle[1], middle[0]), message, 26, MUTED, "mm")
    return image


def _left_margin(ticks: Sequence[float]) -> int:
    # The y axis's caption, then its widest value, then a gap.
    places = decimals_for(list(ticks))
    return 54 + round(max(text_width(label(t, places), TICK_SIZE) for t in ticks))


def rating_layout(points: Sequence[RatingPoint]) -> RatingLayout:
    """Where ``rating_chart`` draws these points (they must not be empty)."""
    ratings = [p.rating for p in points]
    ticks = nice_ticks(min(ratings), max(ratings), 6)
    left = _left_margin(ticks)
    x = Scale(points[0].game, points[-1].game, left + 20, PLOT_RIGHT - 20)
    y = Scale(ticks[0], ticks[-1], PLOT_BOTTOM, PLOT_TOP)
    return RatingLayout(x, y, tuple(ticks), left)


def _check_history(points: Sequence[RatingPoint]) -> None:
    check_values([p.rating for p in points], "Ratings")
    games = [p.game for p in points]
    if any(b <= a for a, b in pairwise(games)):
        raise ValueError("Rating points must be in order of game, one per game.")


def _x_axis(
    draw: ImageDraw.ImageDraw,
    points: Sequence[RatingPoint],
    layout: RatingLayout,
    start: int | None = None,
) -> None:
    """Game numbers under the plot; ``start``, the game number of the starting rating, is
    labelled "start"."""
    first, last = points[0].game, points[-1].game
    games = [round(t) for t in nice_ticks(first, last, 7) if t == round(t) and first <= t <= last]
    for game in games or [first]:
        x = layout.x(game)
        draw.line((x, PLOT_BOTTOM, x, PLOT_BOTTOM + 6), fill=MUTED, width=2)
        text = "start" if game == start else str(game)
        draw_text(draw, (x, PLOT_BOTTOM + 26), text, TICK_SIZE, MUTED, "ms")
    draw_text(draw, (PLOT_RIGHT, HEIGHT - 16), "game", CAPTION_SIZE, MUTED, "rs")


def _provisional_band(
    draw: ImageDraw.ImageDraw, points: Sequence[RatingPoint], layout: RatingLayout, through: int
) -> None:
    inside = [p.game for p in points if p.game <= through]
    if not inside:
        return
    after = [p.game for p in points if p.game > through]
    start = layout.x(inside[0]) - 12
    end = (layout.x(inside[-1]) + layout.x(after[0])) / 2 if after else layout.x(inside[-1]) + 12
    draw.rectangle((start, PLOT_TOP - 4, end, PLOT_BOTTOM), fill=PROVISIONAL)
    # Above the band, where the line seldom is: a new player's rating starts low and climbs.
    draw_text(draw, (start, PLOT_TOP - 10), "provisional", 16, MUTED)


def _best(points: Sequence[RatingPoint], start: float | None) -> RatingPoint | None:
    """The highest rating after a game, unless the start was as high (a start is no feat)."""
    best = max(points, key=lambda p: p.rating)
    return best if start is None or best.rating > start else None


def _rating_words(
    name: str, points: Sequence[RatingPoint], through: int, start: float | None
) -> str:
    if not points:
        return f"{name} has no rated games yet."
    best = _best(points, start)
    low = min(points, key=lambda p: p.rating)
    first, last = points[0], points[-1]

    def at(point: RatingPoint) -> str:
        return f"{label(point.rating)} after game {point.game}"

    began = at(first) if start is None else f"{label(start)} at the start"
    if len(points) == 1:
        if start is None:
            text = f"{name}'s rating after game {first.game}: {label(first.rating)}."
        else:
            text = f"{name}'s rating: {began}, {at(first)}."
    else:
        games = f"{label(len(points))} games"
        extremes = ([f"best {at(best)}"] if best is not None else []) + [f"lowest {at(low)}"]
        text = (
            f"{name}'s rating over {games}: {began}, {label(last.rating)} now;"
            f" {', '.join(extremes)}."
        )
    if through >= first.game:
        text += f" Provisional through game {min(through, last.game)}."
    return text


def rating_chart(
    name: str,
    points: Sequence[RatingPoint],
    provisional_through: int = 0,
    start: float | None = None,
) -> Picture:
    """A line of ``name``'s rating after each of their games (in order of game), the games
    up to ``provisional_through`` shaded as provisional and the best rating marked.

    ``start``: the rating before the first of ``points`` (a newcomer's, when they begin at
    the player's first game), drawn as the line's first point, labelled "start"; the best
    rating is then marked only if it rose above it.
    """
    _check_history(points)
    if start is not None:
        check_values([start], "Ratings")
    shown = drawable(name, "Player")
    words = _rating_words(name, points, provisional_through, start)
    if not points:
        image, draw = _blank(f"{shown}: rating", "")
        return Picture(png_bytes(_empty(image, draw, "No rated games yet")), words, "rating.png")
    last = points[-1]
    best = _best(points, start)
    began = "" if start is None else f" · started at {label(start)}"
    if len(points) == 1:
        subtitle = f"{label(last.rating)} after game {last.game}{began}"
    else:
        now = f"{label(last.rating)} now, after {label(len(points))} games"
        subtitle = now + (f" · best {label(best.rating)}" if best is not None else began)
    image, draw = _blank(f"{shown}: rating", subtitle)
    opening = points[0].game - 1
    line = ([RatingPoint(opening, start)] if start is not None else []) + list(points)
    layout = rating_layout(line)
    _provisional_band(draw, line, layout, provisional_through)
    _y_axis(image, draw, layout.y, layout.ticks, layout.left, "rating")
    _x_axis(draw, line, layout, opening if start is not None else None)
    xy = [(layout.x(p.game), layout.y(p.rating)) for p in line]
    smooth_line(image, xy, LINE, 4)
    if len(line) <= 60:
        dot = sprite("circle", 11, LINE, PAPER, 2)
        for centre in xy:
            stamp(image, dot, centre)
    if best is not None:
        _mark_best(draw, image, layout, best, provisional_through)
    return Picture(png_bytes(image), alt_text(words), "rating.png")


def _mark_best(
    draw: ImageDraw.ImageDraw,
    image: Image.Image,
    layout: RatingLayout,
    best: RatingPoint,
    provisional_through: int,
) -> None:
    best_xy = (layout.x(best.game), layout.y(best.rating))
    stamp(image, sprite("circle", 18, BEST, INK, 2), best_xy)
    tag = f"best {label(best.rating)}"
    if best.game <= provisional_through:  # beside the point, clear of the band's label
        draw_text(draw, (best_xy[0] + 16, best_xy[1]), tag, 18, INK, "lm", bold=True)
    else:
        half = text_width(tag, 18) / 2 + 4
        tag_x = min(max(best_xy[0], layout.left + half), PLOT_RIGHT - half)
        draw_text(draw, (tag_x, best_xy[1] - 16), tag, 18, INK, "ms", bold=True)


def bars_layout(player: PointsPerDeal, server: PointsPerDeal | None = None) -> BarsLayout:
    """Where ``points_chart`` draws these bars."""
    sets = [("player", player)] + ([("server", server)] if server is not None else [])
    values = [float(getattr(avg, s)) for _, avg in sets for s in SOURCES]
    low, high = min(0.0, *values), max(0.0, *values)
    # Room beyond the longest bars for the value written at their ends.
    room = (high - low) * 0.12
    ticks = nice_ticks(low - room if low < 0 else 0.0, high + room if high > 0 else 0.0, 6)
    left = _left_margin(ticks)
    y = Scale(ticks[0], ticks[-1], PLOT_BOTTOM, PLOT_TOP)
    group = (PLOT_RIGHT - left) / len(SOURCES)
    width = 74 if server is not None else 100
    bars: list[Bar] = []
    for index, source in enumerate(SOURCES):
        middle = left + group * (index + 0.5)
        for offset, (who, averages) in enumerate(sets):
            start = middle - width * len(sets) / 2 - 6 * (len(sets) - 1) / 2 + offset * (width + 6)
            value = float(getattr(averages, source))
            top, bottom = sorted((round(y(value)), round(y(0))))
            bars.append(Bar(who, source, value, (round(start), top, round(start + width), bottom)))
    return BarsLayout(y, tuple(ticks), left, tuple(bars))


def _points_words(
    name: str, player: PointsPerDeal, deals: int, server: PointsPerDeal | None, average: str
) -> str:
    if deals <= 0:
        return f"{name} has not played a deal yet."

    def parts(averages: PointsPerDeal) -> str:
        each = ", ".join(f"{s} {label(getattr(averages, s), 1)}" for s in SOURCES)
        return f"{each} ({label(averages.total, 1)} in all)"

    deal_words = "1 deal" if deals == 1 else f"{label(deals)} deals"
    text = f"Points per deal for {name} over {deal_words}: {parts(player)}."
    if server is not None:
        text += f" {average[:1].upper()}{average[1:]}: {parts(server)}."
    return text


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, who: str, average: str) -> None:
    entries = [(who, LINE), (average, SERVER)]
    x = float(PLOT_RIGHT)
    for text, colour in reversed(entries):
        x -= text_width(text, 18)
        draw_text(draw, (x, 84), text, 18, INK)
        x -= 26
        draw.rectangle((x, 68, x + 18, 86), fill=colour, outline=INK, width=2)
        x -= 18


def points_chart(
    name: str,
    player: PointsPerDeal,
    deals: int,
    server: PointsPerDeal | None = None,
    *,
    average: str = "server average",
) -> Picture:
    """Bars of ``name``'s points per deal from pegging, hand and crib (over ``deals`` deals),
    each beside an average when given (``server``: the server's, or the one ``average``
    names, as the legend and the alt text say it), values written on the bars."""
    check_values([getattr(a, s) for a in (player, server) if a for s in SOURCES], "Points")
    shown = drawable(name, "Player")
    words = _points_words(name, player, deals, server, average)
    title = f"{shown}: points per deal"
    if deals <= 0:
        image, draw = _blank(title, "")
        return Picture(png_bytes(_empty(image, draw, "No deals played yet")), words, "points.png")
    deal_words = "1 deal" if deals == 1 else f"{label(deals)} deals"
    subtitle = f"{label(player.total, 1)} in all, over {deal_words}"
    image, draw = _blank(title, subtitle)
    if server is not None:
        _legend(image, draw, fit(shown, 18, 160), average)
    layout = bars_layout(player, server)
    _y_axis(image, draw, layout.y, layout.ticks, layout.left, "points per deal")
    places = 1
    for bar in layout.bars:
        left, top, right, bottom = bar.box
        colour = LINE if bar.who == "player" else SERVER
        draw.rectangle((left, top, right, max(bottom, top + 1)), fill=colour, outline=INK, width=2)
        above = bar.value >= 0
        y = top - 8 if above else bottom + 8
        text = label(bar.value, places)
        draw_text(draw, ((left + right) / 2, y), text, 19, INK, "ms" if above else "mt", bold=True)
    group = (PLOT_RIGHT - layout.left) / len(SOURCES)
    for index, source in enumerate(SOURCES):
        x = layout.left + group * (index + 0.5)
        draw_text(draw, (x, PLOT_BOTTOM + 30), source.capitalize(), 22, INK, "ms")
    draw.line((layout.left, layout.y(0), PLOT_RIGHT, layout.y(0)), fill=INK, width=2)
    return Picture(png_bytes(image), alt_text(words), "points.png")
