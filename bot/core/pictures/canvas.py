"""What the pictures share: the result type, the palette, fonts, text that fits, antialiased
shapes and PNG encoding.

Only Pillow's own font is used (``ImageFont.load_default(size=...)``, a small Aileron Regular:
ASCII and a few marks), so a fresh install draws the same pixels everywhere. Names are
reduced to what that font can draw (``Zoë`` becomes ``Zoe``) rather than shown as boxes.
"""

from __future__ import annotations

import io
import math
import unicodedata
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Shape = Literal["circle", "square", "diamond", "triangle", "hexagon"]

# Discord refuses an attachment description longer than this.
ALT_TEXT_LIMIT = 1024

# A light wood that stands out on Discord's dark theme (#313338) and, with its darker frame,
# on the light one (#ffffff). Text on it is near black.
WOOD: RGB = (222, 190, 140)
FRAME: RGB = (122, 82, 48)
INK: RGB = (38, 26, 16)
MUTED: RGB = (96, 70, 46)
HOLE: RGB = (74, 48, 26)
PAPER: RGB = (250, 245, 235)
GRID: RGB = (222, 212, 196)

# The Okabe-Ito colours, chosen to stay apart for the common kinds of colour blindness (the
# fourth, reddish purple darkened to stand out on the wood, and the fifth, a soft black, for
# the five players of a five-hand game); each side's pegs also have a shape of their own, so
# colour is never the only cue.
SIDE_COLOURS: tuple[RGB, ...] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 140, 100),
    (170, 68, 140),
    (70, 70, 70),
)
SIDE_SHAPES: tuple[Shape, ...] = ("circle", "square", "diamond", "triangle", "hexagon")

# Shapes are drawn this many times larger, then scaled down, since Pillow does not antialias.
_SUPERSAMPLE = 4


@dataclass(frozen=True)
class Picture:
    """A rendered picture: the PNG, its alt text (the attachment's description, for screen
    readers) and a file name to attach it under."""

    png: bytes
    alt_text: str
    filename: str


def alt_text(text: str) -> str:
    """``text`` cut to Discord's limit for an attachment description."""
    if len(text) <= ALT_TEXT_LIMIT:
        return text
    return text[: ALT_TEXT_LIMIT - 1].rstrip() + "…"


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in font at ``size`` pixels."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
        raise RuntimeError("The pictures need Pillow with FreeType support.")
    return loaded


def _glyph_bits(char: str) -> bytes:
    probe = Image.new("L", (48, 48))
    ImageDraw.Draw(probe).text((8, 8), char, font=font(24), fill=255)
    return probe.tobytes()


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return _glyph_bits("\U0010fffd")  # a private-use character no font draws


@lru_cache(maxsize=4096)
def _drawable(char: str) -> bool:
    return char == " " or (char.isprintable() and _glyph_bits(char) != _missing_glyph())


