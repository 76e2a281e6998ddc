"""The ranked ladder's numbers: seasons, the rating of a match, named ranks, the wait after
leaving matches. Pure functions of plain values.

The rating is openskill's Plackett–Luce model with the library's defaults, as the servers'
ratings are (:mod:`bot.core.standings.ratings`), kept apart from every server's: one rating per
player per season, rated once per match (the best of three's winner first). A season is a
calendar month (UTC). A player's first match of a season starts from their last season's rating
with its uncertainty widened (a month away says less of a player), and a rank is shown only
after :data:`PLACEMENT_MATCHES` matches in the season. The season's final standings are its
ratings as the month ended: a match that ends after midnight is rated in the new season, so
nothing changes a season once it is over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from bot.core.base.text import SHOWN_SCALE, shown
from bot.core.games.records import ordinal
from bot.core.ranked.records import RatingRecord
from bot.core.seasons.seasons import month_bounds, month_of
from bot.core.standings.ratings import MODEL

__all__ = [
    "COOLDOWN_AT_MOST",
    "COOLDOWN_FIRST",
    "COOLDOWN_MEMORY",
    "PLACEMENT_MATCHES",
    "RANKS",
    "SEASON_DRIFT",
    "Rank",
    "carried",
    "cooldown_until",
    "next_rank",
    "rank_line",
    "rank_of",
    "rate_match",
    "season_before",
    "season_bounds",
    "season_name",
    "season_of",
    "shown_rating",
    "uncertainty",
]

#: Matches in a season before a player is ranked in it.
PLACEMENT_MATCHES = 5
#: How much a season's turn widens a player's uncertainty (added in quadrature to sigma).
SEASON_DRIFT = 2.5
#: The wait before the next search, after leaving (or abandoning) a match in the last week:
#: this for the first, doubled for each more, at most :data:`COOLDOWN_AT_MOST`.
COOLDOWN_FIRST = 5 * 60.0
COOLDOWN_AT_MOST = 24 * 3600.0
#: How far back abandoned matches count toward the wait.
COOLDOWN_MEMORY = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class Rank:
    """A named rank and the least rating (as players see it) that holds it."""

    name: str
    floor: int
    badge: str


#: The ranks, lowest first: a rating as players see it (1,000 for a newcomer's conservative
#: rating) holds the highest whose floor it reaches. Named for what a player grows into at
#: the board, up to the perfect hand.
RANKS: tuple[Rank, ...] = (
    Rank("Novice", -(10**9), "🪵"),
    Rank("Pegger", 1000, "📍"),
    Rank("Counter", 1150, "🔢"),
    Rank("Crib Shark", 1300, "🦈"),
    Rank("Skunk Hunter", 1450, "🦨"),
    Rank("Grand Pegger", 1600, "🏅"),
    Rank("Twenty-Nine", 1750, "👑"),
)


def season_of(moment: float) -> str:
    """The season (``YYYY-MM``, UTC) a moment falls in.

    >>> season_of(datetime(2026, 3, 31, 23, 59, tzinfo=UTC).timestamp())
    '2026-03'
    """
    return month_of(moment).strftime("%Y-%m")


def season_bounds(season: str) -> tuple[float, float]:
    """The first moment of ``season`` and of the one after, as Unix times."""
    start = datetime.strptime(season, "%Y-%m").replace(tzinfo=UTC)
    begins, ends = month_bounds(start)
    return begins.timestamp(), ends.timestamp()


def season_before(season: str) -> str:
    """The season before ``season``.

    >>> season_before("2026-01")
    '2025-12'
    """
    start = datetime.strptime(season, "%Y-%m").replace(tzinfo=UTC)
    return month_bounds(start, 1)[0].strftime("%Y-%m")


def season_name(season: str) -> str:
    """``2026-03`` as players read it: ``March 2026``."""
    return datetime.strptime(season, "%Y-%m").strftime("%B %Y")


def shown_rating(mu: float, sigma: float) -> int:
    """The conservative rating (``mu - 3 sigma``) as players see it: 1,000 for a newcomer."""
    return shown(ordinal(mu, sigma))


def uncertainty(sigma: float) -> int:
    """How far the skill may be from its estimate, in the points players see: two sigmas
    (about 95% sure)."""
    return round(2 * sigma * SHOWN_SCALE)


def carried(
    earlier: RatingRecord | None, season: str, user_id: int, name: str, at: float
) -> RatingRecord:
    """A player's rating as ``season`` starts for them: their last season's skill, its
    uncertainty widened by :data:`SEASON_DRIFT` (at most a newcomer's), no matches yet; or a
    newcomer's, the model's start."""
    if earlier is None:
        return RatingRecord(season, user_id, name, MODEL.mu, MODEL.sigma, 0, 0, at)
    sigma = min(MODEL.sigma, math.hypot(earlier.sigma, SEASON_DRIFT))
    return RatingRecord(season, user_id, name, earlier.mu, sigma, 0, 0, at)


def rate_match(
    winner: RatingRecord, loser: RatingRecord, at: float
) -> tuple[RatingRecord, RatingRecord]:
    """Both players' ratings after one match (one rating step: the winner first), each with
    the match counted."""
    rated = MODEL.rate(
        [
            [MODEL.rating(mu=winner.mu, sigma=winner.sigma)],
            [MODEL.rating(mu=loser.mu, sigma=loser.sigma)],
        ],
        ranks=[1, 2],
    )
    won, lost = rated[0][0], rated[1][0]
    return (
        replace(
            winner,
            mu=won.mu,
            sigma=won.sigma,
            matches=winner.matches + 1,
            wins=winner.wins + 1,
            updated_at=at,
        ),
        replace(loser, mu=lost.mu, sigma=lost.sigma, matches=loser.matches + 1, updated_at=at),
    )


def rank_of(rating: RatingRecord) -> Rank | None:
    """The rank a season's rating holds (None while the player is still placing)."""
    if rating.matches < PLACEMENT_MATCHES:
        return None
    points = shown_rating(rating.mu, rating.sigma)
    return next(r for r in reversed(RANKS) if points >= r.floor)


def next_rank(rating: RatingRecord) -> Rank | None:
    """The rank above the one held (None: the top, or not ranked yet)."""
    held = rank_of(rating)
    if held is None:
        return None
    index = RANKS.index(held)
    return RANKS[index + 1] if index + 1 < len(RANKS) else None


def rank_line(rating: RatingRecord) -> str:
    """The player's rank and what is next, or how many placement matches are left."""
    held = rank_of(rating)
    if held is None:
        left = PLACEMENT_MATCHES - rating.matches
        plural = "es" if left != 1 else ""
        return f"Placement: {left} more match{plural} before a rank."
    above = next_rank(rating)
    line = f"{held.badge} **{held.name}**"
    if above is not None:
        line += f" · next: {above.badge} {above.name} at {above.floor:,}"
    return line


def cooldown_until(abandoned: int, last: float | None) -> float | None:
    """Until when a player who abandoned ``abandoned`` matches in the last week (the last at
    ``last``) waits before searching again (None: they need not)."""
    if abandoned <= 0 or last is None:
        return None
    wait = min(COOLDOWN_AT_MOST, COOLDOWN_FIRST * 2.0 ** (abandoned - 1))
    return last + wait
