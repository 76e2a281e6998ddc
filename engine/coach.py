"""The coach: after a show, one line telling a player how good their discard was.

The discard is judged by the one judge of a discard (:mod:`engine.players.judge`), the same
that makes the expert's own discard and so its hint, as the seat knew it when it threw: its
dealt hand, whose crib it was, and the scores then. The line says each part the judge counted
(the kept hand's average over every starter, what the thrown cards add to the crib or give
the opponent's, what the kept cards are worth in the play where the table weighs it), their
sum, and near the end of a two-player game the chance to win, which decides there; then the
best split when it was worth more. A player who threw what the hint said is told it was the
best choice.

The review needs the dealt hand, which the next deal replaces, so take it while the deal is
on (:func:`review_view` in the play) or keep the cards and call :func:`review_discard`.

>>> from engine.cards import parse_cards
>>> from engine.rules import Rules
>>> dealt, thrown = parse_cards("5H 5C JD QS 10S 2D"), parse_cards("10S 2D")
>>> review = review_discard(dealt, thrown, crib_sign=1, rules=Rules())
>>> for part in review.line().split("; "):
...     print(part)
You kept 5♣ 5♥ J♦ Q♠ — 12.5 in hand + 3.4 in your crib + 1.0 in the play = 16.9 expected
best was 5♥ 10♠ J♦ Q♠ — 17.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, cards_str
from engine.players.judge import DiscardJudgement, SplitWorth, judge_discard, judge_view
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
    """A discard judged (``judged``: every split of the dealt hand), the split ``chosen``;
    ``whose`` is whose crib the throw went to, in :func:`crib_words`' words (None: told by
    the sign alone)."""

    judged: DiscardJudgement
    chosen: SplitWorth
    whose: tuple[str, str] | None = None

    @property
    def best(self) -> SplitWorth:
        """The split the judge finds best (the one the hint names)."""
        return self.judged.best

    @property
    def was_best(self) -> bool:
        """True when no other split was worth more, as the line shows the figures (points to
        one decimal, near the end the chance to win to a whole per cent)."""
        chosen, best = self.chosen, self.best
        if chosen is best or frozenset(chosen.thrown) == frozenset(best.thrown):
            return True
        if self.judged.measure == "chance":
            return _percent(self.judged.value(best)) <= _percent(self.judged.value(chosen))
        return best.points - chosen.points < _TOLERANCE or shown_total(best) <= shown_total(chosen)

    @property
    def loss(self) -> float:
        """What the choice gave up against the best in the judgement's measure (expected
        points, or near the end the chance to win), 0 when it was best."""
        if self.was_best:
            return 0.0
        return self.judged.value(self.best) - self.judged.value(self.chosen)

    def line(self) -> str:
        """One short sentence for the player: what the kept hand, the thrown cards and the
        kept cards in the play were each worth on average, the net, near the end the chance
        to win, and the best split when it was worth more, e.g. "You kept 2♦ 7♠ 8♥ K♣ — 3.8
        in hand − 9.0 to the dealer's crib + 0.5 in the play = −4.7 expected; best was 2♦ 5♣
        5♦ 8♥ — 5.2."
        """
        kept = cards_str(sorted(self.chosen.kept, key=Card.sort_key))
        whose = self.whose or _crib_of(self.judged.crib_sign)
        said = f"You kept {kept} — {_worth(self.chosen, self.judged, whose)}"
        chance = self.judged.measure == "chance"
        if chance:
            said += f", {_percent(self.judged.value(self.chosen))}% to win as you threw"
        if self.was_best:
            return f"{said}, the best choice."
        best = cards_str(sorted(self.best.kept, key=Card.sort_key))
        if chance:
            return f"{said}; best was {best} — {_percent(self.judged.value(self.best))}% to win."
        return f"{said}; best was {best} — {one_decimal(shown_total(self.best))}."


def _percent(chance: float) -> int:
    """A chance to win as the coach says it: whole per cents."""
    return round(100 * chance)


def one_decimal(value: float) -> str:
    """``value`` to one decimal, with a real minus sign (a hyphen before a number reads as a
    dash), never "−0.0"."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text.replace("-", "−")


def as_shown(value: float) -> float:
    """``value`` as :func:`one_decimal` shows it: sums and differences of figures a player
    reads are worked out from these, so the arithmetic on the page adds up."""
    return float(f"{value:.1f}")


def shown_sum(*parts: float) -> float:
    """A split's expected points as the sum of its parts as shown (the crib signed: what it
    adds, or takes when it is the opponent's): "8.0 − 4.7 = 3.3", never 3.4 from the
    unrounded parts."""
    return sum(as_shown(part) for part in parts)


def shown_total(split: SplitWorth) -> float:
    """:func:`shown_sum` of one split's parts (hand, crib, play)."""
    return shown_sum(split.hand, split.crib, split.play)


def _signed(value: float) -> str:
    """``+ 3.4`` or ``− 0.3``: a part added to the sum."""
    return f"{'−' if as_shown(value) < 0 else '+'} {one_decimal(abs(value))}"


def _worth(split: SplitWorth, judged: DiscardJudgement, whose: tuple[str, str]) -> str:
    """The expected points of one split, as the sum a player can follow, part by part (the
    crib ``whose``: :func:`crib_words`; the play where the table weighs it)."""
    hand = one_decimal(split.hand)
    parts = [f"{hand} in hand"]
    if judged.crib_weighed:
        parts.append(f"{'+' if judged.crib_sign > 0 else '−'} {one_decimal(abs(split.crib))}")
        parts[-1] += f" {' '.join(whose)}"
    if judged.play_weighed and as_shown(split.play) != 0.0:
        parts.append(f"{_signed(split.play)} in the play")
    if len(parts) == 1:
        return f"{hand} expected in hand"
    return f"{' '.join(parts)} = {one_decimal(shown_total(split))} expected"


def review_discard(
    dealt: Sequence[Card],
    thrown: Sequence[Card],
    *,
    crib_sign: int,
    rules: Rules,
    needs: tuple[int, int] | None = None,
) -> DiscardReview:
    """Judge throwing ``thrown`` from the ``dealt`` hand (``crib_sign`` +1 ours, -1 theirs)
    in a game played by ``rules``, ``needs`` what each side needed then when the chance to
    win decides (:func:`engine.players.judge.needs_of`).

    Raises ``ValueError`` when ``thrown`` is not part of ``dealt`` or has the wrong size.
    """
    throw = set(thrown)
    if len(throw) != len(thrown) or not throw <= set(dealt):
        raise ValueError("The thrown cards must be distinct cards of the dealt hand.")
    judged = judge_discard(
        dealt, len(thrown), crib_sign=crib_sign, rules=rules, needs=needs, asked=thrown
    )
    return DiscardReview(judged, judged.of(thrown))


def review_view(view: SeatView, *, scores: Sequence[int] | None = None) -> DiscardReview | None:
    """Review the seat's discard this deal from its view, or None before it has discarded;
    ``scores``: the sides' scores as the deal began, when they were (the scores the seat
    threw at; by default the view's own)."""
    if not view.discards or len(view.kept) != view.rules.kept:
        return None
    judged = judge_view(view, scores=scores, asked=view.discards)
    return DiscardReview(judged, judged.of(view.discards), whose=crib_words(view, view.seat))
