"""Each side's chance to win, as the table and the board say it after a deal.

The chances come from the expert's tables (:mod:`engine.players.win_chance`): from the points
each side still needs and who deals next, the chance each wins between equal players. Those
tables were built from two-player deals, so a table whose rules they hold for (two players,
:func:`engine.players.win_chance.holds`) shows its chances, and a table of three, or of
partners (whose deals score otherwise), shows none.

    >>> chances((0, 0), 121, dealer=0)
    ('56%', '44%')
    >>> chances((119, 30), 121, dealer=1)
    ('>99%', '<1%')
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.text import tagged
from engine.phase import Phase
from engine.players.win_chance import deal_chance, holds
from engine.views import PublicView

__all__ = ["chances", "chances_line", "percent_pair", "start_of_deal_chances"]


def percent_pair(chance: float) -> tuple[str, str]:
    """A chance and its complement in whole percent ("64%", "36%"), adding up to 100. Neither
    side has won yet, so neither is said to be certain (">99%", "<1%"): the tables' figures are
    rounded, and a side that needs a few points can always be beaten to them."""
    whole = round(chance * 100)
    if whole >= 100:
        return ">99%", "<1%"
    if whole <= 0:
        return "<1%", ">99%"
    return f"{whole}%", f"{100 - whole}%"


def chances(scores: Sequence[int], target: int, dealer: int) -> tuple[str, ...] | None:
    """Each side's chance to win in words, from the ``scores`` at the start of a deal that
    ``dealer`` (a side) deals; None unless there are exactly two sides and neither has won."""
    if len(scores) != 2 or not 0 <= dealer < 2 or max(scores) >= target:
        return None
    pone = 1 - dealer
    dealt, other = percent_pair(deal_chance(target - scores[dealer], target - scores[pone]))
    return (dealt, other) if dealer == 0 else (other, dealt)


def start_of_deal_chances(view: PublicView) -> tuple[str, ...] | None:
    """The chances while a deal's discards are made (nothing of the deal scored yet), for
    the table ``view`` shows; None at any other moment, or unless the tables hold for the
    game's rules (two players)."""
    if view.phase is not Phase.DISCARD or not holds(view.rules):
        return None
    return chances(view.scores, view.target, view.sides[view.dealer])


def chances_line(sides: Sequence[str], said: Sequence[str]) -> str:
    """The table's line: "Chances to win — Al: 64% · Bea: 36%" (each chance set apart from
    its name, which may end in a number)."""
    parts = " · ".join(tagged(side, chance) for side, chance in zip(sides, said, strict=True))
    return f"Chances to win — {parts}"
