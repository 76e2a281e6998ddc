"""Tournament pairings and standings: the rules a pairing must keep, for any field."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    MatchResult,
    default_swiss_rounds,
    knockout_first_round,
    knockout_next_round,
    round_robin_round,
    round_robin_rounds,
    standings,
    swiss_round,
)


def _rematch_free_exists(players: list[int], played: set[frozenset[int]]) -> bool:
    """Whether ``players`` (an even number) can all be paired with no pair in ``played``."""
    if not players:
        return True
    top, rest = players[0], players[1:]
    for i, rival in enumerate(rest):
        if frozenset((top, rival)) not in played and _rematch_free_exists(
            rest[:i] + rest[i + 1 :], played
        ):
            return True
    return False


def _play_swiss(entrants: int, rounds: int, seed: int) -> list[list[MatchResult]]:
    """A whole Swiss event with random winners: each round's results."""
    rng = random.Random(seed)
    players = list(range(1, entrants + 1))
    history: list[list[MatchResult]] = []
    for _ in range(rounds):
        done = [r for round_ in history for r in round_]
        table = standings(players, done)
        played = {frozenset((r.a, r.b)) for r in done if r.b is not None}
        byes = {r.a for r in done if r.b is None}
        paired = swiss_round(
            [s.player for s in table],
            points={s.player: s.points for s in table},
            played=played,
            byes=byes,
        )
        this = [
            MatchResult(a, b, rng.choice((a, b)), rng.random() < 0.2, rng.randint(1, 60))
            for a, b in paired.pairs
        ]
        if paired.bye is not None:
            this.append(MatchResult(paired.bye, None, paired.bye))
        history.append(this)
    return history


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 14), st.integers(0, 10_000))
def test_swiss_everyone_plays_once_a_round_no_avoidable_rematch_fair_byes(
    entrants: int, seed: int
) -> None:
    rounds = min(default_swiss_rounds(entrants) + 1, entrants - 1)
    history = _play_swiss(entrants, rounds, seed)
    seen: set[frozenset[int]] = set()
    byes: list[int] = []
    for this in history:
        met = [p for r in this for p in (r.a, r.b) if p is not None]
        assert sorted(met) == list(range(1, entrants + 1))  # each exactly once
        pairs = [frozenset((r.a, r.b)) for r in this if r.b is not None]
        bye = [r.a for r in this if r.b is None]
        assert len(bye) == entrants % 2
        if bye:
            # Never a second bye while someone has had none.
            if bye[0] in byes:
                assert len(set(byes)) == entrants  # pragma: no cover - rounds < entrants
            byes += bye
        rest = [p for p in range(1, entrants + 1) if p not in bye]
        if _rematch_free_exists(rest, seen):
            assert not any(p in seen for p in pairs)
        seen.update(pairs)


def test_swiss_pairs_players_on_equal_points() -> None:
    paired = swiss_round(
        [1, 2, 3, 4, 5, 6], points={1: 4, 2: 4, 3: 2, 4: 2, 5: 0, 6: 0}, played=set(), byes=set()
    )
    assert paired.pairs == ((1, 2), (3, 4), (5, 6))


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    paired = swiss_round([1, 2, 3], points={1: 2, 2: 2, 3: 0}, played=set(), byes={3})
    assert paired.bye == 2


@given(st.integers(2, 16))
def test_round_robin_meets_everyone_exactly_once(entrants: int) -> None:
    players = list(range(entrants))
    met: list[frozenset[int]] = []
    for index in range(round_robin_rounds(entrants)):
        pairs = round_robin_round(players, index)
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == players
        met += [frozenset((a, b)) for a, b in pairs if b is not None]
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, combinations(players, 2))))


@given(st.integers(2, 40))
def test_knockout_top_seeds_meet_last_and_byes_go_to_the_top(entrants: int) -> None:
    seeds = list(range(1, entrants + 1))
    first = knockout_first_round(seeds)
    seated = sorted(p for pair in first for p in pair if p is not None)
    assert seated == seeds
    byes = sorted(a for a, b in first if b is None)
    assert byes == seeds[: len(byes)]
    # Better seeds always win: 1 and 2 reach the final.
    winners = [min(a, b) if b is not None else a for a, b in first]
    while len(winners) > 2:
        winners = [min(pair) for pair in knockout_next_round(winners)]
    assert sorted(winners) == [1, 2] or entrants == 2


def test_standings_order_points_then_wins_then_spread_then_head_to_head() -> None:
    results = [
        MatchResult(1, 2, 1, lurch=True, margin=70),  # 1: 3 points
        MatchResult(3, 4, 3, margin=5),  # 3: 2 points
        MatchResult(5, None, 5),  # bye: 2 points, no spread
        MatchResult(6, 7, None),  # both lost
    ]
    table = standings([1, 2, 3, 4, 5, 6, 7], results)
    assert [s.player for s in table][:3] == [1, 3, 5]
    assert table[0].points == 3 and table[2].byes == 1
    head = standings([1, 2], [MatchResult(2, 1, 2, margin=4), MatchResult(1, 2, 1, margin=4)])
    assert {s.points for s in head} == {2}


def test_head_to_head_breaks_a_tie_of_two() -> None:
    results = [
        MatchResult(1, 2, 2, margin=10),
        MatchResult(1, 3, 1, margin=10),
        MatchResult(2, 3, 3, margin=10),
    ]
    # All on 2 points, 1 win, spread 0: a circle, so the seeding decides.
    assert [s.player for s in standings([1, 2, 3], results)] == [1, 2, 3]
    # 1 and 2 level on points, wins and spread, 2 beat 1: 2 first.
    four = [
        MatchResult(1, 3, 1, margin=10),
        MatchResult(2, 1, 2, margin=10),
        MatchResult(4, 2, 4, margin=10),
        MatchResult(3, 4, 3, margin=30),
    ]
    assert [s.player for s in standings([1, 2, 3, 4], four)] == [3, 2, 1, 4]
