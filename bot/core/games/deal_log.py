"""What the table has seen in the last deals: the calls the channel's table messages show.

The engine's events say what each action did; the messages a game owns are drawn from the
stored game, so the events of the current deal, and of the two deals before, are kept with the
snapshot: a finished deal's table still has to show its end, and the channel's pacing may hold
that last edit for a few seconds while quick players (or computers) start the next deals.
Events are public, so this holds no hidden card. A deal's table must still show its end however
far the game has gone on meanwhile (a backlog of tables): the version of the game each deal was
dealt at is kept for every deal, so the table of a deal the log dropped is known to be final or
not, and drawn again from the game told again when it is not (:mod:`bot.core.messages.finals`).
Also kept: where each side's pegs stand (front
and back, for the board picture) and the coach's line for each person about the deal just shown
(private: it is never drawn on the table, only on that person's own hand message), and the
deal each rule a lesson explains first came up in (:mod:`bot.core.messages.lesson`), which the
three deals kept would forget.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.events import (
    CutForDeal,
    Dealt,
    Event,
    GoPoint,
    Played,
    Shown,
    event_from_dict,
    points_scored,
)

__all__ = ["LAST_CARD", "DealLog", "kinds_of"]

#: The kind of the point for the last card (a go's point that ends the play).
LAST_CARD = "last_card"


def kinds_of(event: Event) -> tuple[str, ...]:
    """What ``event`` shows happening: its kind (the last card's point apart from a go's),
    then the kinds of what it scored (``fifteen``, ``pair``, ``run``...)."""
    if isinstance(event, GoPoint) and event.last_card:
        return (LAST_CARD,)
    items = event.items if isinstance(event, Played) else ()
    items = event.score.items if isinstance(event, Shown) else items
    return (event.kind, *dict.fromkeys(str(item.kind) for item in items))


#: How many deals' events are kept: the current one and the two before (a deal's last edit
#: of its table, or of a player's hand, waits at most one window of the channel's edit limit,
#: 5 s; two whole deals in that time would take superhuman players).
_KEPT = 3


@dataclass(slots=True)
class DealLog:
    """The events of the last three deals by deal number (0 holds the cut for deal), the pegs of
    each side (now, and when each kept deal's show ended), and the coach's lines about
    ``coach_deal``."""

    deals: dict[int, list[Event]] = field(default_factory=dict)
    #: Per side: (front, back) peg: the score now and the score before the side last scored.
    pegs: list[tuple[int, int]] = field(default_factory=list)
    #: The pegs as a deal's show left them, for each kept deal that is over: its table keeps
    #: the board of that moment while the next deal moves the pegs on.
    shown: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    coach: dict[int, str] = field(default_factory=dict)
    coach_deal: int = 0
    #: The deal each kind of event and of score first came up in (:func:`kinds_of`).
    firsts: dict[str, int] = field(default_factory=dict)
    #: The version of the game each deal was dealt at, of every deal the game saved dealt
    #: (however many the log drops): a deal's table drawn at a version from its next deal's on
    #: is its final table (:mod:`bot.core.messages.finals`).
    began: dict[int, int] = field(default_factory=dict)
    #: How many deals' events are kept (None: every deal, for a game told again or
    #: a game's page, :class:`~bot.core.messages.spectator.DealHistory`).
    keep: int | None = field(default=_KEPT, compare=False)
    #: The events as JSON-ready data, made once per event (the snapshot is written after
    #: every move, and turning every event of two deals into data each time was costly).
    _data: dict[int, list[dict[str, Any]]] = field(default_factory=dict, compare=False)

    @classmethod
    def start(cls, num_sides: int, *, every_deal: bool = False) -> DealLog:
        """An empty log for a new game (``every_deal``: keeping every deal's events, for a game
        told again)."""
        return cls(pegs=[(0, 0)] * num_sides, keep=None if every_deal else _KEPT)

    @property
    def deal(self) -> int:
        """The deal whose events come in now (0 before the first deal)."""
        return max(self.deals, default=0)

    def events(self, deal: int) -> Sequence[Event]:
        """The events of ``deal`` (empty when it is not kept)."""
        return self.deals.get(deal, [])

    def cut(self) -> CutForDeal | None:
        """The cut for first deal, while the first deal's table is kept."""
        return next((e for e in self.events(0) if isinstance(e, CutForDeal)), None)

    def add(self, events: Iterable[Event], *, version: int | None = None) -> None:
        """Record the events of one action (a new deal's ``Dealt`` starts a new list), saved as
        the game's ``version`` (when known: a deal dealt then began at it)."""
        for event in events:
            if isinstance(event, Dealt):
                if self.deal >= 1:
                    self.shown[self.deal] = list(self.pegs)
                self.deals[event.deal_number] = []
                self._data[event.deal_number] = []
                if version is not None:
                    self.began[event.deal_number] = version
                dealt = sorted(d for d in self.deals if d >= 1)
                for old in [] if self.keep is None else dealt[: -self.keep]:
                    del self.deals[old]
                    self._data.pop(old, None)
                    self.shown.pop(old, None)
                if 1 not in self.deals:
                    # The cut for deal is drawn on the first deal's table: kept as long as it.
                    self.deals.pop(0, None)
                    self._data.pop(0, None)
            self.deals.setdefault(self.deal, []).append(event)
            self._data.setdefault(self.deal, []).append(event.to_dict())
            for kind in kinds_of(event):
                self.firsts.setdefault(kind, self.deal)
            scored = points_scored(event)
            if scored is not None and scored.points:
                front, _ = self.pegs[scored.side]
                self.pegs[scored.side] = (scored.total, front)

    def pegs_after(self, deal: int) -> list[tuple[int, int]] | None:
        """The pegs when ``deal``'s show ended (the current deal: the pegs now); None when
        that moment is not kept."""
        return list(self.pegs) if deal == self.deal else self.shown.get(deal)

    def scores_began(self, deal: int) -> list[int] | None:
        """Each side's score as ``deal`` was dealt, which is its score at every discard of
        that deal (nothing scores before the last card is thrown): for the first deal what
        the cut for deal gave (five-card's points for last), else the pegs the deal before
        left; None when that moment is not kept."""
        if deal <= 1:
            began = [0] * len(self.pegs)
            for event in self.events(0):
                scored = points_scored(event)
                if scored is not None:
                    began[scored.side] = scored.total
            return began
        pegs = self.shown.get(deal - 1)  # (kept as the deal was dealt)
        return None if pegs is None else [front for front, _ in pegs]

    def set_coach(self, deal: int, lines: Mapping[int, str]) -> None:
        """The coach's line for each person (by seat) about ``deal``'s discard."""
        self.coach_deal = deal
        self.coach = dict(lines)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        for deal, events in self.deals.items():
            if len(self._data.get(deal, ())) != len(events):
                self._data[deal] = [e.to_dict() for e in events]
        data: dict[str, Any] = {
            "deals": {str(n): self._data[n] for n in self.deals},
            "pegs": [list(p) for p in self.pegs],
            "shown": {str(n): [list(p) for p in pegs] for n, pegs in self.shown.items()},
            "coach": {str(seat): line for seat, line in self.coach.items()},
            "coach_deal": self.coach_deal,
        }
        if self.firsts:
            # (A log read back from before lessons, with none yet, is written as it was.)
            data["firsts"] = dict(self.firsts)
        if self.began:
            # (Likewise a log from before the deals' versions were kept.)
            data["began"] = {str(n): v for n, v in self.began.items()}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DealLog:
        """Rebuild a log written by :meth:`to_dict`."""
        return cls(
            deals={int(n): [event_from_dict(e) for e in evs] for n, evs in data["deals"].items()},
            _data={int(n): list(evs) for n, evs in data["deals"].items()},
            pegs=[(int(front), int(back)) for front, back in data["pegs"]],
            # Logs saved before the pegs of each show were kept have none.
            shown={
                int(n): [(int(front), int(back)) for front, back in pegs]
                for n, pegs in data.get("shown", {}).items()
            },
            coach={int(seat): str(line) for seat, line in data["coach"].items()},
            coach_deal=int(data["coach_deal"]),
            # Logs saved before lessons noted none.
            firsts={str(rule): int(deal) for rule, deal in data.get("firsts", {}).items()},
            # Logs saved before the deals' versions were kept have none.
            began={int(n): int(v) for n, v in data.get("began", {}).items()},
        )
