"""A hand's controls and the autocomplete choices hold only the seat's own cards."""

from __future__ import annotations

import itertools
import random

from bot.core.messages.prompts import controls_for, discard_completions, play_completions
from engine.cards import full_deck
from engine.game import Game


def _game() -> Game:
    return Game.new(["Al", "Bea"], rng=random.Random(4))[0]


def test_discard_controls_list_the_hand_and_stamp_the_deal() -> None:
    game = _game()
    controls = controls_for(game.view(0), 7, version=3)
    assert controls is not None
    assert [c.code for c in controls.cards] == [c.code for c in game.hand(0)]
    assert all(c.enabled for c in controls.cards)
    assert (controls.pick, controls.stamp, controls.kind, controls.game_id) == (2, 1, "discard", 7)


def test_play_prompt_disables_what_cannot_be_played() -> None:
    game = _game()
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    turn = game.state.turn
    assert turn is not None
    controls = controls_for(game.view(turn), 7, version=12)
    assert controls is not None and controls.kind == "play"
    playable = {c.code for c in game.playable_cards(turn)}
    assert {c.code for c in controls.cards if c.enabled} == playable
    assert controls.stamp == 12 and controls.pick == 1
    assert controls_for(game.view(1 - turn), 7, version=12) is None, "not their turn"
    assert play_completions(game.view(turn), "")[0].value in playable
    assert play_completions(game.view(1 - turn), "") == []


def test_discard_choices_ignore_cards_not_held() -> None:
    game = _game()
    hand = game.hand(0)
    stranger = next(c for c in full_deck() if c not in hand and c not in game.hand(1))
    theirs = game.hand(1)[0]
    # Every whole discard: the fifteen pairs of six cards, each a value the command takes.
    every = [f"{a.code} {b.code}" for a, b in itertools.combinations(hand, 2)]
    for typed in ("", f"{stranger.code} ", f"{theirs.code} ", "ZZ "):
        values = [c.value for c in discard_completions(game.view(0), typed)]
        assert values == every
    first = hand[0].code
    for typed in (f"{first} {first} ", first, f"{first},"):
        pairs = discard_completions(game.view(0), typed)
        assert [c.value for c in pairs] == [f"{first} {c.code}" for c in hand[1:]]
    rank = hand[1].code[:-1]
    narrowed = discard_completions(game.view(0), f"{first} {rank}")
    assert narrowed and all(c.value.split()[1].startswith(rank) for c in narrowed)
    both = f"{hand[2].code} {hand[4].code}"
    assert [c.value for c in discard_completions(game.view(0), both)] == [both]
