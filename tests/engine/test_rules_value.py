"""The rules value: today's games are values of it, and it can say what the variants need."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from engine.counting import Counting
from engine.outcome import EndReason, ResultKind, Scoring
from engine.rules import PlayEnd, Points, Rules, Share


@pytest.mark.parametrize(
    ("players", "dealt", "thrown", "pack", "sides"),
    [
        (2, 6, 2, 0, ((0,), (1,))),
        (3, 5, 1, 1, ((0,), (1,), (2,))),
        (4, 5, 1, 0, ((0, 2), (1, 3))),
    ],
)
def test_the_standard_game_deals_six_two_handed_five_otherwise_partners_opposite(
    players: int, dealt: int, thrown: int, pack: int, sides: tuple[tuple[int, ...], ...]
) -> None:
    rules = Rules.standard(players)
    for dealer in range(players):
        for seat in range(players):
            assert (rules.dealt(seat, dealer), rules.to_crib(seat, dealer)) == (dealt, thrown)
    assert (rules.crib_from_pack, rules.crib_size, rules.kept) == (pack, 4, 4)
    assert rules.sides == sides and rules.num_sides == len(sides)
    assert [rules.side_of(seat) for seat in range(players)] == [
        next(i for i, side in enumerate(sides) if seat in side) for seat in range(players)
    ]
    assert rules.partners == (players == 4)
    assert (rules.points_for_last, rules.play_end, rules.points) == (0, PlayEnd.ALL_CARDS, Points())


def test_the_default_value_is_the_two_player_game_to_121_by_the_lurch_counted_by_the_engine() -> (
    None
):
    assert Rules() == Rules.standard() == Rules.standard(2, target=121)
    assert (Rules().scoring, Rules().counting) == (Scoring.LURCH, Counting.AUTO)


@pytest.mark.parametrize(("players", "target"), [(1, 121), (5, 121), (2, 100), (3, 181)])
def test_the_standard_game_is_two_to_four_players_to_121_or_61(players: int, target: int) -> None:
    with pytest.raises(ValueError, match=r"players|points"):
        Rules.standard(players, target=target)


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left() -> None:
    assert Rules.standard(3).deal_order(1) == (2, 0, 1) * 5
    assert Rules.standard(2).deal_order(0) == (1, 0) * 6


def test_five_hand_the_dealer_is_dealt_four_and_throws_none_each_other_seat_five_and_one() -> None:
    rules = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1))
    order = rules.deal_order(4)
    assert [order.count(seat) for seat in range(5)] == [5, 5, 5, 5, 4]
    assert order[:5] == (0, 1, 2, 3, 4) and order[-4:] == (0, 1, 2, 3)
    assert rules.to_crib(4, dealer=4) == 0 and rules.to_crib(0, dealer=4) == 1
    assert rules.kept == 4 and rules.crib_size == 4


def test_partnerships_are_sides_of_seats_six_players_as_two_threes_or_three_twos() -> None:
    threes = Rules(seats=6, dealer=Share(5, 1), others=Share(5, 1), crib_size=6,
                   sides=((0, 2, 4), (1, 3, 5)))  # fmt: skip
    twos = Rules(seats=6, dealer=Share(5, 1), others=Share(5, 1), crib_size=6,
                 sides=((0, 3), (1, 4), (2, 5)))  # fmt: skip
    assert [threes.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [twos.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert threes.partners and twos.num_sides == 3


def test_left_of_the_dealer_leads_and_counts_first_the_dealer_last_then_the_crib() -> None:
    rules = Rules.standard(4)
    assert rules.leader(3) == 0 and rules.next_dealer(3) == 0
    assert rules.show_order(1) == ((2, False), (3, False), (0, False), (1, False), (1, True))


@pytest.mark.parametrize(
    ("kept", "crib", "matches", "points"),
    [
        (4, False, False, 4), (4, False, True, 5), (4, True, False, 0), (4, True, True, 5),
        (3, False, False, 3), (3, False, True, 4), (3, True, False, 0), (3, True, True, 5),
        (5, False, False, 5), (5, False, True, 6), (5, True, False, 0), (5, True, True, 5),
    ],
)  # fmt: skip
def test_flush_a_hand_of_its_kept_cards_one_more_with_the_starter_the_crib_only_whole(
    kept: int, crib: bool, matches: bool, points: int
) -> None:
    rules = Rules(dealer=Share(kept + 2, 2), others=Share(kept + 2, 2))
    assert rules.flush_points(crib=crib, starter_matches=matches) == points


def points_before(target: int, loser: int, scoring: Scoring) -> tuple[int, str]:
    """Game points as the engine gave them before the rules were a value: lines by target."""
    half = {121: 61, 61: 31}[target]
    if scoring is Scoring.LURCH:
        return (2, "lurch") if loser < half else (1, "win")
    if target == 121:
        if loser < half:
            return 3, "double_skunk"
        if loser < 91:
            return 2, "skunk"
    elif loser < half:
        return 2, "skunk"
    return 1, "win"


@pytest.mark.parametrize("target", [121, 61])
@pytest.mark.parametrize("scoring", list(Scoring))
def test_game_points_are_those_of_before_for_every_loser_score(
    target: int, scoring: Scoring
) -> None:
    rules = Rules.standard(2, target=target, scoring=scoring)
    for loser in range(target):
        assert rules.game_points(loser) == points_before(target, loser, scoring)


def test_the_scale_is_derived_from_the_target_seven_card_to_181() -> None:
    rules = Rules(dealer=Share(7, 2), others=Share(7, 2), target=181, scoring=Scoring.SKUNK)
    assert rules.lurch_line == 91 and rules.skunk_lines == (151, 91)
    assert rules.game_points(150) == (2, ResultKind.SKUNK)
    assert rules.game_points(90) == (3, ResultKind.DOUBLE_SKUNK)
    assert Rules.standard(target=121).skunk_lines == (91, 61)
    assert Rules.standard(target=61).skunk_lines == (31,)


def test_with_three_sides_the_loser_that_counts_is_second_place() -> None:
    rules = Rules.standard(3, scoring=Scoring.SKUNK)
    result = rules.result((80, 85, 121), 2, EndReason.TARGET)
    assert (result.game_points, result.kind, result.scores) == (2, ResultKind.SKUNK, (80, 85, 121))


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.standard(4, target=61, scoring=Scoring.SKUNK, counting=Counting.MANUAL),
        Rules(dealer=Share(5, 2), others=Share(5, 2), target=61, points_for_last=3,
              play_end=PlayEnd.FIRST_GO),
        Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1)),
    ],
)  # fmt: skip
def test_rules_save_and_read_back(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"seats": 1}, "two players"),
        ({"target": 0}, "target"),
        ({"dealer": Share(6, 1)}, "same number"),
        ({"crib_from_pack": 1}, "crib of 4"),
        ({"crib_size": 5}, "crib of 5"),
        ({"sides": ((0, 1),)}, "two sides"),
        ({"sides": ((0,), (0, 1))}, "exactly one side"),
        ({"dealer": Share(26, 2), "others": Share(26, 2)}, "One deck"),
        ({"points_for_last": -1}, "negative"),
    ],
)
def test_rules_no_deck_can_deal_or_no_table_can_score_are_refused(
    changes: dict[str, object], says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        Rules(**changes)  # type: ignore[arg-type]


def test_a_seat_cannot_throw_more_than_it_is_dealt() -> None:
    with pytest.raises(ValueError, match="at most"):
        Share(2, 3)


def test_the_standard_games_rules_know_they_are_standard() -> None:
    assert all(Rules.standard(n, target=t).is_standard for n in (2, 3, 4) for t in (121, 61))
    assert Rules().is_standard and not Rules(target=181).is_standard
    assert not Rules(dealer=Share(5, 2), others=Share(5, 2)).is_standard


def test_rules_pickle_as_a_call_of_the_constructor() -> None:
    # The computer's worker process gets views, rules and all: the value lands equal, with
    # its hash worked out there (strings and enums hash differently in each process).
    for rules in (
        Rules.standard(4, target=61),
        Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1)),
    ):
        again = pickle.loads(pickle.dumps(rules))
        assert (
            again == rules and hash(again) == hash(rules) and again.side_of(2) == rules.side_of(2)
        )


#: The saved text of every rules value there was before the shares by place were added
#: (``Rules.to_dict()`` as compact JSON), recorded then: the standard games and the variants'
#: values the game tests play.
SAVED_RULES = Path(__file__).parent / "saved_rules.json"


def test_every_rules_value_saved_before_the_shares_by_place_saves_the_same_text() -> None:
    recorded: dict[str, str] = json.loads(SAVED_RULES.read_text(encoding="utf-8"))
    assert len(recorded) >= 30
    for label, text in recorded.items():
        rules = Rules.from_dict(json.loads(text))
        assert json.dumps(rules.to_dict(), separators=(",", ":")) == text, label
        assert rules.shares == ()


SIX_DEAL = (Share(5, 1),) * 4 + (Share(4, 0),) * 2


def test_a_share_can_depend_on_the_seats_place_from_the_dealers_left() -> None:
    rules = Rules(seats=6, dealer=Share(4, 0), others=Share(5, 1), shares=SIX_DEAL,
                  sides=((0, 2, 4), (1, 3, 5)))  # fmt: skip
    for dealer in range(6):
        assert [rules.share((dealer + place) % 6, dealer) for place in range(1, 7)] == list(
            SIX_DEAL
        )
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["shares"] == [[5, 1]] * 4 + [[4, 0]] * 2
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_shares_by_place_that_say_no_more_than_the_dealers_and_the_others_are_the_same_rules() -> (
    None
):
    five_hand = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1))
    said_by_place = Rules(
        seats=5, dealer=Share(4, 0), others=Share(5, 1), shares=(Share(5, 1),) * 4 + (Share(4, 0),)
    )
    assert said_by_place == five_hand and said_by_place.shares == ()
    assert said_by_place.to_dict() == five_hand.to_dict() and "shares" not in five_hand.to_dict()


@pytest.mark.parametrize(
    ("shares", "says"),
    [
        (SIX_DEAL[:5], "every seat once"),
        ((Share(5, 1),) * 5 + (Share(4, 1),), "end with the dealer's"),
        ((Share(4, 0), *SIX_DEAL[1:]), "begin with the leader's"),
        ((Share(5, 1),) * 3 + (Share(6, 1),) + (Share(4, 0),) * 2, "same number"),
        ((Share(5, 1),) * 3 + (Share(4, 0),) * 3, "crib of 4"),
    ],
)
def test_shares_by_place_that_no_deck_can_deal_are_refused(
    shares: tuple[Share, ...], says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        Rules(seats=6, dealer=Share(4, 0), others=Share(5, 1), shares=shares,
              sides=((0, 2, 4), (1, 3, 5)))  # fmt: skip
