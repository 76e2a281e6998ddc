"""What an accepted action caused, as typed, frozen, public records.

Every event is safe for the channel: none carries a card that is still hidden (the cards in
a ``Shown`` are public by then, and ``Discarded`` says how many cards, never which).

>>> from engine.cards import Card
>>> Discarded(seat=1, count=2).to_dict()
{'kind': 'discarded', 'seat': 1, 'count': 2}
>>> StarterCut(card=Card.parse("5H"), dealer=0).to_dict()
{'kind': 'starter_cut', 'card': '5H', 'dealer': 0}
>>> event_from_dict(Go(seat=2).to_dict())
Go(seat=2)
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias, assert_never, get_args

from engine.cards import Card
from engine.outcome import GameResult
from engine.scoring import Score, ScoreItem, ScoreKind

__all__ = [
    "EVENT_TYPES",
    "Claimed",
    "CountReset",
    "CutForDeal",
    "Dealt",
    "Discarded",
    "Event",
    "EventBase",
    "ForLast",
    "GameOver",
    "Go",
    "GoPoint",
    "Heels",
    "Mugginsed",
    "Overclaimed",
    "Played",
    "PointSource",
    "Points",
    "Shown",
    "StarterCut",
    "event_from_dict",
    "item_from_dict",
    "item_to_dict",
    "points_scored",
    "score_from_dict",
    "score_to_dict",
]


def item_to_dict(item: ScoreItem) -> dict[str, Any]:
    """A scoring item as JSON-ready data (cards as codes such as ``"10D"``)."""
    return {"kind": item.kind, "cards": [c.code for c in item.cards], "points": item.points}


def item_from_dict(data: dict[str, Any]) -> ScoreItem:
    """Rebuild a scoring item written by :func:`item_to_dict`."""
    return ScoreItem(
        ScoreKind(str(data["kind"])),
        tuple(Card.parse(c) for c in data["cards"]),
        int(data["points"]),
    )


def score_to_dict(score: Score) -> dict[str, Any]:
    """An itemised score as JSON-ready data."""
    return {"items": [item_to_dict(i) for i in score.items], "total": score.total}


def score_from_dict(data: dict[str, Any]) -> Score:
    """Rebuild a score written by :func:`score_to_dict`."""
    return Score(tuple(item_from_dict(i) for i in data["items"]))


def _encode(value: object) -> object:
    # Cards become codes, nested tuples lists, scores and results their own dicts, so that
    # to_dict() is plain JSON.
    if isinstance(value, Card):
        return value.code
    if value is None:
        return None
    if isinstance(value, ScoreItem):
        return item_to_dict(value)
    if isinstance(value, Score):
        return score_to_dict(value)
    if isinstance(value, GameResult):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


class EventBase:
    """What every event has: ``kind`` names it, :meth:`to_dict` makes it JSON-ready.

    Annotate with :data:`Event`, the closed union of every event, not with this class: code
    that handles events can then ``match`` on them and let the type checker say when a new
    kind is left unhandled (``typing.assert_never``).
    """

    __slots__ = ()
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data, with its ``kind`` first. A field with a default
        (one added to its event after events were first saved) is left out while it holds
        it, so events saved before it existed read back, and save again, unchanged."""
        data: dict[str, Any] = {"kind": self.kind}
        for field in fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if field.default is MISSING or value != field.default:
                data[field.name] = _encode(value)
        return data


