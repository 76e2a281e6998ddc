"""The tests' second implementation of cribbage (tests/helpers/reference_cribbage.py) and the
census built on it (tests/helpers/show_census.py), checked before anything is checked against
them: hand-counted shows and plays, named after the rule each one shows, the census against
plain scoring hand by hand and against the published distribution of four-card hands, and
the recorded distributions of three- and five-card hands (five-card and seven-card cribbage).
"""

from __future__ import annotations

import doctest
import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from engine.cards import parse_cards
from tests.helpers import reference_cribbage
from tests.helpers.reference_cribbage import (
    IllegalPlay,
    Peg,
    PlayMode,
    PlayReferee,
    RefCard,
    deck,
    maximal_runs,
    play_points,
    show,
    show_score,
)
from tests.helpers.show_census import (
    FIVE_CARD_HANDS,
    FOUR_CARD_CRIBS_ZERO,
    FOUR_CARD_HANDS,
    THREE_CARD_HANDS,
    census,
    mean,
    starter_counts,
)

_RANK_CODES = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}


def cards(text: str) -> list[RefCard]:
    """``"5H 10D JC"`` as reference cards (written here so these tests read no engine code)."""
    return [RefCard(_RANK_CODES[code[:-1]], code[-1]) for code in text.split()]


def card(text: str) -> RefCard:
    (only,) = cards(text)
    return only


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(reference_cribbage).failed == 0


# --- the show, counted by hand ----------------------------------------------------------------


def test_nineteen_is_not_a_hand_but_twenty_nine_is() -> None:
    # Fifteen eight from the four fives' threes, eight more with the jack, twelve for the
    # double pair royal, one for nobs.
    assert show(cards("5D 5S JH 5C"), card("5H")).total == 29
    assert show(cards("5D 5S JC 5C"), card("5H")).total == 28


def test_fifteens_count_every_set_of_cards_adding_to_fifteen() -> None:
    # A-2-3-4-5-6 holds four: 4-5-6, 1-3-5-6, 2-3-4-6, 1-2-3-4-5.
    assert show(cards("AH 2D 3C 4S 5H"), card("6D")).fifteens == 4
    # Each five with the ten, and each five with the 2 and the 8.
    assert show(cards("10C 5D 5S 2H"), card("8D")).fifteens == 4
    assert show(cards("10C 5D 5S 2H"), card("9D")).fifteens == 2


def test_a_double_run_counts_each_run_and_the_pair() -> None:
    # 3-4-5-5-6: two runs of four, a pair, fifteen four (4-5-6 twice).
    scored = show(cards("3C 4D 5S 5H"), card("6D"))
    assert (scored.runs, scored.pairs, scored.fifteens, scored.total) == ((4, 4), 1, 2, 14)


def test_only_the_longest_run_of_a_sequence_counts() -> None:
    assert maximal_runs([3, 4, 5, 6]) == [4]
    assert maximal_runs([3, 4, 5, 5]) == [3, 3]
    assert maximal_runs([3, 3, 4, 4, 5]) == [3, 3, 3, 3]
    assert maximal_runs([1, 2, 3, 5, 6, 7]) == [3, 3]
    assert maximal_runs([12, 13, 1]) == []  # the ace is low: Q-K-A is no run
    assert maximal_runs([1, 2, 3, 4, 5, 6]) == [6]


def test_maximal_runs_agree_with_counting_by_multiplicity_on_every_rank_multiset() -> None:
    # The other way players count runs: each stretch of three or more consecutive ranks
    # present is one run of its length for every way of choosing one card of each rank.
    for size in range(3, 7):
        for ranks in combinations_with_replacement(range(1, 14), size):
            if max(Counter(ranks).values()) > 4:
                continue
            by_multiplicity = []
            present = sorted(set(ranks))
            stretch = [present[0]]
            for rank in [*present[1:], None]:
                if rank is not None and rank == stretch[-1] + 1:
                    stretch.append(rank)
                    continue
                if len(stretch) >= 3:
                    ways = 1
                    for r in stretch:
                        ways *= ranks.count(r)
                    by_multiplicity += [len(stretch)] * ways
                if rank is not None:
                    stretch = [rank]
            assert maximal_runs(list(ranks)) == sorted(by_multiplicity), ranks


def test_the_seven_card_best_hand_4_4_5_5_6_with_a_6_is_46() -> None:
    # Eight fifteens (4-5-6 chosen 2 x 2 x 2 ways), three pairs, eight runs of three.
    scored = show(cards("4C 4D 5S 5H 6C"), card("6D"))
    assert (scored.fifteens, scored.pairs, scored.runs, scored.total) == (8, 3, (3,) * 8, 46)


