"""The coach: after a show, one line telling a player how good their discard was.

The discard is judged as the seat knew it when it threw: from the dealt hand alone, with the
values the ``expert`` computer uses (:func:`engine.players.expert_discard.coach_choices`):
the kept hand's exact average over every unseen starter, plus the expected crib when the
crib is the seat's side's, minus it when it is an opponent's. With two players the crib's
value is for that role, the other two cards thrown by a sensible opponent (a pone balks the
dealer's crib, a dealer loads its own); with three or four, the one-card table (the tables
the game's rules allow; where none holds, the line speaks of the hand alone). The expert
also weighs what the kept cards are worth in the play; the line leaves that out, so its sum
adds up.

The review needs the dealt hand, which the next deal replaces, so take it while the deal is
on (:func:`review_view` in the play) or keep the cards and call :func:`review_discard`.

>>> from engine.cards import parse_cards
>>> from engine.rules import Rules
>>> dealt, thrown = parse_cards("5H 5C JD QS 10S 2D"), parse_cards("10S 2D")
>>> review = review_discard(dealt, thrown, crib_sign=1, rules=Rules())
>>> for part in review.line().split("; "):
...     print(part)
You kept 5♣ 5♥ J♦ Q♠ — 12.5 in hand + 3.4 in your crib = 15.9 expected
best was 5♣ 10♠ J♦ Q♠ — 16.7.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.cards import Card, cards_str
from engine.players.base import crib_sign as seat_crib_sign
from engine.players.discard_ev import DiscardChoice
from engine.players.expert_discard import coach_choices
from engine.rules import Rules
from engine.views import PublicView, SeatView

__all__ = [
    "DiscardReview",
    "as_shown",
    "crib_words",
    "one_decimal",
    "review_discard",
    "review_view",
    "shown_sum",
    "shown_total",
]

# Differences smaller than this do not show at one decimal and are not worth a remark.
_TOLERANCE = 0.05


def crib_words(view: PublicView, seat: int) -> tuple[str, str]:
    """Whose crib ``seat``'s throw goes to, as the coach and the hint say what it adds to it or
    gives it, with the word before it: ``("in", "your crib")`` (the dealer's own), ``("in",
    "your partner's crib")`` (partners, at four or six players) or ``("to", "the dealer's
    crib")``."""
    if view.dealer == seat:
        return "in", "your crib"
    if view.sides[view.dealer] == view.sides[seat]:
        return "in", "your partner's crib"
    return "to", "the dealer's crib"


def _crib_of(crib_sign: int) -> tuple[str, str]:
    """:func:`crib_words` from the sign alone (no view to tell a partner's crib by)."""
    return ("in", "your crib") if crib_sign > 0 else ("to", "the dealer's crib")


@dataclass(frozen=True, slots=True)
class DiscardReview:
    """A discard judged against every other split of the same dealt hand; ``whose`` is whose
    crib the throw went to, in :func:`crib_words`' words (None: told by the sign alone)."""

    chosen: DiscardChoice
    best: DiscardChoice
    whose: tuple[str, str] | None = None

    @property
    def was_best(self) -> bool:
        """True when no other split was worth noticeably more."""
        return self.best.total - self.chosen.total < _TOLERANCE

    @property
    def loss(self) -> float:
        """Expected points given away compared with the best split (0 when it was best)."""
        return 0.0 if self.was_best else self.best.total - self.chosen.total

    def line(self) -> str:
        """One short sentence for the player: what the kept hand and the thrown cards were
        each worth on average, the net, and the best split when it was worth more, e.g.
        "You kept 2♦ 7♠ 8♥ K♣ — 3.8 in hand − 9.0 to the dealer's crib = −5.2 expected; best was
        2♦ 5♣ 5♦ 8♥ — 5.2."
        """
        kept = cards_str(sorted(self.chosen.kept, key=Card.sort_key))
        whose = self.whose or _crib_of(self.chosen.crib_sign)
        said = f"You kept {kept} — {_worth(self.chosen, whose)}"
        if self.was_best:
            return f"{said}, the best choice."
        best = cards_str(sorted(self.best.kept, key=Card.sort_key))
        return f"{said}; best was {best} — {one_decimal(shown_total(self.best))}."


def one_decimal(value: float) -> str:
    """``value`` to one decimal, with a real minus sign (a hyphen before a number reads as a
    dash), never "−0.0"."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text.replace("-", "−")


def as_shown(value: float) -> float:
    """``value`` as :func:`one_decimal` shows it: sums and differences of figures a player
    reads are worked out from these, so the arithmetic on the page adds up."""
    return float(f"{value:.1f}")


def shown_sum(hand: float, crib: float) -> float:
    """A split's expected points as the sum of its two parts as shown (``crib`` signed: what
    the crib adds, or takes when it is the opponent's): "8.0 − 4.7 = 3.3", never 3.4 from the
    unrounded parts."""
    return as_shown(hand) + as_shown(crib)


def shown_total(choice: DiscardChoice) -> float:
    """:func:`shown_sum` of one split."""
    return shown_sum(choice.hand, choice.crib_sign * choice.crib)


def _worth(choice: DiscardChoice, whose: tuple[str, str]) -> str:
    """The expected points of one split, as the sum a player can follow, the crib ``whose``
    (:func:`crib_words`)."""
    hand = one_decimal(choice.hand)
    if choice.crib_sign == 0:
        return f"{hand} expected in hand"
    crib = one_decimal(choice.crib)
    total = one_decimal(shown_total(choice))
    sign = "+" if choice.crib_sign > 0 else "−"
    return f"{hand} in hand {sign} {crib} {' '.join(whose)} = {total} expected"


def review_discard(
    dealt: Sequence[Card], thrown: Sequence[Card], *, crib_sign: int, rules: Rules
) -> DiscardReview:
    """Judge throwing ``thrown`` from the ``dealt`` hand (``crib_sign`` +1 ours, -1 theirs)
    in a game played by ``rules``.

    Raises ``ValueError`` when ``thrown`` is not part of ``dealt`` or has the wrong size.
    """
    throw = set(thrown)
    if len(throw) != len(thrown) or not throw <= set(dealt):
        raise ValueError("The thrown cards must be distinct cards of the dealt hand.")
    choices = coach_choices(dealt, len(thrown), crib_sign=crib_sign, rules=rules)
    chosen = next(choice for choice in choices if set(choice.thrown) == throw)
    return DiscardReview(chosen=chosen, best=choices[0])


def review_view(view: SeatView) -> DiscardReview | None:
    """Review the seat's discard this deal from its view, or None before it has discarded."""
    if not view.discards or len(view.kept) != view.rules.kept:
        return None
    judged = review_discard(
        (*view.kept, *view.discards),
        view.discards,
        crib_sign=seat_crib_sign(view, view.seat),
        rules=view.rules,
    )
    return replace(judged, whose=crib_words(view, view.seat))
