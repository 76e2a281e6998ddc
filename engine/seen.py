"""Which cards of a deal the table has seen: the one rule for every place that tells a deal
again after the fact (a finished game's page, the review of another player's decisions, the
deal's shuffle seed and ``/cribbage verify``).

A card is seen once it is played, cut as the starter, or shown (or claimed) at the show. Once
the crib is shown every card dealt to a hand or to the crib has been seen: each hand kept was
shown before it and the crib holds every card thrown. A game can end before that (a
resignation, a clock run out, a side pegging out, a hand counted out): then what each seat
threw, and what it kept but never played or showed, was never seen by anyone but that seat,
and stays theirs.

>>> from engine.cards import Card
>>> from engine.events import StarterCut, Discarded
>>> events = [Discarded(seat=0, count=2), StarterCut(card=Card.parse("5H"), dealer=0)]
>>> sorted(str(c) for c in seen_cards(events)), crib_shown(events)
(['5♥'], False)
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import Card
from engine.events import Claimed, Event, Played, Shown, StarterCut

__all__ = ["crib_shown", "seen_cards"]


def crib_shown(events: Iterable[Event]) -> bool:
    """Whether ``events`` (a deal's) show its crib: then every card of the deal's hands and
    of its crib has been seen by the table."""
    return any(isinstance(e, Shown | Claimed) and e.crib for e in events)


def seen_cards(events: Iterable[Event]) -> frozenset[Card]:
    """The cards ``events`` (a deal's) showed the table: those played, the starter, and every
    hand and crib shown or claimed at the show."""
    seen: set[Card] = set()
    for event in events:
        match event:
            case Played():
                seen.add(event.card)
            case StarterCut():
                seen.add(event.card)
            case Shown() | Claimed():
                seen.update(event.cards)
            case _:
                pass
    return frozenset(seen)
