"""How long a game's review takes (issue 23): prints the time per game, median and p99.

    python -m benchmarks.review [--games N] [--seed S] [--target 121|61]

Each game is a whole two-player game between the ``hard`` and ``expert`` computer levels,
dealt from sealed shuffles as the bot deals; the review of one seat (every discard judged by
the coach's values, every real choice of play by the expert's values over 128 guesses) is
made as the review worker makes it (:func:`bot.core.worker.review_work.make_review`), in this
process, one at a time. The bot makes it in its review worker, beside the games, so this is
the wait a player sees for a review not kept yet, on a machine with a core to spare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.core.deck.seeded import SeedDealer
from bot.core.deck.shuffles import RecordingRandom
from bot.core.worker.review_work import ReviewRequest, make_review
from engine.game import Game
from engine.players import make_player
from engine.players.base import finish


def _game(seed: int, target: int) -> tuple[Game, list[str]]:
    shuffles: list[str] = []
    rng = RecordingRandom(SeedDealer(random.Random(seed)), shuffles)
    game, _ = Game.new(["Al", "Bea"], target=target, rng=rng)
    choices = random.Random(seed)
    finish(game, [make_player("hard"), make_player("expert")], [choices, choices])
    return game, shuffles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--target", type=int, default=121, choices=(61, 121))
    args = parser.parse_args()
    times: list[float] = []
    decisions = 0
    for n in range(args.games):
        game, shuffles = _game(args.seed + n, args.target)
        request = ReviewRequest.of(game, shuffles, seat=n % 2, through_deal=None, seed=n)
        start = time.perf_counter()
        review = make_review(request)
        times.append(time.perf_counter() - start)
        decisions += len(review.decisions)
    times.sort()
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"games reviewed:            {len(times)} (to {args.target}, one seat each)")
    print(f"decisions per game:        {decisions / len(times):.1f}")
    print(f"review time per game:      median {statistics.median(times) * 1000:7.0f} ms")
    print(f"                           p99    {p99 * 1000:7.0f} ms")
    print(f"                           max    {times[-1] * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
