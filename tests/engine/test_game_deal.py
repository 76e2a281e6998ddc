"""The cut for deal, dealing, the crib, the starter and his heels."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards
from engine.events import CutForDeal, Dealt, Discarded, GameOver, Heels, Shown, StarterCut
from engine.game import Game, Phase
from tests.helpers.rigging import NAMES, RiggedRandom, rigged_game


@pytest.mark.parametrize(
    ("cuts", "dealer"),
    [
        (["KH 3C"], 1),
        (["2D 9S"], 0),
        (["QH 4C 6D"], 1),
        (["9C 9D AS"], 2),
        (["5H 7S 6C 8D"], 0),
        (["JH 10H 10D 3S"], 3),
    ],
)
def test_cut_for_deal_lowest_card_deals(cuts: list[str], dealer: int) -> None:
    rounds = [parse_cards(c) for c in cuts]
    n = len(rounds[0])
    game, events = Game.new(NAMES[:n], rng=RiggedRandom(rounds))
    assert game.state.dealer == dealer
    assert events[0] == CutForDeal(rounds=tuple(rounds), dealer=dealer)
    assert game.state.cut_rounds == tuple(rounds)


def _cut_round(text: str) -> tuple[Card | None, ...]:
    """A round of the cut as the tests write it: a card per seat, ``-`` for a seat that sat
    the round out."""
    return tuple(None if code == "-" else Card.parse(code) for code in text.split())


@pytest.mark.parametrize(
    ("cuts", "dealer"),
    [
        (["5H 5C", "9D 2S"], 1),
        (["AH AD", "3C 3D", "KS QS"], 1),
        (["4H 4C KD", "8H 7C -"], 1),
        (["2H 9D 2S 2C", "7D - 7H 8S", "3C - 2D -"], 2),
    ],
)
def test_cut_for_deal_ties_cut_again(cuts: list[str], dealer: int) -> None:
    rounds = [_cut_round(c) for c in cuts]
    n = len(rounds[0])
    # Each re-cut deals its cards to the tied players in seat order, from a fresh shuffle.
    orders = [[card for card in r if card is not None] for r in rounds]
    game, events = Game.new(NAMES[:n], rng=RiggedRandom(orders))
    assert game.state.dealer == dealer
    cut = events[0]
    assert isinstance(cut, CutForDeal)
    assert cut.rounds == tuple(rounds)
    assert cut.dealer == dealer


@pytest.mark.parametrize("n", [3, 4])
def test_cut_for_deal_only_the_players_tied_for_lowest_cut_again(n: int) -> None:
    # Seats 0 and 1 tie on a three; the ace on top of the next shuffle would make a player
    # who did not tie the dealer if everyone cut again.
    first = parse_cards("3H 3C KD QS")[:n]
    game, events = Game.new(NAMES[:n], rng=RiggedRandom([first, parse_cards("9H 8C AS 2D")]))
    cut = events[0]
    assert isinstance(cut, CutForDeal)
    assert cut.rounds[1] == (Card.parse("9H"), Card.parse("8C"), *[None] * (n - 2))
    assert game.state.dealer == cut.dealer == 1


def test_cut_for_deal_a_tie_above_the_lowest_card_does_not_cut_again() -> None:
    game, events = Game.new(NAMES[:3], rng=RiggedRandom([parse_cards("2H 9D 9S")]))
    assert game.state.dealer == 0
    assert isinstance(events[0], CutForDeal)
    assert len(events[0].rounds) == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_rotation_passes_to_the_left(n: int) -> None:
    rng = random.Random(n)
    game, events = Game.new(NAMES[:n], rng=rng)
    first = game.state.dealer
    dealers = [e.dealer for e in events if isinstance(e, Dealt)]
    while len(dealers) < 2 * n + 1 and game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            events = game.discard(seat, game.hand(seat)[: game.state.rules.others.to_crib])
        else:
            assert game.state.turn is not None
            events = game.play(game.state.turn, game.playable_cards(game.state.turn)[0])
        dealers += [e.dealer for e in events if isinstance(e, Dealt)]
    assert dealers == [(first + k) % n for k in range(len(dealers))]
    assert len(dealers) >= n + 1


@pytest.mark.parametrize(("n", "hand_size", "discard_count"), [(2, 6, 2), (3, 5, 1), (4, 5, 1)])
def test_deal_hand_sizes_and_discards(n: int, hand_size: int, discard_count: int) -> None:
    game, events = Game.new(NAMES[:n], rng=random.Random(1))
    assert events[-1] == Dealt(
        dealer=game.state.dealer, deal_number=1, hand_size=hand_size, crib_from_deck=n == 3
    )
    assert game.state.rules.others.to_crib == discard_count
    assert all(len(game.hand(seat)) == hand_size for seat in range(n))
    assert game.pending_discards() == tuple(range(n))
    assert (
        game.state.phase is Phase.DISCARD and game.state.turn is None and game.state.starter is None
    )


def test_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    order = parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC")
    rng = RiggedRandom([parse_cards("KH 3D"), order])  # seat 1 deals, seat 0 gets the first card
    game, _ = Game.new(NAMES[:2], rng=rng)
    assert game.hand(0) == parse_cards("AC 3C 5C 7C 9C JC")
    assert game.hand(1) == parse_cards("2C 4C 6C 8C 10C QC")


def test_two_player_crib_takes_two_cards_from_each() -> None:
    game, events = rigged_game(
        ["KH 6D 10H 5S", "5C KS JC 6C"], ["AS 3C", "8H 9D"], dealer=0, starter="2D"
    )
    assert [type(e) for e in events] == [Discarded, StarterCut]
    assert events[0] == Discarded(seat=1, count=2)
    assert game.public_view().crib_size == 4
    assert game.view(0).discards == parse_cards("AS 3C")
    assert set(game.view(0).kept) == set(parse_cards("KH 6D 10H 5S"))


def test_three_player_crib_gets_the_top_card_of_the_deck() -> None:
    game, _ = rigged_game(
        ["KH QH 2C 5C", "JD 9S 4D 8C", "10S AS 7D 6H"],
        ["AH", "AD", "AC"],
        dealer=0,
        starter="3S",
        crib_card="2H",
        discard=False,
    )
    assert game.public_view().crib_size == 1
    assert all(len(game.hand(seat)) == 5 for seat in range(3))
    for seat, card in enumerate(["AH", "AD"]):
        game.discard(seat, [Card.parse(card)])
        assert game.public_view().crib_size == seat + 2
    events = game.discard(2, [Card.parse("AC")])
    assert events[-1] == StarterCut(card=Card.parse("3S"), dealer=0)
    crib_show = play_to_show(game)[-1]
    assert crib_show.crib and set(crib_show.cards) == set(parse_cards("AH AD AC 2H"))


def play_to_show(game: Game) -> list[Shown]:
    """Play the lowest playable card until the show; return the Shown events."""
    while True:
        assert game.state.turn is not None
        events = game.play(game.state.turn, game.playable_cards(game.state.turn)[0])
        shown = [e for e in events if isinstance(e, Shown)]
        if shown:
            return shown


def test_four_players_are_partners_sharing_one_score() -> None:
    game, _ = Game.new(NAMES, rng=random.Random(5))
    assert game.state.rules.num_sides == 2
    assert [game.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert game.state.scores == (0, 0)
    assert game.public_view().sides == (0, 1, 0, 1)


def test_three_players_score_alone() -> None:
    game, _ = Game.new(NAMES[:3], rng=random.Random(5))
    assert game.state.rules.num_sides == 3
    assert [game.side_of(seat) for seat in range(3)] == [0, 1, 2]


def test_starter_is_cut_only_after_the_crib_is_complete() -> None:
    game, events = rigged_game(
        ["KH 6D 10H 5S", "5C KS JC 6C"], ["AS 3C", "8H 9D"], dealer=0, starter="2D", discard=False
    )
    assert game.discard(0, parse_cards("AS 3C")) == [Discarded(seat=0, count=2)]
    assert game.state.starter is None
    assert game.state.phase is Phase.DISCARD
    events = game.discard(1, parse_cards("8H 9D"))
    assert events == [Discarded(seat=1, count=2), StarterCut(card=Card.parse("2D"), dealer=0)]
    assert game.state.starter == Card.parse("2D")
    assert game.public_view().phase is Phase.PLAY
    assert game.state.turn == 1


@pytest.mark.parametrize("dealer", [0, 1])
def test_his_heels_gives_the_dealer_two(dealer: int) -> None:
    game, events = rigged_game(
        ["KH 6D 10H 5S", "5C KS 10C 6C"], ["AS 3C", "8H 9D"], dealer=dealer, starter="JD"
    )
    assert events[-2:] == [
        StarterCut(card=Card.parse("JD"), dealer=dealer),
        Heels(seat=dealer, side=dealer, points=2, score=2),
    ]
    assert game.state.scores[dealer] == 2 and game.state.scores[1 - dealer] == 0


def test_his_heels_scores_for_the_dealers_partnership() -> None:
    game, events = rigged_game(
        ["KH 6D 10H 5S", "5C KS 10C 6C", "2H 3H 4H 5H", "7S 8S 9S 10S"],
        ["AS", "8H", "9D", "QC"],
        dealer=3,
        starter="JC",
    )
    assert events[-1] == Heels(seat=3, side=1, points=2, score=2)
    assert game.state.scores == (0, 2)


def test_his_heels_wins_the_game() -> None:
    game, events = rigged_game(
        ["KH 6D 10H 5S", "5C KS 10C 6C"],
        ["AS 3C", "8H 9D"],
        dealer=1,
        starter="JD",
        scores=(120, 119),
    )
    assert [type(e) for e in events] == [Discarded, StarterCut, Heels, GameOver]
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result.winner == 1 and over.result.scores == (120, 121)
    assert game.state.phase is Phase.OVER and game.state.turn is None


@pytest.mark.parametrize("dealer", [0, 1])
def test_a_following_game_dealt_first_by_the_loser_has_no_cut(dealer: int) -> None:
    # The first deal given to a seat (a following game's rule: the loser of the game before
    # deals first): no cut, the deal is the game's first shuffle, and replaying it needs the
    # seat, which the saved game keeps.
    game, events = Game.new(NAMES[:2], rng=random.Random(5), dealer=dealer)
    assert events[0] == CutForDeal(rounds=(), dealer=dealer)
    assert isinstance(events[1], Dealt) and events[1].dealer == dealer
    assert (
        game.state.dealer == dealer
        and game.state.given_dealer == dealer
        and game.state.cut_rounds == ()
    )
    _ = game.discard(0, game.hand(0)[:2])
    restored = Game.from_dict(game.to_dict(), rng=random.Random(1))
    assert restored.state.given_dealer == dealer and restored.to_dict() == game.to_dict()
    again = Game.replay(
        NAMES[:2], rng=random.Random(5), actions=game.actions, dealer=game.state.given_dealer
    )
    assert again.to_dict() == game.to_dict()


def test_a_game_dealt_after_a_cut_is_saved_as_before() -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(5))
    assert game.state.given_dealer is None and "first_dealer" not in game.to_dict()


def test_the_first_deal_given_to_no_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat 2"):
        Game.new(NAMES[:2], rng=random.Random(5), dealer=2)
