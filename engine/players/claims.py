"""The computer's count at a manual show, and when it calls muggins.

At ``hard`` and above the computer counts every hand exactly and calls muggins on any short
claim it sees. ``easy`` and ``medium`` count the way beginners do: they find the pairs and
the obvious runs but now and then forget a fifteen, a flush, his nobs or the second run of a
double run, so a watchful opponent can muggins them. A forgotten combination is dropped from
the true breakdown, so a computer's claim is never over the hand's value.

>>> import random
>>> from engine.cards import Card, parse_cards
>>> from engine.rules import Rules
>>> hand, starter, rules = parse_cards("5H 5C JD 8S"), Card.parse("2C"), Rules()
>>> computer_claim("hard", hand, starter, crib=False, rules=rules, rng=random.Random(1))
10
>>> claims = {computer_claim("easy", hand, starter, crib=False, rules=rules,
...                          rng=random.Random(s)) for s in range(40)}
>>> max(claims) == 10 and min(claims) < 10
True
>>> calls_muggins("hard"), calls_muggins("easy")
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.rules import Rules
from engine.scoring import ScoreKind, claim_values, score_hand

__all__ = ["BEGINNER_LEVELS", "FORGET_RATES", "calls_muggins", "computer_claim"]

#: The levels that count like beginners (and never call muggins); every other level, ``hard``
#: and anything stronger, counts exactly.
BEGINNER_LEVELS = frozenset({"easy", "medium"})

#: How often a beginner forgets one combination of each kind, by level. Fifteens hidden among
#: many cards, a flush and nobs are the points beginners miss; a run after the first of a
#: double run is forgotten often; pairs almost never.
FORGET_RATES: dict[str, dict[ScoreKind, float]] = {
    "easy": {
        ScoreKind.FIFTEEN: 0.15,
        ScoreKind.PAIR: 0.02,
        ScoreKind.RUN: 0.3,
        ScoreKind.FLUSH: 0.3,
        ScoreKind.NOBS: 0.5,
    },
    "medium": {
        ScoreKind.FIFTEEN: 0.05,
        ScoreKind.RUN: 0.1,
        ScoreKind.FLUSH: 0.1,
        ScoreKind.NOBS: 0.25,
    },
}


def computer_claim(
    level: str,
    cards: Sequence[Card],
    starter: Card,
    *,
    crib: bool,
    rules: Rules,
    rng: random.Random,
) -> int:
    """What a computer of ``level`` claims for ``cards`` with ``starter`` (a crib if ``crib``)
    in a game played by ``rules``.

    Exact unless the level is a beginner's, which may forget combinations (never more than
    the hand is worth).
    """
    score = score_hand(cards, starter, crib=crib, rules=rules)
    rates = FORGET_RATES.get(level)
    if rates is None:
        return score.total
    claimed = 0
    runs_seen = 0
    for item in score.items:
        rate = rates.get(item.kind, 0.0)
        if item.kind is ScoreKind.RUN:
            # The first run of a hand is seen; it is the repeats of a double run that slip.
            runs_seen += 1
            if runs_seen == 1:
                rate = 0.0
        if rng.random() >= rate:
            claimed += item.points
    # A slip that lands on a number no hand scores (19, 25, 26, 27 in the standard game) is
    # caught by the counter at once: they recount and get it right.
    return claimed if claimed in claim_values(rules) else score.total


def calls_muggins(level: str) -> bool:
    """Whether a computer of ``level`` calls muggins on a short claim (``hard`` and above)."""
    return level not in BEGINNER_LEVELS
