"""The computer players read the rules from their view: every level plays whole games of rules
other than the standard game's (five-card, seven-card, five-hand, six as teams), the hand's
size and value, the play and the tables as the rules allow (a table that does not hold for the
rules is not used)."""

from __future__ import annotations

import random

import pytest

from engine import variants
from engine.cards import full_deck, parse_cards
from engine.game import Game
from engine.phase import Phase
from engine.players import (
    ClubPlayer,
    ExpertPlayer,
    Player,
    crib_table,
    make_player,
    role_crib,
    win_chance,
)
from engine.players.base import finish
from engine.players.discard_ev import discard_choices
from engine.players.expert import CROWDED_SAMPLES, SAMPLES
from engine.players.expert_discard import discard_splits
from engine.rules import PlayEnd, Rules, Share
from engine.scoring import hand_total
from tests.helpers.rigging import SIX_NAMES

FIVE_CARD = Rules(
    dealer=Share(5, 2), others=Share(5, 2), target=61, points_for_last=3, play_end=PlayEnd.FIRST_GO
)
SEVEN_CARD = Rules(dealer=Share(7, 2), others=Share(7, 2), target=181)
FIVE_HAND = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1), target=61)
SIX_TEAMS = Rules(
    seats=6, dealer=Share(5, 1), others=Share(5, 1), crib_size=6, sides=((0, 2, 4), (1, 3, 5)),
    target=61,
)  # fmt: skip
VARIANTS = {"five-card": FIVE_CARD, "seven-card": SEVEN_CARD, "five-hand": FIVE_HAND,
            "six as teams": SIX_TEAMS}  # fmt: skip


def players_for(level: str) -> Player:
    # The expert with fewer play-outs: the test is that it plays by the rules, not how well.
    return ExpertPlayer(samples=8) if level == "expert" else make_player(level)


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert", "club"])
def test_every_level_plays_a_whole_game_by_the_rules(rules: Rules, level: str) -> None:
    game, _ = Game.new(SIX_NAMES[: rules.seats], rng=random.Random(7), rules=rules)
    seats = [players_for(level) for _ in range(rules.seats)]
    finish(game, seats, [random.Random(seat) for seat in range(rules.seats)])
    assert game.state.phase is Phase.OVER and game.state.result is not None
    assert max(game.state.result.scores) >= rules.target


def test_the_tables_say_which_rules_they_hold_for() -> None:
    assert role_crib.holds(Rules.standard(2)) and not role_crib.holds(Rules.standard(3))
    assert not role_crib.holds(FIVE_CARD) and not role_crib.holds(SEVEN_CARD)
    assert crib_table.holds(Rules.standard(3)) and crib_table.holds(FIVE_CARD)
    assert crib_table.holds(FIVE_HAND) and not crib_table.holds(SIX_TEAMS)
    assert win_chance.holds(Rules.standard(2, target=61)) and not win_chance.holds(FIVE_CARD)


def test_a_five_card_discard_keeps_three_valued_by_the_rules() -> None:
    hand = parse_cards("5H 5C JD QS 2D")
    choices = discard_choices(hand, 2, crib_sign=0, rules=FIVE_CARD)
    assert len(choices) == 10 and all(len(choice.kept) == 3 for choice in choices)
    best = choices[0]
    known = {card.index for card in hand}
    starters = [card for card in full_deck() if card.index not in known]
    average = sum(hand_total(best.kept, s, rules=FIVE_CARD) for s in starters) / len(starters)
    assert best.hand == pytest.approx(average)


def test_where_no_crib_table_holds_the_expert_leaves_the_crib_out() -> None:
    hand = parse_cards("5H 5C JD QS 2D")
    splits = discard_splits(hand, 1, crib_sign=1, rules=SIX_TEAMS)
    assert all(split.crib == 0.0 and split.pegging == 0.0 for split in splits)


def test_the_club_player_throws_what_its_seat_must_in_five_hand() -> None:
    game, _ = Game.new(SIX_NAMES[:5], rng=random.Random(3), rules=FIVE_HAND)
    club = ClubPlayer()
    for seat in game.pending_discards():
        view = game.view(seat)
        thrown = club.choose_discard(view, random.Random(1))
        assert len(thrown) == view.discard_count == 1
        game.discard(seat, thrown)
    assert game.state.phase is Phase.PLAY


# ------------------------------------------------------------------ the named variants


@pytest.mark.parametrize("variant", variants.listed(), ids=lambda v: v.name)
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_level_plays_every_named_variant_to_its_end(
    variant: variants.Variant, level: str
) -> None:
    rules = variant.rules(variant.seats[-1], variant.targets[-1])
    game, _ = Game.new(SIX_NAMES[: rules.seats], rng=random.Random(17), rules=rules)
    seats = [players_for(level) for _ in range(rules.seats)]
    finish(game, seats, [random.Random(seat) for seat in range(rules.seats)])
    assert game.state.result is not None and max(game.state.result.scores) >= rules.target


def test_only_the_standard_two_player_game_has_the_experts_two_player_tables() -> None:
    for variant in variants.listed():
        for players in variant.seats:
            rules = variant.rules(players)
            two_player = variant is variants.STANDARD and players == 2
            assert role_crib.holds(rules) == two_player
            assert win_chance.holds(rules) == two_player
            # The one- and two-card crib table holds for every crib of four.
            assert crib_table.holds(rules)


def test_the_expert_plays_out_against_fewer_guesses_when_four_other_hands_are_held() -> None:
    expert = ExpertPlayer()
    for variant, players, samples in [
        (variants.STANDARD, 2, SAMPLES),
        (variants.STANDARD, 4, SAMPLES),
        (variants.SEVEN_CARD, 2, SAMPLES),
        (variants.FIVE_HAND, 5, CROWDED_SAMPLES),
        (variants.SIX_HAND, 6, CROWDED_SAMPLES),
    ]:
        game, _ = Game.new(SIX_NAMES[:players], rng=random.Random(2), rules=variant.rules(players))
        for seat in game.pending_discards():
            game.discard(seat, game.hand(seat)[: game.view(seat).discard_count])
        assert game.state.turn is not None
        assert expert.samples_for(game.view(game.state.turn)) == samples, variant.name
