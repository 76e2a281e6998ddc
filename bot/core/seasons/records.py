"""What the store gives of a season and of the hall of fame."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FamousHand", "SeasonLine"]


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """One person's month: games finished, games won, game points."""

    user_id: int
    name: str
    games: int
    wins: int
    game_points: int


@dataclass(frozen=True, slots=True)
class FamousHand:
    """A hand for the hall of fame: whose, its count, its cards, when (a Unix time), and the
    channel its game was played in (None if that is not known)."""

    user_id: int
    name: str
    points: int
    cards: str
    at: float
    channel_id: int | None = None
