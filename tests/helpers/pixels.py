"""Reading pictures back: decode a PNG and find colours in it, for tests of what was drawn."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

RGB = tuple[int, int, int]

# How far (summed over the channels) a pixel may be from the colour drawn and still count.
CLOSE = 24


def read_png(png: bytes) -> Image.Image:
    """``png`` decoded to RGB; fails unless it is a PNG."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def near(image: Image.Image, xy: tuple[float, float], colour: RGB) -> bool:
    """Whether the pixel at ``xy`` (rounded) is within ``CLOSE`` of ``colour``."""
    seen = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(seen, tuple)
    return sum(abs(int(a) - b) for a, b in zip(seen, colour, strict=True)) <= CLOSE


def where(
    image: Image.Image, colour: RGB, box: tuple[int, int, int, int], within: int = 0
) -> list[tuple[int, int]]:
    """Every pixel in ``box`` that is ``colour`` to ``within`` in each channel (flat fills
    and the core of thick lines are exact; antialiased edges are not)."""
    part = image.crop(box)
    bands = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= within else 0)
        for band, c in zip(part.split(), colour, strict=True)
    ]
    hits = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    width = part.width
    flat = hits.get_flattened_data()
    return [(i % width + box[0], i // width + box[1]) for i, v in enumerate(flat) if v]


def colours(image: Image.Image) -> set[RGB]:
    """The distinct colours in ``image``."""
    found = image.getcolors(image.width * image.height) or []
    return {(int(c[0]), int(c[1]), int(c[2])) for _, c in found if isinstance(c, tuple)}
