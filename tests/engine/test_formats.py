"""Tournament formats as strategies (engine.formats): each format's rules, and the registry
that finds them by the name a tournament stores."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import formats
from engine.errors import RuleError
from engine.formats import Match, Pairs, Progress, TournamentFormat
from engine.formats.knockout import Knockout
from engine.formats.round_robin import RoundRobin
from engine.formats.swiss import Swiss

SWISS, ROUND_ROBIN, KNOCKOUT = Swiss(), RoundRobin(), Knockout()


def _won(
    pairs: Pairs, winners: dict[int, int] | None = None, margin: int = 10
) -> tuple[Match, ...]:
    """A round's tables, decided: a bye for its player, else ``winners[a]`` (default ``a``)."""
    tables = []
    for a, b in pairs:
        if b is None:
            tables.append(Match(a, None, decided=True, winner=a))
        else:
            winner = (winners or {}).get(a, a)
            tables.append(Match(a, b, decided=True, winner=winner, margin=margin))
    return tuple(tables)


def _play(
    kind: TournamentFormat,
    entrants: int,
    seed: int,
    *,
    playoff: int = 0,
    withdraw: float = 0.0,
) -> tuple[Progress, list[tuple[Pairs, frozenset[int]]]]:
    """A whole event of ``kind`` with random results (a loss for both now and then, a
    withdrawal now and then): the progress at its end, and each round's pairs with who had
    withdrawn when it was paired."""
    rng = random.Random(seed)
    seeds = tuple(range(1, entrants + 1))
    progress = Progress(seeds, planned=kind.rounds(entrants, playoff=playoff), playoff=playoff)
    rounds: list[tuple[Pairs, frozenset[int]]] = []
    while not kind.is_over(progress):
        pairs = kind.pair(progress)
        if not pairs:
            break
        rounds.append((pairs, progress.withdrawn))
        tables = []
        for a, b in pairs:
            winner = a if b is None else rng.choice((a, b, a, b, None))
            tables.append(Match(a, b, True, winner, rng.random() < 0.2, rng.randint(0, 40)))
        withdrawn = set(progress.withdrawn)
        if rng.random() < withdraw and len(progress.active) > 4:
            withdrawn.add(rng.choice(progress.active))
        progress = Progress(
            seeds,
            frozenset(withdrawn),
            (*progress.played, tuple(tables)),
            progress.planned,
            playoff,
        )
    return progress, rounds


# -- the registry ---------------------------------------------------------------------------------


def test_every_stored_format_name_finds_its_strategy_in_the_listed_order() -> None:
    assert [f.name for f in formats.listed()] == ["swiss", "round_robin", "knockout"]
    for kind in formats.listed():
        assert formats.named(kind.name) is kind
        assert TournamentFormat.from_name(kind.name) is kind
    assert formats.find("ladder") is None


def test_an_unknown_format_is_a_rule_error_that_names_the_formats() -> None:
    with pytest.raises(RuleError) as refused:
        formats.named("ladder")
    assert str(refused.value) == (
        "There is no 'ladder' format: choose swiss, round_robin or knockout."
    )


def test_a_second_format_under_a_taken_name_is_refused() -> None:
    class Impostor(Swiss):
        pass

    with pytest.raises(ValueError, match="swiss"):
        formats.register(Impostor)
    assert type(formats.named("swiss")) is Swiss


# -- Swiss ----------------------------------------------------------------------------------------


def test_swiss_plays_enough_rounds_for_one_unbeaten_player_or_those_asked_then_the_playoff() -> (
    None
):
    assert [SWISS.rounds(n) for n in (3, 7, 8, 16, 3000)] == [2, 3, 3, 4, 9]
    assert SWISS.rounds(5, asked=9) == 4  # never more than there are opponents
    assert SWISS.rounds(12, asked=3, playoff=4) == 5
    assert SWISS.rounds(12, asked=3, playoff=8) == 6


def test_swiss_pairs_players_on_equal_points_never_a_withdrawn_one() -> None:
    first = SWISS.pair(Progress((1, 2, 3, 4, 5, 6), planned=3))
    assert first == ((1, 2), (3, 4), (5, 6))
    after = Progress((1, 2, 3, 4, 5, 6), frozenset({5}), (_won(first),), planned=3)
    second = SWISS.pair(after)
    # The winners 1 and 3 meet; 5 (a winner) withdrew, so 6 has the bye, 2 and 4 meet.
    assert second == ((1, 3), (2, 4), (6, None))


def test_swiss_gives_a_second_bye_only_when_everyone_has_had_one() -> None:
    progress, rounds = _play(SWISS, 5, seed=3)
    byes = [next(a for a, b in pairs if b is None) for pairs, _ in rounds]
    assert len(byes) == len(set(byes)) == progress.planned


