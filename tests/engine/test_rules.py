"""The rule facts in the rules value are the ones the cards, the scorer and the game use."""

from __future__ import annotations

import random

import pytest

from engine.cards import JACK, PIP_VALUES, full_deck, parse_cards
from engine.game import Game
from engine.rules import Rules
from engine.scoring import hand_total
from tests.helpers.rigging import NAMES


def test_pip_values_ace_one_numbers_face_value_court_cards_ten() -> None:
    assert [card.value for card in full_deck()[:13]] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert all(card.value == PIP_VALUES[card.rank] for card in full_deck())


def test_the_jack_is_rank_eleven() -> None:
    assert parse_cards("JH")[0].rank == JACK


def test_flush_a_hand_scores_four_or_five_a_crib_only_five() -> None:
    rules = Rules()
    assert rules.flush_points(starter_matches=False, crib=False) == 4
    assert rules.flush_points(starter_matches=True, crib=False) == 5
    assert rules.flush_points(starter_matches=False, crib=True) == 0
    assert rules.flush_points(starter_matches=True, crib=True) == 5
    hand, starter = parse_cards("2H 4H 6H 8H"), parse_cards("KS")[0]
    assert hand_total(hand, starter) == 4 and hand_total(hand, starter, crib=True) == 0


def test_sets_a_pair_two_a_pair_royal_six_a_double_pair_royal_twelve() -> None:
    assert Rules().points.sets[2:] == (2, 6, 12)


@pytest.mark.parametrize(("players", "dealt", "thrown"), [(2, 6, 2), (3, 5, 1), (4, 5, 1)])
def test_hand_size_and_discard_count_by_number_of_players(
    players: int, dealt: int, thrown: int
) -> None:
    rules = Rules.standard(players)
    assert (rules.others.dealt, rules.others.to_crib) == (dealt, thrown)
    game, _ = Game.new(NAMES[:players], rng=random.Random(players))
    assert game.state.rules == rules
    assert len(game.hand(0)) == game.state.rules.others.dealt == dealt
    assert game.state.rules.others.to_crib == thrown
