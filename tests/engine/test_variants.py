"""The named variants (issue 35): each deals, throws, keeps, scores and ends as
``docs/variants.md`` says, from its sources; the registry finds them by name and by rules."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.cards import Card, parse_cards
from engine.counting import Counting
from engine.events import ForLast, GoPoint, Shown
from engine.game import Game
from engine.outcome import ResultKind, Scoring
from engine.phase import Phase
from engine.rules import PlayEnd, Rules, Share
from engine.scoring import hand_total, score_hand
from engine.variants import (
    FIVE_CARD,
    FIVE_HAND,
    SEVEN_CARD,
    SIX_HAND,
    SIX_HAND_PAIRS,
    SOURCES,
    STANDARD,
    UnknownVariant,
    Variant,
    choices_text,
    find,
    listed,
    named,
    register,
    unregister,
)
from tests.helpers.rigging import SIX_NAMES, play_cards, rigged_game

#: docs/variants.md's table for developers: players, then by place from the dealer's left
#: (1 the leader ... n the dealer) the cards dealt and thrown, the cards from the pack, the
#: cards kept, the side of each seat (seat 0 first).
DEALS = [
    (STANDARD, 2, (6, 6), (2, 2), 0, 4, (0, 1)),
    (STANDARD, 3, (5, 5, 5), (1, 1, 1), 1, 4, (0, 1, 2)),
    (STANDARD, 4, (5, 5, 5, 5), (1, 1, 1, 1), 0, 4, (0, 1, 0, 1)),
    (FIVE_CARD, 2, (5, 5), (2, 2), 0, 3, (0, 1)),
    (SEVEN_CARD, 2, (7, 7), (2, 2), 0, 5, (0, 1)),
    (FIVE_HAND, 5, (5, 5, 5, 5, 4), (1, 1, 1, 1, 0), 0, 4, (0, 1, 2, 3, 4)),
    (SIX_HAND, 6, (5, 5, 5, 5, 4, 4), (1, 1, 1, 1, 0, 0), 0, 4, (0, 1, 0, 1, 0, 1)),
    (SIX_HAND_PAIRS, 6, (5, 5, 5, 5, 4, 4), (1, 1, 1, 1, 0, 0), 0, 4, (0, 1, 2, 0, 1, 2)),
]


def ids(row: tuple[object, ...]) -> str:
    variant, players = row[0], row[1]
    assert isinstance(variant, Variant)
    return f"{variant.name}-{players}"


@pytest.mark.parametrize("row", DEALS, ids=ids)
def test_each_variant_deals_throws_and_keeps_by_place_from_the_dealers_left(
    row: tuple[Variant, int, tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]],
) -> None:
    variant, players, dealt, thrown, pack, kept, sides = row
    rules = variant.rules(players)
    assert (rules.crib_from_pack, rules.kept, rules.crib_size) == (pack, kept, 4)
    assert tuple(rules.side_of(seat) for seat in range(players)) == sides
    for first in range(players):
        # A real game, its first dealer chosen by the seed: every dealer in turn deals.
        game, _ = Game.new(SIX_NAMES[:players], rng=random.Random(first * 7 + 1), rules=rules)
        dealer = game.state.dealer
        places = [(dealer + place) % players for place in range(1, players + 1)]
        assert tuple(len(game.hand(seat)) for seat in places) == dealt
        assert tuple(game.view(seat).discard_count for seat in places) == thrown
        assert game.pending_discards() == tuple(
            sorted(seat for seat, n in zip(places, thrown, strict=True) if n)
        )
        for seat in game.pending_discards():
            game.discard(seat, game.hand(seat)[: game.view(seat).discard_count])
        assert game.state.phase is Phase.PLAY
        assert all(len(game.view(seat).kept) == kept for seat in range(players))
        assert game.state.turn == places[0]


def test_six_hand_the_two_dealt_four_are_the_dealer_and_his_right_and_move_with_the_deal() -> None:
    rules = SIX_HAND.rules()
    for dealer in range(6):
        short = {seat for seat in range(6) if rules.dealt(seat, dealer) == 4}
        assert short == {dealer, (dealer - 1) % 6}
        assert {rules.to_crib(seat, dealer) for seat in short} == {0}
        # Teams of three sit alternately, so the two dealt four are on opposite teams; in
        # pairs (partners opposite) they are on different teams too.
        assert len({rules.side_of(seat) for seat in short}) == 2
        pairs = SIX_HAND_PAIRS.rules()
        assert len({pairs.side_of(seat) for seat in short}) == 2
    # One card at a time from the dealer's left, five rounds to the first four seats.
    assert rules.deal_order(0) == (1, 2, 3, 4, 5, 0) * 4 + (1, 2, 3, 4)


def test_six_hand_a_whole_game_by_the_deal_of_four_fives_and_two_fours() -> None:
    rules = SIX_HAND.rules(6, 61)
    game, _ = Game.new(SIX_NAMES, rng=random.Random(3), rules=rules)
    chooser = random.Random(4)
    deals = 0
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            deals += 1
            assert len(game.pending_discards()) == 4
            for seat in game.pending_discards():
                game.discard(seat, chooser.sample(game.hand(seat), 1))
        else:
            assert game.state.turn is not None
            game.play(game.state.turn, chooser.choice(game.playable_cards(game.state.turn)))
    assert game.state.result is not None and len(game.state.result.scores) == 2 and deals > 1
    saved = game.to_json()
    assert Variant.of(Game.from_json(saved, rng=random.Random(0)).state.rules) is SIX_HAND


@pytest.mark.parametrize(
    ("variant", "targets"),
    [
        (STANDARD, (121, 61)),
        (FIVE_CARD, (61,)),
        (SEVEN_CARD, (181,)),
        (FIVE_HAND, (121, 61)),
        (SIX_HAND, (121, 61)),
        (SIX_HAND_PAIRS, (121, 61)),
    ],
)
def test_the_targets_each_variant_offers_the_default_first(
    variant: Variant, targets: tuple[int, ...]
) -> None:
    assert variant.targets == targets and variant.rules().target == targets[0]


@pytest.mark.parametrize(
    ("variant", "target", "lurched", "not_lurched"),
    [(FIVE_CARD, 61, 30, 31), (SEVEN_CARD, 181, 90, 91), (FIVE_HAND, 121, 60, 61),
     (SIX_HAND, 61, 30, 31)],
)  # fmt: skip
def test_a_loser_under_half_the_board_is_lurched_seven_card_under_91(
    variant: Variant, target: int, lurched: int, not_lurched: int
) -> None:
    rules = variant.rules(target=target)
    assert rules.game_points(lurched) == (2, ResultKind.LURCH)
    assert rules.game_points(not_lurched) == (1, ResultKind.WIN)


def test_the_skunk_scale_is_that_of_the_games_length_and_seven_card_has_none() -> None:
    assert FIVE_CARD.rules(scoring=Scoring.SKUNK).skunk_lines == (31,)
    assert FIVE_HAND.rules(target=121, scoring=Scoring.SKUNK).skunk_lines == (91, 61)
    assert not SEVEN_CARD.skunk
    assert all(v.skunk for v in listed() if v is not SEVEN_CARD)
    with pytest.raises(ValueError, match=r"^Seven-card cribbage has no skunk scale"):
        SEVEN_CARD.rules(scoring=Scoring.SKUNK)


@pytest.mark.parametrize(
    ("variant", "players", "target", "says"),
    [
        (SEVEN_CARD, 2, 121, "Seven-card cribbage is played to 181."),
        (FIVE_CARD, 2, 121, "Five-card cribbage is played to 61."),
        (FIVE_CARD, 3, 61, "Five-card cribbage is for 2 players."),
        (STANDARD, 5, 121, "Standard cribbage is for 2, 3 or 4 players."),
        (FIVE_HAND, 5, 181, "Five-hand cribbage is played to 121 or 61."),
        (SIX_HAND, 4, 121, "Six-hand cribbage is for 6 players."),
    ],
)
def test_a_combination_a_variant_does_not_offer_is_refused_in_a_sentence(
    variant: Variant, players: int, target: int, says: str
) -> None:
    with pytest.raises(ValueError) as refused:
        variant.rules(players, target)
    assert str(refused.value) == says


def test_the_standard_variant_is_the_standard_game() -> None:
    for players in STANDARD.seats:
        for target in STANDARD.targets:
            for scoring in Scoring:
                for counting in Counting:
                    rules = STANDARD.rules(players, target, scoring, counting)
                    assert rules == Rules.standard(
                        players, target=target, scoring=scoring, counting=counting
                    )
                    assert rules.is_standard


def test_five_card_three_for_last_to_the_non_dealer_once_at_the_start() -> None:
    game, events = Game.new(SIX_NAMES[:2], rng=random.Random(9), rules=FIVE_CARD.rules())
    pone = 1 - game.state.dealer
    assert [e for e in events if isinstance(e, ForLast)] == [
        ForLast(seat=pone, side=pone, points=3, score=3)
    ]
    for seat in game.pending_discards():
        game.discard(seat, game.hand(seat)[:2])
    while game.state.deal_number == 1 and game.state.phase is Phase.PLAY:
        assert game.state.turn is not None
        events = game.play(game.state.turn, game.playable_cards(game.state.turn)[0])
        assert not any(isinstance(e, ForLast) for e in events)


def test_five_card_one_pass_to_31_the_play_ends_at_the_first_go() -> None:
    game, _ = rigged_game(
        ["KH QH JH", "KS QS 10C"], ["2C 3C", "4C 6C"], dealer=0, starter="AD",
        rules=FIVE_CARD.rules(),
    )  # fmt: skip
    events = play_cards(game, "KS KH QS")  # 30: neither can play on
    go = [e for e in events if isinstance(e, GoPoint)]
    assert len(go) == 1 and go[0].seat == 1 and not go[0].last_card
    assert any(isinstance(e, Shown) for e in events)


def test_five_card_a_three_card_flush_is_3_or_4_with_the_starter_the_crib_only_all_five() -> None:
    rules = FIVE_CARD.rules()
    hand = parse_cards("2H 6H 10H")
    assert hand_total(hand, Card.parse("KS"), rules=rules) == 3
    assert hand_total(hand, Card.parse("KH"), rules=rules) == 4
    crib = parse_cards("2H 6H 10H QH")
    assert hand_total(crib, Card.parse("AS"), crib=True, rules=rules) == 0
    # A♥ 2♥ 6♥ 10♥ Q♥ has no fifteen, pair or run: the five-card crib flush alone.
    items = score_hand(crib, Card.parse("AH"), crib=True, rules=rules).items
    assert [(str(i.kind), i.points) for i in items] == [("flush", 5)]


def test_five_card_the_best_three_card_hand_is_three_fives_with_a_five_20() -> None:
    rules = FIVE_CARD.rules()
    assert hand_total(parse_cards("5H 5D 5C"), Card.parse("5S"), rules=rules) == 20


def test_seven_card_a_five_card_flush_is_5_or_6_with_the_starter_runs_reach_six() -> None:
    rules = SEVEN_CARD.rules()
    hand = parse_cards("AH 3H 7H 9H KH")
    assert (
        hand_total(hand, Card.parse("QS"), rules=rules)
        - hand_total(parse_cards("AH 3D 7H 9H KH"), Card.parse("QS"), rules=rules)
        == 5
    )
    items = score_hand(parse_cards("AH 2H 3H 4H 5H"), Card.parse("6H"), rules=rules).items
    assert [i.points for i in items if str(i.kind) in ("flush", "run")] == [6, 6]


def test_seven_card_the_best_hand_is_4_4_5_5_6_with_a_6_worth_46() -> None:
    rules = SEVEN_CARD.rules()
    assert hand_total(parse_cards("4H 4D 5C 5S 6H"), Card.parse("6D"), rules=rules) == 46


def test_seven_card_every_card_is_played_the_count_starting_again_after_a_go() -> None:
    rules = SEVEN_CARD.rules()
    assert rules.play_end is PlayEnd.ALL_CARDS and rules.points_for_last == 0


@pytest.mark.parametrize("variant", listed(), ids=lambda v: v.name)
def test_left_of_the_dealer_leads_and_shows_first_round_to_the_dealer_then_the_crib(
    variant: Variant,
) -> None:
    for players in variant.seats:
        rules = variant.rules(players)
        for dealer in range(players):
            order = rules.show_order(dealer)
            assert rules.leader(dealer) == order[0][0] == (dealer + 1) % players
            assert [seat for seat, _ in order] == [
                *((dealer + k) % players for k in range(1, players + 1)),
                dealer,
            ]
            assert [crib for _, crib in order] == [False] * players + [True]


@pytest.mark.parametrize("variant", listed(), ids=lambda v: v.name)
def test_no_variant_but_five_card_gives_points_for_last_or_stops_the_play_at_a_go(
    variant: Variant,
) -> None:
    rules = variant.rules()
    five = variant is FIVE_CARD
    assert rules.points_for_last == (3 if five else 0)
    assert rules.play_end is (PlayEnd.FIRST_GO if five else PlayEnd.ALL_CARDS)


# ------------------------------------------------------------------ the registry


def test_each_variant_is_found_by_its_rules_whatever_the_table_options() -> None:
    for variant in listed():
        for players in variant.seats:
            for target in variant.targets:
                for scoring in Scoring if variant.skunk else (Scoring.LURCH,):
                    for counting in Counting:
                        rules = variant.rules(players, target, scoring, counting)
                        assert Variant.of(rules) is variant
                        assert Variant.of(Rules.from_dict(rules.to_dict())) is variant


def test_rules_of_no_variant_have_none() -> None:
    assert Variant.of(Rules(dealer=Share(5, 2), others=Share(5, 2))) is None
    assert Variant.of(replace(SEVEN_CARD.rules(), scoring=Scoring.SKUNK)) is None


def test_the_registry_lists_the_variants_standard_first_under_stable_names() -> None:
    assert [v.name for v in listed()] == [
        "standard", "five_card", "seven_card", "five_hand", "six_hand", "six_hand_pairs"
    ]  # fmt: skip
    assert named("six_hand") is SIX_HAND and find("nope") is None
    assert choices_text(default="standard").startswith("standard (default), five_card,")


def test_an_unknown_name_is_refused_naming_the_variants_there_are() -> None:
    with pytest.raises(UnknownVariant, match="There is no 'eight_card' variant: choose standard"):
        named("eight_card")


def test_a_second_variant_under_a_taken_name_is_refused_and_a_tests_own_can_go() -> None:
    with pytest.raises(ValueError, match="Two variants"):
        register(replace(FIVE_CARD, title="Another"))
    own = register(replace(SEVEN_CARD, name="test_own", seats=(2,), targets=(121,)))
    try:
        assert named("test_own") is own and Variant.of(own.rules()) is own
    finally:
        unregister("test_own")
    assert find("test_own") is None


def test_every_variant_cites_sources_that_are_named_in_full() -> None:
    for variant in listed():
        assert variant.sources and variant.title and variant.description
        for source in variant.sources:
            assert source.split()[0] in SOURCES
