"""Counting the show by hand, with muggins: the table option and what the table can see of it.

With automatic counting (the default) the engine scores every hand and the crib itself. With
manual counting each owner claims what their hand (the dealer also the crib) is worth, in
show order, once: a claim of the exact value is pegged, a claim under it is pegged and opens a
muggins window in which any opponent may take the difference, and a claim over it is pegged
back to the value while each opposing side pegs the points over. Pegging in the play and his
heels stay automatic. What a claim may name is what some hand can score under the game's rules
(:func:`engine.scoring.claim_values`).

>>> Counting("manual") is Counting.MANUAL
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.cards import Card

__all__ = ["CountTurn", "Counting", "MugginsWindow"]


class Counting(StrEnum):
    """Who counts the show: the engine (``AUTO``) or each hand's owner (``MANUAL``, with
    muggins). Members equal their values, which is what saved games and the store hold."""

    AUTO = "auto"
    MANUAL = "manual"


@dataclass(frozen=True, slots=True)
class CountTurn:
    """The hand whose count the table waits for: its owner, whether it is the crib, and its
    cards (public: hands are laid face up at the show, and the crib is turned up when
    its turn comes)."""

    seat: int
    crib: bool
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class MugginsWindow:
    """A claim open to muggins: whose hand (``seat``, ``side``), whether it was the crib, what
    was claimed, and ``passed``: the opponents who called muggins on it wrongly (the claim was
    right), who may not call it again. The true value is not kept here: anyone may work it
    out from the cards, which is the point of muggins. (Games whose claims were logged before
    every claim opened a window open one only on a claim under the true value.)"""

    seat: int
    side: int
    crib: bool
    claimed: int
    passed: tuple[int, ...] = ()
    #: Opened on a claim whatever it was worth (see :meth:`engine.game.Game.claim`).
    blind: bool = False
    #: The next hand waits for it: no claim closes it while an opponent of another side than
    #: the claimant's may still call it (see :meth:`holds`). (Windows opened before it was
    #: kept let the next claim close them: the owner of a blind one could count their crib
    #: at once, and any other seat its hand, taking the others' chance to call it.)
    waits: bool = False

    def holds(self, seat: int, sides: Sequence[int]) -> bool:
        """Whether the window keeps ``seat`` (whose turn it is to count) from claiming now,
        the seats' ``sides`` as given. A window that waits holds every seat while some
        opponent of the claim, on another side than ``seat``'s, has not had its chance (a
        seat's own claim is its side's pass: it closes the window); the owner so waits for
        every opponent. Of the windows before: the owner of one opened only on a short claim
        waits for it to close."""
        if not self.waits:
            return self.seat == seat and not self.blind
        return any(sides[caller] != sides[seat] for caller in self.callers(sides))

    def callers(self, sides: Sequence[int]) -> tuple[int, ...]:
        """The seats that may still call it, the seats' ``sides`` as given: each on another
        side than the claim's that has not had its chance (called wrongly, or passed)."""
        return tuple(
            seat for seat, side in enumerate(sides) if side != self.side and seat not in self.passed
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (``passed`` only when someone called wrongly, so windows saved
        before it existed save back unchanged)."""
        data: dict[str, Any] = {
            "seat": self.seat,
            "side": self.side,
            "crib": self.crib,
            "claimed": self.claimed,
        }
        if self.passed:
            data["passed"] = list(self.passed)
        if self.blind:
            data["blind"] = True
        if self.waits:
            data["waits"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MugginsWindow:
        """Rebuild a window written by :meth:`to_dict`."""
        return cls(
            seat=int(data["seat"]),
            side=int(data["side"]),
            crib=bool(data["crib"]),
            claimed=int(data["claimed"]),
            passed=tuple(int(seat) for seat in data.get("passed", ())),
            blind=bool(data.get("blind", False)),
            waits=bool(data.get("waits", False)),
        )
