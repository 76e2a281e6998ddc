"""Scores in the words players use at the table.

A show is counted aloud with a running total: fifteens count up ("fifteen two, fifteen four"),
then every other combination is named with the total so far ("and a pair is six"). A double
(triple, double double) run is said with the pairs inside it, as players count it: "fifteen
two, and a double run is ten", never "a pair is four, and a double run of three is ten",
which sounds like a double run and a pair more. A card in the play is called with its points
("fifteen and a pair for 4").

>>> from engine.cards import Card, parse_cards
>>> from engine.scoring import score_hand
>>> say_score(score_hand(parse_cards("5H 5C JD 8S"), Card.parse("2C")))
'fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten'
>>> say_score(score_hand(parse_cards("AH 3C 7D 9S"), Card.parse("QS")))
'nothing'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.scoring import Score, ScoreItem

__all__ = ["number_word", "say_pegging", "say_score"]

_ONES = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")

_SETS = frozenset({"pair", "pair_royal", "double_pair_royal"})
_COUNTED = {1: "a pair", 2: "two pairs", 3: "three pairs"}
_SET_NAMES = {"pair_royal": "three of a kind", "double_pair_royal": "four of a kind"}
# A run with cards of some ranks held more than once, by how many of each are held beyond
# the first -> how players name it (5-5-6-6-7 holds four runs of three: a double double
# run). Said without "of three" for runs of three, as players do. Shapes beyond these (six
# cards or more: 2-2-3-3-4-4 holds eight runs of three) are said by their parts: "eight runs
# of three with three pairs".
_RUN_MULTIPLES = {(2,): "a double run", (3,): "a triple run", (2, 2): "a double double run"}


def number_word(number: int) -> str:
    """A number from 0 to 99 in words: ``number_word(24) == "twenty-four"``."""
    if not 0 <= number <= 99:
        raise ValueError(f"Only numbers from 0 to 99 are spelled out, not {number}.")
    if number < 20:
        return _ONES[number]
    tens, ones = divmod(number, 10)
    return _TENS[tens] + ("-" + _ONES[ones] if ones else "")


def _groups(items: Iterable[ScoreItem]) -> list[tuple[str, list[ScoreItem]]]:
    """Items grouped the way they are said: runs by the ranks they span (the runs of a
    double run share them; two separate runs, which six cards can hold, are said apart),
    other kinds by kind."""
    groups: dict[tuple[str, frozenset[int]], list[ScoreItem]] = {}
    for item in items:
        span = frozenset(card.rank for card in item.cards) if item.kind == "run" else frozenset()
        groups.setdefault((item.kind, span), []).append(item)
    return [(kind, group) for (kind, _), group in groups.items()]


def _sets_phrase(kind: str, group: Sequence[ScoreItem]) -> str:
    count = len(group)
    if kind == "pair":
        return _COUNTED.get(count, f"{number_word(count)} pairs")
    name = _SET_NAMES[kind]
    return name if count == 1 else f"{number_word(count)} times {name}"


def _run_phrase(group: Sequence[ScoreItem], inside: Sequence[ScoreItem]) -> str:
    """What is said for the runs over one stretch of ranks (``inside``: the pairs and sets
    among their cards, said as part of them)."""
    length = number_word(len(group[0].cards))
    if len(group) == 1:
        return f"a run of {length}"
    cards = {card for run in group for card in run.cards}
    held = Counter(card.rank for card in cards).values()
    named = _RUN_MULTIPLES.get(tuple(sorted((n for n in held if n > 1), reverse=True)))
    if named is not None:
        return named if length == "three" else f"{named} of {length}"
    sets = [_sets_phrase(kind, items) for kind, items in _groups(inside)]
    joined = sets[0] if len(sets) == 1 else ", ".join(sets[:-1]) + " and " + sets[-1]
    return f"{number_word(len(group))} runs of {length} with {joined}"


def _show_phrase(kind: str, group: Sequence[ScoreItem]) -> str:
    """What is said for a group of items (not runs) before "is <total>"."""
    if kind in _SETS:
        return _sets_phrase(kind, group)
    if kind == "flush":
        return "a flush"
    if kind == "nobs":
        return "one for his nobs"
    if kind == "thirty_one":
        return "thirty-one"
    return kind.replace("_", " ")


def _span(group: Sequence[ScoreItem]) -> frozenset[int]:
    """The ranks a group of runs spans."""
    return frozenset(card.rank for card in group[0].cards)


def _inside(group: Sequence[ScoreItem], items: Sequence[ScoreItem]) -> list[ScoreItem]:
    """The pairs (and sets) within a double, triple or double double run (``group``, the
    runs over one stretch of ranks): said as part of it."""
    if len(group) < 2:
        return []
    cards = {card for run in group for card in run.cards}
    return [item for item in items if item.kind in _SETS and set(item.cards) <= cards]


def say_score(score: Score) -> str:
    """A show said aloud, ending on the total: "fifteen two, fifteen four, and a pair is six".

    A hand worth nothing is said "nothing". A double run takes in its pair; two separate
    runs are two runs ("a run of three is nine, and another run of three is twelve").

    >>> from engine.cards import Card, parse_cards
    >>> from engine.scoring import score_hand
    >>> say_score(score_hand(parse_cards("AH 2C 3D 7S"), Card.parse("2S")))
    'fifteen two, and a double run is ten'
    >>> from engine.variants import SEVEN_CARD
    >>> five = parse_cards("2H 3C 4H 10D QD")  # seven-card cribbage: five cards shown
    >>> said = say_score(score_hand(five, Card.parse("JC"), rules=SEVEN_CARD.rules()))
    >>> said.removeprefix("fifteen two, fifteen four, fifteen six, ")
    'a run of three is nine, and another run of three is twelve'
    """
    if score.total == 0:
        return "nothing"
    phrases: list[str] = []
    running = 0
    # Each pair or set said inside a run, by the ranks that run spans.
    folded = {
        id(item): _span(group)
        for kind, group in _groups(score.items)
        if kind == "run"
        for item in _inside(group, score.items)
    }
    said_before = ""
    for kind, group in _groups(item for item in score.items if id(item) not in folded):
        if kind == "fifteen":
            for item in group:
                running += item.points
                phrases.append(f"fifteen {number_word(running)}")
            continue
        if kind == "run":
            inside = [item for item in score.items if folded.get(id(item)) == _span(group)]
            running += sum(item.points for item in inside)
            phrase = _run_phrase(group, inside)
        else:
            phrase = _show_phrase(kind, group)
        running += sum(item.points for item in group)
        # A second run like the one before it: "and another run of three".
        said = f"another {phrase.removeprefix('a ')}" if phrase == said_before else phrase
        said_before = phrase
        # "one for his nobs" on its own already says the total.
        phrases.append(said if running == 1 else f"{said} is {number_word(running)}")
    if len(phrases) > 1 and not phrases[-1].startswith("fifteen"):
        phrases[-1] = "and " + phrases[-1]
    return ", ".join(phrases)


_PEG_NAMES = {
    "fifteen": "fifteen",
    "thirty_one": "31",
    "pair": "a pair",
    "pair_royal": "three of a kind",
    "double_pair_royal": "four of a kind",
}


def _peg_name(item: ScoreItem) -> str:
    if item.kind == "run":
        return f"a run of {len(item.cards)}"
    return _PEG_NAMES.get(item.kind, item.kind.replace("_", " "))


def say_pegging(items: Sequence[ScoreItem], points: int) -> str:
    """A card's points in the play, as called: "fifteen for 2", "fifteen and a pair for 4".

    Returns an empty string when the card scored nothing.

    >>> from engine.cards import parse_cards
    >>> from engine.pegging import score_pegging
    >>> score = score_pegging(parse_cards("5D 5C 5H"))
    >>> say_pegging(score.items, score.total)
    'fifteen and three of a kind for 8'
    >>> say_pegging(score_pegging(parse_cards("3D 5C 2H 4S")).items, 4)
    'a run of 4 for 4'
    """
    if not items:
        return ""
    names = [_peg_name(item) for item in items]
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{said} for {points}"