def drawable(text: str, fallback: str) -> str:
    """``text`` with accents dropped and characters the font cannot draw left out, spaces
    collapsed; ``fallback`` when nothing readable is left (a name all in emoji, say)."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c) and _drawable(c))
    kept = " ".join(kept.split())
    return kept if any(c.isalnum() for c in kept) else fallback


def fit(text: str, size: int, width: float) -> str:
    """``text`` shortened with an ellipsis so that it is at most ``width`` pixels wide."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def text_width(text: str, size: int) -> float:
    """How wide ``text`` is at ``size`` pixels."""
    return font(size).getlength(text)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB = INK,
    anchor: str = "ls",
    bold: bool = False,
) -> None:
    """Text at ``xy`` (Pillow anchor, baseline-left by default); ``bold`` thickens it with a
    hairline stroke in its own colour, since only the regular weight ships with Pillow."""
    stroke = max(1, size // 28) if bold else 0
    draw.text(
        xy, text, font=font(size), fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=fill
    )


def draw_text_up(
    image: Image.Image, centre: tuple[float, float], text: str, size: int, fill: RGB = INK
) -> None:
    """Text reading upwards (turned a quarter to the left) centred on ``centre``, as the
    caption of a y axis."""
    face = font(size)
    left, top, right, bottom = (round(v) for v in face.getbbox(text))
    mask = Image.new("L", (right - left + 2, bottom - top + 2), 0)
    ImageDraw.Draw(mask).text((1 - left, 1 - top), text, font=face, fill=255)
    turned = mask.rotate(90, expand=True)
    x = round(centre[0] - turned.width / 2)
    y = round(centre[1] - turned.height / 2)
    image.paste(fill, (x, y, x + turned.width, y + turned.height), turned)


def framed(size: tuple[int, int], fill: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A new picture of ``size``: a ``fill`` card with rounded corners in a square frame (the
    corners are the frame's colour, never a background that could clash with Discord's)."""
    image = Image.new("RGB", size, FRAME)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, size[0] - 7, size[1] - 7), radius=14, fill=fill)
    return image, draw


def _outline_points(shape: Shape, box: float, inset: float) -> list[tuple[float, float]]:
    lo, hi, mid = inset, box - inset, box / 2
    if shape == "diamond":
        return [(mid, lo), (hi, mid), (mid, hi), (lo, mid)]
    return [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]


def _regular_points(sides: int, box: float, radius: float) -> list[tuple[float, float]]:
    """The corners of a regular polygon of ``sides`` sides, one corner straight up, centred in
    a ``box`` square (a triangle's centre a little low, so it sits in the middle of the box)."""
    centre_y = box / 2 + (radius / 4 if sides == 3 else 0)
    return [
        (
            box / 2 + radius * math.sin(2 * math.pi * k / sides),
            centre_y - radius * math.cos(2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]


#: The regular shapes: their number of sides, and their corners' reach as a share of half
#: the box.
_REGULAR: dict[str, tuple[int, float]] = {"triangle": (3, 1.12), "hexagon": (6, 0.98)}


@lru_cache(maxsize=64)
def sprite(shape: Shape, diameter: int, fill: RGB | None, outline: RGB, ring: float) -> Image.Image:
    """An antialiased ``shape`` ``diameter`` pixels across (RGBA): filled with ``fill`` (or
    hollow when ``None``) inside an ``outline`` ``ring`` pixels thick."""
    big = diameter * _SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width = max(1, round(ring * _SUPERSAMPLE))
    inner = (*fill, 255) if fill is not None else None
    edge = (*outline, 255)
    if shape == "circle":
        draw.ellipse((0, 0, big - 1, big - 1), fill=edge)
        draw.ellipse((width, width, big - 1 - width, big - 1 - width), fill=inner or (0, 0, 0, 0))
    elif shape in _REGULAR:
        # A triangle is drawn larger than the box's circle (its corners reach out, its sides
        # stay well inside), a hexagon a little smaller, so that they look as large as the rest.
        sides, reach = _REGULAR[shape]
        radius = big / 2 * reach
        draw.polygon(_regular_points(sides, big, radius), fill=edge)
        # The ring measured across the sides: the corners move in by more.
        inner_radius = radius - width / math.cos(math.pi / sides)
        draw.polygon(_regular_points(sides, big, inner_radius), fill=inner or (0, 0, 0, 0))
    else:
        # A square is drawn a little smaller and a diamond a little larger, so all three shapes
        # look the same size.
        pad = big * 0.1 if shape == "square" else -big * 0.04
        draw.polygon(_outline_points(shape, big, max(pad, 0)), fill=edge)
        inset = max(pad, 0) + width * (1.5 if shape == "diamond" else 1)
        draw.polygon(_outline_points(shape, big, inset), fill=inner or (0, 0, 0, 0))
    return image.resize((diameter, diameter), Image.Resampling.LANCZOS)


def stamp(image: Image.Image, picture: Image.Image, centre: tuple[float, float]) -> None:
    """Paint ``picture`` (RGBA) on ``image`` centred on ``centre``."""
    x = round(centre[0] - picture.width / 2)
    y = round(centre[1] - picture.height / 2)
    image.paste(picture, (x, y), picture)


def smooth_line(
    image: Image.Image, points: list[tuple[float, float]], colour: RGB, width: float
) -> None:
    """An antialiased line through ``points`` with round joints and ends."""
    scale, pad = _SUPERSAMPLE, width + 2
    left = math.floor(min(x for x, _ in points) - pad)
    top = math.floor(min(y for _, y in points) - pad)
    right = math.ceil(max(x for x, _ in points) + pad)
    bottom = math.ceil(max(y for _, y in points) + pad)
    mask = Image.new("L", ((right - left) * scale, (bottom - top) * scale), 0)
    draw = ImageDraw.Draw(mask)
    scaled = [((x - left) * scale, (y - top) * scale) for x, y in points]
    thick = round(width * scale)
    if len(scaled) > 1:
        # Rounded joints cost Python work per point; on a dense line they cannot be seen.
        joint = "curve" if len(scaled) <= 120 else None
        draw.line(scaled, fill=255, width=thick, joint=joint)
    for x, y in (scaled[0], scaled[-1]):
        draw.ellipse((x - thick / 2, y - thick / 2, x + thick / 2, y + thick / 2), fill=255)
    image.paste(colour, (left, top), mask.reduce(scale))


def tint(colour: RGB, towards: RGB, share: float) -> RGB:
    """``colour`` moved ``share`` (0..1) of the way towards ``towards``."""
    r, g, b = (round(c + (t - c) * share) for c, t in zip(colour, towards, strict=True))
    return (r, g, b)


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG. The pictures are mostly flat colour, so a fast zlib level already
    makes them small; the higher levels cost several times the time for a few per cent.
    zlib's strategy for filtered rows (``Z_FILTERED``) suits PNG's: a board (800 x 440) took
    7.9 ms to encode where the default strategy took 10.9, the same 26 KB."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3, compress_type=zlib.Z_FILTERED)
    return out.getvalue()
