"""Game points (win and lurch by default, or the skunk scale as an option) and resignation."""

from __future__ import annotations

import random

import pytest

from engine.events import GameOver
from engine.game import Game, GameResult, Phase
from engine.outcome import EndReason, ResultKind, Scoring
from engine.rules import Rules
from tests.helpers.rigging import (
    NAMES,
    TWO_PLAY,
    four_player_game,
    play_cards,
    three_player_game,
    two_player_game,
)


@pytest.mark.parametrize(
    ("target", "loser", "lurch", "skunk"),
    [
        (121, 120, (1, "win"), (1, "win")),
        (121, 91, (1, "win"), (1, "win")),
        (121, 90, (1, "win"), (2, "skunk")),
        (121, 61, (1, "win"), (2, "skunk")),
        (121, 60, (2, "lurch"), (3, "double_skunk")),
        (121, 0, (2, "lurch"), (3, "double_skunk")),
        (61, 60, (1, "win"), (1, "win")),
        (61, 31, (1, "win"), (1, "win")),
        (61, 30, (2, "lurch"), (2, "skunk")),
        (61, 0, (2, "lurch"), (2, "skunk")),
    ],
)
def test_lurch_under_half_the_target_skunk_under_91_two_under_61_three_61_games_under_31_two(
    target: int, loser: int, lurch: tuple[int, str], skunk: tuple[int, str]
) -> None:
    # A lurch (the default scale) is a loser under half the target: two game points. On the
    # skunk scale a 121 game under 91 is a skunk (two), under 61 a double skunk (three); a 61
    # game under 31 is a skunk (two).
    assert Rules.standard(target=target).game_points(loser) == lurch
    assert Rules.standard(target=target, scoring=Scoring.LURCH).game_points(loser) == lurch
    assert Rules.standard(target=target, scoring=Scoring.SKUNK).game_points(loser) == skunk


def test_game_points_three_players_the_loser_is_second_place() -> None:
    lurch, skunk = Rules.standard(3), Rules.standard(3, scoring=Scoring.SKUNK)
    assert lurch.result((121, 95, 40), 0, EndReason.TARGET).kind == "win"
    assert skunk.result((80, 121, 95), 1, EndReason.TARGET).kind == "win"
    assert lurch.result((60, 55, 121), 2, EndReason.TARGET).kind == "lurch"
    assert skunk.result((80, 85, 121), 2, EndReason.TARGET) == GameResult(
        winner=2,
        scores=(80, 85, 121),
        game_points=2,
        reason=EndReason.TARGET,
        kind=ResultKind.SKUNK,
    )


def test_a_new_game_is_scored_by_the_lurch_unless_the_skunk_scale_is_chosen() -> None:
    assert Game.new(NAMES[:2], rng=random.Random(1))[0].state.rules.scoring is Scoring.LURCH
    game, _ = Game.new(NAMES[:2], rng=random.Random(1), scoring=Scoring.SKUNK)
    assert game.state.rules.scoring is Scoring.SKUNK
    assert Game.from_json(game.to_json(), rng=random.Random(2)).state.rules.scoring is Scoring.SKUNK
    assert game.public_view().scoring is Scoring.SKUNK


@pytest.mark.parametrize(
    ("target", "scoring", "dealer_start", "points", "kind"),
    [
        (121, Scoring.LURCH, 55, 1, "win"),  # the dealer ends on 61
        (121, Scoring.LURCH, 54, 2, "lurch"),  # 60
        (121, Scoring.SKUNK, 85, 1, "win"),  # 91
        (121, Scoring.SKUNK, 84, 2, "skunk"),  # 90
        (121, Scoring.SKUNK, 54, 3, "double_skunk"),  # 60
        (61, Scoring.LURCH, 25, 1, "win"),  # 31
        (61, Scoring.LURCH, 24, 2, "lurch"),  # 30
        (61, Scoring.SKUNK, 24, 2, "skunk"),  # 30
    ],
)
def test_game_points_when_the_pone_counts_out(
    target: int, scoring: Scoring, dealer_start: int, points: int, kind: str
) -> None:
    game, _ = two_player_game(target=target, scores=(dealer_start, target - 4), scoring=scoring)
    events = play_cards(game, TWO_PLAY)
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result == GameResult(
        winner=1,
        scores=(dealer_start + 6, target),
        game_points=points,
        reason=EndReason.TARGET,
        kind=ResultKind(kind),
    )
    assert game.state.result == over.result


@pytest.mark.parametrize(
    ("scoring", "points", "kind"),
    [(Scoring.LURCH, 2, ResultKind.LURCH), (Scoring.SKUNK, 3, ResultKind.DOUBLE_SKUNK)],
)
def test_resignation_is_a_loss_at_the_scores_as_they_stand(
    scoring: Scoring, points: int, kind: ResultKind
) -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(3), scoring=scoring)
    events = game.resign(0)
    assert events == [
        GameOver(
            GameResult(
                winner=1, scores=(0, 0), game_points=points, reason=EndReason.RESIGNED, kind=kind
            )
        )
    ]
    assert game.state.phase is Phase.OVER and game.state.turn is None
    assert game.actions[-1] == {"type": "resign", "seat": 0}


def test_resignation_lurched_only_when_the_resigner_is_under_the_line() -> None:
    game, _ = two_player_game(scores=(70, 30))
    [over] = game.resign(1)
    assert isinstance(over, GameOver)
    assert (over.result.winner, over.result.game_points, over.result.kind) == (0, 2, "lurch")
    [over] = two_player_game(scores=(70, 30))[0].resign(0)
    assert isinstance(over, GameOver)
    assert (over.result.winner, over.result.game_points, over.result.kind) == (1, 1, "win")


def test_resign_four_players_the_other_partnership_wins() -> None:
    game, _ = four_player_game(scores=(100, 95))
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
