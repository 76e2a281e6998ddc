"""The review of a game: each decision of a seat beside the expert's, from the seat's view."""

from __future__ import annotations

import random

from engine.cards import Card, parse_cards
from engine.game import Game
from engine.players import make_player
from engine.players.base import finish
from engine.review import GameReview, review_game
from engine.rules import Rules
from engine.variants import named
from tests.helpers.rigging import RiggedRandom, cut_order, deal_order

SIXTY_ONE = Rules.standard(2, target=61)


def _played(seed: int, levels: tuple[str, str] = ("easy", "hard")) -> tuple[Game, int]:
    """A whole game between two computer levels, dealt from ``seed``."""
    game, _ = Game.new(["Al", "Bea"], target=61, rng=random.Random(seed))
    choices = random.Random(seed)
    return finish(game, [make_player(level) for level in levels], [choices, choices]), seed


def test_every_discard_and_every_real_choice_of_play_is_judged() -> None:
    game, seed = _played(11)
    players, actions = game.state.players, game.actions
    review = review_game(
        players, actions, rng=random.Random(seed), seats={0}, seed=1, rules=SIXTY_ONE
    )
    assert review.deals == game.state.deal_number
    discards = [d for d in review.decisions if d.kind == "discard"]
    assert [d.deal for d in discards] == list(range(1, game.state.deal_number + 1))
    plays = [d for d in review.decisions if d.kind == "play"]
    mine = [a for a in game.actions if a["type"] == "play" and a["seat"] == 0]
    assert 0 < len(plays) <= len(mine)
    for decision in review.decisions:
        assert decision.seat == 0
        assert decision.best_value >= decision.chosen_value - 1e-9
        assert set(decision.chosen) <= set(decision.held)
        assert set(decision.best) <= set(decision.held)
    # The same review every time, and through JSON.
    again = review_game(
        players, actions, rng=random.Random(seed), seats={0}, seed=1, rules=SIXTY_ONE
    )
    assert again == review
    assert GameReview.from_dict(review.to_dict()) == review


def test_a_bad_discard_gives_up_points_and_the_best_is_named() -> None:
    hands = [parse_cards("5H 5C JD QS 9C 2D"), parse_cards("AC 3D 7H 8S KC 4S")]
    rng = RiggedRandom([cut_order(2, 1), deal_order(1, hands, Card.parse("6D"))])
    game, _ = Game.new(["Al", "Bea"], rng=rng)
    game.discard(0, parse_cards("5H 5C"))  # the pone throws a pair of fives to the dealer
    game.discard(1, parse_cards("KC 4S"))
    rng2 = RiggedRandom([cut_order(2, 1), deal_order(1, hands, Card.parse("6D"))])
    review = review_game(game.state.players, game.actions, rng=rng2, seats={0}, seed=1)
    [discard] = review.decisions
    assert discard.kind == "discard" and discard.loss > 3 and not discard.close
    assert set(discard.best) == set(parse_cards("9C 2D")) or discard.best_value > 0
    assert discard.kept_crib < 0, "the crib was the opponent's: it counts against"


def test_only_the_deals_asked_for_are_reviewed() -> None:
    game, seed = _played(12)
    review = review_game(
        game.state.players,
        game.actions,
        rng=random.Random(seed),
        seats={1},
        seed=1,
        rules=SIXTY_ONE,
        through_deal=2,
    )
    assert review.deals == 2 and {d.deal for d in review.decisions} == {1, 2}
    assert review.shown == {1, 2}


def test_a_play_is_valued_in_points_pegged_where_no_chances_hold() -> None:
    """Three players (no table of chances to win holds): every play's value is the points the
    side is expected to peg less the others', the game's end counting only for the points
    pegged to reach it. (The expert's own play values a win at 100 points: near the end the
    review read "60.7; the expert plays 7♥: 73.9" under a note saying points pegged.)"""
    rules = Rules.standard(3, target=61)
    near_the_end = 0
    for seed in range(4):
        game, _ = Game.new(["Al", "Bea", "Cy"], target=61, rng=random.Random(seed))
        choices = random.Random(seed)
        finish(game, [make_player("easy")] * 3, [choices] * 3)
        review = review_game(
            game.state.players,
            game.actions,
            rng=random.Random(seed),
            seats={0, 1, 2},
            seed=1,
            rules=rules,
            samples=24,
        )
        for decision in review.decisions:
            if decision.kind != "play":
                continue
            assert decision.unit == "points"
            # A side pegs a few points a play on average; a win counted at 100 shows as more.
            assert -25 < decision.chosen_value <= decision.best_value < 25, decision
            near_the_end += max(decision.scores) >= 61 - 31
    assert near_the_end > 0, "no play was judged where the game could end"


def test_each_deal_is_reviewed_from_the_scores_it_began_with() -> None:
    """Five-hand: the dealer is dealt only the four cards it keeps, so its first decision of a
    deal comes in the play, after the heels and the pegging before it; the review keeps the
    scores each deal began with apart from its decisions' own."""
    rules = named("five_hand").rules(5, 61)
    players = ["Al", "Bea", "Cy", "Dee", "Eve"]
    game, _ = Game.new(players, rng=random.Random(3), rules=rules)
    choices = random.Random(3)
    finish(game, [make_player("easy")] * 5, [choices] * 5)
    review = review_game(
        players,
        game.actions,
        rng=random.Random(3),
        seats=set(range(5)),
        seed=1,
        rules=rules,
        samples=8,
    )
    again, _ = Game.new(players, rng=random.Random(3), rules=rules)
    began: list[tuple[int, ...]] = []
    for action in game.actions:
        if len(began) < again.state.deal_number:
            began.append(again.state.scores)
        again.apply(action)
    assert review.began == tuple(began) and len(began) == game.state.deal_number
    later = [d for d in review.decisions if d.scores != began[d.deal - 1]]
    assert later, "some deal's first decision came after points were scored in it"
    assert GameReview.from_dict(review.to_dict()) == review
    kept_before = {k: v for k, v in review.to_dict().items() if k != "began"}
    assert GameReview.from_dict(kept_before).began == ()
