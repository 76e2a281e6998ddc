"""Test helpers for views: a seat's view in the middle of the play, built from chosen cards,
and every object a view reaches."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from bot.core.base.views import C, MessageView
from engine.cards import Card, parse_cards
from engine.phase import Phase
from engine.rules import Rules
from engine.views import SeatView


def play_view(
    hand: str,
    series: str = "",
    *,
    mine_played: str = "",
    theirs_played: str = "",
    starter: str = "2S",
    discards: str = "QD QH",
    scores: Sequence[int] = (0, 0),
    their_cards: int | None = None,
    dealer: int = 0,
    target: int = 121,
) -> SeatView:
    """Seat 1's view of a 2-player deal (seat 0 deals unless told), on seat 1's turn.

    ``series`` is the cards since the last reset; every card of it must also be listed as
    played by one of the seats (``mine_played`` or ``theirs_played``).
    """
    held = parse_cards(hand)
    run = parse_cards(series) if series else ()
    mine = parse_cards(mine_played) if mine_played else ()
    theirs = parse_cards(theirs_played) if theirs_played else ()
    assert set(run) <= set(mine) | set(theirs), "every card in the series was played"
    count = sum(card.value for card in run)
    playable = tuple(card for card in held if count + card.value <= 31)
    held_by_them = 4 - len(theirs) if their_cards is None else their_cards
    return SeatView(
        players=("Al", "Bea"),
        rules=Rules.standard(2, target=target),
        num_sides=2,
        sides=(0, 1),
        scores=tuple(scores),
        dealer=dealer,
        phase=Phase.PLAY,
        turn=1,
        count=count,
        series=run,
        played=(theirs, mine),
        starter=Card.parse(starter),
        hand_sizes=(held_by_them, len(held)),
        crib_size=4,
        pending_discards=(),
        deal_number=1,
        discard_count=2,
        result=None,
        last_show=(),
        seat=1,
        hand=held,
        kept=(*mine, *held),
        discards=parse_cards(discards),
        playable=playable,
    )


def walk(value: object) -> Iterator[object]:
    """Every object reachable from a view through its fields and tuples."""
    yield value
    if isinstance(value, tuple):
        for item in value:
            yield from walk(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from walk(getattr(value, field.name))


def controls(view: MessageView | None, kind: type[C]) -> C:
    """The controls of ``view``, which must be of ``kind`` (the test fails otherwise)."""
    assert view is not None, "no message"
    found = view.controls_of(kind)
    assert found is not None, f"not {kind.__name__}: {view.controls!r}"
    return found
