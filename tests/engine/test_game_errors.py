"""Every rejected action: the RuleError it raises, its sentence, and a state left untouched."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.cards import Card, parse_cards
from engine.errors import (
    BadDiscard,
    CardNotHeld,
    GameFinished,
    IllegalPlay,
    NotAPlayer,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
from engine.game import Game
from engine.variants import FIVE_HAND, SIX_HAND
from tests.helpers.rigging import NAMES, play_cards, rigged_game, three_player_game

KEPT = ["7C 4S 6H QD", "KH 9C 8D 3S"]
THROWN = ["5H 10C", "2C AD"]


def at_discard() -> Game:
    game, _ = rigged_game(KEPT, THROWN, dealer=0, starter="KS", discard=False)
    return game


def at_play() -> Game:
    game, _ = rigged_game(KEPT, THROWN, dealer=0, starter="KS")
    return game


def three_at_discard() -> Game:
    game, _ = three_player_game(discard=False)
    return game


def dealt_short(variant: str) -> Callable[[], Game]:
    """A deal of five-hand or six-hand (seat 0 deals): the dealer, and with six the player on
    his right (seat 5), are dealt four and throw nothing; the others throw one."""
    rules = {"five_hand": FIVE_HAND, "six_hand": SIX_HAND}[variant].rules()
    names = [f"P{n}" for n in range(rules.seats)]
    return lambda: Game.new(names, rules=rules, rng=random.Random(3), dealer=0)[0]


def short_in_the_play() -> Game:
    """A five-hand deal in the play: every seat dealt five has thrown its card."""
    game = dealt_short("five_hand")()
    for seat in game.pending_discards():
        game.discard(seat, game.view(seat).hand[:1])
    return game


def count_26() -> Game:
    game = at_play()
    play_cards(game, "KH 7C 9C")
    return game


def after_first_discard() -> Game:
    game = at_discard()
    game.discard(0, parse_cards("5H 10C"))
    return game


def finished() -> Game:
    game = at_play()
    game.resign(1)
    return game


def c(text: str) -> Card:
    return Card.parse(text)


Action = Callable[[Game], object]


def play(seat: int, card: str) -> Action:
    """``seat`` plays ``card``."""
    return lambda game: game.play(seat, c(card))


def discard(seat: int, cards: str) -> Action:
    """``seat`` puts ``cards`` in the crib, as given (none, or one card twice, are allowed)."""
    return lambda game: game.discard(seat, [c(card) for card in cards.split()])


CRIB_OF_2 = "You must put 2 cards in the crib."
CRIB_OF_1 = "You must put 1 card in the crib."
# Issue 68, item 17: "Everyone must discard before the play starts." told the player nothing
# of what they owed.
NO_PLAY_YET = "Put your 2 cards in the crib first: the play starts once the crib is made."
ONE_OWED = "Put your 1 card in the crib first: the play starts once the crib is made."
THROWN_ALREADY = "The play starts once the crib is made: waiting for Bea to throw."
DISCARDED = "You have already discarded."
SHORT = "You were dealt 4 cards and put none in the crib: the others make it."
CASES: list[tuple[str, Callable[[], Game], Action, type[RuleError], str]] = [
    ("not your turn", at_play, play(0, "7C"), NotYourTurn, "It's Bea's turn."),
    ("not your turn later", count_26, play(1, "8D"), NotYourTurn, "It's Al's turn."),
    ("count over 31", count_26, play(0, "6H"), IllegalPlay, "6♥ would make the count 32."),
    ("face card over 31", count_26, play(0, "QD"), IllegalPlay, "Q♦ would make the count 36."),
    ("card not held", at_play, play(1, "QS"), CardNotHeld, "You don't hold Q♠."),
    ("card in another hand", at_play, play(1, "7C"), CardNotHeld, "You don't hold 7♣."),
    ("card already played", count_26, play(0, "7C"), CardNotHeld, "You don't hold 7♣."),
    ("card put in the crib", at_play, play(1, "2C"), CardNotHeld, "You don't hold 2♣."),
    ("play before the crib", after_first_discard, play(1, "KH"), WrongPhase, NO_PLAY_YET),
    ("play after throwing", after_first_discard, play(0, "7C"), WrongPhase, THROWN_ALREADY),
    ("play owing one card", three_at_discard, play(1, "AH"), WrongPhase, ONE_OWED),
    ("too few cards for the crib", at_discard, discard(0, "5H"), BadDiscard, CRIB_OF_2),
    ("too many cards for the crib", at_discard, discard(0, "5H 10C 7C"), BadDiscard, CRIB_OF_2),
    ("no cards for the crib", at_discard, discard(0, ""), BadDiscard, CRIB_OF_2),
    ("two to a three-player crib", three_at_discard, discard(1, "AH KH"), BadDiscard, CRIB_OF_1),
    ("the same card twice", at_discard, discard(0, "5H 5H"), BadDiscard, "You named 5♥ twice."),
    ("discarding one not held", at_discard, discard(0, "5H KH"), CardNotHeld, "You don't hold K♥."),
    ("discarding twice", after_first_discard, discard(0, "7C 4S"), WrongPhase, DISCARDED),
    ("discarding in the play", at_play, discard(1, "KH 9C"), WrongPhase, DISCARDED),
    # A seat dealt four throws nothing: it never discarded (it was told "already" before).
    ("the five-hand dealer", dealt_short("five_hand"), discard(0, "5H"), WrongPhase, SHORT),
    ("six-hand's dealer", dealt_short("six_hand"), discard(0, ""), WrongPhase, SHORT),
    ("on six-hand's dealer's right", dealt_short("six_hand"), discard(5, "5H"), WrongPhase, SHORT),
    ("dealt four, in the play", short_in_the_play, discard(0, "5H"), WrongPhase, SHORT),
    ("a seat not at the table", at_play, play(2, "KH"), NotAPlayer, ""),
    ("a negative seat", at_discard, discard(-1, "5H"), NotAPlayer, ""),
    ("resigning from no seat", at_play, lambda g: g.resign(7), NotAPlayer, ""),
    ("playing after the end", finished, play(1, "KH"), GameFinished, ""),
    ("discarding after the end", finished, discard(0, ""), GameFinished, ""),
    ("resigning after the end", finished, lambda g: g.resign(0), GameFinished, ""),
]
NOT_A_PLAYER = "You are not playing in this game."
GAME_OVER = "The game is over."


@pytest.mark.parametrize(
    ("setup", "action", "error", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_rejected_action_raises_a_sentence_and_changes_nothing(
    setup: Callable[[], Game],
    action: Action,
    error: type[RuleError],
    message: str,
) -> None:
    game = setup()
    before = game.to_json()
    view_before = game.view(0)
    expected = message or (NOT_A_PLAYER if error is NotAPlayer else GAME_OVER)
    with pytest.raises(error) as caught:
        action(game)
    assert str(caught.value) == expected
    assert game.to_json() == before
    assert game.view(0) == view_before


def test_verify_raises_what_the_action_would_without_acting() -> None:
    game = count_26()
    before = game.to_json()
    with pytest.raises(IllegalPlay):
        game.verify_play(0, c("6H"))
    game.verify_play(0, c("4S"))
    assert game.to_json() == before
    with pytest.raises(WrongPhase):
        game.verify_discard(0, parse_cards("4S 6H"))
    game.verify_resign(1)
    assert game.to_json() == before


@pytest.mark.parametrize(
    ("players", "target"), [(["Al"], 121), ((*NAMES, "Ed"), 121), (NAMES[:2], 100)]
)
def test_new_game_refuses_a_wrong_table(players: list[str], target: int) -> None:
    with pytest.raises(ValueError):
        Game.new(players, target=target, rng=random.Random(0))
