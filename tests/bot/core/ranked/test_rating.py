"""The ladder's numbers: seasons are calendar months, a match moves both players' ratings (the
winner up), a season starts from the last with its uncertainty widened, no rank before the
placement matches, and the wait after abandoning matches doubles."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.ranked.rating import (
    COOLDOWN_AT_MOST,
    COOLDOWN_FIRST,
    PLACEMENT_MATCHES,
    RANKS,
    carried,
    cooldown_until,
    rank_of,
    rate_match,
    season_before,
    season_bounds,
    season_of,
    shown_rating,
)
from bot.core.ranked.records import RatingRecord
from bot.core.standings.ratings import MODEL


def at(year: int, month: int, day: int = 1) -> float:
    return datetime(year, month, day, tzinfo=UTC).timestamp()


def test_a_season_is_a_calendar_month() -> None:
    assert season_of(at(2026, 3, 31)) == "2026-03"
    assert season_bounds("2026-12") == (at(2026, 12), at(2027, 1))
    assert season_before("2026-01") == "2025-12"


def test_a_match_moves_the_winner_up_and_counts_for_both() -> None:
    al, bea = carried(None, "2026-03", 1, "Al", 0.0), carried(None, "2026-03", 2, "Bea", 0.0)
    won, lost = rate_match(al, bea, 5.0)
    assert won.mu > MODEL.mu > lost.mu and won.sigma < MODEL.sigma
    assert (won.matches, won.wins, lost.matches, lost.wins) == (1, 1, 1, 0)
    assert shown_rating(won.mu, won.sigma) > shown_rating(lost.mu, lost.sigma)


def test_a_new_season_keeps_the_skill_and_widens_the_uncertainty() -> None:
    old = RatingRecord("2026-02", 1, "Al", 31.0, 3.0, 40, 30, 0.0)
    new = carried(old, "2026-03", 1, "Al", 1.0)
    assert new.mu == 31.0 and 3.0 < new.sigma < MODEL.sigma and new.matches == 0
    unsure = carried(RatingRecord("2026-02", 1, "Al", 31.0, 8.0, 1, 1, 0.0), "2026-03", 1, "Al", 1)
    assert unsure.sigma == MODEL.sigma  # never more than a newcomer's


def test_no_rank_before_the_placement_matches_then_a_named_one() -> None:
    rating = RatingRecord("2026-03", 1, "Al", 40.0, 2.0, PLACEMENT_MATCHES - 1, 4, 0.0)
    assert rank_of(rating) is None
    placed = RatingRecord("2026-03", 1, "Al", 40.0, 2.0, PLACEMENT_MATCHES, 4, 0.0)
    rank = rank_of(placed)
    assert rank is not None and rank.name in {r.name for r in RANKS}
    assert shown_rating(placed.mu, placed.sigma) >= rank.floor


def test_the_wait_after_abandoning_doubles_up_to_a_day() -> None:
    assert cooldown_until(0, None) is None
    assert cooldown_until(1, 100.0) == 100.0 + COOLDOWN_FIRST
    assert cooldown_until(3, 100.0) == 100.0 + 4 * COOLDOWN_FIRST
    assert cooldown_until(40, 100.0) == 100.0 + COOLDOWN_AT_MOST
