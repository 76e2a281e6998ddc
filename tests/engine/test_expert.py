"""The expert: its discards and plays on the positions issue 12 names, its handling of the
game's end, determinism, and whole games with three and four players."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.cards import Card, parse_cards
from engine.game import Game
from engine.players import ExpertPlayer, make_player
from engine.players.base import finish
from engine.players.expert_discard import discard_splits
from engine.players.expert_play import play_values
from engine.rules import Rules
from engine.views import SeatView
from tests.helpers.rigging import NAMES, rigged_game
from tests.helpers.views import play_view

EXPERT = ExpertPlayer()


def thrown_codes(cards: tuple[Card, ...]) -> set[str]:
    return {card.code for card in cards}


def test_pone_discard_keeps_the_crib_poor_not_2c_7d() -> None:
    # Non-dealer 2♣4♣6♥7♦9♦9♠: `hard` throws 2♣7♦; 2♣4♣ is better (issue 12, ~0.5).
    game, _ = rigged_game(
        ["KC QD JS 10H", "6H 7D 9D 9S"], ["5C 5D", "2C 4C"], dealer=0, starter="3S", discard=False
    )
    assert thrown_codes(EXPERT.choose_discard(game.view(1), random.Random(1))) == {"2C", "4C"}


def test_dealer_discard_prefers_jack_queen_to_ten_jack() -> None:
    # Dealer A♠2♣3♦10♠J♥Q♣: `hard` throws 10-J; J-Q is better (issue 12, ~0.55), and the
    # role table agrees: J-Q in my own crib is worth more than 10-J, with the same A-2-3
    # kept alongside a 10 or a Q.
    game, _ = rigged_game(
        ["AS 2C 3D 10S", "4H 5H 6C 7C"], ["JH QC", "8D 9D"], dealer=0, starter="KS", discard=False
    )
    assert thrown_codes(EXPERT.choose_discard(game.view(0), random.Random(1))) == {"JH", "QC"}
    splits = {
        frozenset(c.code for c in split.thrown): split
        for split in discard_splits(
            parse_cards("AS 2C 3D 10S JH QC"), 2, crib_sign=1, rules=Rules()
        )
    }
    assert splits[frozenset({"JH", "QC"})].crib > splits[frozenset({"10S", "JH"})].crib


def _mostly(view: SeatView) -> Card:
    """The card the expert plays with most of five seeds: its play-outs run against 256
    guesses at the other hand, and a close call may go the other way with one seed's."""
    chosen = Counter(EXPERT.choose_play(view, random.Random(seed)) for seed in range(5))
    card, times = chosen.most_common(1)[0]
    return card if times >= 3 else Card.parse("JS")  # no card most of the time: none


def test_connected_middle_cards_count_four_after_two_two_plays_the_seven() -> None:
    # 2-2 played (count 4), holding 6♣7♠8♥: the 7 (count 11) is better than the 6 (~0.45).
    view = play_view("6C 7S 8H", "2D 2H", mine_played="2D", theirs_played="2H")
    assert _mostly(view).rank == 7


def test_connected_middle_cards_the_pone_leads_the_two_from_2_6_7_9() -> None:
    # Issue 12 finds the 2 better by ~0.8; the expert leads it since its guesses at the
    # dealer's hand come from every rank combination by its exact weight.
    view = play_view("2H 6C 7D 9S", discards="QD KH")
    assert _mostly(view) == Card.parse("2H")


@pytest.mark.xfail(
    strict=True,
    reason="not yet: issue 12 finds the 2 better by ~1.1, but the expert's search (the dealer"
    " by the club's rules of thumb) values the 8♥ within a tenth of it, and leads it",
)
def test_connected_middle_cards_the_pone_leads_the_two_from_2_6_7_8() -> None:
    view = play_view("2C 6C 7S 8H", discards="QD KH")
    assert _mostly(view) == Card.parse("2C")


def test_the_expert_never_leads_a_five_from_five_ten_ten() -> None:
    view = play_view("5C KD QH 9S")
    assert EXPERT.choose_play(view, random.Random(2)) != Card.parse("5C")


def test_pegging_out_beats_everything() -> None:
    # Seat 1 needs 2: pairing the king pegs out.
    view = play_view("KS 5H 4C", "6C KD", mine_played="6C", theirs_played="KD", scores=(100, 119))
    assert EXPERT.choose_play(view, random.Random(0)) == Card.parse("KS")


def test_the_search_finds_the_play_that_wins_through_a_later_choice() -> None:
    # Seat 1 deals and needs 5, the pone 25; 4♦ J♦ 6♣ make 20 and the pone holds two cards.
    # Its own hand (5♥ 6♠ J♦ K♣, 4♥ cut) counts 9 after the pone's: it wins unless the pone
    # counts out first, with the pegging and a hand like 4 4 5 5 6 (24). The king makes 30:
    # no one can go on, the go is its own, and when the pone leads a five it answers with
    # the six, not the pair a club player takes (which invites a pair royal and fifteen,
    # 8 points). It wins against every hand the pone may hold; the play-outs, whose later
    # cards are the rules of thumb's, took the pair there and played the six now.
    view = play_view(
        "5H 6S KC",
        "4D JD 6C",
        mine_played="JD",
        theirs_played="4D 6C",
        starter="4H",
        discards="AC 3S",
        scores=(96, 116),
        dealer=1,
    )
    weighed = EXPERT.weigh_plays(view, random.Random(0))
    assert weighed.choice == Card.parse("KC")
    assert weighed.options[0].value == pytest.approx(1.0)


def test_same_view_and_seed_give_the_same_values() -> None:
    view = play_view("2C 6C 7S 8H")
    first = play_values(view, random.Random(7), samples=64)
    second = play_values(view, random.Random(7), samples=64)
    assert first == second


def test_one_rank_left_to_play_needs_no_play_outs() -> None:
    view = play_view("9C 9D", "KD", theirs_played="KD")
    assert [value for _, value in play_values(view, random.Random(0), samples=64)] == [0.0]


def play_game(names: tuple[str, ...], seed: int, target: int = 61) -> Game:
    game, _ = Game.new(list(NAMES[: len(names)]), target=target, rng=random.Random(seed))
    players = [make_player(name) for name in names]
    return finish(game, players, [random.Random(f"{seed}:{seat}") for seat in range(len(names))])


@pytest.mark.parametrize(
    "names",
    [("expert", "club", "club"), ("expert", "club", "expert", "club"), ("club", "expert") * 2],
)
def test_three_and_four_player_games_with_expert_seats_finish(names: tuple[str, ...]) -> None:
    game = play_game(names, seed=4)
    assert game.state.result is not None
    assert play_game(names, seed=4).actions == game.actions


def test_a_game_of_expert_against_club_is_the_same_for_the_same_seed() -> None:
    first, second = play_game(("expert", "club"), 9), play_game(("expert", "club"), 9)
    assert first.actions == second.actions
