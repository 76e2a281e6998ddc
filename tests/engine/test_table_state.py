"""The game exposes its state rather than forwarding it: ``game.state`` is the state itself,
read through :class:`~engine.state.TableState`, which names only what the whole table may
know; the game keeps as its own properties only what it computes."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest

from engine.cards import Card
from engine.counting import Counting
from engine.game import Game, Phase
from engine.state import GameState, TableState
from tests.helpers.rigging import play_cards, two_player_game
from tests.helpers.views import walk

#: The game's own properties, each computed rather than a field of the state handed on: the
#: state (read-only), the hand a manual show waits for, and a copy of the action log.
COMPUTED = {"state", "count_turn", "actions"}

#: What the state holds that the table may not read: the hidden cards, the random source, and
#: the log (its discards name thrown cards), and the workings of saving and the manual show
#: (the JSON of the last show, the queue of hands still to claim: ``count_turn`` is its face).
BEHIND_THE_DOOR = {
    "deck",
    "hands",
    "kept",
    "discards",
    "crib",
    "rng",
    "actions",
    "last_show_data",
    "to_count",
}


def table_fields() -> set[str]:
    """The names :class:`TableState` lists."""
    return {name for name, value in vars(TableState).items() if isinstance(value, property)}


def game_properties() -> set[str]:
    """The public properties of :class:`Game`, inherited ones included."""
    return {
        name
        for name, value in inspect.getmembers(Game)
        if isinstance(value, property) and not name.startswith("_")
    }


def state_names() -> set[str]:
    """What a :class:`GameState` holds or says: its fields and its properties."""
    fields = {field.name for field in dataclasses.fields(GameState)}
    return fields | {n for n, v in vars(GameState).items() if isinstance(v, property)}


def test_the_game_forwards_no_field_of_its_state_nor_of_its_rules() -> None:
    forwarded = sorted(game_properties() - COMPUTED)
    assert not forwarded, (
        f"Game forwards {forwarded}: read them from game.state (the rules' from "
        "game.state.rules), or say here what the property computes"
    )


def test_the_games_own_properties_compute_what_the_state_does_not_hold() -> None:
    game, _ = two_player_game()
    state = game.state
    assert isinstance(state, GameState)
    # The log is handed out as a copy: changing it changes nothing in the game.
    assert game.actions == state.actions
    game.actions.clear()
    assert game.actions == state.actions and state.actions
    # The hand a manual show waits for is worked out from the show's queue, not kept.
    assert "count_turn" not in state_names()


def test_the_table_state_names_no_hidden_field() -> None:
    listed = table_fields()
    assert not listed & BEHIND_THE_DOOR, sorted(listed & BEHIND_THE_DOOR)
    # Every name it lists is the state's own, and every field of the state is either listed
    # or kept behind the door: a new field of the state is one or the other by choice.
    names = state_names()
    assert listed <= names, sorted(listed - names)
    undecided = names - listed - BEHIND_THE_DOOR - {"last_show_data"}
    assert not undecided, f"GameState holds {sorted(undecided)}: list it or keep it behind"


def every_table_value(state: TableState) -> list[object]:
    return [getattr(state, name) for name in sorted(table_fields())]


@pytest.mark.parametrize("counting", list(Counting))
def test_the_table_state_reaches_no_hidden_card_and_nothing_a_reader_could_change(
    counting: Counting,
) -> None:
    rng = random.Random(23)
    game, _ = Game.new(["Al", "Bea", "Cy"], rng=rng, counting=counting)
    steps = 0
    while game.state.phase is not Phase.OVER and steps < 400:
        steps += 1
        state = game.state
        values = every_table_value(state)
        # Immutable all through: a value kept by a reader cannot change, nor change the game.
        for value in values:
            hash(value)
        seen = set(state.series) | {c for p in state.played for c in p}
        seen |= {c for r in state.cut_rounds for c in r if c is not None}
        seen |= {c for shown in state.last_show for c in (*shown.cards, shown.starter)}
        if state.starter is not None:
            seen.add(state.starter)
        reached = {v for value in values for v in walk(value) if isinstance(v, Card)}
        assert reached <= seen, f"the table state shows {sorted(map(str, reached - seen))}"
        view = game.public_view()
        assert (view.phase, view.turn, view.scores, view.series, view.played) == (
            state.phase,
            state.turn,
            state.scores,
            state.series,
            state.played,
        )
        if state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            game.discard(seat, game.hand(seat)[: game.view(seat).discard_count])
        elif state.phase is Phase.PLAY:
            assert state.turn is not None
            game.play(state.turn, game.playable_cards(state.turn)[0])
        else:
            turn = game.count_turn
            if state.muggins_window is not None and turn is None:
                game.close_muggins(state.muggins_window.seat)
            else:
                assert turn is not None
                game.auto_count(turn.seat)
    assert steps > 20


def test_a_value_read_from_the_state_does_not_change_as_the_game_goes_on() -> None:
    game, _ = two_player_game()
    before = game.state
    scores, series, played = before.scores, before.series, before.played
    play_cards(game, "KH 5C 6D")
    assert game.state.count == 21 and len(game.state.series) == 3
    assert (scores, series, played) == ((0, 0), (), ((), ()))
