"""What the store keeps, as plain values: games with their seats, results and standings.

The store (``bot.store``) reads and writes these; the service, the rendering and the results
use them without knowing how they are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.counting import Counting
from engine.outcome import Scoring

__all__ = [
    "OPEN_STATUSES",
    "ORDINAL_SIGMAS",
    "DmLink",
    "GameRecord",
    "GameStatus",
    "LeaderRow",
    "MessageRecord",
    "PendingPost",
    "Ranked",
    "RatingChange",
    "ResultRecord",
    "Rival",
    "RivalGame",
    "SeatRecord",
    "Standing",
    "StatsRow",
    "ordinal",
    "ordinal_sql",
]


class GameStatus(StrEnum):
    """Where a game is in its life (the ``games.status`` column)."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


#: A game that may still change: at most one per channel.
OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)


#: How many standard deviations the conservative rating stays below the mean: a player's
#: ordinal, which ranks them, is ``mu - ORDINAL_SIGMAS * sigma`` (openskill's ordinal).
ORDINAL_SIGMAS = 3


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating that ranks players: ``mu - 3 sigma``.

    >>> ordinal(25.0, 25 / 3)
    0.0
    """
    return mu - ORDINAL_SIGMAS * sigma


def ordinal_sql(mu: str, sigma: str) -> str:
    """:func:`ordinal` as SQL, of the columns ``mu`` and ``sigma``."""
    return f"{mu} - {ORDINAL_SIGMAS} * {sigma}"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a game: who sits there and the name shown at the table; a computer seat
    (``is_computer``, no user) also has its difficulty ``level``."""

    seat: int
    user_id: int | None
    name: str
    is_computer: bool = False
    level: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored, with its seats in seat order."""

    id: int
    guild_id: int | None
    channel_id: int
    status: GameStatus
    creator_id: int
    num_players: int
    target: int
    vs_computer: bool
    snapshot: str | None
    version: int
    created_at: float
    updated_at: float
    seats: tuple[SeatRecord, ...]
    #: Why a game without a result ended, as the channel was told (cancelled, expired).
    end_note: str | None = None
    #: The table's options: the rule for game points and who counts the show.
    scoring: Scoring = Scoring.LURCH
    counting: Counting = Counting.AUTO
    #: Played where the bot is not a member (a DM between people, a group DM, a server that
    #: did not invite it): its messages are reached through interactions' tokens alone.
    private: bool = False

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` sits in, or None."""
        for seat in self.seats:
            if seat.user_id == user_id and not seat.is_computer:
                return seat.seat
        return None

    @property
    def is_open(self) -> bool:
        """Whether the game may still change (a lobby or a game being played)."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """A message a game owns, as last sent: where it is, and a digest of what it showed
    (``""`` when unknown). ``token``/``token_at``: an interaction whose webhook may edit it
    until 15 minutes after ``token_at``: the one it is a follow-up of, or (``original``) the
    latest click on it, whose original response it then is. ``version``: the game's version
    what it shows was drawn at (a record of an older one never replaces a newer one).
    ``unconfirmed_since``: the look is a click's answer, kept with its move, not yet known to
    have reached Discord (since then)."""

    key: str
    channel_id: int
    message_id: int
    digest: str
    token: str | None = None
    token_at: float | None = None
    original: bool = False
    version: int = 0
    unconfirmed_since: float | None = None


@dataclass(frozen=True, slots=True)
class PendingPost:
    """A DM that was about to be posted (since ``since``, a Unix time) when last heard of: if
    its id was never kept, the process died between the post and the keeping."""

    key: str
    channel_id: int
    since: float


@dataclass(frozen=True, slots=True)
class DmLink:
    """What is known of the DM channel with a user: its id, and their latest interaction in
    it (whose webhook may post follow-ups there until 15 minutes after ``token_at``)."""

    user_id: int
    channel_id: int | None
    token: str | None
    token_at: float | None


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """One player's result in a finished game."""

    seat: int
    user_id: int | None
    display_name: str
    is_computer: bool
    won: bool
    game_points: int
    skunk_given: bool
    skunk_taken: bool
    score: int
    final_scores: str
    reason: str
    pegging_points: int
    hand_points: int
    crib_points: int
    deals: int
    best_hand: int
    best_hand_cards: str | None
    twenty_nines: int
    #: Manual counting: points this player's claims left out, points opponents took from
    #: them by muggins, and points they took from others.
    points_missed: int = 0
    muggins_given: int = 0
    muggins_taken: int = 0
    computer_level: str | None = None
    #: The rule the game's points were scored by: its losses past the first threshold are
    #: lurches (``lurch``) or skunks (``skunk``, the American scale).
    scoring: Scoring = Scoring.SKUNK


class _WinRate:
    """``win_rate`` for a row with ``games`` and ``wins``."""

    __slots__ = ()
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins as a fraction of games played (0 when none)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class LeaderRow(_WinRate):
    """A player's standing on a server, over games between people or against the computer."""

    user_id: int
    name: str
    games: int
    wins: int
    losses: int
    game_points: int
    skunks_given: int
    skunks_taken: int
    lurches_given: int = 0
    lurches_taken: int = 0


@dataclass(frozen=True, slots=True)
class StatsRow(_WinRate):
    """A player's totals over one group of games (people only, or against the computer)."""

    games: int
    wins: int
    skunks_given: int
    skunks_taken: int
    pegging_points: int
    hand_points: int
    crib_points: int
    deals: int
    best_hand: int
    best_hand_cards: str | None
    twenty_nines: int
    points_missed: int = 0
    muggins_given: int = 0
    muggins_taken: int = 0
    #: Games won (given) and lost (taken) by a lurch; ``skunks_*`` count those of the skunk
    #: scale, the rule each game was played under deciding which.
    lurches_given: int = 0
    lurches_taken: int = 0


@dataclass(frozen=True, slots=True)
class Standing(_WinRate):
    """A player's rating and running totals on a server, over games between people
    (``vs_computer`` False) or games with a computer seat. ``player_id`` is the user's id, or
    for a computer level a negative number (:data:`bot.core.ratings.COMPUTER_IDS`)."""

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
    pegging_points: int = 0
    hand_points: int = 0
    crib_points: int = 0
    deals: int = 0
    best_hand: int = 0
    best_hand_cards: str | None = None
    twenty_nines: int = 0
    points_missed: int = 0
    muggins_given: int = 0
    muggins_taken: int = 0
    last_order: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating that ranks players (:func:`ordinal`)."""
        return ordinal(self.mu, self.sigma)

    @property
    def losses(self) -> int:
        """Games not won."""
        return self.games - self.wins

    @property
    def is_computer(self) -> bool:
        """Whether this is a computer level rather than a person."""
        return self.player_id < 0


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's rating before and after one game (``order`` is the game's ``rated_order``)."""

    game_id: int
    seat: int
    guild_id: int
    vs_computer: bool
    player_id: int
    order: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    finished_at: float

    @property
    def ordinal_before(self) -> float:
        """The conservative rating before the game."""
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def ordinal_after(self) -> float:
        """The conservative rating after it."""
        return ordinal(self.mu_after, self.sigma_after)


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


@dataclass(frozen=True, slots=True)
class Ranked:
    """A standing with its place in its table: ``rank`` (1 is first) of ``of`` players, and
    ``trend_from``, the ordinal before the player's last 10 games (the trend's baseline)."""

    standing: Standing
    rank: int
    of: int
    trend_from: float
