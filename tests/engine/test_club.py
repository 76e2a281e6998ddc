"""The club player, the yardstick: its discard by hand averages and the role crib tables,
and each of its rules of thumb in the play, on hand-built positions."""

from __future__ import annotations

import random

from engine.cards import Card, parse_cards
from engine.players import make_player
from engine.players.club import ClubPlayer, club_discard_values
from engine.players.playout import thumb_choice
from engine.players.role_crib import rank_crib_value
from engine.rules import Rules
from tests.helpers.rigging import check_fives_kept_from_the_dealer
from tests.helpers.views import play_view

CLUB = ClubPlayer()


def club_plays(hand: str, series: str = "", **kwargs: object) -> Card:
    view = play_view(hand, series, **kwargs)  # type: ignore[arg-type]
    return CLUB.choose_play(view, random.Random(0))


def test_most_points_now_club_makes_fifteen() -> None:
    # After a 10 led, the 5 makes fifteen for 2; the 2 scores nothing.
    assert club_plays("2S 5C", "KD", theirs_played="KD") == Card.parse("5C")


def test_most_points_now_club_takes_a_run_over_a_safe_card() -> None:
    assert thumb_choice([9, 13], [7, 8], 15, rules=Rules()) == 9


def test_never_lead_a_five_when_club_has_another_card() -> None:
    assert club_plays("5C 5D 9S KH").rank != 5
    assert thumb_choice([5, 13], [], 0, rules=Rules()) == 13


def test_never_lead_a_five_unless_only_fives_are_left() -> None:
    assert thumb_choice([5, 5], [], 0, rules=Rules()) == 5


def test_lead_under_five_club_leads_its_low_card() -> None:
    # No single card makes fifteen on a 4.
    assert thumb_choice([4, 9, 12, 13], [], 0, rules=Rules()) == 4


def test_danger_count_five_club_does_not_leave_it() -> None:
    # After a 3 led: the 2 would leave 5 (a ten-card replies for fifteen), the 4 leaves 7.
    assert thumb_choice([2, 4], [3], 3, rules=Rules()) == 4


def test_danger_count_twenty_one_club_does_not_leave_it() -> None:
    # At 11 (6, 5): the 10 would leave 21 (a ten-card replies for 31), the 9 leaves 20.
    assert thumb_choice([10, 9], [6, 5], 11, rules=Rules()) == 9


def test_pair_royal_club_does_not_pair_when_a_fifteen_scores_as_much() -> None:
    # After a 9 led: pairing it scores 2, and the third 9 answers for a pair royal (6);
    # the 6 makes fifteen for the same 2.
    assert thumb_choice([9, 6], [9], 9, rules=Rules()) == 6


def test_keep_low_cards_for_the_go() -> None:
    # Neither scores; the king goes, the ace is kept for later.
    assert thumb_choice([1, 13], [10, 7], 17, rules=Rules()) == 13


def test_club_discard_adds_or_subtracts_the_role_crib_table() -> None:
    hand = parse_cards("5C 5D JH QS 2C 9D")
    mine = dict(club_discard_values(hand, 2, 1, Rules()))
    theirs = dict(club_discard_values(hand, 2, -1, Rules()))
    thrown = (Card.parse("5C"), Card.parse("5D"))
    # Same kept hand, so the two values differ by the two role tables' sum.
    expected = rank_crib_value(5, 5, dealer=True) + rank_crib_value(5, 5, dealer=False)
    assert mine[thrown] - theirs[thrown] == expected


def test_club_does_not_throw_fives_to_the_opponent() -> None:
    # As the pone, 5-5 in the dealer's crib averages about 9 points; as the dealer, the same
    # cards go to its own crib.
    check_fives_kept_from_the_dealer(CLUB)


def test_club_never_uses_its_random_source() -> None:
    view = play_view("2C 6C 7S 8H")
    choices = {CLUB.choose_play(view, random.Random(seed)) for seed in range(5)}
    assert len(choices) == 1
    assert make_player("club").name == "club"
