"""A review's pages built from decisions written out in a test (no game played)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.games.records import Options
from bot.core.review.report import ReviewReport
from engine.review import Decision


def report_of(
    decisions: Sequence[Decision],
    sides: Sequence[str] = ("Al", "Bea"),
    *,
    target: int = 121,
    began: tuple[tuple[int, ...], ...] = (),
) -> ReviewReport:
    """The final review of seat 0 (named as the first side), over the deals ``decisions``
    reach; the expert's chances are said only for two sides to 121 or 61."""
    return ReviewReport(
        game_id=1,
        seat=0,
        player=sides[0],
        sides=tuple(sides),
        side=0,
        options=Options(len(sides), target),
        partners=False,
        final=True,
        deals=max(d.deal for d in decisions),
        decisions=tuple(decisions),
        chances=len(sides) == 2 and target in (61, 121),
        began=began,
    )
