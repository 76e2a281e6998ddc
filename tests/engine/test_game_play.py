"""The play: automatic go, the point for the go, 31, the last card, and who leads after a reset.

Each scenario is a rigged deal whose whole play was worked out by hand; the expected events are
written as the table would call them.
"""

from __future__ import annotations

import random

from engine.cards import Card, parse_cards
from engine.events import CountReset, Event, GameOver, Go, GoPoint, Played, Shown
from engine.game import Game, Phase
from tests.helpers.rigging import (
    four_player_game,
    play_cards,
    rigged_game,
    set_scores,
    three_player_game,
    two_player_game,
)


def table(events: list[Event]) -> list[tuple[object, ...]]:
    """Events of the play in a compact form: (kind, seat, card or next seat, points)."""
    rows: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, Played):
            rows.append(("played", e.seat, str(e.card), e.count, e.points))
        elif isinstance(e, Go):
            rows.append(("go", e.seat))
        elif isinstance(e, GoPoint):
            rows.append(("go_point", e.seat, e.points, e.last_card))
        elif isinstance(e, CountReset):
            rows.append(("reset", e.next_seat))
        elif isinstance(e, Shown):
            rows.append(("shown", e.seat, e.crib))
    return rows


def two_player_go() -> Game:
    game, _ = rigged_game(
        ["7C 4S 6H QD", "KH 9C 8D 3S"], ["5H 10C", "2C AD"], dealer=0, starter="KS"
    )
    return game


def test_pone_leads_the_play() -> None:
    game = two_player_go()
    assert game.state.turn == 1
    assert game.playable_cards(1) == game.hand(1)
    assert game.playable_cards(0) == ()


def test_go_two_players_the_last_to_play_pegs_one_and_the_other_leads() -> None:
    game = two_player_go()
    events = play_cards(game, "KH 7C 9C 4S")
    assert table(events) == [
        ("played", 1, "K♥", 10, 0),
        ("played", 0, "7♣", 17, 0),
        ("played", 1, "9♣", 26, 0),
        ("played", 0, "4♠", 30, 0),
        ("go", 1),
        ("go_point", 0, 1, False),
        ("reset", 1),
    ]
    assert game.state.count == 0 and game.state.series == () and game.state.turn == 1
    assert game.state.scores == (1, 0)


def test_last_card_two_players_scores_one() -> None:
    game = two_player_go()
    play_cards(game, "KH 7C 9C 4S")
    events = play_cards(game, "8D 6H 3S QD")
    assert table(events)[:5] == [
        ("played", 1, "8♦", 8, 0),
        ("played", 0, "6♥", 14, 0),
        ("played", 1, "3♠", 17, 0),
        ("played", 0, "Q♦", 27, 0),
        ("go_point", 0, 1, True),
    ]
    last = events[4]
    assert isinstance(last, GoPoint) and last.score == 2


def test_thirty_one_scores_two_resets_and_has_no_go_point() -> None:
    game, _ = two_player_game()
    events = play_cards(game, "KH 5C 6D KS")
    assert table(events) == [
        ("played", 1, "K♥", 10, 0),
        ("played", 0, "5♣", 15, 2),
        ("played", 1, "6♦", 21, 0),
        ("played", 0, "K♠", 31, 2),
        ("reset", 1),
    ]
    thirty_one = events[3]
    assert isinstance(thirty_one, Played)
    assert [item.kind for item in thirty_one.items] == ["thirty_one"]
    assert game.state.turn == 1 and game.state.count == 0


def test_last_card_making_thirty_one_scores_two_not_three() -> None:
    game, _ = two_player_game()
    play_cards(game, "KH 5C 6D KS")
    events = play_cards(game, "10H JC 5S 6C")
    assert table(events)[:6] == [
        ("played", 1, "10♥", 10, 0),
        ("played", 0, "J♣", 20, 0),
        ("played", 1, "5♠", 25, 0),
        ("played", 0, "6♣", 31, 2),
        ("shown", 1, False),
        ("shown", 0, False),
    ]
    assert not any(isinstance(e, (GoPoint, CountReset)) for e in events)
    played = [e for e in events if isinstance(e, Played)]
    assert played[-1].score == 6  # 2 for fifteen, 2 for 31, 2 for the last 31


def test_go_three_players_the_last_player_keeps_playing_and_thirty_one_after_go() -> None:
    game, _ = three_player_game()
    assert game.state.turn == 1
    events = play_cards(game, "KH JD 10S AS")
    assert table(events) == [
        ("played", 1, "K♥", 10, 0),
        ("played", 2, "J♦", 20, 0),
        ("played", 0, "10♠", 30, 0),
        ("go", 1),
        ("go", 2),
        ("played", 0, "A♠", 31, 2),
        ("reset", 1),
    ]


def test_go_three_players_point_to_last_player_and_next_seat_leads() -> None:
    game, _ = three_player_game()
    play_cards(game, "KH JD 10S AS")
    events = play_cards(game, "QH 9S 7D 2C")
    assert table(events) == [
        ("played", 1, "Q♥", 10, 0),
        ("played", 2, "9♠", 19, 0),
        ("played", 0, "7♦", 26, 0),
        ("played", 1, "2♣", 28, 0),
        ("go", 2),
        ("go", 0),
        ("go_point", 1, 1, False),
        ("reset", 2),
    ]


