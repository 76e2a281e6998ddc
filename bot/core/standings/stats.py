"""The pictures of ``/cribbage stats``: a player's rating over their games and their points per
deal by source beside the server's average, from the standings (drawn on a worker thread by
the service: a chart takes some 20 ms of work)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.text import shown
from bot.core.pictures import Picture, PointsPerDeal, RatingPoint, points_chart, rating_chart
from bot.core.standings.ratings import PROVISIONAL_GAMES, fresh
from bot.core.standings.records import Standing

__all__ = ["per_deal", "stats_pictures"]


def per_deal(pegging: int, hand: int, crib: int, deals: int) -> PointsPerDeal:
    """Average points per deal from each source (zeros before any deal)."""
    per = max(deals, 1)
    return PointsPerDeal(pegging / per, hand / per, crib / per)


def stats_pictures(
    name: str,
    standing: Standing,
    history: Sequence[tuple[float, float]],
    server: tuple[int, int, int, int],
    average: str = "server average",
) -> tuple[Picture, ...]:
    """The rating chart (``history``: the ordinal after each of the player's latest games,
    oldest first) and the points-per-deal chart (``server``: the pegging, hand and crib
    points and deals of the average ``average`` names: the server's, or outside servers)."""
    first = standing.games - len(history) + 1
    points = [RatingPoint(first + i, shown(ordinal)) for i, (ordinal, _) in enumerate(history)]
    # From their first game, the line starts where every newcomer does (1,000).
    start = float(shown(fresh(0, False, 0, name).ordinal)) if first == 1 else None
    rating = rating_chart(name, points, provisional_through=PROVISIONAL_GAMES - 1, start=start)
    mine = per_deal(
        standing.pegging_points, standing.hand_points, standing.crib_points, standing.deals
    )
    among = per_deal(*server) if server[3] else None
    return rating, points_chart(name, mine, standing.deals, among, average=average)
