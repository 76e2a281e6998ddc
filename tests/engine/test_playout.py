"""The fast play-out on ranks follows the game's own rules: whole plays of club players run
both ways score the same, side by side."""

from __future__ import annotations

import random

import pytest

from engine.cards import PIP_VALUES
from engine.events import GoPoint, Played
from engine.game import Game
from engine.phase import Phase
from engine.players import ClubPlayer
from engine.players.fastscore import peg_scorer
from engine.players.playout import finisher, thumb_choice
from engine.rules import PlayEnd, Rules, Share
from tests.helpers.rigging import NAMES

CLUB = ClubPlayer()
#: Five-card cribbage's play: one pass to 31 (three kept each).
ONE_PASS = Rules(dealer=Share(5, 2), others=Share(5, 2), target=61, play_end=PlayEnd.FIRST_GO)
#: Five-hand: five seats, the dealer dealt four and throwing none.
FIVE_HAND = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1), target=61)


def simulated_play(game: Game) -> tuple[list[int], int]:
    """The play from the lead by :meth:`~engine.players.playout.Finisher.finish`, every seat by
    the club's thumb."""
    rules = game.state.rules
    n = game.state.num_players
    hands = [[card.rank for card in game.view(seat).hand] for seat in range(n)]
    sides = [game.side_of(seat) for seat in range(n)]
    needs = [game.state.rules.target - score for score in game.state.scores]
    lead = rules.leader(game.state.dealer)
    rank = thumb_choice(hands[lead], [], 0, rules=rules)
    hands[lead].remove(rank)
    points = [0] * game.state.rules.num_sides
    points[sides[lead]] = peg_scorer(rules.points)([rank], PIP_VALUES[rank])
    winner = finisher(rules).finish(hands, sides, lead, PIP_VALUES[rank], [rank], points, needs)
    return points, winner


TABLES = {
    "2 players": Rules.standard(2, target=61),
    "3 players": Rules.standard(3, target=61),
    "4 players": Rules.standard(4, target=61),
    "one pass to 31": ONE_PASS,
    "five-hand": FIVE_HAND,
}


@pytest.mark.parametrize("rules", TABLES.values(), ids=TABLES.keys())
def test_a_club_play_scores_the_same_simulated_and_in_the_game(rules: Rules) -> None:
    rng = random.Random(rules.seats)
    compared = 0
    for seed in range(8):
        names = (*NAMES, "Ed")[: rules.seats]
        game, _ = Game.new(names, rng=random.Random(seed), rules=rules)
        while game.state.phase is not Phase.OVER:
            if game.state.phase is Phase.DISCARD:
                seat = game.pending_discards()[0]
                game.discard(seat, CLUB.choose_discard(game.view(seat), rng))
                continue
            expected, winner = simulated_play(game)
            pegged = [0] * game.state.rules.num_sides
            deal = game.state.deal_number
            while game.state.phase is Phase.PLAY and game.state.deal_number == deal:
                turn = game.state.turn
                assert turn is not None
                seat = turn
                for event in game.play(seat, CLUB.choose_play(game.view(seat), rng)):
                    if isinstance(event, Played | GoPoint):
                        pegged[event.side] += event.points
            assert pegged == expected
            if winner >= 0:
                # A side pegged out: the game stopped there, as the play-out did.
                assert game.state.result is not None
                assert game.state.result.winner == winner
            compared += 1
    assert compared > 20
