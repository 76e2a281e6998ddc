"""What the one judge of a discard costs each of its users (issue 68): the hint, the coach after
a show, and the discard of the day. Prints CPU milliseconds, median and p99, far from the end
of a game (the points decide) and near it (the chance to win of six splits decides).

    python -m benchmarks.discard_judge [--deals 300] [--seed 2026]

Each position is a standard two-player deal at scores drawn for it (a third of them near the
end: both sides past 85 of 121), one seat's six cards:

- the hint's discard: the expert's deliberation put in words (:func:`engine.hint.hint`), as
  the hint worker makes it;
- the coach: the line on a discard made as the hint said, judged from the view after it at
  the scores the deal began with (:func:`engine.coach.review_view`), as the bot makes it on
  the event loop after the show, once per person a deal;
- the daily: the fifteen splits of a hand (:func:`engine.players.judge.judge_discard`, no
  scores), once per server a day.

The first call of each (the tables read) is made before timing.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import statistics
import time
from collections.abc import Callable

from engine.cards import Card
from engine.coach import review_view
from engine.game import Game
from engine.hint import hint
from engine.players import make_player
from engine.players.judge import judge_discard
from engine.views import SeatView


def _positions(deals: int, seed: int) -> list[tuple[SeatView, bool]]:
    """(a seat's view at the discard, whether near the end) for each deal."""
    found = []
    for n in range(deals):
        draw = random.Random(seed + n)
        game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(seed + n))
        near = n % 3 == 0
        low, high = (86, 118) if near else (0, 80)
        scores = (draw.randint(low, high), draw.randint(low, high))
        found.append((dataclasses.replace(game.view(n % 2), scores=scores), near))
    return found


def _cpu_ms(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return (time.process_time() - started) * 1000


def _said(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    return f"median {statistics.median(times):6.2f} ms   p99 {p99:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    expert = make_player("expert")
    positions = _positions(args.deals, args.seed)
    # (The tables each reads, built once, as the bot's start-up does.)
    warm, _ = positions[0]
    hint(expert, dataclasses.replace(warm, scores=(100, 100)), random.Random(0))
    times: dict[tuple[str, bool], list[float]] = {}
    for view, near in positions:
        said = hint(expert, view, random.Random(0))
        times.setdefault(("hint", near), []).append(
            _cpu_ms(functools.partial(hint, expert, view, random.Random(0)))
        )
        after = _after(view, said.cards)
        times.setdefault(("coach", near), []).append(
            _cpu_ms(functools.partial(review_view, after, scores=view.scores))
        )
        sign = 1 if view.dealer == view.seat else -1
        daily = functools.partial(judge_discard, view.hand, 2, crib_sign=sign, rules=view.rules)
        times.setdefault(("daily", near), []).append(_cpu_ms(daily))
    print(f"{len(positions)} deals ({sum(near for _, near in positions)} near the end), CPU:")
    for who in ("hint", "coach", "daily"):
        for near in (False, True):
            if who == "daily" and near:
                continue  # (a day's hand has no score: the points decide)
            where = "near the end" if near else "far from it "
            print(f"{who:<6} {where}  {_said(times[(who, near)])}")


def _after(view: SeatView, thrown: tuple[Card, ...]) -> SeatView:
    """``view`` once its seat threw ``thrown`` (the kept cards and the discards shown)."""
    kept = tuple(card for card in view.hand if card not in thrown)
    return dataclasses.replace(view, hand=kept, kept=kept, discards=thrown)


if __name__ == "__main__":
    main()