def test_swiss_top_four_still_in_go_on_to_a_playoff_seeded_by_their_standing() -> None:
    seeds = tuple(range(1, 9))
    planned = SWISS.rounds(8, asked=2, playoff=4)
    assert planned == 4
    one = SWISS.pair(Progress(seeds, planned=planned, playoff=4))
    assert one == ((1, 2), (3, 4), (5, 6), (7, 8))
    two = SWISS.pair(Progress(seeds, played=(_won(one),), planned=planned, playoff=4))
    assert two == ((1, 3), (5, 7), (2, 4), (6, 8))
    margins = {1: 40, 5: 30, 2: 20, 6: 10}
    played = (_won(one), tuple(Match(a, b, True, a, margin=margins[a]) for a, b in two))
    # The table: 1, 5 (two wins), then 2 (+10), 6 (0), 7 (-20), 3 (-30); 5 withdrew.
    progress = Progress(seeds, frozenset({5}), played, planned, playoff=4)
    assert [s.player for s in SWISS.standings(progress)][:6] == [1, 5, 2, 6, 7, 3]
    assert SWISS.pair(progress) == ((1, 7), (2, 6))


def test_swiss_champion_is_the_top_of_the_table_or_the_playoff_finals_winner() -> None:
    no_playoff, _ = _play(SWISS, 9, seed=11)
    assert SWISS.champion(no_playoff) == SWISS.standings(no_playoff)[0].player
    with_playoff, rounds = _play(SWISS, 9, seed=11, playoff=4)
    final = with_playoff.last
    assert len(rounds[-1][0]) == 1 and len(final) == 1
    if final[0].winner is not None:
        assert SWISS.champion(with_playoff) == final[0].winner
    else:
        assert SWISS.champion(with_playoff) == SWISS.standings(with_playoff)[0].player


# -- round robin ----------------------------------------------------------------------------------


@given(st.integers(3, 12))
def test_round_robin_plays_a_round_per_opponent_and_every_pair_meets_once(entrants: int) -> None:
    progress, rounds = _play(ROUND_ROBIN, entrants, seed=entrants)
    assert len(rounds) == ROUND_ROBIN.rounds(entrants) == entrants - 1 + entrants % 2
    met = Counter(frozenset(pair) for pairs, _ in rounds for pair in pairs if pair[1] is not None)
    assert set(met) == {frozenset(p) for p in combinations(progress.seeds, 2)}
    assert set(met.values()) == {1}
    assert ROUND_ROBIN.champion(progress) == ROUND_ROBIN.standings(progress)[0].player


def test_round_robin_a_withdrawn_players_opponent_has_a_bye() -> None:
    seeds = (1, 2, 3, 4)
    first = ROUND_ROBIN.pair(Progress(seeds, planned=3))
    assert first == ((1, 4), (2, 3))
    second = ROUND_ROBIN.pair(Progress(seeds, frozenset({3}), (_won(first),), planned=3))
    assert second == ((1, None), (4, 2))


# -- knockout -------------------------------------------------------------------------------------


def test_knockout_plays_until_one_is_left() -> None:
    assert [KNOCKOUT.rounds(n) for n in (2, 3, 4, 5, 8, 9)] == [1, 2, 2, 3, 3, 4]


def test_knockout_winners_meet_in_bracket_order_and_the_finals_winner_is_champion() -> None:
    seeds = tuple(range(1, 7))
    one = KNOCKOUT.pair(Progress(seeds, planned=3))
    assert one == ((1, None), (4, 5), (2, None), (3, 6))
    upset = _won(one, {4: 5, 3: 6})
    two = KNOCKOUT.pair(Progress(seeds, played=(upset,), planned=3))
    assert two == ((1, 5), (2, 6))
    final = KNOCKOUT.pair(Progress(seeds, played=(upset, _won(two, {2: 6})), planned=3))
    assert final == ((1, 6),)
    over = Progress(seeds, played=(upset, _won(two, {2: 6}), _won(final, {1: 6})), planned=3)
    assert KNOCKOUT.is_over(over)
    assert KNOCKOUT.champion(over) == 6


def test_knockout_a_withdrawn_winner_gives_the_next_winner_a_bye() -> None:
    seeds = (1, 2, 3, 4, 5, 6, 7, 8)
    one = KNOCKOUT.pair(Progress(seeds, planned=3))
    progress = Progress(seeds, frozenset({4}), (_won(one),), planned=3)
    # Winners in bracket order 1, 4, 2, 3; 4 withdrew: 1 meets 2, 3 has a bye.
    assert KNOCKOUT.pair(progress) == ((1, 2), (3, None))


def test_knockout_a_match_both_lost_sends_its_first_player_on() -> None:
    seeds = (1, 2, 3, 4)
    both_lost = (Match(1, 4, decided=True), Match(2, 3, decided=True, winner=3))
    assert KNOCKOUT.pair(Progress(seeds, played=(both_lost,), planned=2)) == ((1, 3),)


# -- every format ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["swiss", "round_robin", "knockout"]), st.integers(3, 14), st.integers())
def test_every_format_seats_each_player_still_in_at_most_once_a_round_until_it_is_over(
    name: str, entrants: int, seed: int
) -> None:
    kind = formats.named(name)
    progress, rounds = _play(kind, entrants, seed, withdraw=0.3)
    assert 0 < len(rounds) <= progress.planned
    for pairs, withdrawn in rounds:
        seated = [p for pair in pairs for p in pair if p is not None]
        assert len(seated) == len(set(seated))
        assert set(seated) <= set(progress.seeds) - withdrawn
    first = {p for pair in rounds[0][0] for p in pair if p is not None}
    assert first == set(progress.seeds), "everyone plays the first round"
    assert kind.champion(progress) in progress.seeds
