"""How the computer players choose a card in the play, on hand-built views."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, full_deck, parse_cards
from engine.pegging import score_pegging
from engine.players import make_player
from engine.players.fastscore import peg_scorer
from engine.players.pegging_ai import lookahead_play_values, simple_play_values
from engine.rules import Rules
from tests.helpers.views import play_view


def values_of(values: list[tuple[Card, float]]) -> dict[str, float]:
    return {card.code: value for card, value in values}


def test_peg_points_agree_with_score_pegging_on_random_piles() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 3000:
        deck = full_deck()
        rng.shuffle(deck)
        # Low cards make long piles with runs and pairs; keep the count legal.
        pile: list[Card] = []
        for card in sorted(deck[:12], key=lambda c: c.value):
            if sum(c.value for c in pile) + card.value > 31:
                break
            pile.append(card)
        rng.shuffle(pile)
        for end in range(1, len(pile) + 1):
            part = pile[:end]
            count = sum(c.value for c in part)
            assert (
                peg_scorer(Rules().points)([c.rank for c in part], count)
                == score_pegging(part).total
            )
            checked += 1


def test_danger_count_five_hard_does_not_lead_a_five() -> None:
    # Leading the 5 lets any of 16 ten-cards make fifteen; the others risk less.
    view = play_view("5C KD QH 9S")
    values = values_of(lookahead_play_values(view))
    assert values["5C"] < min(v for code, v in values.items() if code != "5C")
    assert make_player("hard").choose_play(view, random.Random(1)) != Card.parse("5C")


def test_danger_count_five_medium_does_not_lead_a_five() -> None:
    view = play_view("5C KD QH 9S")
    assert make_player("medium").choose_play(view, random.Random(1)) != Card.parse("5C")


def test_danger_count_twenty_one_medium_avoids_it() -> None:
    # Q♠ would make 21 (a ten-card replies for 31); 3♥ makes 14 and scores the same (nothing).
    view = play_view("QS 3H", "KC AD", mine_played="AD", theirs_played="KC")
    values = values_of(simple_play_values(view))
    assert values["3H"] > values["QS"]


def test_pairing_trap_hard_leads_from_its_pair() -> None:
    # Leading a 4 while holding the other: if the reply pairs it (2), the pair royal pays 6.
    view = play_view("4C 4D 9S KH")
    played = make_player("hard").choose_play(view, random.Random(3))
    assert played.rank == 4


def test_pegging_out_beats_everything() -> None:
    # Seat 1 has 119 of 121: pairing the king pegs out, whatever the count is left at.
    view = play_view("KS 5H 4C", "6C KD", mine_played="6C", theirs_played="KD", scores=(100, 119))
    assert make_player("hard").choose_play(view, random.Random(0)) == Card.parse("KS")


def test_defend_when_the_opponent_is_close() -> None:
    # K♠ pairs for 2 but leaves 21, where any ten-card makes 31: with the opponent on 119 of
    # 121 that reply ends the game, so hard plays something else.
    close, far = (
        play_view("KS 2H 9C", "AC KD", mine_played="AC", theirs_played="KD", scores=scores)
        for scores in ((119, 50), (50, 50))
    )
    assert make_player("hard").choose_play(close, random.Random(0)) != Card.parse("KS")
    king_close = values_of(lookahead_play_values(close))["KS"]
    king_far = values_of(lookahead_play_values(far))["KS"]
    assert king_close < king_far - 10


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "medium", "hard"])
def test_every_player_plays_a_playable_card(level: str) -> None:
    # At count 25 only the ace and the 3 fit.
    view = play_view("AH 3D 9S KC", "KD 5S QH", mine_played="5S", theirs_played="KD QH")
    assert set(view.playable) == set(parse_cards("AH 3D"))
    for seed in range(20):
        assert make_player(level).choose_play(view, random.Random(seed)) in view.playable


@pytest.mark.parametrize("level", ["random", "greedy", "easy", "medium", "hard"])
def test_a_player_asked_to_play_with_nothing_playable_says_so(level: str) -> None:
    # At count 30 none of these fits: the game would have said go for this seat.
    view = play_view("9S KC", "KD QH JS", mine_played="JS", theirs_played="KD QH")
    assert view.playable == ()
    with pytest.raises(ValueError, match="no card it may play"):
        make_player(level).choose_play(view, random.Random(0))
