"""Game points (win, skunk, double skunk, lurch) and resignation."""

from __future__ import annotations

import random

import pytest

from engine.events import GameOver
from engine.game import Game, GameResult, Phase
from engine.outcome import EndReason, ResultKind, game_points, make_result
from tests.helpers.rigging import NAMES, play_cards, rigged_game, three_player_game

KEPT = ["5C KS JC 6C", "KH 6D 10H 5S"]
THROWN = ["8H 9D", "AS 3C"]
PLAY = "KH 5C 6D KS 10H JC 5S 6C"  # pegs 6 for the dealer (seat 0), then the pone shows 4


@pytest.mark.parametrize(
    ("target", "loser", "points", "kind"),
    [
        (121, 120, 1, "win"),
        (121, 91, 1, "win"),
        (121, 90, 2, "skunk"),
        (121, 61, 2, "skunk"),
        (121, 60, 3, "double_skunk"),
        (121, 0, 3, "double_skunk"),
        (61, 60, 1, "win"),
        (61, 31, 1, "win"),
        (61, 30, 2, "lurch"),
        (61, 0, 2, "lurch"),
    ],
)
def test_game_points_win_skunk_double_skunk_and_lurch(
    target: int, loser: int, points: int, kind: str
) -> None:
    assert game_points(target, loser) == (points, kind)


def test_game_points_three_players_the_loser_is_second_place() -> None:
    assert make_result(121, (121, 95, 40), 0, EndReason.TARGET).kind == "win"
    assert make_result(121, (80, 121, 95), 1, EndReason.TARGET).kind == "win"
    assert make_result(121, (80, 85, 121), 2, EndReason.TARGET) == GameResult(
        winner=2,
        scores=(80, 85, 121),
        game_points=2,
        reason=EndReason.TARGET,
        kind=ResultKind.SKUNK,
    )


@pytest.mark.parametrize(
    ("target", "dealer_start", "points", "kind"),
    [
        (121, 85, 1, "win"),  # the dealer ends on 91
        (121, 84, 2, "skunk"),  # 90
        (121, 54, 3, "double_skunk"),  # 60
        (61, 25, 1, "win"),  # 31
        (61, 24, 2, "lurch"),  # 30
    ],
)
def test_game_points_when_the_pone_counts_out(
    target: int, dealer_start: int, points: int, kind: str
) -> None:
    game, _ = rigged_game(
        KEPT, THROWN, dealer=0, starter="2D", target=target, scores=(dealer_start, target - 4)
    )
    events = play_cards(game, PLAY)
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result == GameResult(
        winner=1,
        scores=(dealer_start + 6, target),
        game_points=points,
        reason=EndReason.TARGET,
        kind=ResultKind(kind),
    )
    assert game.result == over.result


def test_resign_two_players_the_other_player_wins() -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(3))
    events = game.resign(0)
    assert events == [
        GameOver(
            GameResult(
                winner=1,
                scores=(0, 0),
                game_points=3,
                reason=EndReason.RESIGNED,
                kind=ResultKind.DOUBLE_SKUNK,
            )
        )
    ]
    assert game.phase is Phase.OVER and game.turn is None
    assert game.actions[-1] == {"type": "resign", "seat": 0}


def test_resign_four_players_the_other_partnership_wins() -> None:
    game, _ = rigged_game(
        ["10H 9H QH JH", "10C AC 2C 2D", "10D 9D KD QD", "9S KS QS JS"],
        ["4H", "4C", "4D", "4S"],
        dealer=3,
        starter="3H",
        scores=(100, 95),
    )
    [over] = game.resign(2)
    assert isinstance(over, GameOver)
    assert over.result.winner == 1 and over.result.kind == "win"


@pytest.mark.parametrize(
    ("scores", "resigner", "winner"),
    [((30, 50, 40), 1, 2), ((45, 50, 40), 1, 0), ((30, 50, 30), 1, 2), ((70, 50, 70), 0, 2)],
)
def test_resign_three_players_the_leader_of_the_others_wins(
    scores: tuple[int, int, int], resigner: int, winner: int
) -> None:
    game, _ = three_player_game(scores=scores)
    [over] = game.resign(resigner)
    assert isinstance(over, GameOver)
    assert over.result.winner == winner
    assert over.result.reason == "resigned"
