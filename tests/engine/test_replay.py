"""JSON round trips, restoring a game mid-deal, and replaying the action log."""

from __future__ import annotations

import json
import random

import pytest

from engine.events import Dealt, Event, event_from_dict
from engine.game import Game, Phase
from tests.helpers.rigging import NAMES


def play_randomly(game: Game, chooser: random.Random, steps: int) -> list[list[Event]]:
    """Take up to ``steps`` random legal actions; return each action's events."""
    results: list[list[Event]] = []
    for _ in range(steps):
        if game.state.phase is Phase.OVER:
            break
        if game.state.phase is Phase.DISCARD:
            seat = chooser.choice(game.pending_discards())
            results.append(
                game.discard(seat, chooser.sample(game.hand(seat), game.state.rules.others.to_crib))
            )
        else:
            assert game.state.turn is not None
            results.append(
                game.play(game.state.turn, chooser.choice(game.playable_cards(game.state.turn)))
            )
    return results


@pytest.mark.parametrize(("n", "target"), [(2, 121), (3, 121), (4, 61)])
def test_replay_reproduces_the_state_and_the_events(n: int, target: int) -> None:
    game, first = Game.new(NAMES[:n], target=target, rng=random.Random(42))
    events = [first, *play_randomly(game, random.Random(1), 10_000)]
    assert game.state.phase is Phase.OVER

    replayed = Game.replay(NAMES[:n], target=target, rng=random.Random(42), actions=game.actions)
    assert replayed.to_json() == game.to_json()

    again, again_first = Game.new(NAMES[:n], target=target, rng=random.Random(42))
    again_events = [again_first] + [again.apply(action) for action in game.actions]
    assert again_events == events


@pytest.mark.parametrize("n", [2, 3, 4])
def test_json_round_trip_is_exact(n: int) -> None:
    game, _ = Game.new(NAMES[:n], rng=random.Random(n))
    chooser = random.Random(0)
    while game.state.phase is not Phase.OVER:
        text = game.to_json()
        restored = Game.from_json(text, rng=random.Random(0))
        assert restored.to_json() == text
        assert restored.to_dict() == game.to_dict() == json.loads(text)
        assert restored.public_view() == game.public_view()
        assert all(restored.view(s) == game.view(s) for s in range(n))
        play_randomly(game, chooser, 1)


def test_restored_game_continues_the_deal_exactly_with_a_new_rng() -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(9))
    play_randomly(game, random.Random(2), 3)  # both discards and one card played
    restored = Game.from_json(game.to_json(), rng=random.Random(12345))
    chooser_a, chooser_b = random.Random(5), random.Random(5)
    while True:
        events = play_randomly(game, chooser_a, 1)[0]
        assert play_randomly(restored, chooser_b, 1)[0] == events
        if any(isinstance(e, Dealt) for e in events):
            break
    # The next deal is shuffled by each game's own rng.
    assert restored.hand(0) != game.hand(0)


def test_restored_game_with_the_same_rng_state_matches_to_the_end() -> None:
    rng = random.Random(77)
    game, _ = Game.new(NAMES[:3], rng=rng)
    play_randomly(game, random.Random(3), 40)
    copy_rng = random.Random()
    copy_rng.setstate(rng.getstate())
    restored = Game.from_dict(game.to_dict(), rng=copy_rng)
    assert play_randomly(game, random.Random(4), 10_000) == play_randomly(
        restored, random.Random(4), 10_000
    )
    assert restored.to_json() == game.to_json()


def test_every_event_round_trips_through_to_dict() -> None:
    game, events = Game.new(NAMES[:4], target=61, rng=random.Random(8))
    for batch in play_randomly(game, random.Random(8), 10_000):
        events += batch
    kinds = {e.kind for e in events}
    assert {"cut_for_deal", "dealt", "discarded", "starter_cut", "played", "go"} <= kinds
    assert {"go_point", "count_reset", "shown", "game_over"} <= kinds
    for event in events:
        data = event.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert event_from_dict(data) == event


def test_from_dict_refuses_a_damaged_game() -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(1))
    data = game.to_dict()
    with pytest.raises(ValueError):
        Game.from_dict({**data, "version": 99}, rng=random.Random(0))
    with pytest.raises(ValueError):
        Game.from_dict({**data, "deck": data["deck"][1:]}, rng=random.Random(0))
    with pytest.raises(ValueError):
        Game.from_dict({k: v for k, v in data.items() if k != "crib"}, rng=random.Random(0))
    with pytest.raises(ValueError):
        Game.from_json("[1, 2]", rng=random.Random(0))
    hands = [list(h) for h in data["hands"]]
    hands[0][0] = hands[1][0]
    with pytest.raises(ValueError):
        Game.from_dict({**data, "hands": hands}, rng=random.Random(0))


def test_apply_refuses_an_unknown_action() -> None:
    game, _ = Game.new(NAMES[:2], rng=random.Random(1))
    with pytest.raises(ValueError):
        game.apply({"type": "shuffle", "seat": 0})
    with pytest.raises(ValueError):
        game.apply({"type": "play", "card": "5H"})
