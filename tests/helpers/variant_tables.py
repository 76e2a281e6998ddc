"""Every table a registered variant offers, for the tests that try them all: each number of
seats, and for a variant that ``/cribbage new``'s ``teams`` names (six-hand in two teams of
three, in three pairs) that layout."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.games.lobby import TEAMS
from engine.variants import Variant, listed

__all__ = ["Table", "every_table"]


@dataclass(frozen=True, slots=True)
class Table:
    """A table ``/cribbage new`` opens: a variant, its number of seats, at six its teams."""

    variant: Variant
    players: int
    teams: str | None = None

    def __str__(self) -> str:
        teams = f", teams {self.teams}" if self.teams else ""
        return f"{self.variant.name} for {self.players}{teams}"


def every_table() -> list[Table]:
    """Each registered variant at each number of seats it offers, with the ``teams`` layout
    that names it (none for a variant no layout names)."""
    found: list[Table] = []
    for variant in listed():
        layouts: list[str | None] = [name for name, dealt in TEAMS.items() if dealt is variant]
        for seats in variant.seats:
            found += [Table(variant, seats, teams) for teams in layouts or [None]]
    return found
