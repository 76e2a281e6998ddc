"""Prompts and autocomplete choices hold only the seat's own cards."""

from __future__ import annotations

import random

from bot.core.prompts import discard_completions, discard_prompt, play_completions, play_prompt
from engine.cards import full_deck
from engine.game import Game


def _game() -> Game:
    return Game.new(["Al", "Bea"], rng=random.Random(4))[0]


def test_discard_prompt_lists_the_hand_and_stamps_the_deal() -> None:
    game = _game()
    prompt = discard_prompt(game.view(0), 7, 99, 1)
    assert [c.code for c in prompt.cards] == [c.code for c in game.hand(0)]
    assert all(c.enabled for c in prompt.cards)
    assert (prompt.pick, prompt.stamp, prompt.kind) == (2, 1, "discard")


def test_play_prompt_disables_what_cannot_be_played() -> None:
    game = _game()
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    turn = game.turn
    assert turn is not None
    prompt = play_prompt(game.view(turn), 7, 99, 1, version=12)
    playable = {c.code for c in game.playable_cards(turn)}
    assert {c.code for c in prompt.cards if c.enabled} == playable
    assert prompt.stamp == 12 and prompt.pick == 1
    assert play_completions(game.view(turn), "")[0].value in playable
    assert play_completions(game.view(1 - turn), "") == []


def test_discard_choices_ignore_cards_not_held() -> None:
    game = _game()
    hand = game.hand(0)
    stranger = next(c for c in full_deck() if c not in hand and c not in game.hand(1))
    theirs = game.hand(1)[0]
    for typed in (f"{stranger.code} ", f"{theirs.code} ", "ZZ "):
        values = [c.value for c in discard_completions(game.view(0), typed)]
        assert values == [c.code for c in hand]
    first = hand[0].code
    pairs = discard_completions(game.view(0), f"{first} {first} ")
    assert [c.value for c in pairs] == [f"{first} {c.code}" for c in hand[1:]]
    rank = hand[1].code[:-1]
    narrowed = discard_completions(game.view(0), f"{first} {rank}")
    assert narrowed and all(c.value.split()[1].startswith(rank) for c in narrowed)
