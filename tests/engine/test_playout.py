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
from engine.players.fastscore import peg_points
from engine.players.playout import finish_play, thumb_choice
from tests.helpers.rigging import NAMES

CLUB = ClubPlayer()


def simulated_play(game: Game) -> tuple[list[int], int]:
    """The play from the lead by :func:`finish_play`, every seat by the club's thumb."""
    n = game.num_players
    hands = [[card.rank for card in game.view(seat).hand] for seat in range(n)]
    sides = [game.side_of(seat) for seat in range(n)]
    needs = [game.target - score for score in game.scores]
    lead = (game.dealer + 1) % n
    rank = thumb_choice(hands[lead], [], 0)
    hands[lead].remove(rank)
    points = [0] * game.num_sides
    points[sides[lead]] = peg_points([rank], PIP_VALUES[rank])
    winner = finish_play(hands, sides, lead, PIP_VALUES[rank], [rank], points, needs)
    return points, winner


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_club_play_scores_the_same_simulated_and_in_the_game(players: int) -> None:
    rng = random.Random(players)
    compared = 0
    for seed in range(8):
        game, _ = Game.new(NAMES[:players], target=61, rng=random.Random(seed))
        while game.phase is not Phase.OVER:
            if game.phase is Phase.DISCARD:
                seat = game.pending_discards()[0]
                game.discard(seat, CLUB.choose_discard(game.view(seat), rng))
                continue
            expected, winner = simulated_play(game)
            pegged = [0] * game.num_sides
            deal = game.deal_number
            while game.phase is Phase.PLAY and game.deal_number == deal:
                turn = game.turn
                assert turn is not None
                seat = turn
                for event in game.play(seat, CLUB.choose_play(game.view(seat), rng)):
                    if isinstance(event, Played | GoPoint):
                        pegged[event.side] += event.points
            assert pegged == expected
            if winner >= 0:
                # A side pegged out: the game stopped there, as the play-out did.
                assert game.result is not None
                assert game.result.winner == winner
            compared += 1
    assert compared > 20
