"""The game plays by the rules value it is handed: rules other than the standard game's
(five cards with three kept, seven cards with five kept, five players, six as teams) deal,
discard, play, count and save by the value. The variants themselves (a menu, their sources,
the computer's play at every level) are issue 35's; here the engine shows it can play them."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards
from engine.counting import Counting
from engine.events import Dealt, ForLast, GameOver, GoPoint, Played, Shown
from engine.game import Game
from engine.outcome import Scoring
from engine.phase import Phase
from engine.rules import PlayEnd, Rules, Share
from engine.scoring import score_hand
from tests.helpers.rigging import SIX_NAMES, play_cards, rigged_game

#: Five-card cribbage as the books give it for two: five each, two to the crib, three kept;
#: three for last to the non-dealer; one pass to 31.
FIVE_CARD = Rules(
    dealer=Share(5, 2), others=Share(5, 2), target=61, points_for_last=3, play_end=PlayEnd.FIRST_GO
)
#: Seven-card cribbage: seven each, two to the crib, five kept, to 181.
SEVEN_CARD = Rules(dealer=Share(7, 2), others=Share(7, 2), target=181)
#: Five-hand: the dealer is dealt four and throws none, the others five and throw one.
FIVE_HAND = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1))
#: Six players, two teams of three, five cards each and one to a crib of six... kept four.
SIX_TEAMS = Rules(
    seats=6, dealer=Share(5, 1), others=Share(5, 1), crib_size=6, sides=((0, 2, 4), (1, 3, 5))
)
VARIANTS = {"five-card": FIVE_CARD, "seven-card": SEVEN_CARD, "five-hand": FIVE_HAND,
            "six as two teams": SIX_TEAMS}  # fmt: skip


def random_play(game: Game, rng: random.Random, moves: int = 100_000) -> None:
    """Random legal choices to the end of the game."""
    for _ in range(moves):
        if game.state.phase is Phase.OVER:
            return
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            need = game.view(seat).discard_count
            game.discard(seat, rng.sample(game.hand(seat), need))
        else:
            turn = game.state.turn
            assert turn is not None
            game.play(turn, rng.choice(game.playable_cards(turn)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
def test_the_deal_gives_each_seat_its_share_and_the_crib_is_made_up_to_its_size(
    rules: Rules,
) -> None:
    game, events = Game.new(SIX_NAMES[: rules.seats], rng=random.Random(5), rules=rules)
    assert game.state.rules is rules and game.state.rules.num_sides == rules.num_sides
    dealer = game.state.dealer
    assert [len(game.hand(seat)) for seat in range(rules.seats)] == [
        rules.dealt(seat, dealer) for seat in range(rules.seats)
    ]
    dealt = events[-1]
    assert isinstance(dealt, Dealt) and dealt.hand_size == rules.others.dealt
    for seat in game.pending_discards():
        view = game.view(seat)
        assert view.rules is rules and view.discard_count == rules.to_crib(seat, dealer)
        game.discard(seat, game.hand(seat)[: view.discard_count])
    assert game.state.phase is Phase.PLAY and game.public_view().crib_size == rules.crib_size
    assert all(len(game.view(seat).kept) == rules.kept for seat in range(rules.seats))
    assert game.state.turn == rules.leader(dealer)


def test_five_card_three_for_last_to_the_non_dealer_at_the_start() -> None:
    game, events = Game.new(SIX_NAMES[:2], rng=random.Random(3), rules=FIVE_CARD)
    pone = 1 - game.state.dealer
    assert [event.kind for event in events] == ["cut_for_deal", "for_last", "dealt"]
    assert events[1] == ForLast(seat=pone, side=pone, points=3, score=3)
    assert game.state.scores[pone] == 3 and game.state.scores[game.state.dealer] == 0


def test_five_card_hands_of_three_and_a_crib_of_four_are_counted_by_the_rules() -> None:
    game, events = rigged_game(
        ["5H 6H 4H", "JC 5D 10S"], ["KD QS", "2C 9D"], dealer=0, starter="5S", rules=FIVE_CARD
    )
    assert len(game.view(0).kept) == 3 and game.public_view().crib_size == 4
    # J, 5 (fifteen), 5 (pair), 6 (26): the pone's 10 does not fit, the dealer plays on: 4
    # (30) and the go. One pass: the play ends there with the pone's 10♠ unplayed.
    events = play_cards(game, "JC 5H 5D 6H 4H")
    assert game.state.deal_number == 2  # shown, and dealt again
    shown = [event for event in events if isinstance(event, Shown)]
    assert shown, "the play ended at the first go and the show followed"
    hands = {(s.seat, s.crib): s for s in shown}
    pone, dealer, crib = hands[(1, False)], hands[(0, False)], hands[(0, True)]
    assert pone.cards == parse_cards("5D 10S JC") and len(crib.cards) == 4
    assert dealer.score == score_hand(parse_cards("4H 5H 6H"), Card.parse("5S"), rules=FIVE_CARD)
    # 4-5-6 with the five: 15 twice, a pair of fives, a double run of three (6), a three-card
    # flush (3): 15.
    assert dealer.score.total == 15
    assert (
        crib.score.total
        == score_hand(
            parse_cards("KD QS 2C 9D"), Card.parse("5S"), crib=True, rules=FIVE_CARD
        ).total
    )


def test_one_pass_to_31_the_play_ends_at_the_first_go_with_cards_unplayed() -> None:
    game, _ = rigged_game(
        ["KH QH JH", "KS QS 10C"], ["2C 3C", "4C 6C"], dealer=0, starter="AD", rules=FIVE_CARD
    )
    events = play_cards(game, "KS KH QS")  # 30: the dealer cannot play, the pone cannot either
    go = [event for event in events if isinstance(event, GoPoint)]
    assert go and go[0].seat == 1 and not go[0].last_card
    assert any(isinstance(event, Shown) for event in events)
    assert game.state.deal_number == 2 or game.state.phase is Phase.OVER


def test_the_standard_play_goes_on_after_a_go() -> None:
    standard = Rules(dealer=Share(5, 2), others=Share(5, 2), target=61)
    game, _ = rigged_game(
        ["KH QH JH", "KS QS 10C"], ["2C 3C", "4C 6C"], dealer=0, starter="AD", rules=standard
    )
    events = play_cards(game, "KS KH QS")
    assert not any(isinstance(event, Shown) for event in events)
    assert (
        game.state.count == 0 and game.state.turn == 0
    )  # the count starts again; the dealer leads


def test_seven_card_hands_of_five_and_the_starter() -> None:
    game, _ = rigged_game(
        ["AH 2H 3H 4H 5H", "7C 8C 9D 10S JS"],
        ["KD QD", "KC QC"],
        dealer=0,
        starter="6H",
        rules=SEVEN_CARD,
    )
    events = play_cards(game, "7C AH 8C 2H 9D 3H 10S 4H JS 5H")
    dealer_hand = next(e for e in events if isinstance(e, Shown) and e.seat == 0 and not e.crib)
    # A-2-3-4-5-6 all hearts: a run of six, a six-card flush, fifteens.
    kinds = [str(item.kind) for item in dealer_hand.score.items]
    assert kinds.count("run") == 1 and dealer_hand.score.items[kinds.index("run")].points == 6
    assert dealer_hand.score.items[kinds.index("flush")].points == 6
    assert dealer_hand.score == score_hand(
        parse_cards("AH 2H 3H 4H 5H"), Card.parse("6H"), rules=SEVEN_CARD
    )


def test_five_hand_the_dealer_throws_nothing_and_the_others_fill_the_crib() -> None:
    game, _ = Game.new(SIX_NAMES[:5], rng=random.Random(8), rules=FIVE_HAND)
    dealer = game.state.dealer
    assert dealer not in game.pending_discards() and len(game.pending_discards()) == 4
    assert game.view(dealer).kept == game.hand(dealer) and len(game.hand(dealer)) == 4
    for seat in game.pending_discards():
        game.discard(seat, game.hand(seat)[:1])
    assert game.public_view().crib_size == 4 and game.state.phase is Phase.PLAY


def test_six_as_two_teams_of_three_score_as_sides() -> None:
    game, _ = Game.new(SIX_NAMES, rng=random.Random(2), rules=SIX_TEAMS)
    assert [game.side_of(seat) for seat in range(6)] == [0, 1, 0, 1, 0, 1]
    random_play(game, random.Random(2))
    result = game.state.result
    assert result is not None and len(result.scores) == 2


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
def test_whole_games_by_the_rules_save_restore_and_replay(rules: Rules) -> None:
    game, _ = Game.new(SIX_NAMES[: rules.seats], rng=random.Random(11), rules=rules)
    chooser = random.Random(12)
    random_play(game, chooser)
    over = game.state.result
    assert over is not None and max(over.scores) >= rules.target
    saved = game.to_json()
    assert '"rules":' in saved
    assert Game.from_json(saved, rng=random.Random(0)).to_json() == saved
    again = Game.replay(
        SIX_NAMES[: rules.seats], rng=random.Random(11), rules=rules, actions=game.actions
    )
    assert again.to_dict() == game.to_dict()


def test_a_game_mid_deal_saved_by_its_rules_goes_on_after_a_restore() -> None:
    game, _ = Game.new(SIX_NAMES[:2], rng=random.Random(4), rules=FIVE_CARD)
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    restored = Game.from_json(game.to_json(), rng=random.Random(1))
    assert restored.state.rules == FIVE_CARD and restored.state.scores == game.state.scores
    random_play(restored, random.Random(3))
    assert restored.state.phase is Phase.OVER


def test_the_standard_games_rules_are_not_written() -> None:
    for players in (2, 3, 4):
        game, _ = Game.new(SIX_NAMES[:players], rng=random.Random(1), target=61)
        assert "rules" not in game.to_dict() and game.state.rules == Rules.standard(
            players, target=61
        )


def test_the_rules_or_the_options_not_both_and_as_many_players_as_seats() -> None:
    with pytest.raises(ValueError, match="not both"):
        Game.new(SIX_NAMES[:2], rng=random.Random(1), rules=FIVE_CARD, target=61)
    with pytest.raises(ValueError, match="seat 5 players"):
        Game.new(SIX_NAMES[:4], rng=random.Random(1), rules=FIVE_HAND)
    with pytest.raises(ValueError, match="2, 3 or 4"):
        Game.new(SIX_NAMES[:5], rng=random.Random(1))


def test_manual_counting_claims_what_the_rules_score() -> None:
    rules = Rules(dealer=Share(5, 2), others=Share(5, 2), counting=Counting.MANUAL)
    game, _ = rigged_game(
        ["5H 6H 4H", "JC 5D 10S"], ["KD QS", "2C 9D"], dealer=0, starter="5S", rules=rules
    )
    play_cards(game, "JC 5H 5D 6H 4H 10S")
    turn = game.count_turn
    assert turn is not None and turn.seat == 1 and len(turn.cards) == 3
    worth = score_hand(turn.cards, Card.parse("5S"), rules=rules).total
    events = game.claim(1, worth)
    assert events[0].kind == "claimed"


def test_game_points_by_the_rules_scale() -> None:
    rules = Rules(dealer=Share(7, 2), others=Share(7, 2), target=181, scoring=Scoring.SKUNK)
    game, _ = Game.new(SIX_NAMES[:2], rng=random.Random(6), rules=rules)
    events = game.resign(0)
    over = events[0]
    assert isinstance(over, GameOver) and over.result.kind == "double_skunk"


def test_every_card_played_scores_by_the_rules() -> None:
    game, _ = rigged_game(
        ["5H 6H 4H", "JC 5D 10S"], ["KD QS", "2C 9D"], dealer=0, starter="5S", rules=FIVE_CARD
    )
    events = play_cards(game, "JC 5H")
    played = [event for event in events if isinstance(event, Played)]
    assert played[-1].points == 2  # fifteen
