"""Property tests: thousands of random complete games under random legal play.

Hypothesis chooses the table (2, 3 or 4 players; 121 or 61), the seed of the deal shuffles and
the seed of every decision (which card to throw or play, and now and then a resignation). At every
step the checks below hold; at the end the action log replays to the same game, event for event.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card, full_deck
from engine.errors import RuleError
from engine.events import Event, GameOver, GoPoint, Heels, Played, Shown
from engine.game import Game, Phase
from tests.helpers.rigging import NAMES

FULL_DECK_CODES = {card.code for card in full_deck()}
#: A table: how many players, and the target.
Table = tuple[int, int]
TABLES = st.sampled_from([(2, 121), (3, 121), (4, 121), (2, 61), (3, 61), (4, 61)])
SEEDS = st.integers(0, 2**32 - 1)
#: Random games: a table (players, target), the deal's seed and the choices' seed.
random_games = given(table=TABLES, seed=SEEDS, choices=SEEDS)
#: A whole game is one example: slower than Hypothesis expects, and that is fine.
WHOLE_GAMES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_cards(game: Game) -> None:
    """All 52 cards are in exactly one place: deck, crib, a hand, played, or the starter."""
    data = game.card_places()
    places = [data["deck"], data["crib"], *data["hands"], *data["played"]]
    codes = [code for place in places for code in place]
    if data["starter"] is not None:
        codes.append(data["starter"])
    assert len(codes) == 52 and set(codes) == FULL_DECK_CODES
    for seat in range(game.state.num_players):
        kept = set(data["kept"][seat])
        if kept:
            assert kept == set(data["hands"][seat]) | set(data["played"][seat])
        assert set(data["discards"][seat]) <= set(data["crib"])


def check_play_state(game: Game) -> None:
    assert 0 <= game.state.count <= 31
    assert game.state.count == sum(card.value for card in game.state.series)
    if game.state.phase is Phase.PLAY:
        # A seat that cannot play is passed automatically, so whoever is to play can.
        assert game.state.turn is not None and game.playable_cards(game.state.turn)
    else:
        assert game.state.turn is None


def points_by_side(game: Game, events: list[Event]) -> Counter[int]:
    gained: Counter[int] = Counter()
    for e in events:
        if isinstance(e, (Played, GoPoint, Heels)):
            gained[e.side] += e.points
        elif isinstance(e, Shown):
            gained[e.side] += e.score.total
    return gained


def check_scores(game: Game, before: tuple[int, ...], events: list[Event]) -> None:
    after = game.state.scores
    gained = points_by_side(game, events)
    for side in range(game.state.rules.num_sides):
        assert after[side] >= before[side]
        assert after[side] - before[side] == gained[side]
    over = [e for e in events if isinstance(e, GameOver)]
    if game.state.phase is Phase.OVER:
        assert len(over) == 1 and events[-1] is over[0]
        result = over[0].result
        assert game.state.result == result and result.scores == after
        if result.reason == "target":
            # Ended the moment a side reached the target: the last scoring event did it.
            assert after[result.winner] >= game.state.rules.target
            assert before[result.winner] < game.state.rules.target
            last_score = [e for e in events if isinstance(e, (Played, GoPoint, Heels, Shown))][-1]
            assert last_score.side == result.winner
    else:
        assert not over and max(after) < game.state.rules.target


def near_miss_seat(game: Game, chooser: random.Random) -> int:
    """Mostly a real seat (often the one to play), sometimes one that is not at the table."""
    roll = chooser.random()
    if roll < 0.15:
        return chooser.choice([-1, game.state.num_players, 7])
    if roll < 0.5 and game.state.turn is not None:
        return game.state.turn
    return chooser.randrange(game.state.num_players)


def near_miss_cards(game: Game, seat: int, chooser: random.Random, size: int) -> list[Card]:
    """Mostly cards the seat holds, sometimes any card; now and then one named twice."""
    held = list(game.hand(seat)) if 0 <= seat < game.state.num_players else []
    pool = held if held and chooser.random() < 0.6 else full_deck()
    cards = chooser.sample(pool, min(size, len(pool)))
    if cards and chooser.random() < 0.1:
        cards.append(cards[0])
    return cards


def random_illegal_action(game: Game, chooser: random.Random) -> None:
    """Try a random action; if the rules refuse it, the state must be exactly as before."""
    before = game.to_json()
    seat = near_miss_seat(game, chooser)
    kind = chooser.choice(["play", "play", "discard", "resign"])
    if kind == "play":
        [card] = near_miss_cards(game, seat, chooser, 1)[:1] or [chooser.choice(full_deck())]
        try:
            game.verify_play(seat, card)
        except RuleError as refused:
            with pytest.raises(type(refused), match=re.escape(str(refused))):
                game.play(seat, card)
    elif kind == "discard":
        cards = near_miss_cards(game, seat, chooser, chooser.randrange(0, 4))
        try:
            game.verify_discard(seat, cards)
        except RuleError as refused:
            with pytest.raises(type(refused), match=re.escape(str(refused))):
                game.discard(seat, cards)
    elif game.state.phase is Phase.OVER or not 0 <= seat < game.state.num_players:
        with pytest.raises(RuleError):
            game.resign(seat)
    assert game.to_json() == before


def legal_action(game: Game, chooser: random.Random) -> list[Event]:
    if game.state.phase is Phase.DISCARD:
        seat = chooser.choice(game.pending_discards())
        return game.discard(seat, chooser.sample(game.hand(seat), game.state.rules.others.to_crib))
    assert game.state.turn is not None
    return game.play(game.state.turn, chooser.choice(game.playable_cards(game.state.turn)))


def run_game(table: Table, seed: int, chooser: random.Random, *, deep: bool) -> None:
    n, target = table
    game, first = Game.new(NAMES[:n], target=target, rng=random.Random(seed))
    history = [first]
    check_cards(game)
    while game.state.phase is not Phase.OVER:
        before = game.state.scores
        if deep:
            random_illegal_action(game, chooser)
            text = game.to_json()
            assert Game.from_json(text, rng=random.Random(0)).to_json() == text
        if chooser.random() < 0.002:
            events = game.resign(chooser.randrange(n))
        else:
            events = legal_action(game, chooser)
        history.append(events)
        check_cards(game)
        check_play_state(game)
        check_scores(game, before, events)
    if deep:
        random_illegal_action(game, chooser)
    # Replaying the log from the same seed gives the same game, event for event.
    again, again_first = Game.new(NAMES[:n], target=target, rng=random.Random(seed))
    replayed = [again_first] + [again.apply(action) for action in game.actions]
    assert replayed == history
    assert again.to_json() == game.to_json()
    text = game.to_json()
    assert Game.from_json(text, rng=random.Random(0)).to_json() == text


# The suite's runs are sized to keep it within its time on CI; -m exhaustive plays 20,000
# games with every check.
@settings(WHOLE_GAMES, max_examples=50)
@random_games
def test_random_games_checked_at_every_step(table: Table, seed: int, choices: int) -> None:
    """Every step: cards, count, scores, ending, JSON round trip, a refused random action."""
    run_game(table, seed, random.Random(choices), deep=True)


@settings(WHOLE_GAMES, max_examples=1000)
@random_games
def test_many_random_games_keep_the_invariants(table: Table, seed: int, choices: int) -> None:
    """Many more games with the cheaper checks: cards, count, scores, ending, replay."""
    run_game(table, seed, random.Random(choices), deep=False)


@pytest.mark.exhaustive
@settings(WHOLE_GAMES, max_examples=20_000)
@random_games
def test_exhaustive_random_games_checked_at_every_step(
    table: Table, seed: int, choices: int
) -> None:
    """The long run of the step-by-step checks (pytest -m exhaustive)."""
    run_game(table, seed, random.Random(choices), deep=True)
