"""How strong the computer players are: many games between two of them, luck cut by duplicates.

Each seed gives one sequence of shuffled decks (the game's random source only shuffles), and
every seed is played once per seating so that each player gets every seat's cards:

* 2 players: twice, seats swapped;
* 3 players (``--players 3``): the first player against two seats of the second, three
  times, the first player in each seat in turn (its fair share is a third);
* 4 players (``--players 4``, partners): the first player's partnership in seats 0 and 2,
  then in seats 1 and 3.

Prints the first player's win rate with a 95% confidence interval (over seeds, since the games
of one seed are not independent), each side's average points per deal by source (pegging as
dealer and as pone, each per deal in that role; hand, crib and heels per deal), and the
decision times (median and p99) for discards and plays, both as wall-clock time and as the
CPU time of the deciding thread: on a shared machine the wall-clock p99 includes moments the
process was not running at all, which CPU time leaves out. ``--workers 1`` (the default)
keeps to one core, which is what the decision times are quoted for.

    nice -n 10 .venv/bin/python -m benchmarks.ai_strength hard greedy --games 2000
    .venv/bin/python -m benchmarks.ai_strength expert club --players 4 --games 1000
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from functools import partial

from benchmarks.timing import DecisionTimes, median_p99_ms
from engine.events import GoPoint, Heels, Played, Shown
from engine.game import Game
from engine.phase import Phase
from engine.players import PLAYER_NAMES, make_player
from engine.rules import Rules

#: Where points come from; pegging is split by the side's role in the deal.
SOURCES = ("peg dealer", "peg pone", "hand", "crib", "heels")


@dataclass
class Tally:
    """One player's totals over some games, over every side it played (``sides`` counts
    side-games: two for the second player of a 3-player game, which holds two seats)."""

    games: int = 0
    wins: int = 0
    sides: int = 0
    deals: int = 0
    dealer_deals: int = 0
    points: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    times: DecisionTimes = field(default_factory=DecisionTimes)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.sides += other.sides
        self.deals += other.deals
        self.dealer_deals += other.dealer_deals
        for source in SOURCES:
            self.points[source] += other.points[source]
        self.times.add(other.times)

    def per_deal(self, source: str) -> float:
        """Average points per deal (per side) from ``source``; pegging per deal in its role."""
        if source == "peg dealer":
            deals = self.dealer_deals
        elif source == "peg pone":
            deals = self.deals - self.dealer_deals
        else:
            deals = self.deals
        return self.points[source] / deals if deals else 0.0


def seatings(first: str, second: str, players: int) -> list[tuple[str, ...]]:
    """The seatings each seed is played in (see the module), as the name in each seat: with
    two sides, the first player on each side in turn (partners: every seat of the side);
    with more, the first player in each seat in turn against the second in all the others."""
    rules = Rules.standard(players)
    seats = range(rules.seats)
    if rules.num_sides == 2:
        return [
            tuple(first if rules.side_of(seat) == side else second for seat in seats)
            for side in range(2)
        ]
    return [tuple(first if seat == k else second for seat in seats) for k in seats]


def play_game(names: tuple[str, ...], seed: int, target: int) -> dict[str, Tally]:
    """One game, seat i played by ``names[i]``; a tally per name."""
    game, _ = Game.new(list(names), target=target, rng=random.Random(seed))
    players = [make_player(name) for name in names]
    # Each player has its own random source, so its choices never disturb the shuffles.
    rngs = [random.Random(f"{seed}:{seat}:{name}") for seat, name in enumerate(names)]
    side_names = [names[seat] for seat in range(game.state.rules.num_sides)]
    tallies = {name: Tally() for name in names}
    side_tallies = [Tally() for _ in range(game.state.rules.num_sides)]
    dealt = 0
    while game.state.phase is not Phase.OVER:
        if game.state.deal_number != dealt:
            dealt = game.state.deal_number
            for side, tally in enumerate(side_tallies):
                tally.deals += 1
                tally.dealer_deals += side == game.side_of(game.state.dealer)
        dealer_side = game.side_of(game.state.dealer)
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            tally = tallies[names[seat]]
            thrown = partial(players[seat].choose_discard, game.view(seat), rngs[seat])
            events = game.discard(seat, tally.times.discard(thrown))
        else:
            turn = game.state.turn
            assert turn is not None
            seat = turn
            tally = tallies[names[seat]]
            played = partial(players[seat].choose_play, game.view(seat), rngs[seat])
            events = game.play(seat, tally.times.play(played))
        for event in events:
            if isinstance(event, Played | GoPoint):
                role = "peg dealer" if event.side == dealer_side else "peg pone"
                side_tallies[event.side].points[role] += event.points
            elif isinstance(event, Heels):
                side_tallies[event.side].points["heels"] += event.points
            elif isinstance(event, Shown):
                source = "crib" if event.crib else "hand"
                side_tallies[event.side].points[source] += event.score.total
    assert game.state.result is not None
    for side, tally in enumerate(side_tallies):
        tally.sides = 1
        tally.wins = int(side == game.state.result.winner)
        tallies[side_names[side]].add(tally)
    for tally in tallies.values():
        # One game for each player, won when any of its sides won.
        tally.games, tally.wins = 1, min(tally.wins, 1)
    return tallies


def play_seed(job: tuple[str, str, int, int, int]) -> dict[str, Tally]:
    """Every seating of one seed (see :func:`seatings`); tallies per name."""
    first, second, players, seed, target = job
    totals = {first: Tally(), second: Tally()}
    for names in seatings(first, second, players):
        for name, tally in play_game(names, seed, target).items():
            totals[name].add(tally)
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", choices=PLAYER_NAMES)
    parser.add_argument("second", choices=PLAYER_NAMES)
    parser.add_argument("--games", type=int, default=2000, help="games (rounded up to a seed's)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--target", type=int, default=121, choices=(61, 121))
    parser.add_argument("--seed", type=int, default=1, help="first deck seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (1: one core)")
    args = parser.parse_args()
    if args.first == args.second:
        parser.error("name two different players")
    per_seed = len(seatings(args.first, args.second, args.players))
    seeds = -(-args.games // per_seed)
    jobs = [
        (args.first, args.second, args.players, args.seed + i, args.target) for i in range(seeds)
    ]
    started = time.perf_counter()
    totals = {args.first: Tally(), args.second: Tally()}
    seed_scores: list[float] = []
    with multiprocessing.Pool(args.workers) as pool:
        for result in pool.imap_unordered(play_seed, jobs, chunksize=8):
            for name, tally in result.items():
                totals[name].add(tally)
            seed_scores.append(result[args.first].wins / per_seed)
    elapsed = time.perf_counter() - started
    first = totals[args.first]
    games = first.games
    rate = statistics.fmean(seed_scores)
    half = 1.96 * statistics.stdev(seed_scores) / math.sqrt(len(seed_scores)) if seeds > 1 else 0
    table = {2: "2 players", 3: "3 players, one against two", 4: "4 players, partners"}
    print(
        f"{args.first} vs {args.second}: {games} games ({seeds} duplicate deck seeds, "
        f"{table[args.players]}), target {args.target}, {elapsed:.0f} s, "
        f"{args.workers} worker{'s' if args.workers > 1 else ''}"
    )
    fair = " (fair share 33.33%)" if args.players == 3 else ""
    print(
        f"{args.first} wins {first.wins}/{games} = {100 * rate:.2f}% "
        f"(95% CI {100 * max(0.0, rate - half):.2f}% .. {100 * min(1.0, rate + half):.2f}%){fair}"
    )
    print("points per deal (per side; pegging per deal as dealer / as pone):")
    print(f"{'player':<10}" + "".join(f"{s:>11}" for s in SOURCES) + "      total")
    for name, tally in totals.items():
        per_deal = "".join(f"{tally.per_deal(s):>11.2f}" for s in SOURCES)
        total = sum(tally.points.values()) / tally.deals
        print(f"{name:<10}{per_deal}{total:>11.2f}")
    print("decision time in ms, median / p99:")
    for name, tally in totals.items():
        figures = [
            f"{label} {median_p99_ms(times)}"
            for label, times in (
                ("discard wall", tally.times.discard_wall),
                ("cpu", tally.times.discard_cpu),
                ("play wall", tally.times.play_wall),
                ("cpu", tally.times.play_cpu),
            )
        ]
        print(f"{name:<10}" + ", ".join(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
