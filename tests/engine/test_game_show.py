"""The show: order of counting, the crib, winning part-way through, and the next deal."""

from __future__ import annotations

import pytest

from engine.cards import Card, parse_cards
from engine.events import Dealt, Event, GameOver, Shown
from engine.game import Phase
from engine.scoring import score_hand
from tests.helpers.rigging import (
    THREE_KEPT,
    THREE_THROWN,
    TWO_KEPT,
    TWO_PLAY,
    play_cards,
    rigged_game,
    two_player_game,
)


def shows(events: list[Event]) -> list[tuple[int, bool, int, int]]:
    return [(e.seat, e.crib, e.score.total, e.total) for e in events if isinstance(e, Shown)]


def test_show_order_two_players_pone_then_dealer_then_crib() -> None:
    game, _ = two_player_game()
    events = play_cards(game, TWO_PLAY)
    assert shows(events) == [(1, False, 4, 4), (0, False, 4, 10), (0, True, 5, 15)]
    assert game.state.scores == (15, 4)


def test_show_cards_are_the_kept_hands_and_the_crib_with_the_starter() -> None:
    game, _ = two_player_game()
    events = play_cards(game, TWO_PLAY)
    shown = [e for e in events if isinstance(e, Shown)]
    assert set(shown[0].cards) == set(parse_cards(TWO_KEPT[1]))
    assert set(shown[1].cards) == set(parse_cards(TWO_KEPT[0]))
    assert set(shown[2].cards) == set(parse_cards("8H 9D AS 3C"))
    starter = Card.parse("2D")
    assert all(e.starter == starter for e in shown)
    assert shown[0].score == score_hand(shown[0].cards, starter)
    assert shown[2].score == score_hand(shown[2].cards, starter, crib=True)
    kinds = [item.kind for item in shown[2].score.items]
    assert kinds == ["fifteen", "run"]


def test_next_deal_follows_the_show_in_the_same_action() -> None:
    game, _ = two_player_game()
    events = play_cards(game, TWO_PLAY)
    assert events[-1] == Dealt(dealer=1, deal_number=2, hand_size=6, crib_from_deck=False)
    assert (
        game.state.phase is Phase.DISCARD and game.state.dealer == 1 and game.state.deal_number == 2
    )
    assert game.state.starter is None and game.state.turn is None and game.state.count == 0
    view = game.public_view()
    assert view.played == ((), ()) and view.series == () and view.crib_size == 0
    assert view.hand_sizes == (6, 6) and view.pending_discards == (0, 1)
    assert [(s.seat, s.crib) for s in view.last_show] == [(1, False), (0, False), (0, True)]


@pytest.mark.parametrize(
    ("kept", "thrown", "crib_card", "dealer", "order"),
    [
        (
            THREE_KEPT,
            THREE_THROWN,
            "2H",
            0,
            [(1, False), (2, False), (0, False), (0, True)],
        ),
        (
            THREE_KEPT,
            THREE_THROWN,
            "2H",
            1,
            [(2, False), (0, False), (1, False), (1, True)],
        ),
        (
            ["10H 9H QH JH", "10C AC 2C 2D", "10D 9D KD QD", "9S KS QS JS"],
            ["4H", "4C", "4D", "4S"],
            None,
            3,
            [(0, False), (1, False), (2, False), (3, False), (3, True)],
        ),
        (
            ["10H 9H QH JH", "10C AC 2C 2D", "10D 9D KD QD", "9S KS QS JS"],
            ["4H", "4C", "4D", "4S"],
            None,
            1,
            [(2, False), (3, False), (0, False), (1, False), (1, True)],
        ),
    ],
)
def test_show_order_left_of_dealer_round_to_the_dealer_then_the_crib(
    kept: list[str],
    thrown: list[str],
    crib_card: str | None,
    dealer: int,
    order: list[tuple[int, bool]],
) -> None:
    game, _ = rigged_game(kept, thrown, dealer=dealer, starter="3S", crib_card=crib_card)
    events: list[Event] = []
    while not any(isinstance(e, Shown) for e in events):
        assert game.state.turn is not None
        events = game.play(game.state.turn, game.playable_cards(game.state.turn)[0])
    shown = [e for e in events if isinstance(e, Shown)]
    assert [(e.seat, e.crib) for e in shown] == order
    assert [e.side for e in shown] == [game.side_of(e.seat) for e in shown]


def test_game_won_by_the_pones_hand_before_the_dealer_counts() -> None:
    # The dealer would reach 123 with his hand, but the pone counts first and reaches 121.
    game, _ = two_player_game(scores=(113, 117))
    events = play_cards(game, TWO_PLAY)
    assert shows(events) == [(1, False, 4, 121)]
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result.winner == 1 and over.result.scores == (119, 121)
    assert game.state.phase is Phase.OVER and game.state.scores == (119, 121)
    assert [s.seat for s in game.public_view().last_show] == [1]


def test_game_won_by_the_crib() -> None:
    game, _ = two_player_game(scores=(110, 100))
    events = play_cards(game, TWO_PLAY)
    assert shows(events) == [(1, False, 4, 104), (0, False, 4, 120), (0, True, 5, 125)]
    assert isinstance(events[-1], GameOver)
    assert not any(isinstance(e, Dealt) for e in events)


def test_game_not_over_one_point_short_of_the_target() -> None:
    game, _ = two_player_game(scores=(105, 116))
    events = play_cards(game, TWO_PLAY)
    assert shows(events) == [(1, False, 4, 120), (0, False, 4, 115), (0, True, 5, 120)]
    assert game.state.phase is Phase.DISCARD and game.state.result is None
    assert isinstance(events[-1], Dealt)