def test_a_hand_flush_scores_one_a_card_and_one_more_with_the_starter() -> None:
    # Three cards (five-card cribbage, Cassell's Book of In-door Amusements p. 165): 3, or 4.
    assert show(cards("2C 7C KC"), card("9D")).flush == 3
    assert show(cards("2C 7C KC"), card("9C")).flush == 4
    # Four cards: 4, or 5.
    assert show(cards("2C 7C KC 9C"), card("4D")).flush == 4
    assert show(cards("2C 7C KC 9C"), card("4C")).flush == 5
    # Five cards (seven-card cribbage): 5, or 6. A-2-3-4-5-6 also holds a run of six.
    assert show(cards("AH 2H 3H 4H 5H"), card("6S")).total == 8 + 6 + 5
    assert show(cards("AH 2H 3H 4H 5H"), card("6H")).total == 8 + 6 + 6
    # Two suits: nothing.
    assert show(cards("2C 7C KC 9H"), card("4C")).flush == 0


def test_a_crib_flush_needs_the_starter() -> None:
    assert show(cards("2C 7C KC 9C"), card("4D"), crib=True).flush == 0
    assert show(cards("2C 7C KC 9C"), card("4C"), crib=True).flush == 5


def test_nobs_is_the_jack_of_the_starters_suit_in_the_hand() -> None:
    assert show(cards("JD 2C 8H"), card("4D")).nobs == 1
    assert show(cards("JD 2C 8H"), card("4C")).nobs == 0
    # A jack turned up is his heels (the dealer's two), never nobs for a hand.
    assert show(cards("JD 2C 8H"), card("JC")).nobs == 0


def test_the_engines_cards_score_the_same() -> None:
    hand, starter = parse_cards("5D 5S JH 5C"), parse_cards("5H")[0]
    assert show_score(hand, starter) == 29


# --- the census --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_census_of_one_hand_is_plain_scoring_with_each_starter(size: int) -> None:
    rng = random.Random(size)
    full = deck()
    hands = [tuple(rng.sample(full, size)) for _ in range(60)]
    # Flushes and jacks take the census's other path: make sure there are plenty.
    suited = [card for card in full if card.suit == "H"]
    hands += [tuple(rng.sample(suited, size)) for _ in range(20)]
    hands += [(RefCard(11, "S"), *rng.sample([c for c in full if c.rank != 11], size - 1))]
    for hand in hands:
        for crib in (False, True):
            plain = Counter(
                show_score(hand, starter, crib=crib) for starter in full if starter not in hand
            )
            assert starter_counts(hand, crib=crib) == plain, (hand, crib)


# The reference's four-card shows are held to the published distribution in the suite by
# tests/engine/test_variant_shows.py (class by class); this counts them the census's way.
@pytest.mark.exhaustive
def test_four_card_hands_match_the_published_distribution() -> None:
    counts = census(4)
    assert sum(counts.values()) == 12_994_800
    assert counts == FOUR_CARD_HANDS
    assert round(mean(counts), 6) == 4.769152


@pytest.mark.exhaustive
def test_four_card_cribs_match_the_published_zero_count_and_mean() -> None:
    counts = census(4, crib=True)
    assert counts[0] == FOUR_CARD_CRIBS_ZERO
    assert round(mean(counts), 6) == 4.734819


def test_three_card_hands_match_the_recorded_distribution() -> None:
    counts = census(3)
    assert sum(counts.values()) == 22_100 * 49
    assert counts == THREE_CARD_HANDS


@pytest.mark.exhaustive
def test_three_card_hands_scored_one_by_one_match_the_recorded_distribution() -> None:
    full = deck()
    counts: Counter[int] = Counter()
    for hand in combinations(full, 3):
        for starter in full:
            if starter not in hand:
                counts[show_score(hand, starter)] += 1
    assert counts == THREE_CARD_HANDS


@pytest.mark.exhaustive
def test_five_card_hands_match_the_recorded_distribution() -> None:
    counts = census(5)
    assert sum(counts.values()) == 2_598_960 * 47
    assert counts == FIVE_CARD_HANDS


def test_the_recorded_distributions_are_whole() -> None:
    assert sum(THREE_CARD_HANDS.values()) == 1_082_900
    assert sum(FIVE_CARD_HANDS.values()) == 122_151_120
    assert max(THREE_CARD_HANDS) == 20 and max(FIVE_CARD_HANDS) == 46
    assert round(mean(THREE_CARD_HANDS), 6) == 2.59235
    assert round(mean(FIVE_CARD_HANDS), 6) == 8.189653


