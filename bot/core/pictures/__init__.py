"""Pictures the bot posts (the board, the stats charts), drawn with Pillow from plain values.

Nothing here knows about games, the store or Discord: callers pass names and numbers and get a
``Picture`` (PNG bytes, alt text, a file name) to attach.
"""

from bot.core.pictures.board import BoardState, Rule, Side, board_picture, hole_centre
from bot.core.pictures.canvas import Picture
from bot.core.pictures.charts import PointsPerDeal, RatingPoint, points_chart, rating_chart

__all__ = [
    "BoardState",
    "Picture",
    "PointsPerDeal",
    "RatingPoint",
    "Rule",
    "Side",
    "board_picture",
    "hole_centre",
    "points_chart",
    "rating_chart",
]
