"""Expected values of discards, worked out by hand, and how the players use them."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, full_deck, parse_cards
from engine.players import crib_sign, make_player
from engine.players.crib_table import crib_value_of_ranks
from engine.players.discard_ev import discard_choices, hand_ev, hand_points_by_starter
from engine.players.fastscore import fast_show
from engine.rules import Rules
from engine.scoring import hand_total
from tests.helpers.rigging import facing_the_fours, fives_and_fours_table, rigged_game


def test_four_fives_average_over_the_46_unseen_starters() -> None:
    # Dealt 5♣ 5♦ 5♥ 5♠ J♣ 2♦, keeping the fives. With any starter: the four threes of fives
    # make 4 fifteens (8) and the double pair royal 12, so 20. A ten-card starter adds a
    # fifteen with each of the 6 pairs of fives (+12): 28. Unseen ten-cards: 16 less J♣ = 15;
    # the other 31 unseen starters (no five is left) give 20.
    # Average = (15 * 28 + 31 * 20) / 46 = 1040 / 46.
    dealt = parse_cards("5C 5D 5H 5S JC 2D")
    assert hand_ev(parse_cards("5C 5D 5H 5S"), dealt, Rules()) == pytest.approx(1040 / 46)


def test_two_three_four_nine_by_starter_rank() -> None:
    # Dealt 2♣ 3♦ 4♥ 9♠ K♣ K♦, keeping 2-3-4-9 (alone: 2+4+9 fifteen and the run, 5).
    # Starter rank: unseen count x points = total
    #   A  4 x  8 (2+4+9, A+2+3+9; run of four)              32
    #   2  3 x 12 (2 fifteens, pair, double run)             36
    #   3  3 x 12 (2+4+9, 3+3+9; pair; double run)           36
    #   4  3 x 12 (2 fifteens, pair, double run)             36
    #   5  4 x  6 (2+4+9; run of four)                       24
    #   6  4 x  9 (2+4+9, 6+9, 2+3+4+6; run)                 36
    #   7  4 x  5 (2+4+9; run)                               20
    #   8  4 x  7 (2+4+9, 3+4+8; run)                        28
    #   9  3 x  9 (2+4+9 twice; pair; run)                   27
    #   10-card 14 x 7 (2+4+9, 2+3+10; run)                  98
    # 46 starters, 373 points: 373 / 46.
    dealt = parse_cards("2C 3D 4H 9S KC KD")
    assert hand_ev(parse_cards("2C 3D 4H 9S"), dealt, Rules()) == pytest.approx(373 / 46)


def test_flush_and_nobs_add_exactly_their_chances() -> None:
    # Same ranks dealt (A 3 7 J kept, K♣ Q♠ thrown), so the unseen ranks and the fifteens,
    # pairs and runs are the same; only suits differ. All hearts: 9 unseen hearts give a
    # five-card flush (5) and nobs (1), the other 37 starters a four-card flush (4): 202.
    # Mixed suits: no flush; nobs with the J♠ for the 11 unseen spades: 11.
    # Difference = (202 - 11) / 46.
    hearts = hand_ev(parse_cards("AH 3H 7H JH"), parse_cards("AH 3H 7H JH KC QS"), Rules())
    mixed = hand_ev(parse_cards("AC 3D 7H JS"), parse_cards("AC 3D 7H JS KC QS"), Rules())
    assert hearts - mixed == pytest.approx(191 / 46)


def test_three_players_keep_four_of_five_and_see_47_starters() -> None:
    # Dealt 5♣ 5♦ 5♥ 5♠ J♣ with one card to throw: 47 unseen starters, 15 of them ten-cards.
    # Average = (15 * 28 + 32 * 20) / 47 = 1060 / 47; the jack goes to the crib at the
    # one-card table's value, added as dealer.
    choices = discard_choices(parse_cards("5C 5D 5H 5S JC"), 1, crib_sign=1, rules=Rules())
    best = choices[0]
    assert best.kept == parse_cards("5C 5D 5H 5S")
    assert best.hand == pytest.approx(1060 / 47)
    assert best.total == pytest.approx(1060 / 47 + crib_value_of_ranks(11))
    assert len(choices) == 5


def test_points_by_starter_match_the_scorer() -> None:
    dealt = parse_cards("2C 3D 4H 9S KC KD")
    kept = dealt[:4]
    starters = [c for c in sorted(full_deck(), key=lambda c: c.index) if c not in dealt]
    assert hand_points_by_starter(kept, dealt, Rules()) == [hand_total(kept, s) for s in starters]


def test_crib_counts_for_the_dealer_and_against_the_pone() -> None:
    dealt = parse_cards("5C 5D 7S 8H KC 2D")
    mine = {c.thrown: c for c in discard_choices(dealt, 2, crib_sign=1, rules=Rules())}
    theirs = {c.thrown: c for c in discard_choices(dealt, 2, crib_sign=-1, rules=Rules())}
    ignored = {c.thrown: c for c in discard_choices(dealt, 2, crib_sign=0, rules=Rules())}
    assert len(mine) == 15
    for thrown, choice in mine.items():
        crib = crib_value_of_ranks(
            *(c.rank for c in thrown), suited=thrown[0].suit == thrown[1].suit
        )
        assert choice.total == pytest.approx(choice.hand + crib)
        assert theirs[thrown].total == pytest.approx(choice.hand - crib)
        assert ignored[thrown].total == pytest.approx(choice.hand)
    # The dealer gives its own crib 7-8 (a fifteen); the pone splits them, throwing 7 and K.
    assert discard_choices(dealt, 2, crib_sign=1, rules=Rules())[0].thrown == parse_cards("7S 8H")
    assert discard_choices(dealt, 2, crib_sign=-1, rules=Rules())[0].thrown == parse_cards("7S KC")


def test_discard_choices_refuse_a_wrong_size() -> None:
    with pytest.raises(ValueError):
        discard_choices(parse_cards("5C 5D 6S 9H JC"), 2, crib_sign=1, rules=Rules())


def test_four_players_a_partner_deals_the_crib_is_ours() -> None:
    game, _ = fives_and_fours_table(4, discard=False)
    view = game.view(0)
    assert [crib_sign(view, seat) for seat in range(4)] == [1, -1, 1, -1]


def test_hard_throws_by_expected_value_and_greedy_ignores_the_crib() -> None:
    game, _ = facing_the_fours("5C 5D 6S 9H", "JC KD", starter="6D", discard=False)
    for seat, sign in ((0, 1), (1, -1)):
        view = game.view(seat)
        expected = discard_choices(view.hand, 2, crib_sign=sign, rules=Rules())[0].thrown
        assert make_player("hard").choose_discard(view, random.Random(0)) == expected
        greedy = discard_choices(view.hand, 2, crib_sign=0, rules=Rules())[0].thrown
        assert make_player("greedy").choose_discard(view, random.Random(0)) == greedy


def test_hard_pone_near_the_end_keeps_the_hand_likelier_to_count_out() -> None:
    # Pone (counts first) dealt 2♣ 5♥ J♥ 3♦ 6♠ 2♠. By expected value it keeps 5♥ J♥ 3♦ 2♠,
    # which never makes 12; 2♣ 2♠ 3♦ J♥ makes 12 or more with about a third of starters.
    kept_by_ev = parse_cards("5H JH 3D 2S")
    kept_to_win = parse_cards("2C JH 3D 2S")
    dealt = parse_cards("2C 5H JH 3D 6S 2S")
    assert discard_choices(dealt, 2, crib_sign=-1, rules=Rules())[0].kept == tuple(
        c for c in dealt if c in kept_by_ev
    )
    thrown: dict[str, set[Card]] = {}
    for label, score in (("early", 0), ("late", 109)):
        game, _ = rigged_game(
            ["AC AD 4S 7D", "2C 5H JH 3D"],
            ["8D 9D", "6S 2S"],
            dealer=0,
            starter="KS",
            scores=(0, score),
            discard=False,
        )
        view = game.view(1)
        assert set(view.hand) == set(dealt)
        thrown[label] = set(make_player("hard").choose_discard(view, random.Random(0)))
    assert thrown["early"] == set(dealt) - set(kept_by_ev)
    assert thrown["late"] == set(dealt) - set(kept_to_win)
    chance = [
        sum(p >= 12 for p in hand_points_by_starter(kept, dealt, Rules())) / 46
        for kept in (kept_by_ev, kept_to_win)
    ]
    assert chance[0] == 0 and chance[1] > 0.3


@pytest.mark.parametrize("crib", [False, True])
def test_fast_hand_points_agree_with_the_scorer(crib: bool) -> None:
    rng = random.Random(11 + crib)
    deck = full_deck()
    for _ in range(5000):
        rng.shuffle(deck)
        hand, starter = deck[:4], deck[4]
        fast = fast_show(Rules()).hand_points([c.index for c in hand], starter.index, crib)
        assert fast == hand_total(hand, starter, crib=crib)