# --- the play ----------------------------------------------------------------------------------


def test_play_scores_fifteen_thirty_one_pairs_and_runs() -> None:
    assert play_points(cards("10H 5S")) == [("fifteen", 2)]
    assert play_points(cards("10H 10S 5C 6D")) == [("thirty-one", 2)]
    # Three fives: fifteen and a pair royal, 8 (the third card's points).
    assert play_points(cards("5D 5S 5C")) == [("fifteen", 2), ("pair royal", 6)]
    assert play_points(cards("7D 7S 7C 7H")) == [("double pair royal", 12)]


def test_play_runs_count_in_any_order_with_no_other_card_among_them() -> None:
    assert play_points(cards("4D 6S 5C")) == [("fifteen", 2), ("run", 3)]
    assert play_points(cards("4D 6S 5C 3H")) == [("run", 4)]
    assert play_points(cards("4D 6S 9C 5H")) == []
    # A pair breaks the run: 5-5-6 is no run, nor 4-5-5-6.
    assert play_points(cards("4D 5S 5C 6H")) == []
    # Only the latest cards: 2 ... 3-4-5 is a run of three.
    assert play_points(cards("2C 9D 3H 4S 5D")) == [("run", 3)]


def test_two_handed_play_goes_on_until_every_card_is_played() -> None:
    # Ted leads K, Sally 10, Ted 7 (27): Sally cannot follow, Ted plays his 2 (29) and takes
    # the go; Sally leads again, and her 7 is the last card.
    ted, sally = cards("KS 7D 2C 3H"), cards("10C 9D 8S 7H")
    ref = PlayReferee([ted, sally], leader=0, mode=PlayMode.ALL_PASSES)
    assert ref.play(0, card("KS")).next_seat == 1
    assert ref.play(1, card("10C")).pegs == ()
    after_seven = ref.play(0, card("7D"))
    assert (after_seven.count, after_seven.passed, after_seven.next_seat) == (27, (1,), 0)
    assert ref.playable() == cards("2C 3H")  # he chooses the 2; then the 3 would make 32
    go = ref.play(0, card("2C"))
    assert go.pegs == (Peg(0, "go", 1),)
    assert (go.reset, go.next_seat) == (True, 1)
    ref.play(1, card("9D"))
    ref.play(0, card("3H"))
    ref.play(1, card("8S"))
    last = ref.play(1, card("7H"))
    assert (last.count, last.pegs, last.next_seat) == (27, (Peg(1, "last card", 1),), None)
    assert ref.finished and ref.points == [1, 1]


def test_thirty_one_scores_two_and_no_go_and_the_next_seat_leads() -> None:
    ref = PlayReferee([cards("10H 6C 3S"), cards("10D 5S 2C")], leader=0, mode=PlayMode.ALL_PASSES)
    ref.play(0, card("10H"))
    assert ref.play(1, card("10D")).pegs == (Peg(1, "pair", 2),)
    ref.play(0, card("6C"))
    thirty_one = ref.play(1, card("5S"))
    assert thirty_one.pegs == (Peg(1, "thirty-one", 2),)  # 2, not 3: no go on top
    assert (thirty_one.passed, thirty_one.reset, thirty_one.next_seat) == ((), True, 0)
    ref.play(0, card("3S"))
    assert ref.play(1, card("2C")).pegs == (Peg(1, "last card", 1),)
    assert ref.points == [0, 5]


def test_the_five_card_game_plays_one_series_only() -> None:
    # Hoyle's Games p. 250: "Such cards as remain after this, are not to be played".
    pone, dealer = cards("KC QD 2H"), cards("9S 8C 3D")
    ref = PlayReferee([pone, dealer], leader=0, mode=PlayMode.ONE_PASS)
    ref.play(0, card("KC"))
    ref.play(1, card("9S"))
    after_queen = ref.play(0, card("QD"))  # 29: the dealer's 8 and 3 would pass 31
    assert (after_queen.passed, after_queen.next_seat) == ((1,), 0)
    end = ref.play(0, card("2H"))
    assert end.pegs == (Peg(0, "thirty-one", 2),)
    assert ref.finished and ref.points == [2, 0]
    assert ref.hands[1] == cards("8C 3D")  # never played
    assert ref.why_illegal(1, card("8C")) == "The play is over."


