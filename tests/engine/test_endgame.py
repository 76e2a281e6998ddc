"""The chance to win once the play is over, as the expert reckons it near the end: its own
hand exactly, the guessed hand, the crib by its chances, then the next deal."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards
from engine.players import ExpertPlayer
from engine.players.discard_ev import unseen_starters
from engine.players.endgame import crib_chances, crib_spread, play_end_chance, split_chance
from engine.players.expert import endgame_outcome
from engine.players.expert_discard import discard_splits
from engine.players.role_crib import rank_crib_value
from engine.rules import Rules
from tests.helpers.rigging import rigged_game
from tests.helpers.views import play_view

EXPERT = ExpertPlayer()


def test_crib_chances_add_up_to_one_and_count_the_cards_known() -> None:
    # Thrown 5-5 with a king turned: a pair and two fifteens at the least.
    view = play_view("2C 3C", "KH", theirs_played="KH", mine_played="4C 6C", starter="KS",
                     discards="5C 5D")  # fmt: skip
    chances = crib_chances(view)
    assert sum(share for _, share in chances) == pytest.approx(1.0)
    assert min(points for points, _ in chances) >= 6
    assert all(share > 0 for _, share in chances)


def test_the_pone_whose_hand_counts_out_wins_unless_pegged_out() -> None:
    # Seat 1, the pone, needs 8: J-Q-5-5 with a 5 turned counts 20.
    view = play_view("5C 5D", "KH", theirs_played="KH", mine_played="JS QS", starter="5H",
                     scores=(110, 113))  # fmt: skip
    outcome = play_end_chance(view)([[7, 8, 9], [5, 5]])
    assert outcome([0, 0], -1) == 1.0
    assert outcome([0, 0], 0) == 0.0  # the dealer pegged out first
    assert outcome([0, 8], 1) == 1.0


def test_the_dealer_loses_to_a_guessed_hand_that_counts_out() -> None:
    # Seat 1 deals; the pone (seat 0) needs 11 and counts first. Guessed to hold three 5s
    # beside its king, with a 2 turned, it counts 14: the dealer has lost whatever it holds.
    view = play_view("AC 9D", "KH", theirs_played="KH", mine_played="4S 6S", starter="2S",
                     scores=(110, 100), dealer=1)  # fmt: skip
    for_guess = play_end_chance(view)
    assert for_guess([[5, 5, 5], [1, 9]])([0, 0], -1) == 0.0
    # Holding 3-7-9 it counts 2 (K-3-2): now the dealer's own show and the next deal decide.
    weak = for_guess([[3, 7, 9], [1, 9]])([0, 0], -1)
    assert 0.0 < weak < 1.0
    # A point the dealer pegs more can only help it.
    assert for_guess([[3, 7, 9], [1, 9]])([0, 4], -1) > weak
    assert for_guess([[3, 7, 9], [1, 9]])([4, 0], -1) < weak


def test_the_expert_reckons_so_only_near_the_end() -> None:
    near = play_view("5C 5D", "KH", theirs_played="KH", mine_played="JS QS", scores=(90, 95))
    far = play_view("5C 5D", "KH", theirs_played="KH", mine_played="JS QS", scores=(30, 20))
    assert endgame_outcome(near) is not None
    assert endgame_outcome(far) is None


def test_crib_spread_adds_up_to_one_and_lands_near_the_role_table() -> None:
    hand = parse_cards("5C 5D JH QS 2C 9D")
    for dealer in (True, False):
        spread = crib_spread(hand, hand[:2], dealer=dealer, rules=Rules())
        assert sum(share for _, share in spread) == pytest.approx(1.0)
        assert min(points for points, _ in spread) >= 2  # the pair of fives
        mean = sum(points * share for points, share in spread)
        # Suits aside, and the jack and queen kept thin the opponent's ten-cards.
        assert mean == pytest.approx(rank_crib_value(5, 5, dealer=dealer), abs=0.6)


def test_near_the_end_the_pone_keeps_the_hand_sure_to_count_out() -> None:
    # Pone 5-A-4-7-8-10 needing 8 (the dealer needs 30, more than it can peg): by the points
    # it throws A-10 and keeps 4-5-7-8 (2 at the least); by its chance to win it throws A-4
    # and keeps 5-7-8-10, two fifteens with any starter. Far from the end, by the points.
    for scores, thrown_codes in (((91, 113), {"AD", "4S"}), ((20, 30), {"AD", "10C"})):
        game, _ = rigged_game(
            ["KC QD JS 9H", "5C 7D 8C 10C"], ["2H 3H", "AD 4S"], dealer=0, starter="6S",
            scores=scores, discard=False,
        )  # fmt: skip
        thrown = EXPERT.choose_discard(game.view(1), random.Random(0))
        assert {card.code for card in thrown} == thrown_codes, scores


def test_split_chance_is_one_for_a_hand_that_counts_out_whatever_is_cut() -> None:
    hand = parse_cards("5C 7D 8C 10C AD 4S")
    split = next(
        split
        for split in discard_splits(hand, 2, crib_sign=-1, rules=Rules())
        if {card.code for card in split.thrown} == {"AD", "4S"}
    )
    unseen = unseen_starters(hand)
    sure = split_chance(
        split, hand, unseen, dealer=False, my_needs=4, their_needs=40, rules=Rules()
    )
    assert sure == pytest.approx(1.0)
    hopeless = split_chance(
        split, hand, unseen, dealer=False, my_needs=40, their_needs=2, rules=Rules()
    )
    assert hopeless < 0.05


def test_near_the_end_the_dealer_weighs_its_splits_by_the_chance_to_win() -> None:
    # Dealer K-K-10-7-4-3, needing 20 while the pone needs 30: throwing K-K or 4-3 is worth
    # the same points to a hundredth (8.09 and 8.08), but keeping the kings the hand counts
    # two with any starter (3-4-7-10 may count nothing): its chance to win is better by
    # about 0.05, so near the end it throws 4-3; far from it, K-K.
    kept, thrown = ["KD 7H 10S KC", "2H 5H 9D QC"], ["4C 3S", "6D 8D"]
    near, _ = rigged_game(kept, thrown, dealer=0, starter="AS", scores=(101, 91), discard=False)
    far, _ = rigged_game(kept, thrown, dealer=0, starter="AS", scores=(20, 30), discard=False)
    assert {card.code for card in EXPERT.choose_discard(near.view(0), random.Random(0))} == {
        "4C",
        "3S",
    }
    assert {card.code for card in EXPERT.choose_discard(far.view(0), random.Random(0))} == {
        "KD",
        "KC",
    }
