"""What the store keeps of a tournament: the event, its entrants and its pairings.

A tournament's format is kept by its name and read back as its strategy from the engine's
registry (:mod:`engine.formats`): ``record.format`` pairs the rounds, says who wins and how
many rounds there are. The store does not limit the names; the core takes only a registered
one (``Tournaments.new``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from bot.core.base.store_errors import StoreError
from engine.formats import TournamentFormat, named
from engine.tournament import playoff_rounds

__all__ = [
    "TOURNAMENT_BUSY",
    "ChampionRecord",
    "Decided",
    "EntrantRecord",
    "Format",
    "PairingRecord",
    "TournamentBusy",
    "TournamentPlan",
    "TournamentRecord",
    "TournamentStatus",
    "Verdict",
]

#: The knockout rounds of a playoff of 4 or 8 (the sizes a tournament may choose; 0: none).
PLAYOFF_ROUNDS = {size: playoff_rounds(size) for size in (0, 4, 8)}

TOURNAMENT_BUSY = (
    "This channel has a tournament already: see its message, or `/cribbage tournament standings`."
)


class TournamentBusy(StoreError):
    """The channel already has a tournament taking entrants or being played."""

    def __init__(self) -> None:
        super().__init__(TOURNAMENT_BUSY)


class Format:
    """The formats every release has, for the code that means one of them by name (a test, a
    default); a tournament's format is whichever registered one it was opened with."""

    SWISS: Final[TournamentFormat] = named("swiss")
    ROUND_ROBIN: Final[TournamentFormat] = named("round_robin")
    KNOCKOUT: Final[TournamentFormat] = named("knockout")


class TournamentStatus(StrEnum):
    """Where a tournament is: taking entrants, being played, over."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Decided(StrEnum):
    """How a pairing's result came about."""

    GAME = "game"
    BYE = "bye"
    FORFEIT = "forfeit"
    DEADLINE = "deadline"
    WITHDRAWN = "withdrawn"
    MODERATOR = "moderator"


@dataclass(frozen=True, slots=True)
class Verdict:
    """A pairing's result as it is written: how it came about, who won (None: a loss for
    both), whether the winner lurched the loser, and by how many points."""

    how: Decided
    winner: int | None
    lurch: bool = False
    margin: int = 0


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """A tournament as its organiser opens it, before the store gives it an id: where, by
    whom, and its format and rules (what :class:`TournamentRecord` keeps of them)."""

    guild_id: int
    channel_id: int
    organiser_id: int
    format: TournamentFormat
    target: int
    scoring: str
    round_hours: float
    #: Rounds chosen (0: as many as the format plays for the entrants, set at the start).
    rounds: int = 0
    match_games: int = 1
    playoff: int = 0
    variant: str = "standard"


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One tournament as stored. ``rounds`` as asked when it was opened (0: set when it
    starts), then how many it plays; ``round`` the round being played (0: none paired yet)."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    format: TournamentFormat
    rounds: int
    target: int
    scoring: str
    round_hours: float
    status: TournamentStatus
    round: int
    round_started: float | None
    version: int
    created_at: float
    finished_at: float | None = None
    #: Games a pairing plays: 1, or 3 (best of 3: the first to win 2).
    match_games: int = 1
    #: A Swiss event's playoff: its top 4 or 8 into a best-of-3 knockout (0: none).
    playoff: int = 0
    #: Who cancelled it (None: not cancelled, or cancelled before this was kept).
    cancelled_by: int | None = None
    #: The variant every game of it is played in (a two-player one; migration 020).
    variant: str = "standard"
    #: Seconds of the round being played in which Discord refused the bot its tables, before
    #: the refusal under way if there is one (its clock stopped: the deadline adds them), and
    #: since when it refuses them (None: it takes them); migration 027.
    round_held: float = 0.0
    refused_since: float | None = None

    @property
    def deadline(self) -> float | None:
        """When the round being played is out of time (None: none is, or its clock is stopped
        while Discord refuses its tables)."""
        if self.round_started is None or self.refused_since is not None:
            return None
        return self.round_started + self.round_held + self.round_hours * 3600

    @property
    def swiss_rounds(self) -> int:
        """The rounds before the playoff (all of them without one)."""
        return self.rounds - PLAYOFF_ROUNDS[self.playoff]

    def in_playoff(self, round_: int) -> bool:
        """Whether ``round_`` is a playoff round."""
        return bool(self.playoff) and round_ > self.swiss_rounds

    def games_in(self, round_: int) -> int:
        """Games a pairing of ``round_`` plays: a playoff's are best of 3."""
        return 3 if self.in_playoff(round_) else self.match_games


@dataclass(frozen=True, slots=True)
class ChampionRecord:
    """A finished tournament's champion, for the hall of fame: who, which event (its format,
    channel, how many entered and its variant) and when it ended."""

    user_id: int
    name: str
    format: TournamentFormat
    channel_id: int
    entrants: int
    finished_at: float
    #: The variant its games were played in.
    variant: str = "standard"


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """One entrant: who, the name shown, the order they joined in, and the round they
    withdrew in (None: still in)."""

    user_id: int
    name: str
    seed: int
    withdrawn: int | None = None


@dataclass(frozen=True, slots=True)
class PairingRecord:
    """One table of one round: ``player_b`` None is a bye. The thread's start (``post_id``),
    the thread and the game are kept as they are made; ``decided`` says how the result came
    (None: still to play), ``winner`` None once decided is a loss for both. ``version`` moves
    on with every change of the pairing (its thread, its game, a game counted, its result, a
    player's withdrawal or deletion): the change that opens its game names it."""

    round: int
    tab: int
    player_a: int
    player_b: int | None
    post_id: int | None = None
    thread_id: int | None = None
    game_id: int | None = None
    decided: Decided | None = None
    winner: int | None = None
    lurch: bool = False
    margin: int = 0
    #: A best of 3 so far: games each has won, and player_a's margins (won minus lost).
    wins_a: int = 0
    wins_b: int = 0
    spread_a: int = 0
    #: Whether the bot archived the pairing's thread (once it was decided).
    archived: bool = False
    version: int = 0
