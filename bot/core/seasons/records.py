"""What the store gives of a season and of the hall of fame."""

from __future__ import annotations

from dataclasses import dataclass

from engine.variants import STANDARD

__all__ = ["FamousHand", "Period", "SeasonLine"]


@dataclass(frozen=True, slots=True)
class Period:
    """The results a season's table counts: a server's games of ``variant`` (its name) that
    finished from ``start`` to before ``end`` (Unix times), between people or, with
    ``vs_computer``, against the computer."""

    guild_id: int
    start: float
    end: float
    variant: str = STANDARD.name
    vs_computer: bool = False


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
