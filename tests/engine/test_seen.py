"""Which cards of a deal the table saw (engine.seen): the one rule the finished game's page,
the review of another player and the shuffle's seed all draw from."""

from __future__ import annotations

import random

from engine.cards import Card
from engine.events import Event, Shown
from engine.game import Game
from engine.phase import Phase
from engine.seen import crib_shown, seen_cards


def _dealt(seed: int) -> tuple[Game, list[Event], list[tuple[Card, ...]]]:
    """A two-player game to 121 with its first deal dealt: its events so far and each
    seat's hand as dealt."""
    game, events = Game.new(["Al", "Bea"], rng=random.Random(seed))
    return game, list(events), [game.hand(seat) for seat in range(2)]


def _throw(game: Game, events: list[Event]) -> None:
    for seat in range(2):
        events += game.discard(seat, game.hand(seat)[:2])


def _play(game: Game, events: list[Event], cards: int) -> None:
    """Play ``cards`` cards, each the first the seat to play may play."""
    for _ in range(cards):
        seat = game.state.turn
        assert seat is not None
        events += game.play(seat, game.playable_cards(seat)[0])


def test_a_deal_resigned_in_the_play_shows_only_the_cards_played_and_the_starter() -> None:
    game, events, dealt = _dealt(5)
    _throw(game, events)
    _play(game, events, 3)
    played = set(game.state.series)
    starter = game.state.starter
    assert starter is not None
    events += game.resign(0)
    assert game.state.phase is Phase.OVER
    assert not crib_shown(events)
    assert seen_cards(events) == {*played, starter}
    hidden = {card for hand in dealt for card in hand} - played
    assert hidden and not hidden & seen_cards(events), "thrown and unplayed cards stay unseen"


def test_a_deal_resigned_before_the_throw_shows_no_card() -> None:
    game, events, _ = _dealt(6)
    events += game.resign(1)
    assert game.state.phase is Phase.OVER and game.state.starter is None
    assert seen_cards(events) == frozenset() and not crib_shown(events)


def test_once_the_crib_is_shown_every_card_dealt_was_seen() -> None:
    game, events, dealt = _dealt(7)
    _throw(game, events)
    while game.state.deal_number == 1 and game.state.phase is Phase.PLAY:
        _play(game, events, 1)
    assert game.state.deal_number == 2, (
        "(automatic counting: the show is done, the next deal dealt)"
    )
    first = events[: next(i for i, e in enumerate(events) if isinstance(e, Shown) and e.crib) + 1]
    assert crib_shown(first)
    assert {card for hand in dealt for card in hand} <= seen_cards(first)
    assert not crib_shown(e for e in first if not (isinstance(e, Shown) and e.crib))
