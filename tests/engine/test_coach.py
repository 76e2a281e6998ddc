"""The coach's line after a show: what the kept cards were worth, and the best choice."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.coach import DiscardReview, review_discard, review_view, shown_total
from engine.game import Game
from engine.hint import hint
from engine.players import make_player
from engine.players.judge import DiscardJudgement, SplitWorth, judge_discard, needs_of
from engine.rules import Rules
from engine.variants import named
from tests.helpers.rigging import fives_and_fours_game, fives_and_fours_table

NUMBER = r"−?\d+\.\d"
LINE = re.compile(
    rf"^You kept (\S+ ){{3}}\S+ — {NUMBER} in hand"
    rf" (\+ {NUMBER} in your (partner's )?crib|− {NUMBER} to the dealer's crib)"
    rf"( [+−] {NUMBER} in the play)? = {NUMBER} expected(, \d+% to win as you threw)?"
    rf"(, the best choice\.|; best was (\S+ ){{3}}\S+ — ({NUMBER}|\d+% to win)\.)$"
)


def said(value: float) -> str:
    """A figure as the coach writes it: one decimal, a real minus sign."""
    return f"{value:.1f}".replace("-", "−")


def test_a_worse_discard_names_the_best_one_with_its_figure() -> None:
    dealt = parse_cards("5C 5D 7S 8H KC 2D")
    review = review_discard(dealt, parse_cards("5C 5D"), crib_sign=-1, rules=Rules())
    best = judge_discard(dealt, 2, crib_sign=-1, rules=Rules()).best
    assert not review.was_best
    assert review.best == best
    assert review.loss == pytest.approx(best.points - review.chosen.points)
    line = review.line()
    assert LINE.match(line), line
    assert line.startswith("You kept 2♦ 7♠ 8♥ K♣ — ")
    chosen = review.chosen
    assert (
        f"— {said(chosen.hand)} in hand − {said(-chosen.crib)} to the dealer's crib"
        f" {'−' if chosen.play < 0 else '+'} {said(abs(chosen.play))} in the play"
        f" = {said(shown_total(chosen))} expected; best was"
    ) in line
    assert chosen.points < 0 and "−" in line  # throwing two fives to the opponent costs
    assert line.endswith(f"— {said(shown_total(best))}.")


def test_the_best_discard_is_praised() -> None:
    dealt = parse_cards("5C 5D 7S 8H KC 2D")
    best = judge_discard(dealt, 2, crib_sign=1, rules=Rules()).best
    review = review_discard(dealt, best.thrown, crib_sign=1, rules=Rules())
    assert review.was_best and review.loss == 0
    chosen = review.chosen
    kept = " ".join(str(c) for c in sorted(chosen.kept, key=lambda c: c.sort_key()))
    assert review.line() == (
        f"You kept {kept} — {said(chosen.hand)} in hand + {said(chosen.crib)} in your"
        f" crib + {said(chosen.play)} in the play = {said(shown_total(chosen))} expected,"
        " the best choice."
    )


def test_the_coach_counts_the_play_as_the_hint_does() -> None:
    """The hint counted the kept cards' worth in the play, the coach did not: a player who
    threw what the hint said was told the split the hand and the crib alone prefer was best
    (here the pone's throw of A♣ 6♥, told it gave up 0.6 to 5♠ Q♠). One judge counts the
    same parts for both."""
    game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(26))
    view = game.view(1)
    hinted = hint(make_player("expert"), view, random.Random(1))
    assert {str(c) for c in hinted.cards} == {"A♣", "6♥"}
    review = review_discard(view.hand, hinted.cards, crib_sign=-1, rules=view.rules)
    assert review.was_best, review.line()
    assert review.line().endswith(", the best choice."), review.line()
    assert "in the play" in hinted.line and "in the play" in review.line()


def test_near_the_end_the_chance_to_win_decides_and_is_said() -> None:
    dealt = parse_cards("5H 5C JD QS 10S 2D")
    needs = needs_of((110, 100), sides=(0, 1), seat=0, target=121, rules=Rules())
    assert needs == (11, 21)
    judged = judge_discard(dealt, 2, crib_sign=1, rules=Rules(), needs=needs)
    assert judged.measure == "chance"
    worst = judged.splits[-1]  # (far down by its points: weighed because it was chosen)
    review = review_discard(dealt, worst.thrown, crib_sign=1, rules=Rules(), needs=needs)
    assert review.chosen.chance is not None and review.loss > 0
    assert LINE.match(review.line()), review.line()
    assert "% to win as you threw; best was " in review.line()
    assert review.line().endswith("% to win.")


def test_the_review_uses_the_dealt_hand_as_the_seat_knew_it() -> None:
    # Seat 1 (pone) kept 4♣ 4♦ 9♠ K♥ and threw 7♣ 8♣; the starter and the other seat's cards
    # play no part: the review equals the one from the dealt cards alone.
    game, _ = fives_and_fours_game()
    review = review_view(game.view(1))
    assert review is not None
    alone = review_discard(
        parse_cards("4C 4D 9S KH 7C 8C"), parse_cards("7C 8C"), crib_sign=-1, rules=Rules()
    )
    assert (review.chosen, review.best) == (alone.chosen, alone.best)
    assert LINE.match(review.line())


def test_no_review_before_the_discard() -> None:
    game, _ = fives_and_fours_game(discard=False)
    assert review_view(game.view(0)) is None


def test_three_players_review_one_thrown_card() -> None:
    game, _ = fives_and_fours_table(3)
    review = review_view(game.view(2))
    assert review is not None
    assert review.chosen.thrown == parse_cards("2D")
    assert review.judged.crib_sign == 1 and not review.judged.play_weighed
    assert LINE.match(review.line())


def test_thrown_cards_must_come_from_the_dealt_hand() -> None:
    with pytest.raises(ValueError, match="dealt hand"):
        review_discard(
            parse_cards("5C 5D 7S 8H KC 2D"), parse_cards("AS 2D"), crib_sign=1, rules=Rules()
        )


@settings(deadline=None)
@given(
    hand=st.floats(0, 30, allow_nan=False),
    crib=st.floats(-30, 30, allow_nan=False),
    play=st.floats(-3, 3, allow_nan=False),
)
def test_the_coachs_sum_adds_up_as_written(hand: float, crib: float, play: float) -> None:
    # "8.0 in hand − 4.7 to the dealer's crib = 3.4" was seen: the total of the unrounded parts.
    # The figures a player reads add up to the total written beside them.
    cards = parse_cards("5H 5D JC QS 2C 3D")
    split = SplitWorth(cards[:4], cards[4:], hand, crib, play)
    judged = DiscardJudgement((split,), "points", 1 if crib >= 0 else -1, True, True)
    said = re.search(
        r"([−\d.]+) in hand ([+−]) ([\d.]+) (?:in your|to the dealer's) crib"
        r"(?: ([+−]) ([\d.]+) in the play)? = ([−\d.]+)",
        DiscardReview(judged, split).line(),
    )
    assert said is not None
    first, op, second, op2, third, total = said.groups()

    def value(text: str) -> float:
        return float(text.replace("−", "-"))

    expected = value(first) + (value(second) if op == "+" else -value(second))
    if third is not None:
        expected += value(third) if op2 == "+" else -value(third)
    assert f"{expected:.1f}".replace("-", "−").replace("−0.0", "0.0") == total


@pytest.mark.parametrize("variant", ["standard", "six_hand", "six_hand_pairs"])
def test_a_throw_to_a_partners_crib_is_said_to_be_the_partners(variant: str) -> None:
    """With partners (four players, six in teams) a seat whose partner deals throws to its
    side's crib: the coach says "your partner's crib", as the hint does (it said "your
    crib", as to the dealer); the dealer's own line says "your crib", an opponent's "the
    dealer's crib". Every seat that throws is judged, in a deal of each teams layout."""
    rules = named(variant).rules(4 if variant == "standard" else 6)
    game, _ = Game.new([f"P{n}" for n in range(rules.seats)], rng=random.Random(5), rules=rules)
    dealer = game.view(0).dealer
    for seat in range(rules.seats):
        view = game.view(seat)
        if view.discard_count:
            game.discard(seat, view.hand[: view.discard_count])
    said = {}
    for seat in range(rules.seats):
        review = review_view(game.view(seat))
        if review is not None:
            said[seat] = review.line()
    partners = [s for s in said if s != dealer and rules.side_of(s) == rules.side_of(dealer)]
    assert partners, "a partner of the dealer threw"
    for seat, line in said.items():
        if seat == dealer:
            assert " in your crib = " in line, line
        elif seat in partners:
            assert " in your partner's crib = " in line, line
        else:
            assert " to the dealer's crib = " in line, line
        assert LINE.match(line), line
