"""How strong the computer players are: many games between two of them, luck cut by duplicates.

Each seed gives one sequence of shuffled decks (the game's random source only shuffles), and
every seed is played twice with the seats swapped, so each player gets the other's cards.
Prints the first player's win rate with a 95% confidence interval (over seed pairs, since the
two games of a pair are not independent), each side's average points per deal from pegging,
hands, crib and heels, and the decision times (median and p99) for discards and plays, both
as wall-clock time and as the CPU time of the deciding thread: on a shared machine the
wall-clock p99 includes moments the process was not running at all, which CPU time leaves out.

    nice -n 10 .venv/bin/python benchmarks/ai_strength.py hard greedy --games 2000
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a plain script from a checkout: make the project importable without installing it.
sys.path.insert(0, str(ROOT))

from engine.events import GoPoint, Heels, Played, Shown  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.phase import Phase  # noqa: E402
from engine.players import PLAYER_NAMES, make_player  # noqa: E402

SOURCES = ("pegging", "hand", "crib", "heels")


@dataclass
class Tally:
    """One player's totals over some games."""

    games: int = 0
    wins: int = 0
    deals: int = 0
    points: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SOURCES, 0))
    discard_times: list[float] = field(default_factory=list)
    play_times: list[float] = field(default_factory=list)
    discard_cpu: list[float] = field(default_factory=list)
    play_cpu: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.deals += other.deals
        for source in SOURCES:
            self.points[source] += other.points[source]
        self.discard_times.extend(other.discard_times)
        self.play_times.extend(other.play_times)
        self.discard_cpu.extend(other.discard_cpu)
        self.play_cpu.extend(other.play_cpu)


def play_game(names: tuple[str, str], seed: int, target: int) -> tuple[Tally, Tally]:
    """One 2-player game, seat i played by ``names[i]``; a tally per seat."""
    game, _ = Game.new(list(names), target=target, rng=random.Random(seed))
    players = [make_player(name) for name in names]
    # Each player has its own random source, so its choices never disturb the shuffles.
    rngs = [random.Random(f"{seed}:{seat}:{name}") for seat, name in enumerate(names)]
    tallies = (Tally(games=1), Tally(games=1))
    while game.phase is not Phase.OVER:
        if game.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            view = game.view(seat)
            started, cpu = time.perf_counter(), time.thread_time()
            cards = players[seat].choose_discard(view, rngs[seat])
            tallies[seat].discard_times.append(time.perf_counter() - started)
            tallies[seat].discard_cpu.append(time.thread_time() - cpu)
            events = game.discard(seat, cards)
        else:
            turn = game.turn
            assert turn is not None
            seat = turn
            view = game.view(seat)
            started, cpu = time.perf_counter(), time.thread_time()
            card = players[seat].choose_play(view, rngs[seat])
            tallies[seat].play_times.append(time.perf_counter() - started)
            tallies[seat].play_cpu.append(time.thread_time() - cpu)
            events = game.play(seat, card)
        for event in events:
            if isinstance(event, Played | GoPoint):
                tallies[event.side].points["pegging"] += event.points
            elif isinstance(event, Heels):
                tallies[event.side].points["heels"] += event.points
            elif isinstance(event, Shown):
                source = "crib" if event.crib else "hand"
                tallies[event.side].points[source] += event.score.total
    assert game.result is not None
    tallies[game.result.winner].wins = 1
    for tally in tallies:
        tally.deals = game.deal_number
    return tallies


def play_pair(job: tuple[str, str, int, int]) -> tuple[Tally, Tally]:
    """Both games of one seed: (first, second) then (second, first); tallies per player."""
    first, second, seed, target = job
    a0, b0 = play_game((first, second), seed, target)
    b1, a1 = play_game((second, first), seed, target)
    a0.add(a1)
    b0.add(b1)
    return a0, b0


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", choices=PLAYER_NAMES)
    parser.add_argument("second", choices=PLAYER_NAMES)
    parser.add_argument("--games", type=int, default=2000, help="games (rounded up to even)")
    parser.add_argument("--target", type=int, default=121, choices=(61, 121))
    parser.add_argument("--seed", type=int, default=1, help="first deck seed")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    pairs = (args.games + 1) // 2
    jobs = [(args.first, args.second, args.seed + i, args.target) for i in range(pairs)]
    started = time.perf_counter()
    totals = (Tally(), Tally())
    pair_scores: list[float] = []
    with multiprocessing.Pool(args.workers) as pool:
        for a, b in pool.imap_unordered(play_pair, jobs, chunksize=8):
            totals[0].add(a)
            totals[1].add(b)
            pair_scores.append(a.wins / 2)
    elapsed = time.perf_counter() - started
    games = totals[0].games
    rate = statistics.fmean(pair_scores)
    half = 1.96 * statistics.stdev(pair_scores) / math.sqrt(len(pair_scores)) if pairs > 1 else 0
    print(
        f"{args.first} vs {args.second}: {games} games ({pairs} duplicate deck seeds), "
        f"target {args.target}, {elapsed:.0f} s"
    )
    print(
        f"{args.first} wins {totals[0].wins}/{games} = {100 * rate:.2f}% "
        f"(95% CI {100 * max(0.0, rate - half):.2f}% .. {100 * min(1.0, rate + half):.2f}%)"
    )
    print(f"{'player':<10}" + "".join(f"{s:>9}" for s in SOURCES) + "   per deal")
    for name, tally in zip((args.first, args.second), totals, strict=True):
        per_deal = "".join(f"{tally.points[s] / tally.deals:>9.2f}" for s in SOURCES)
        print(f"{name:<10}{per_deal}")
    print("decision time in ms, median / p99:")
    for name, tally in zip((args.first, args.second), totals, strict=True):
        figures = [
            f"{label} {_ms(statistics.median(times))} / {_ms(_percentile(times, 0.99))}"
            for label, times in (
                ("discard wall", tally.discard_times),
                ("cpu", tally.discard_cpu),
                ("play wall", tally.play_times),
                ("cpu", tally.play_cpu),
            )
        ]
        print(f"{name:<10}" + ", ".join(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
