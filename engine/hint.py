"""A hint: what the expert would do in a seat's place now, and why, in one line.

The hint is the expert's own deliberation (:mod:`engine.players.deliberation`) put in words:
the option it chooses, with its figures, beside the next best. A discard says what the kept
hand is worth on average, what the thrown cards add to (or give) the crib, and what the kept
cards are worth in the play; a play says what the card pegs now, what it gives the next
player nothing to score on that the next best would, and how much better it plays out over
the rest of the play. Near the end of a two-player game the expert plays for the chance to
win, and the hint says that chance.

It is drawn from the seat's view alone (its own cards and the table), so it tells nothing
the seat may not know.

>>> import random
>>> from engine.cards import parse_cards
>>> from engine.game import Game
>>> from engine.players.deliberation import Deliberation, Weighed
>>> game, _ = Game.new(["Al", "Bea"], target=121, rng=random.Random(3))
>>> view = game.view(0)  # Al deals: the crib is his
>>> cards_str(view.hand)
'5♣ 5♥ 6♠ 8♥ J♦ K♣'
>>> split = Weighed(parse_cards("6S 8H"), 18.0, (("hand", 12.4), ("crib", 4.6), ("play", 1.0)))
>>> other = Weighed(parse_cards("8H KC"), 14.2, (("hand", 9.7), ("crib", 3.1), ("play", 1.4)))
>>> for part in discard_line(view, Deliberation((split, other), "points")).split("; "):
...     print(part)
keep 5♣ 5♥ J♦ K♣ (throw 6♠ 8♥): 12.4 in hand, +4.6 in your crib, +1.0 in the play
next best (throw 8♥ K♣) 3.8 less
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.cards import Card, cards_str
from engine.coach import as_shown, crib_words, one_decimal
from engine.pegging import score_pegging
from engine.phase import Phase
from engine.players.base import Player, unseen_cards
from engine.players.deliberation import Deliberation, Weighed, deliberation_of
from engine.speech import say_pegging
from engine.views import SeatView

__all__ = ["NOTHING_TO_DECIDE", "Hint", "discard_line", "hint", "play_line"]

#: Why no hint is given: the seat has no choice to make now.
NOTHING_TO_DECIDE = (
    "There's nothing for you to decide right now: a hint is for your discard, or your card "
    "to play on your turn."
)
#: Below this (at one decimal, or a whole per cent) two options are as good as each other.
_EVEN = 0.05
#: A play-out margin this large (in the expert's points, where pegging out is worth far more
#: than any points) means the game is at stake, not points.
_GAME_AT_STAKE = 25.0
#: What the next player may score on a card, as the hint names what is not given away.
_EXPOSURE_ORDER = ("21", "5", "31", "15", "pair", "run")


@dataclass(frozen=True, slots=True)
class Hint:
    """The expert's choice in a seat's place (``cards``: the cards to throw, or the one card
    to play) and the ``line`` that says it and why."""

    kind: Literal["discard", "play"]
    cards: tuple[Card, ...]
    line: str


def hint(player: Player, view: SeatView, rng: random.Random) -> Hint:
    """What ``player`` (the expert, or any player that deliberates) would do in ``view``'s seat
    now, and why. ``ValueError`` (:data:`NOTHING_TO_DECIDE`) when the seat has no choice to
    make: no discard owed, not its turn to play."""
    weighing = deliberation_of(player)
    if view.phase is Phase.DISCARD and view.seat in view.pending_discards and view.discard_count:
        thrown = weighing.weigh_discards(view, rng)
        return Hint("discard", thrown.choice, discard_line(view, thrown))
    if view.phase is Phase.PLAY and view.turn == view.seat and view.playable:
        played = weighing.weigh_plays(view, rng)
        return Hint("play", (played.choice,), play_line(view, played))
    raise ValueError(NOTHING_TO_DECIDE)


def _sorted(cards: Sequence[Card]) -> str:
    return cards_str(sorted(cards, key=Card.sort_key))


def _percent(chance: float) -> str:
    return f"{round(100 * chance)}%"


def _discard_parts(view: SeatView, option: Weighed[tuple[Card, ...]]) -> list[str]:
    """What a split is worth, part by part, as shown: "9.3 in hand, +4.1 in your crib"."""
    said = []
    hand = option.part("hand")
    if hand is not None:
        said.append(f"{one_decimal(hand)} in hand")
    crib = option.part("crib")
    if crib is not None:
        word, whose = crib_words(view, view.seat)
        sign = "−" if crib < 0 else "+"
        said.append(f"{sign}{one_decimal(abs(crib))} {word} {whose}")
    play = option.part("play")
    if play is not None and as_shown(play) != 0.0:
        sign = "−" if play < 0 else "+"
        said.append(f"{sign}{one_decimal(abs(play))} in the play")
    return said


def _shown_points(option: Weighed[tuple[Card, ...]]) -> float:
    """A split's expected points as the sum of its parts as shown, so that the margins a
    player reads add up."""
    return sum(as_shown(value) for _, value in option.parts) if option.parts else option.value


def discard_line(view: SeatView, weighed: Deliberation[tuple[Card, ...]]) -> str:
    """The hint for a discard: the cards to keep (and throw), what the split is worth, and
    by how much it beats the next best."""
    best = weighed.options[0]
    kept = [card for card in view.hand if card not in best.choice]
    parts = ", ".join(_discard_parts(view, best))
    head = f"keep {_sorted(kept)} (throw {_sorted(best.choice)})"
    if weighed.measure == "chance":
        worth = f"{_percent(best.value)} to win from here" + (f" ({parts})" if parts else "")
    else:
        worth = parts
    line = f"{head}: {worth}"
    if len(weighed.options) < 2:
        return line
    second = weighed.options[1]
    other = f"throw {_sorted(second.choice)}"
    if weighed.measure == "chance":
        margin = round(100 * best.value) - round(100 * second.value)
        less = f"{margin}% less" if margin else "as good"
    else:
        difference = _shown_points(best) - _shown_points(second)
        less = f"{one_decimal(difference)} less" if difference >= _EVEN else "as good"
    return f"{line}; next best ({other}) {less}"


def _exposures(view: SeatView, card: Card) -> set[str]:
    """What the next player could score on ``card`` with some card this seat has not seen:
    "21" and "5" (the count a ten turns into 31 and 15), "31", "15", "pair", "run"."""
    count = view.count + card.value
    limit = view.rules.points.max_count
    if count == limit:
        return set()  # (the count starts again)
    pile = [*view.series, card]
    found: set[str] = set()
    for index in unseen_cards(view):
        reply = Card.from_index(index)
        if count + reply.value > limit:
            continue
        for item in score_pegging([*pile, reply], view.rules).items:
            kind = str(item.kind)
            if kind == "fifteen":
                found.add("5" if count == 5 else "15")
            elif kind == "thirty_one":
                found.add("21" if count == 21 else "31")
            elif kind == "run":
                found.add("run")
            else:
                found.add("pair")
    return found


def _not_given(view: SeatView, card: Card, other: Card) -> str:
    """What ``card`` gives the next player nothing to score on that ``other`` would:
    "no 21 to give away", "no 15 or run to give away" (empty: nothing)."""
    spared = _exposures(view, other) - _exposures(view, card)
    named = [kind for kind in _EXPOSURE_ORDER if kind in spared]
    if not named:
        return ""
    joined = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
    return f"no {joined} to give away"


def play_line(view: SeatView, weighed: Deliberation[Card]) -> str:
    """The hint for a play: the card, what it pegs now, what it gives nothing to score on
    that the next best would, and how much better it plays out than the next best."""
    card = weighed.choice
    pile = [*view.series, card]
    now = score_pegging(pile, view.rules)
    reasons = []
    pegged = say_pegging(now.items, now.total)
    if pegged:
        reasons.append(pegged)
    side = view.sides[view.seat]
    if now.total and view.scores[side] + now.total >= view.target:
        reasons.append("and that's the game")
        return f"play {card}: " + ", ".join(reasons)
    if len(weighed.options) < 2:
        alike = sum(1 for c in view.playable if c.rank == card.rank)
        only = (
            "the only card you can play"
            if len(view.playable) == 1
            else "the only rank you can play, and suits don't matter in the play"
            if alike == len(view.playable)
            else "the only card you can play"
        )
        return f"play {card}: " + ", ".join([*reasons, only])
    second = weighed.options[1]
    spared = _not_given(view, card, second.choice)
    if spared:
        reasons.append(f"and {spared}" if reasons else spared)
    if weighed.measure == "chance":
        margin = round(100 * weighed.options[0].value) - round(100 * second.value)
        worth = f"{_percent(weighed.options[0].value)} to win from here"
        versus = f"{second.choice} {margin}% less" if margin else f"{second.choice} as good"
        tail = f"{worth}; {versus}"
    else:
        difference = weighed.options[0].value - second.value
        if difference >= _GAME_AT_STAKE:
            tail = f"{second.choice} could cost you the game in the play"
        elif as_shown(difference) >= _EVEN:
            tail = f"{one_decimal(difference)} more than {second.choice} over the rest of the play"
        else:
            tail = f"{second.choice} is as good"
    head = f"play {card}: " + ", ".join(reasons) if reasons else f"play {card}"
    return f"{head}; {tail}" if reasons else f"{head}: {tail}"
