"""What a seat and the table may know: views hold only public cards, and no way back."""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Iterator

import pytest

from engine.cards import Card, parse_cards
from engine.events import Shown
from engine.game import Game, GameResult, Phase
from engine.rules import Points, Rules, Share
from engine.scoring import Score, ScoreItem
from engine.views import PublicView, SeatView
from tests.helpers.rigging import NAMES, rigged_game, three_player_game
from tests.helpers.views import walk

#: Plain values, and the rules (numbers and options, no card in them).
SAFE_LEAVES = (int, str, bool, type(None), enum.Enum, Rules, Share, Points)


def cards_in(value: object) -> set[Card]:
    return {v for v in walk(value) if isinstance(v, Card)}


def public_cards(game: Game) -> set[Card]:
    """The cards everyone has seen this deal: the ones played and the starter."""
    data = game.to_dict()
    seen = {Card.parse(code) for played in data["played"] for code in played}
    if data["starter"]:
        seen.add(Card.parse(data["starter"]))
    return seen


def without_last_show(view: PublicView) -> list[object]:
    return [getattr(view, f.name) for f in dataclasses.fields(view) if f.name != "last_show"]


def random_steps(n: int, seed: int, steps: int) -> Iterator[Game]:
    rng = random.Random(seed)
    game, _ = Game.new(NAMES[:n], rng=random.Random(seed))
    for _ in range(steps):
        if game.state.phase is Phase.OVER:
            return
        yield game
        if game.state.phase is Phase.DISCARD:
            seat = rng.choice(game.pending_discards())
            game.discard(seat, rng.sample(game.hand(seat), game.state.rules.others.to_crib))
        else:
            assert game.state.turn is not None
            game.play(game.state.turn, rng.choice(game.playable_cards(game.state.turn)))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_public_view_holds_only_public_cards_and_plain_values(n: int) -> None:
    for game in random_steps(n, seed=n, steps=150):
        view = game.public_view()
        assert type(view) is PublicView
        for value in walk(view):
            assert isinstance(
                value, (*SAFE_LEAVES, tuple, Card, Shown, Score, ScoreItem, GameResult, PublicView)
            ), type(value)
        assert cards_in(without_last_show(view)) <= public_cards(game)
        # The last show is made of cards that were shown (and so public) in an earlier deal.
        for shown in view.last_show:
            assert len(shown.cards) == 4 and shown.starter not in shown.cards


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seat_view_adds_only_the_seats_own_cards(n: int) -> None:
    for game in random_steps(n, seed=10 + n, steps=120):
        for seat in range(n):
            view = game.view(seat)
            assert type(view) is SeatView and view.seat == seat
            assert view.hand == game.hand(seat)
            assert view.playable == game.playable_cards(seat)
            own = set(view.hand) | set(view.kept) | set(view.discards)
            assert cards_in(without_last_show(view)) <= public_cards(game) | own
            assert set(view.discards) | set(view.kept) <= own
            public = {f.name: getattr(view, f.name) for f in dataclasses.fields(PublicView)}
            assert PublicView(**public) == game.public_view()


def test_seat_view_kept_and_discards_after_discarding() -> None:
    game, _ = rigged_game(
        ["7C 4S 6H QD", "KH 9C 8D 3S"], ["5H 10C", "2C AD"], dealer=0, starter="KS", discard=False
    )
    view = game.view(0)
    assert view.kept == () and view.discards == () and len(view.hand) == 6
    game.discard(0, parse_cards("5H 10C"))
    view = game.view(0)
    assert set(view.kept) == set(parse_cards("7C 4S 6H QD")) == set(view.hand)
    assert view.discards == parse_cards("5H 10C")
    assert game.public_view().pending_discards == (1,)
    game.discard(1, parse_cards("2C AD"))
    game.play(1, Card.parse("KH"))
    view = game.view(1)
    assert Card.parse("KH") in view.kept and Card.parse("KH") not in view.hand
    assert view.playable == ()
    assert game.view(0).playable == game.hand(0)


def test_views_are_snapshots_that_later_actions_do_not_change() -> None:
    game, _ = rigged_game(
        ["7C 4S 6H QD", "KH 9C 8D 3S"], ["5H 10C", "2C AD"], dealer=0, starter="KS"
    )
    public, seat = game.public_view(), game.view(1)
    game.play(1, Card.parse("KH"))
    assert public.count == 0 and public.turn == 1 and public.played == ((), ())
    assert len(seat.hand) == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        public.count = 5  # type: ignore[misc]


def test_public_view_table_fields() -> None:
    game, _ = three_player_game()
    game.play(1, Card.parse("KH"))
    view = game.public_view()
    assert view.players == ("Al", "Bea", "Cy") and view.target == 121
    assert view.num_sides == 3 and view.sides == (0, 1, 2) and view.scores == (0, 0, 0)
    assert view.dealer == 0 and view.phase is Phase.PLAY and view.turn == 2
    assert view.count == 10 and view.series == (Card.parse("KH"),)
    assert view.starter == Card.parse("3S") and view.crib_size == 4
    assert view.hand_sizes == (4, 3, 4) and view.pending_discards == ()
    assert view.deal_number == 1 and view.discard_count == 1 and view.result is None
    assert view.last_show == ()
