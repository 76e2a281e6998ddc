"""The hint: the expert's own choice, in words, from the seat's view alone.

Every variant and number of players the expert plays: the hint's cards are the card the
expert plays and the cards it throws from the same view with the same random source (the
hint is the deliberation the choice is made from, never a second reckoning); its line names
what it is made of; and a seat with nothing to decide gets a sentence, not a hint.
"""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards
from engine.game import Game
from engine.hint import NOTHING_TO_DECIDE, hint
from engine.phase import Phase
from engine.players import make_player
from engine.players.deliberation import Deliberating, Deliberation, Weighed, deliberation_of
from engine.variants import Variant, listed
from engine.views import SeatView
from tests.helpers.rigging import SIX_NAMES, rigged_game
from tests.helpers.views import play_view

#: Whatever player is registered as the expert: the hint follows it.
EXPERT = make_player("expert")


def _decisions(game: Game, most: int = 1000) -> list[SeatView]:
    """The views of a seat with a choice to make in ``game`` (the first ``most`` of them),
    played on by the expert (the discards in seat order)."""
    views: list[SeatView] = []
    rng = random.Random(7)
    while game.state.phase is not Phase.OVER and len(views) < most:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            view = game.view(seat)
            views.append(view)
            game.discard(seat, EXPERT.choose_discard(view, rng))
            continue
        turn = game.state.turn
        assert turn is not None
        view = game.view(turn)
        views.append(view)
        game.play(turn, EXPERT.choose_play(view, rng))
    return views


@pytest.mark.parametrize("variant", listed(), ids=lambda v: v.name)
def test_the_hint_is_the_experts_choice_in_every_variant(variant: Variant) -> None:
    for players in variant.seats:
        rules = variant.rules(players, variant.default_target)
        game, _ = Game.new(list(SIX_NAMES[:players]), rng=random.Random(players), rules=rules)
        for view in _decisions(game, 20):
            seed = hash((view.deal_number, view.seat, view.count)) % 1000
            said = hint(EXPERT, view, random.Random(seed))
            if said.kind == "discard":
                expected = EXPERT.choose_discard(view, random.Random(seed))
                assert set(said.cards) == set(expected)
                assert said.line.startswith("keep ")
            else:
                assert said.cards == (EXPERT.choose_play(view, random.Random(seed)),)
                assert said.line.startswith(f"play {said.cards[0]}")


def test_the_hint_of_a_whole_two_player_game_is_the_experts_every_time() -> None:
    game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(11))
    for view in _decisions(game):
        said = hint(EXPERT, view, random.Random(5))
        if said.kind == "discard":
            assert set(said.cards) == set(EXPERT.choose_discard(view, random.Random(5)))
        else:
            assert said.cards == (EXPERT.choose_play(view, random.Random(5)),)


def test_a_discard_hint_says_the_hand_the_crib_and_the_next_best() -> None:
    game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(3))
    dealer, pone = game.state.dealer, 1 - game.state.dealer
    mine = hint(EXPERT, game.view(dealer), random.Random(1)).line
    theirs = hint(EXPERT, game.view(pone), random.Random(1)).line
    assert " in hand, +" in mine and "in your crib" in mine and "; next best (throw " in mine
    assert " in hand, −" in theirs and "to the dealer's crib" in theirs


def test_a_partners_discard_hint_says_whose_crib_it_is() -> None:
    game, _ = Game.new(list(SIX_NAMES[:4]), target=121, rng=random.Random(2))
    partner = (game.state.dealer + 2) % 4
    said = hint(EXPERT, game.view(partner), random.Random(1)).line
    assert "your partner's crib" in said


def test_near_the_end_the_pone_discards_for_the_chance_to_win() -> None:
    game, _ = rigged_game(
        ["KC QD JS 10H", "6H 7D 9D 9S"],
        ["5C 5D", "2C 4C"],
        dealer=0,
        starter="3S",
        scores=(110, 112),
        discard=False,
    )
    pone = 1
    said = hint(EXPERT, game.view(pone), random.Random(1))
    assert "% to win from here (" in said.line
    assert set(said.cards) == set(EXPERT.choose_discard(game.view(pone), random.Random(1)))


def test_a_play_hint_says_the_points_now_and_what_it_gives_nothing_to_score_on() -> None:
    # Count 11 (9♦ 2♣): 4♣ makes fifteen for 2 where 10♦ would leave 21 for a ten to make 31.
    view = play_view("4C 10D", "9D 2C", theirs_played="9D 2C")
    said = hint(EXPERT, view, random.Random(1))
    assert said.cards == (Card.parse("4C"),)
    assert said.line.startswith("play 4♣: fifteen for 2, and no 21 to give away; ")
    assert said.line.endswith("than 10♦ over the rest of the play")


def test_a_play_that_pegs_out_says_it_is_the_game() -> None:
    # A whole hand of four kept (two played before the go): near the end the expert counts
    # its own hand into the chance to win.
    view = play_view(
        "4C 10D", "9D 2C", theirs_played="9D 2C", mine_played="KH 6H", scores=(100, 119)
    )
    assert (
        hint(EXPERT, view, random.Random(1)).line == "play 4♣: fifteen for 2, and that's the game"
    )


def test_one_rank_to_play_is_no_choice() -> None:
    assert hint(EXPERT, play_view("5C", "JD KS", theirs_played="JD KS"), random.Random(1)).line == (
        "play 5♣: the only card you can play"
    )
    both = hint(EXPERT, play_view("5C 5H", "JD KS", theirs_played="JD KS"), random.Random(1))
    assert both.line.endswith("the only rank you can play, and suits don't matter in the play")


def test_a_seat_with_nothing_to_decide_gets_a_sentence() -> None:
    game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(3))
    game.discard(0, game.hand(0)[:2])
    with pytest.raises(ValueError, match="nothing for you to decide"):
        hint(EXPERT, game.view(0), random.Random(1))
    game.discard(1, game.hand(1)[:2])
    waiting = 1 - game.state.turn if game.state.turn is not None else 0
    with pytest.raises(ValueError) as refused:
        hint(EXPERT, game.view(waiting), random.Random(1))
    assert str(refused.value) == NOTHING_TO_DECIDE


def test_a_player_that_does_not_deliberate_gives_no_hint() -> None:
    with pytest.raises(TypeError):
        deliberation_of(make_player("hard"))


def test_a_deliberation_chooses_its_first_option() -> None:
    class Fixed(Deliberating):
        name = "fixed"

        def weigh_discards(
            self, view: SeatView, rng: random.Random
        ) -> Deliberation[tuple[Card, ...]]:
            return Deliberation((Weighed(view.hand[-2:], 1.0),), "points")

        def weigh_plays(self, view: SeatView, rng: random.Random) -> Deliberation[Card]:
            last = view.playable[-1]
            return Deliberation((Weighed(last, 0.0), Weighed(view.playable[0], 9.0)), "points")

    view = play_view("4C 10D", "9D 2C", theirs_played="9D 2C")
    assert Fixed().choose_play(view, random.Random(1)) == Card.parse("10D")
    with pytest.raises(ValueError):
        Deliberation[Card]((), "points")
    assert parse_cards("4C")[0] in view.playable
