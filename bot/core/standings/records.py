"""What the store keeps of the standings, as plain values: a player's standing (its totals are
their stats), the rows of the leaderboard, their rivals, and the ordinal ratings are ranked by.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.games.records import ordinal
from bot.core.games.tally import SeatTally
from engine.variants import STANDARD

__all__ = [
    "Ranked",
    "Rival",
    "RivalGame",
    "Standing",
]


@dataclass(frozen=True, slots=True)
class Standing(SeatTally):
    """A player's rating and running totals (their seats' tallies summed) on a server in one
    variant, over games between people (``vs_computer`` False) or games with a computer seat.
    ``player_id`` is the user's id, or for a computer level a negative number
    (:data:`bot.core.standings.ratings.COMPUTER_IDS`)."""

    guild_id: int
    vs_computer: bool
    player_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    game_points: int = 0
    skunks_given: int = 0
    skunks_taken: int = 0
    lurches_given: int = 0
    lurches_taken: int = 0
    last_order: int = 0
    #: The variant whose games these are (each variant is rated apart).
    variant: str = STANDARD.name

    @property
    def ordinal(self) -> float:
        """The conservative rating that ranks players (:func:`ordinal`)."""
        return ordinal(self.mu, self.sigma)

    @property
    def losses(self) -> int:
        """Games not won."""
        return self.games - self.wins

    @property
    def win_rate(self) -> float:
        """Wins as a fraction of games played (0 when none)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def is_computer(self) -> bool:
        """Whether this is a computer level rather than a person."""
        return self.player_id < 0


@dataclass(frozen=True, slots=True)
class RivalGame:
    """One game between two people, from the first one's side: ``outcome`` is ``"W"`` (their
    side won), ``"L"`` (the other's side won) or ``"-"`` (a third player won)."""

    game_id: int
    finished_at: float
    outcome: str
    score: int
    opponent_score: int
    game_points: int
    #: The variant it was played in (head to head counts every game between the two).
    variant: str = STANDARD.name


@dataclass(frozen=True, slots=True)
class Rival:
    """Head to head: ``user_id``'s games on a server against ``opponent_id`` (on opposite
    sides), with the last five, newest first."""

    guild_id: int
    user_id: int
    opponent_id: int
    games: int = 0
    wins: int = 0
    losses: int = 0
    points_won: int = 0
    points_lost: int = 0
    margin: int = 0
    recent: tuple[RivalGame, ...] = ()

    @property
    def average_margin(self) -> float:
        """The user's score less the opponent's, on average per game (0 when none)."""
        return self.margin / self.games if self.games else 0.0


#: How many of a player's latest games the leaderboard's trend spans (the store reads the
#: ordinal before them; the table's column and its note say it).
TREND_GAMES = 10


@dataclass(frozen=True, slots=True)
class Ranked:
    """A standing with its place in its table: ``rank`` (1 is first) of ``of`` players, and
    ``trend_from``, the ordinal before the player's last :data:`TREND_GAMES` games (the
    trend's baseline)."""

    standing: Standing
    rank: int
    of: int
    trend_from: float