def test_the_five_card_game_ends_at_the_first_go() -> None:
    ref = PlayReferee([cards("KC QD JH"), cards("5S 5C 6D")], leader=0, mode=PlayMode.ONE_PASS)
    ref.play(0, card("KC"))
    assert ref.play(1, card("5S")).pegs == (Peg(1, "fifteen", 2),)
    ref.play(0, card("QD"))
    end = ref.play(1, card("5C"))  # 30: nobody can follow
    assert end.pegs == (Peg(1, "go", 1),)
    assert (end.reset, end.next_seat, ref.points) == (False, None, [0, 3])


def test_several_seats_pass_and_the_last_to_play_plays_on() -> None:
    ref = PlayReferee(
        [cards("10H 9S"), cards("10D 2C AC"), cards("8H 10S")], leader=0, mode=PlayMode.ALL_PASSES
    )
    ref.play(0, card("10H"))
    assert ref.play(1, card("10D")).pegs == (Peg(1, "pair", 2),)
    after_eight = ref.play(2, card("8H"))  # 28: seat 0's 9 will not do, seat 1's will
    assert (after_eight.passed, after_eight.next_seat) == ((0,), 1)
    after_two = ref.play(1, card("2C"))  # 30: seats 2 and 0 pass, seat 1 plays on
    assert (after_two.passed, after_two.next_seat) == ((2, 0), 1)
    thirty_one = ref.play(1, card("AC"))
    assert thirty_one.pegs == (Peg(1, "thirty-one", 2),)
    assert (thirty_one.reset, thirty_one.next_seat) == (True, 2)
    ref.play(2, card("10S"))
    last = ref.play(0, card("9S"))
    assert last.pegs == (Peg(0, "last card", 1),)
    assert ref.points == [1, 4, 0]


def test_partners_points_add_up_by_side() -> None:
    hands = [cards("5H"), cards("10D"), cards("5S"), cards("AC")]
    ref = PlayReferee(hands, leader=0, mode=PlayMode.ALL_PASSES, sides=[0, 1, 0, 1])
    ref.play(0, card("5H"))
    assert ref.play(1, card("10D")).pegs == (Peg(1, "fifteen", 2),)
    ref.play(2, card("5S"))  # 20
    ref.play(3, card("AC"))  # 21, the last card
    assert ref.points == [0, 2, 0, 1]
    assert ref.side_points() == {0: 0, 1: 3}


def test_the_referee_refuses_what_the_rules_forbid() -> None:
    ref = PlayReferee(
        [cards("10H JS AD 5C"), cards("QC 9D 2C")], leader=0, mode=PlayMode.ALL_PASSES
    )
    with pytest.raises(IllegalPlay, match="seat 0's turn"):
        ref.play(1, card("QC"))
    with pytest.raises(IllegalPlay, match="does not hold"):
        ref.play(0, card("QC"))
    ref.play(0, card("10H"))
    ref.play(1, card("QC"))
    assert ref.play(0, card("JS")).next_seat == 0  # 30: seat 1 passes, seat 0 has the ace
    assert ref.playable() == [card("AD")]
    with pytest.raises(IllegalPlay, match="would make the count 35"):
        ref.play(0, card("5C"))
    assert ref.why_illegal(0, card("AD")) is None


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mode", list(PlayMode))
def test_random_plays_keep_the_rules_invariants(seats: int, mode: PlayMode) -> None:
    rng = random.Random(seats * 10 + len(mode.value))
    for _ in range(300):
        dealt = rng.sample(deck(), 4 * seats)
        hands = [dealt[i * 4 : i * 4 + 4] for i in range(seats)]
        ref = PlayReferee(hands, leader=rng.randrange(seats), mode=mode)
        series_ends = thirty_ones = ends_pegged = 0
        while not ref.finished:
            seat = ref.turn
            assert seat is not None
            choices = ref.playable()
            assert choices, "the seat to play always has a card that fits"
            outcome = ref.play(seat, rng.choice(choices))
            assert outcome.count <= 31
            kinds = [peg.reason for peg in outcome.pegs]
            ends_pegged += kinds.count("go") + kinds.count("last card")
            thirty_ones += kinds.count("thirty-one")
            if outcome.reset or outcome.next_seat is None:
                series_ends += 1
        if mode is PlayMode.ALL_PASSES:
            assert not any(ref.hands), "every card is played"
        else:
            assert series_ends == 1
        # Each series ends once: on 31, or with a go / last card to its last player.
        assert ends_pegged + thirty_ones == series_ends
