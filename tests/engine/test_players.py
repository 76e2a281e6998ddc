"""Computer players: they decide from their seat's view alone, legally and reproducibly."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.cards import Card
from engine.game import Game
from engine.phase import Phase
from engine.players import LEVELS, PLAYER_NAMES, Player, make_player
from engine.players.base import known_cards, unseen_cards
from engine.views import SeatView
from tests.helpers.rigging import NAMES, facing_the_fours, fives_and_fours_game
from tests.helpers.views import walk


def play_out(names: tuple[str, ...], seed: int, *, target: int = 121, check: bool = True) -> Game:
    """A whole game between computer players; with ``check``, every choice is verified legal
    by the game before it is applied."""
    game, _ = Game.new(NAMES[: len(names)], target=target, rng=random.Random(seed))
    players = [make_player(name) for name in names]
    rngs = [random.Random(seed * 10 + seat) for seat in range(len(names))]
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            cards = players[seat].choose_discard(game.view(seat), rngs[seat])
            if check:
                game.verify_discard(seat, cards)
            game.discard(seat, cards)
        else:
            turn = game.state.turn
            assert turn is not None
            seat = turn
            view = game.view(seat)
            card = players[seat].choose_play(view, rngs[seat])
            if check:
                assert card in view.playable
                game.verify_play(seat, card)
            game.play(seat, card)
    return game


def test_make_player_knows_every_level_and_baseline() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    for name in PLAYER_NAMES:
        player = make_player(name)
        assert isinstance(player, Player)
        assert player.name == name


def test_make_player_refuses_an_unknown_level_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="choose easy, medium, hard or expert"):
        make_player("grandmaster")


def test_a_seat_view_holds_no_card_hidden_from_that_seat() -> None:
    # Seat 1 keeps 4♣ 4♦ 9♠ K♥; what seat 0 holds and threw must be out of its reach.
    game, _ = fives_and_fours_game()
    view = game.view(1)
    hidden = set(game.hand(0)) | {Card.parse("2D"), Card.parse("3D")}
    reachable = {value for value in walk(view) if isinstance(value, Card)}
    assert not reachable & hidden
    assert {card.index for card in reachable} == known_cards(view)
    unseen = {Card.from_index(i) for i in unseen_cards(view)}
    assert hidden <= unseen
    assert len(unseen) == 52 - len(known_cards(view))


def test_a_player_choice_depends_only_on_its_view() -> None:
    # Two deals where seat 1 holds the same cards but seat 0's hidden cards differ: seat 1's
    # views are equal, so every player makes the same choice in both.
    first, _ = fives_and_fours_game(discard=False)
    second, _ = facing_the_fours("AH 2H 3H 6H", "10D JH", discard=False)
    assert first.view(1) == second.view(1)
    for name in PLAYER_NAMES:
        choices = {
            make_player(name).choose_discard(g.view(1), random.Random(4)) for g in (first, second)
        }
        assert len(choices) == 1


def test_a_player_is_handed_a_frozen_snapshot() -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(3))
    view = game.view(0)
    assert isinstance(view, SeatView)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_gives_the_same_choices(level: str) -> None:
    first = play_out((level, level), seed=21, target=61)
    second = play_out((level, level), seed=21, target=61)
    assert first.actions == second.actions


@pytest.mark.parametrize(
    "names",
    [
        ("hard", "random"),
        ("medium", "greedy"),
        ("easy", "hard"),
        ("hard", "medium", "random"),
        ("hard", "easy", "greedy"),
        ("hard", "random", "medium", "greedy"),
        ("random", "hard", "easy", "hard"),
        ("expert", "club"),
        ("club", "expert", "random"),
        ("expert", "club", "expert", "greedy"),
    ],
)
def test_never_an_illegal_choice_in_many_games(names: tuple[str, ...]) -> None:
    for seed in range(6):
        game = play_out(names, seed=seed, target=61)
        assert game.state.result is not None