def test_last_card_three_players_and_a_run_with_a_fifteen() -> None:
    game, _ = three_player_game()
    play_cards(game, "KH JD 10S AS QH 9S 7D 2C")
    events = play_cards(game, "4D 6H 5C 8C")
    assert table(events)[:5] == [
        ("played", 2, "4♦", 4, 0),
        ("played", 0, "6♥", 10, 0),
        ("played", 1, "5♣", 15, 5),
        ("played", 2, "8♣", 23, 0),
        ("go_point", 2, 1, True),
    ]
    run_and_fifteen = events[2]
    assert isinstance(run_and_fifteen, Played)
    assert sorted(item.kind for item in run_and_fifteen.items) == ["fifteen", "run"]
    assert run_and_fifteen.score == 6  # 1 for the go in the second series, then 5
    pegged = next(e for e in events if isinstance(e, GoPoint))
    assert (pegged.side, pegged.score) == (2, 1)


def test_go_four_players_announced_once_per_series_and_partners_peg_together() -> None:
    game, _ = four_player_game()
    assert game.state.turn == 0
    events = play_cards(game, "10H 10C 10D AC")
    assert table(events) == [
        ("played", 0, "10♥", 10, 0),
        ("played", 1, "10♣", 20, 2),
        ("played", 2, "10♦", 30, 6),
        ("go", 3),
        ("go", 0),
        ("played", 1, "A♣", 31, 2),
        ("reset", 2),
    ]
    assert game.state.scores == (6, 4)
    events = play_cards(game, "9D 9S 9H 2C 2D")
    assert table(events) == [
        ("played", 2, "9♦", 9, 0),
        ("played", 3, "9♠", 18, 2),
        ("played", 0, "9♥", 27, 6),
        ("played", 1, "2♣", 29, 0),
        ("go", 2),
        ("go", 3),
        ("go", 0),
        ("played", 1, "2♦", 31, 4),
        ("reset", 2),
    ]
    assert game.state.scores == (12, 10)
    assert game.hand(1) == ()


def test_leader_after_reset_skips_players_out_of_cards() -> None:
    game, _ = four_player_game()
    play_cards(game, "10H 10C 10D AC 9D 9S 9H 2C 2D")
    events = play_cards(game, "KD KS QH")
    assert table(events) == [
        ("played", 2, "K♦", 10, 0),
        ("played", 3, "K♠", 20, 2),
        ("played", 0, "Q♥", 30, 0),
        ("go", 2),
        ("go", 3),
        ("go_point", 0, 1, False),
        ("reset", 2),
    ]
    events = play_cards(game, "QD QS JH")
    assert table(events) == [
        ("played", 2, "Q♦", 10, 0),
        ("played", 3, "Q♠", 20, 2),
        ("played", 0, "J♥", 30, 0),
        ("go", 3),
        ("go_point", 0, 1, False),
        ("reset", 3),
    ]
    events = play_cards(game, "JS")
    assert table(events)[:2] == [("played", 3, "J♠", 10, 0), ("go_point", 3, 1, True)]
    go_point = events[1]
    assert isinstance(go_point, GoPoint) and go_point.side == 1


def test_played_events_carry_the_side_and_its_running_score() -> None:
    game, _ = four_player_game()
    events = play_cards(game, "10H 10C 10D")
    played = [e for e in events if isinstance(e, Played)]
    assert [(e.seat, e.side, e.score) for e in played] == [(0, 0, 0), (1, 1, 2), (2, 0, 6)]


def test_playable_cards_are_those_that_keep_the_count_within_31() -> None:
    game = two_player_go()
    play_cards(game, "KH 7C 9C")
    assert game.state.count == 26
    assert game.playable_cards(0) == (Card.parse("4S"),)
    assert game.can_play(0, Card.parse("4S"))
    assert not game.can_play(0, Card.parse("6H"))
    assert not game.can_play(1, Card.parse("3S"))


def test_game_won_during_the_play_ends_at_once() -> None:
    game, _ = two_player_game(scores=(119, 100))
    events = play_cards(game, "KH 5C")
    assert [type(e) for e in events] == [Played, Played, GameOver]
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result.winner == 0 and over.result.scores == (121, 100)
    assert over.result.reason == "target"
    assert game.state.phase is Phase.OVER and game.state.turn is None
    assert game.playable_cards(1) == ()


def test_game_won_by_the_go_point() -> None:
    game = two_player_go()
    game = _with_scores(game, (120, 50))
    events = play_cards(game, "KH 7C 9C 4S")
    assert table(events)[-2:] == [("go", 1), ("go_point", 0, 1, False)]
    assert isinstance(events[-1], GameOver)
    assert game.state.result is not None and game.state.result.scores == (121, 50)


def test_game_won_by_the_last_card() -> None:
    game = two_player_go()
    play_cards(game, "KH 7C 9C 4S")
    game = _with_scores(game, (120, 50))
    events = play_cards(game, "8D 6H 3S QD")
    assert [type(e) for e in events][-2:] == [GoPoint, GameOver]
    assert not any(isinstance(e, Shown) for e in events)


def _with_scores(game: Game, scores: tuple[int, ...]) -> Game:
    restored = set_scores(game, scores, random.Random(0))
    assert restored.hand(0) == game.hand(0)
    return restored


def test_cards_played_are_public_per_seat() -> None:
    game, _ = three_player_game()
    play_cards(game, "KH JD 10S AS")
    view = game.public_view()
    assert view.played == (parse_cards("10S AS"), parse_cards("KH"), parse_cards("JD"))
    assert view.hand_sizes == (2, 3, 3)