@dataclass(frozen=True, slots=True)
class CutForDeal(EventBase):
    """The cut for first deal: one entry per seat per round, the card that seat cut, or
    ``None`` for a seat that did not cut again (only the players tied for lowest re-cut).
    No rounds at all: the first deal was given to ``dealer`` without a cut (a following
    game, whose first deal goes to the loser of the game before)."""

    kind: ClassVar[str] = "cut_for_deal"
    rounds: tuple[tuple[Card | None, ...], ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class _Pegged(EventBase):
    """The fields of an event that pegs ``points`` to ``seat``'s ``side``, whose total is
    ``score`` after them (its own fields, if any, follow these)."""

    seat: int
    side: int
    points: int
    score: int


@dataclass(frozen=True, slots=True)
class _Taken(EventBase):
    """The fields of an event in which ``seat``'s ``side`` pegs ``points`` off the claim of
    ``owner`` (an opponent), its total being ``score`` after them."""

    seat: int
    side: int
    owner: int
    points: int
    score: int


@dataclass(frozen=True, slots=True)
class ForLast(_Pegged):
    """At the start of a game whose rules give points for last (five-card cribbage: three),
    the seat left of the first dealer pegs them; ``score`` is its side's total after."""

    kind: ClassVar[str] = "for_last"


@dataclass(frozen=True, slots=True)
class Dealt(EventBase):
    """A new deal: every seat has ``hand_size`` cards (see the seat's view; the dealer's own
    share as the rules give it, when theirs differs), and the pack gives the crib a card
    when ``crib_from_deck``."""

    kind: ClassVar[str] = "dealt"
    dealer: int
    deal_number: int
    hand_size: int
    crib_from_deck: bool


@dataclass(frozen=True, slots=True)
class Discarded(EventBase):
    """A seat put ``count`` cards in the crib; which cards stays hidden."""

    kind: ClassVar[str] = "discarded"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class StarterCut(EventBase):
    """The starter, turned once the crib is complete."""

    kind: ClassVar[str] = "starter_cut"
    card: Card
    dealer: int


@dataclass(frozen=True, slots=True)
class Heels(_Pegged):
    """The starter is a jack: "two for his heels" to the dealer."""

    kind: ClassVar[str] = "heels"


@dataclass(frozen=True, slots=True)
class Played(EventBase):
    """One card played in the play; ``items`` are its pegging points, ``score`` the side's total."""

    kind: ClassVar[str] = "played"
    seat: int
    side: int
    card: Card
    count: int
    items: tuple[ScoreItem, ...]
    points: int
    score: int


@dataclass(frozen=True, slots=True)
class Go(EventBase):
    """The seat cannot play without passing 31 (said once per series per seat)."""

    kind: ClassVar[str] = "go"
    seat: int


@dataclass(frozen=True, slots=True)
class GoPoint(_Pegged):
    """1 for the go (nobody else could play), or 1 for the last card of the play."""

    kind: ClassVar[str] = "go_point"
    last_card: bool


@dataclass(frozen=True, slots=True)
class CountReset(EventBase):
    """The count goes back to 0 and ``next_seat`` leads."""

    kind: ClassVar[str] = "count_reset"
    next_seat: int


@dataclass(frozen=True, slots=True)
class _AtTheShow(EventBase):
    """The fields of an event about one hand (or the crib) at the show, its cards public by
    then: the owner's ``seat`` (the dealer's for the crib), its ``side``, whether it is the
    ``crib``, its ``cards`` and the ``starter`` (its own fields follow these)."""

    seat: int
    side: int
    crib: bool
    cards: tuple[Card, ...]
    starter: Card


@dataclass(frozen=True, slots=True)
class Shown(_AtTheShow):
    """One hand (or the crib) counted at the show; its cards are public from now on.

    With automatic counting the side scores ``score.total`` here. With manual counting this
    is the full breakdown after the owner's claim: ``claimed`` says what they claimed (and
    were pegged by :class:`Claimed`), so the side scores nothing more here. ``claimed`` is
    left out of :meth:`to_dict` when ``None``, so shows saved before it existed read back
    unchanged.
    """

    kind: ClassVar[str] = "shown"
    score: Score
    total: int
    claimed: int | None = None

    @property
    def missed(self) -> int:
        """Points the owner's claim left out (0 when counted automatically, exactly or over)."""
        return 0 if self.claimed is None else max(0, self.score.total - self.claimed)

    @property
    def over(self) -> int:
        """Points the owner's claim named over the hand's value (0 unless it did)."""
        return 0 if self.claimed is None else max(0, self.claimed - self.score.total)


@dataclass(frozen=True, slots=True)
class Claimed(_AtTheShow):
    """With manual counting: the owner of a hand (the dealer for the crib) claimed ``points``
    for it, and is pegged them (``score`` is the side's total after). The cards are public.

    A claim over the hand's value (``over``: by how much) is pegged back to the value, and
    each opposing side pegs the points over (:class:`Overclaimed`)."""

    kind: ClassVar[str] = "claimed"
    points: int
    score: int
    over: int = 0

    @property
    def pegged(self) -> int:
        """What the claim pegged: the points claimed, or the hand's value when over it."""
        return self.points - self.over


@dataclass(frozen=True, slots=True)
class Mugginsed(_Taken):
    """Muggins: ``seat`` (an opponent of ``owner``) took the ``points`` that ``owner``'s claim
    left out; ``score`` is the taker's side's total after."""

    kind: ClassVar[str] = "mugginsed"


@dataclass(frozen=True, slots=True)
class Overclaimed(_Taken):
    """A claim over its hand's value: ``seat``'s side (an opponent of ``owner``, the first
    seat of it after the owner) pegs the ``points`` claimed over; ``score`` is that side's
    total after. The claim itself was pegged back to the value (:class:`Claimed`)."""

    kind: ClassVar[str] = "overclaimed"


@dataclass(frozen=True, slots=True)
class GameOver(EventBase):
    """The game ended: a side reached the target, or a player resigned."""

    kind: ClassVar[str] = "game_over"
    result: GameResult


#: Every event the engine produces (a closed union: see :class:`EventBase`).
Event: TypeAlias = (
    CutForDeal
    | ForLast
    | Dealt
    | Discarded
    | StarterCut
    | Heels
    | Played
    | Go
    | GoPoint
    | CountReset
    | Shown
    | Claimed
    | Mugginsed
    | Overclaimed
    | GameOver
)


class PointSource(StrEnum):
    """Where points came from: the play, his heels, the points for last at the start (some
    variants), a hand or the crib at the show, or points taken from an opponent's wrong
    claim (``MUGGINS``: by muggins on a short one, or the points over on one too high)."""

    PEGGING = "pegging"
    HEELS = "heels"
    FOR_LAST = "for_last"
    HAND = "hand"
    CRIB = "crib"
    MUGGINS = "muggins"


@dataclass(frozen=True, slots=True)
class Points:
    """Points one event scored: to which seat (and its side), from where, how many, and the
    side's score after them."""

    seat: int
    side: int
    source: PointSource
    points: int
    total: int


def points_scored(event: Event) -> Points | None:
    """The points ``event`` scored, or None for an event that scores nothing.

    >>> points_scored(Go(seat=1)) is None
    True
    >>> points_scored(Heels(seat=0, side=0, points=2, score=2)).source
    <PointSource.HEELS: 'heels'>
    """
    match event:
        case Played() | GoPoint():
            return Points(event.seat, event.side, PointSource.PEGGING, event.points, event.score)
        case Heels():
            return Points(event.seat, event.side, PointSource.HEELS, event.points, event.score)
        case ForLast():
            return Points(event.seat, event.side, PointSource.FOR_LAST, event.points, event.score)
        case Shown():
            if event.claimed is not None:
                return None  # the claim scored (see Claimed); this is the breakdown
            source = PointSource.CRIB if event.crib else PointSource.HAND
            return Points(event.seat, event.side, source, event.score.total, event.total)
        case Claimed():
            source = PointSource.CRIB if event.crib else PointSource.HAND
            return Points(event.seat, event.side, source, event.pegged, event.score)
        case Mugginsed() | Overclaimed():
            return Points(event.seat, event.side, PointSource.MUGGINS, event.points, event.score)
        case CutForDeal() | Dealt() | Discarded() | StarterCut() | Go() | CountReset() | GameOver():
            return None
        case _:
            assert_never(event)


#: Each event class by its ``kind``, for reading events back from JSON.
EVENT_TYPES: dict[str, type[Event]] = {cls.kind: cls for cls in get_args(Event)}


def _cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def _cut(codes: list[str | None]) -> tuple[Card | None, ...]:
    return tuple(None if c is None else Card.parse(c) for c in codes)


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event written by :meth:`EventBase.to_dict`."""
    kind = data.get("kind")
    cls = EVENT_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"Unknown event kind {kind!r}.")
    values = {k: v for k, v in data.items() if k != "kind"}
    if cls is CutForDeal:
        values["rounds"] = tuple(_cut(r) for r in values["rounds"])
    elif cls is StarterCut or cls is Played:
        values["card"] = Card.parse(values["card"])
        if cls is Played:
            values["items"] = tuple(item_from_dict(i) for i in values["items"])
    elif issubclass(cls, _AtTheShow):
        values["cards"] = _cards(values["cards"])
        values["starter"] = Card.parse(values["starter"])
        if cls is Shown:
            values["score"] = score_from_dict(values["score"])
    elif cls is GameOver:
        values["result"] = GameResult.from_dict(values["result"])
    return cls(**values)
