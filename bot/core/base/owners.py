"""Who owns a Discord message: a game today, and whatever comes next (a tournament's live
standings, a league board).

The ledger of what Discord should show (:mod:`bot.core.ledger`) is keyed by owner, with one
projection per kind of owner; the change feed (:mod:`bot.core.base.feed`) names the owner that
changed. An owner is written ``kind:id`` wherever it is stored (``game:12``).

>>> Owner.game(12)
Owner(kind=<OwnerKind.GAME: 'game'>, id=12)
>>> str(Owner.game(12)), Owner.parse("game:12") == Owner.game(12)
('game:12', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Owner", "OwnerKind"]


class OwnerKind(StrEnum):
    """The kinds of things that keep messages on Discord."""

    GAME = "game"
    TOURNAMENT = "tournament"


@dataclass(frozen=True, slots=True, order=True)
class Owner:
    """One thing that keeps messages: its kind and its id among things of that kind."""

    kind: OwnerKind
    id: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"

    @classmethod
    def game(cls, game_id: int) -> Owner:
        """The owner that is the game ``game_id``."""
        return cls(OwnerKind.GAME, game_id)

    @classmethod
    def tournament(cls, tournament_id: int) -> Owner:
        """The owner that is the tournament ``tournament_id`` (its live message)."""
        return cls(OwnerKind.TOURNAMENT, tournament_id)

    @classmethod
    def parse(cls, text: str) -> Owner:
        """The owner written ``kind:id``; ``ValueError`` for anything else."""
        kind, sep, number = text.partition(":")
        if not sep or not number.isdecimal():
            raise ValueError(f"Not an owner: {text!r}.")
        return cls(OwnerKind(kind), int(number))
