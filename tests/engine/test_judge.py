"""The one judge of a discard (issue 68): the hint, the coach and the review draw from it, so a
player who throws what the hint said is never told they chose wrong, far from the end of a
game or near it (where the chance to win decides), in every variant the hint is given in."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.cards import Card
from engine.coach import review_discard, review_view
from engine.game import Game
from engine.hint import hint
from engine.players import make_player
from engine.players.base import crib_sign, finish
from engine.players.judge import judge_discard, judge_view, needs_of
from engine.review import review_game
from engine.rules import Rules
from engine.variants import named

EXPERT = make_player("expert")
#: The sides' scores the hands below are dealt at: the start, the middle of a game, and
#: near its end (either side within reach: the chance to win decides there).
SCORES = [(0, 0), (55, 70), (100, 88), (93, 115), (117, 119)]


def _near_end(scores: tuple[int, ...], view_rules: Rules) -> bool:
    return needs_of(scores, sides=(0, 1), seat=0, target=121, rules=view_rules) is not None


@pytest.mark.parametrize(
    ("variant", "players"),
    [("standard", 2), ("standard", 3), ("standard", 4), ("five_card", 2), ("seven_card", 2)],
)
def test_a_discard_the_hint_names_is_the_coachs_best_choice(variant: str, players: int) -> None:
    """A seeded sweep: deals at scores from the start to the last points, every seat asking
    the hint and throwing what it says; the coach's line on each (as the bot makes it, from the
    view after the play with the scores the deal began with) calls it the best choice."""
    rules = named(variant).rules(players)
    near = 0
    for seed in range(24 if players == 2 and variant == "standard" else 8):
        game, _ = Game.new(
            [f"P{n}" for n in range(rules.seats)], rng=random.Random(seed), rules=rules
        )
        scores = SCORES[seed % len(SCORES)][: game.view(0).num_sides]
        scores = scores + (0,) * (game.view(0).num_sides - len(scores))
        for seat in range(rules.seats):
            view = dataclasses.replace(game.view(seat), scores=scores)
            if not view.discard_count:
                continue
            said = hint(EXPERT, view, random.Random(seed))
            game.discard(seat, said.cards)
        for seat in range(rules.seats):
            after = dataclasses.replace(game.view(seat), scores=(121,) * len(scores))
            review = review_view(after, scores=scores)
            if review is None:
                continue
            assert review.was_best and review.loss == 0, review.line()
            assert review.line().endswith(", the best choice."), review.line()
            near += review.judged.measure == "chance"
    if players == 2 and variant == "standard":
        assert near >= 10, "the sweep reached the end of games"


@pytest.mark.parametrize(
    ("variant", "players", "target"),
    [("standard", 2, 121), ("standard", 2, 61), ("standard", 3, 121), ("five_card", 2, 61)],
)
def test_the_review_of_a_player_who_throws_as_the_hint_says_finds_every_discard_best(
    variant: str, players: int, target: int
) -> None:
    """Whole games in which seat 0 throws what the hint (the expert's choice) says: the review
    of its discards, made as the review worker makes it from the game's log, finds every one
    the best split, near the end too."""
    rules = named(variant).rules(players, target=target)
    for seed in (1, 2):
        names = [f"P{n}" for n in range(rules.seats)]
        game, _ = Game.new(names, rng=random.Random(seed), rules=rules)
        others = [EXPERT, *(make_player("hard") for _ in range(rules.seats - 1))]
        finish(game, others, [random.Random(seed + n) for n in range(rules.seats)])
        found = review_game(
            names,
            game.actions,
            rng=random.Random(seed),
            seats={0},
            seed=seed,
            rules=rules,
            samples=8,
            dealer=game.state.given_dealer,
        )
        discards = [d for d in found.decisions if d.kind == "discard"]
        assert discards
        for decision in discards:
            assert decision.was_best and decision.close and decision.loss == 0, decision


def test_the_judge_reads_the_hand_in_any_order_and_weighs_a_chosen_split_near_the_end() -> None:
    dealt = tuple(Card.parse(code) for code in ["5H", "5C", "JD", "QS", "10S", "2D"])
    needs = (20, 30)
    one = judge_discard(dealt, 2, crib_sign=-1, rules=Rules(), needs=needs)
    other = judge_discard(dealt[::-1], 2, crib_sign=-1, rules=Rules(), needs=needs)
    assert one == other
    worst = one.splits[-1]
    assert worst.chance is None
    asked = judge_discard(dealt, 2, crib_sign=-1, rules=Rules(), needs=needs, asked=worst.thrown)
    assert asked.of(worst.thrown).chance is not None
    assert asked.best == one.best  # (a split asked about is weighed, and decides nothing else)
    review = review_discard(dealt, worst.thrown, crib_sign=-1, rules=Rules(), needs=needs)
    assert review.judged.value(review.chosen) < review.judged.value(review.best)


def test_the_judge_of_a_view_is_the_experts_discard() -> None:
    for seed in range(6):
        game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(seed))
        view = dataclasses.replace(game.view(seed % 2), scores=SCORES[seed % len(SCORES)])
        judged = judge_view(view)
        assert judged.best.thrown == EXPERT.choose_discard(view, random.Random(0))
        assert judged.crib_sign == crib_sign(view, view.seat)
        assert judged.measure == ("chance" if _near_end(view.scores, view.rules) else "points")
