"""Every variant at every computer level: how fast it scores and decides, and how strong it is.

    nice -n 10 .venv/bin/python -m benchmarks.variants --workers 2 --budget 3600
    .venv/bin/python -m benchmarks.variants --variants five_card --levels hard --budget 60

For each variant (:mod:`engine.variants`; the standard game with two players, the others with
the players they seat) it prints:

* the time to score a hand: ``hand_total`` (the fast total the computer players use) and
  ``score_hand`` (item by item, as the show is told) on random hands of the variant's size
  with a starter, and on random cribs, median and p99 in microseconds;
* for each level, its strength against the greedy baseline (``engine.players.greedy``: the
  best hand for the show, the most points now in the play), with duplicate deals: each seed
  is one sequence of decks, played once for every seat the computer can take, the greedy
  player in every other seat (two players: twice, seats swapped; five-hand: the computer in
  each of the five seats in turn among four greedy players; six-hand: in each of the six,
  its partners greedy too). **A win** is a game the computer's side wins: the computer
  alone in five-hand, its team (with greedy partners) in six-hand. Its fair share is one
  side's: 50% with two sides, 33.3% with three (six-hand in pairs), 20% with five. The
  rate is the mean over seeds of each seed's share of wins, with a 95% interval over seeds
  (the games of one seed are not independent), as ``benchmarks/ai_strength.py`` does;
* the computer's decision times in those games (its seat only): discard and play, median
  and p99, wall clock and CPU time of the deciding thread, in milliseconds.

Seeds are played in batches until the interval is within ``--half-width`` points (2 by
default) or the level's share of ``--budget`` seconds is spent (each configuration gets what
is left of the budget divided by the configurations left, so time the quick ones save goes
to the slow ones); a configuration stopped by the budget is marked ``(budget)`` with the
interval it reached. It ends with the summary as Markdown tables.
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

from benchmarks.timing import DecisionTimes, median_p99_ms, percentile
from engine.cards import full_deck
from engine.game import Game
from engine.phase import Phase
from engine.players import LEVELS, make_player
from engine.rules import Rules
from engine.scoring import hand_total, score_hand
from engine.variants import listed, named

#: The player every level is measured against.
BASELINE = "greedy"
#: Seeds played between two looks at the interval, per worker.
BATCH = 4
#: Seeds played before the interval is trusted to stop a configuration.
MIN_SEEDS = 24


def variant_rules(name: str) -> Rules:
    """The rules a variant is measured by: the standard game with two players, any other
    with the players it seats; its default target, by the lurch, counted automatically."""
    return named(name).rules()


# ---------------------------------------------------------------------- scoring a hand


def scoring_times(rules: Rules, hands: int, seed: int = 1) -> dict[str, tuple[float, float]]:
    """Median and p99, in microseconds, of ``hand_total`` and ``score_hand`` on ``hands``
    random hands (and cribs) with a starter."""
    rng = random.Random(seed)
    deck = full_deck()
    figures: dict[str, tuple[float, float]] = {}
    for crib in (False, True):
        size = rules.show_size(crib=crib)
        samples = []
        for _ in range(hands):
            cards = rng.sample(deck, size + 1)
            samples.append((cards[:-1], cards[-1]))
        # One pass to build the rank tables the scorer keeps, then the timed ones.
        for hand, starter in samples[:200]:
            hand_total(hand, starter, crib=crib, rules=rules)
            score_hand(hand, starter, crib=crib, rules=rules)
        for label, score in (("hand_total", hand_total), ("score_hand", score_hand)):
            times = []
            for hand, starter in samples:
                started = time.perf_counter_ns()
                score(hand, starter, crib=crib, rules=rules)
                times.append((time.perf_counter_ns() - started) / 1000)
            key = f"{label} {'crib' if crib else 'hand'}"
            figures[key] = (statistics.median(times), percentile(times, 0.99))
    return figures


# ---------------------------------------------------------------------- strength


@dataclass
class Tally:
    """The computer's games of some seeds: wins, and its decision times in seconds."""

    seeds: int = 0
    games: int = 0
    wins: int = 0
    seed_scores: list[float] = field(default_factory=list)
    times: DecisionTimes = field(default_factory=DecisionTimes)

    def add(self, other: Tally) -> None:
        self.seeds += other.seeds
        self.games += other.games
        self.wins += other.wins
        self.seed_scores.extend(other.seed_scores)
        self.times.add(other.times)

    @property
    def rate(self) -> float:
        return statistics.fmean(self.seed_scores) if self.seed_scores else 0.0

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the win rate, over seeds (infinite below two seeds)."""
        if len(self.seed_scores) < 2:
            return math.inf
        return 1.96 * statistics.stdev(self.seed_scores) / math.sqrt(len(self.seed_scores))


def play_game(rules: Rules, level: str, seat: int, seed: int, tally: Tally | None) -> bool:
    """One game by ``rules`` from deck seed ``seed``, ``level`` in ``seat`` and the baseline
    everywhere else; whether the computer's side won. Its decisions are timed into
    ``tally`` (None: not timed)."""
    names = [level if s == seat else BASELINE for s in range(rules.seats)]
    game, _ = Game.new(names, rng=random.Random(seed), rules=rules)
    players = [make_player(name) for name in names]
    # Each seat has its own random source, so no choice disturbs the shuffles.
    rngs = [random.Random(f"{seed}:{s}:{name}") for s, name in enumerate(names)]
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            s = game.pending_discards()[0]
            thrown = partial(players[s].choose_discard, game.view(s), rngs[s])
            if s == seat and tally is not None:
                game.discard(s, tally.times.discard(thrown))
            else:
                game.discard(s, thrown())
            continue
        turn = game.state.turn
        assert turn is not None
        played = partial(players[turn].choose_play, game.view(turn), rngs[turn])
        if turn == seat and tally is not None:
            game.play(turn, tally.times.play(played))
        else:
            game.play(turn, played())
    assert game.state.result is not None
    return game.state.result.winner == rules.side_of(seat)


#: The configurations this worker process has played a game of before timing any.
_warm: set[tuple[str, str]] = set()


def play_seed(job: tuple[str, str, int]) -> Tally:
    """Every seating of one seed: the computer in each seat in turn."""
    variant, level, seed = job
    rules = variant_rules(variant)
    if (variant, level) not in _warm:
        # The tables a player builds on first use (the show's rank tables for the hand
        # size, the play's caches) are built here, before any decision is timed.
        play_game(rules, level, 0, -seed - 1, None)
        _warm.add((variant, level))
    tally = Tally(seeds=1)
    wins = 0
    for seat in range(rules.seats):
        wins += play_game(rules, level, seat, seed, tally)
    tally.games, tally.wins = rules.seats, wins
    tally.seed_scores.append(wins / rules.seats)
    return tally


def measure(
    pool: multiprocessing.pool.Pool | None,
    variant: str,
    level: str,
    *,
    first_seed: int,
    half_width: float,
    budget: float,
    workers: int,
    max_seeds: int,
) -> tuple[Tally, float, bool]:
    """Seeds in batches until the interval is narrow enough, the budget is spent or
    ``max_seeds`` are played; the tally, the seconds taken and whether the budget stopped it."""
    started = time.perf_counter()
    tally = Tally()
    seed = first_seed
    while True:
        batch = min(BATCH * workers, max_seeds - tally.seeds)
        if batch <= 0:
            return tally, time.perf_counter() - started, False
        jobs = [(variant, level, seed + i) for i in range(batch)]
        seed += batch
        results = pool.map(play_seed, jobs) if pool is not None else map(play_seed, jobs)
        for result in results:
            tally.add(result)
        elapsed = time.perf_counter() - started
        if tally.seeds >= MIN_SEEDS and 100 * tally.half_width <= half_width:
            return tally, elapsed, False
        if elapsed >= budget:
            return tally, elapsed, True


def main() -> int:
    names = [variant.name for variant in listed()]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=names, choices=names)
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS))
    parser.add_argument("--half-width", type=float, default=2.0, help="points of win rate")
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds in all")
    parser.add_argument("--max-seeds", type=int, default=100_000, help="per configuration")
    parser.add_argument("--hands", type=int, default=20_000, help="hands scored per variant")
    parser.add_argument("--seed", type=int, default=1, help="first deck seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (1: one core)")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"# benchmarks/variants.py, {args.workers} worker(s), budget {args.budget:.0f} s")
    print("\n## Scoring a hand (microseconds, median / p99)\n")
    print("| variant | hand_total hand | score_hand hand | hand_total crib | score_hand crib |")
    print("| --- | --- | --- | --- | --- |")
    for variant in args.variants:
        figures = scoring_times(variant_rules(variant), args.hands)
        cells = [
            f"{figures[key][0]:.2f} / {figures[key][1]:.2f}"
            for key in ("hand_total hand", "score_hand hand", "hand_total crib", "score_hand crib")
        ]
        print(f"| {variant} | " + " | ".join(cells) + " |", flush=True)
    configs = [(variant, level) for variant in args.variants for level in args.levels]
    summary = []
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    try:
        for done, (variant, level) in enumerate(configs):
            left = args.budget - (time.perf_counter() - started)
            share = max(left, 0.0) / (len(configs) - done)
            tally, elapsed, stopped = measure(
                pool,
                variant,
                level,
                first_seed=args.seed,
                half_width=args.half_width,
                budget=share,
                workers=args.workers,
                max_seeds=args.max_seeds,
            )
            rules = variant_rules(variant)
            times = tally.times
            fair = 100 / rules.num_sides
            rate, half = 100 * tally.rate, 100 * tally.half_width
            mark = " (budget)" if stopped else ""
            print(
                f"\n{variant} ({rules.seats} players), {level} vs {BASELINE}: {tally.games} "
                f"games ({tally.seeds} seeds x {rules.seats} seatings), target {rules.target}, "
                f"{elapsed:.0f} s{mark}\n"
                f"  {level} side wins {tally.wins}/{tally.games}: {rate:.2f}% "
                f"(95% CI {rate - half:.2f}% .. {rate + half:.2f}%, +/-{half:.2f}), "
                f"fair share {fair:.1f}%\n"
                f"  decision ms median / p99: "
                f"discard wall {median_p99_ms(times.discard_wall)}, "
                f"cpu {median_p99_ms(times.discard_cpu)}; "
                f"play wall {median_p99_ms(times.play_wall)}, "
                f"cpu {median_p99_ms(times.play_cpu)}",
                flush=True,
            )
            summary.append(
                f"| {variant} | {level} | {tally.games} | {rate:.1f}% | "
                f"+/-{half:.1f}{mark} | {fair:.0f}% | {median_p99_ms(times.discard_cpu)} | "
                f"{median_p99_ms(times.play_cpu)} |"
            )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(f"\n## Strength against {BASELINE}, and decision times (CPU ms, median / p99)\n")
    print("| variant | level | games | wins | 95% CI | fair share | discard | play |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(summary))
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
