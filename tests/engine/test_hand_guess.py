"""Guesses at the other hands: they fit everything the seat has seen, the likelier hands
weigh more, and the same seed gives the same guesses."""

from __future__ import annotations

import random
from collections import Counter

from engine.cards import PIP_VALUES, Card
from engine.players.base import unseen_cards
from engine.players.hand_guess import UNLIKE_PLAY, Guess, rank_guesses, view_guesses
from engine.players.play_history import view_history
from engine.rules import Rules
from tests.helpers.views import play_view


def _two_seat_guesses(
    unseen: list[int],
    floors: tuple[int, int],
    held: tuple[int, int],
    my_ranks: list[int],
    *,
    samples: int,
    seed: int,
) -> list[Guess]:
    """Seat 1's guesses at both seats' ranks (seat 1 holding ``my_ranks``) before anyone has
    played, unweighted by any keep."""
    return rank_guesses(
        unseen=unseen,
        floors=floors,
        held=held,
        me=1,
        my_ranks=my_ranks,
        played=((), ()),
        keep=None,
        samples=samples,
        rng=random.Random(seed),
        rules=Rules(),
    )


def test_guesses_use_only_unseen_ranks_and_respect_the_floors() -> None:
    unseen = [1, 1, 2, 5, 5, 9, 10, 10, 11, 12, 13, 13]
    guesses = _two_seat_guesses(unseen, (6, 1), (3, 2), [3, 4], samples=32, seed=4)
    # Fewer rank combinations fit than 32: each is listed once, with its weight.
    assert 0 < len(guesses) < 32
    assert len({tuple(hands[0]) for hands, _ in guesses}) == len(guesses)
    pool = Counter(unseen)
    for hands, weight in guesses:
        assert weight > 0
        assert hands[1] == [3, 4]
        assert len(hands[0]) == 3
        assert all(PIP_VALUES[rank] >= 6 for rank in hands[0])
        assert not Counter(hands[0]) - pool


def test_one_card_held_is_listed_exactly_by_its_chance() -> None:
    # Two fives and one ten unseen: the five is twice as likely.
    guesses = _two_seat_guesses([5, 5, 10], (1, 1), (1, 2), [2, 3], samples=8, seed=1)
    assert sorted((hands[0], weight) for hands, weight in guesses) == [([5], 2.0), ([10], 1.0)]


def test_a_hand_picked_more_than_once_is_listed_once_with_the_weight_of_its_picks() -> None:
    # Two cards from four of each rank ace to nine and sixteen tens: 55 rank pairs, two tens
    # dealt in 120 ways of 1,326, so 40 evenly spaced picks take it three or four times.
    unseen = [rank for rank in range(1, 10) for _ in range(4)] + [10] * 16
    guesses = _two_seat_guesses(unseen, (1, 1), (2, 4), [2, 3, 4, 5], samples=40, seed=5)
    weights = {tuple(hands[0]): weight for hands, weight in guesses}
    assert len(weights) == len(guesses)
    assert weights[(10, 10)] in (3.0, 4.0)
    assert sum(weights.values()) == 40


def test_more_combinations_than_samples_are_drawn_by_their_exact_weights() -> None:
    # Four cards from four of each rank ace to nine and sixteen tens (over 1,000 rank
    # combinations): 64 picked, in proportion to how many ways each is dealt (no keep model
    # here), so tens come about four times as often as aces. A hand picked more than once is
    # listed once, weighing the times it was picked.
    unseen = [rank for rank in range(1, 10) for _ in range(4)] + [10] * 16
    guesses = _two_seat_guesses(unseen, (1, 1), (4, 4), [2, 3, 4, 5], samples=64, seed=2)
    assert sum(weight for _, weight in guesses) == 64
    assert all(weight == int(weight) >= 1 for _, weight in guesses)
    assert len({tuple(hands[0]) for hands, _ in guesses}) == len(guesses)
    tens = sum(hands[0].count(10) * weight for hands, weight in guesses)
    aces = sum(hands[0].count(1) * weight for hands, weight in guesses)
    assert tens > 2 * aces


def test_the_same_seed_gives_the_same_guesses_from_a_view() -> None:
    view = play_view("2C 6C 7S", "KD 8H", mine_played="8H", theirs_played="KD")
    history = view_history(view)
    first = view_guesses(view, history, 64, random.Random(3))
    second = view_guesses(view, history, 64, random.Random(3))
    assert first == second
    # The opponent holds three more cards, none of them one this seat has seen.
    pool = Counter(Card.from_index(index).rank for index in unseen_cards(view))
    for hands, _ in first:
        assert len(hands[0]) == 3
        assert not Counter(hands[0]) - pool


def test_an_earlier_play_the_club_player_would_not_make_weighs_the_guess_down() -> None:
    # Seat 0 led a king and holds one card more. Holding a 2 as well, a club player leads
    # the 2 (under five), so that guess weighs UNLIKE_PLAY; holding a 10 it might lead
    # either. (The card it played counts among what it held: without it, every guess
    # looked unlike.)
    guesses = rank_guesses(
        unseen=[2, 10],
        floors=(1, 1),
        held=(1, 2),
        me=1,
        my_ranks=[3, 4],
        played=((13,), ()),
        keep=None,
        samples=8,
        rng=random.Random(1),
        rules=Rules(),
        plays=((0, 13, (), 0),),
    )
    weights = sorted((hands[0], weight) for hands, weight in guesses)
    assert weights == [([2], UNLIKE_PLAY), ([10], 1.0)]
