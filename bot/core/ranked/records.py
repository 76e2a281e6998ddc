"""What the store keeps of ranked play, as plain values: each player's entry (their search, then
their match, at the place they queued from), the matches, their games, the season ratings, and
the blocks between players.

A player holds at most one live entry (searching, or matched): the store refuses a second
(:class:`AlreadyRanked`), whichever process is asked, so a player is in one queue or one match
at a time. An entry is matched at most once: the transaction that pairs two entries takes each
from ``searching`` to ``matched`` and names the match, or takes neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.core.base.places import PlaceKind
from bot.core.base.seating import SeatPlace, Through
from bot.core.base.store_errors import StoreError
from bot.core.games.endings import Ending

__all__ = [
    "NOT_RATED",
    "AlreadyRanked",
    "EntryRecord",
    "EntryStatus",
    "MatchGame",
    "MatchLine",
    "MatchRecord",
    "MatchStatus",
    "RatingRecord",
    "Search",
    "Unrated",
    "unrated_why",
]

#: How a match that ended without a result was decided (``ranked_matches.how``): no winner,
#: no season, no rating change, abandoned by nobody (the referee's, when the bot was down too
#: long to reach a player, or both players let their clocks run out in the same turn:
#: :mod:`bot.core.ranked.referee`, and :class:`Unrated` says which). The games' own word for
#: an end without a result, as its game still open was ended.
NOT_RATED = Ending.CANCELLED


class Unrated(StrEnum):
    """Why a match ended without a result (:data:`NOT_RATED`), as its games say
    (:func:`unrated_why`)."""

    #: The bot was down too long to reach a player's place.
    DOWN = "down"
    #: Both players owed a move (the crib's cards) and both clocks ran out: neither of them
    #: played, and the one treated no worse than the other; the game ended with no result,
    #: its ending the clock's (``games.ending``), counted for nobody.
    BOTH_LATE = "both_late"


class EntryStatus(StrEnum):
    """Where a player's entry is (the ``ranked_entries.status`` column)."""

    #: In the queue, waiting for an opponent.
    SEARCHING = "searching"
    #: Paired: its match is being played.
    MATCHED = "matched"
    #: Its match is over.
    DONE = "done"
    #: Its player stopped the search (or took the expert's game instead).
    STOPPED = "stopped"
    #: Nobody was found in time.
    EXPIRED = "expired"

    @property
    def live(self) -> bool:
        """Whether the entry still holds its player (one live entry a player)."""
        return self in (EntryStatus.SEARCHING, EntryStatus.MATCHED)


@dataclass(frozen=True, slots=True)
class Search:
    """A player's search as they start it, what their entry is written from: who (their name
    and picture as the opponent will see them), the place they search from (``guild_id``
    None: a DM or group DM; ``channel_id``, and what kind of ``place`` it is), the skill it
    matches on (``mu``: their latest season rating's, a newcomer's for a first season) and
    the opponent of their last match (never met twice in a row)."""

    user_id: int
    name: str
    avatar: str | None
    guild_id: int | None
    channel_id: int
    place: PlaceKind
    mu: float
    last_opponent: int | None

    @property
    def place_apart(self) -> SeatPlace:
        """The place its player plays their match's games from: where they searched, reached
        through their interactions' tokens alone (the match's games are played apart)."""
        return SeatPlace(self.place, Through.TOKENS, self.channel_id, self.guild_id)


@dataclass(frozen=True, slots=True)
class EntryRecord(Search):
    """One player's ranked entry: their search as it was written (:class:`Search`), where it
    is (``status``), when it was queued and, once paired, its match. ``version`` moves on
    with every change (the card drawn from it follows)."""

    id: int
    status: EntryStatus
    queued_at: float
    match_id: int | None
    ended_at: float | None
    version: int


class MatchStatus(StrEnum):
    """Where a match is (the ``ranked_matches.status`` column)."""

    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A best of three between the players of two entries (``a`` sits first in every game).
    ``games`` is how many of its games were opened, ``game_id`` the latest; ``wins_a`` and
    ``wins_b`` the games each won. Once finished: ``winner``, ``how`` it was decided
    (``games``: two games won; ``left``, :data:`Ending.LEFT
    <bot.core.games.endings.Ending.LEFT>`: the other left the match; :data:`NOT_RATED`:
    ended without a result, no ``winner`` and no ``season``), ``abandoned_by`` (a
    player who left it, or lost it on the clock without moving), and the ``season`` it was
    rated in. A match decided by a player leaving counts the game being played then as theirs
    to lose: ``wins_a`` and ``wins_b`` include it. ``version`` moves on with every change of
    the match (a game opened or counted, the match decided, a player's deletion): what a
    reader keeps of it is of that version, and the change that opens its next game names it."""

    id: int
    entry_a: int
    entry_b: int
    player_a: int
    player_b: int
    status: MatchStatus
    wins_a: int
    wins_b: int
    games: int
    game_id: int | None
    winner: int | None
    how: str | None
    abandoned_by: int | None
    season: str | None
    started_at: float
    ended_at: float | None
    version: int

    @property
    def rated(self) -> bool:
        """Whether the match, finished, counted: won by someone and rated (not
        :data:`NOT_RATED`)."""
        return self.how != NOT_RATED

    def opponent(self, user_id: int) -> int:
        """The other player of the match."""
        return self.player_b if user_id == self.player_a else self.player_a

    def seat_of(self, user_id: int) -> int:
        """The seat ``user_id`` takes in the match's games (a first, b second)."""
        return 0 if user_id == self.player_a else 1

    def wins_of(self, user_id: int) -> int:
        """The games ``user_id`` has won in the match."""
        return self.wins_a if user_id == self.player_a else self.wins_b


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game of a match: its number (from 1), its game, once counted who won it, and once
    it finished how it ended (the game's own ending, :class:`~bot.core.games.endings.Ending`:
    played out, resigned, the loser's clock ran out, the loser left the match...)."""

    match_id: int
    number: int
    game_id: int
    winner: int | None
    ending: Ending | None


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A player's rating in one season (``YYYY-MM``): openskill's ``mu`` and ``sigma``, the
    matches played in it and won."""

    season: str
    user_id: int
    name: str
    mu: float
    sigma: float
    matches: int
    wins: int
    updated_at: float


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One finished match as one of its players looks back on it: the opponent, whether they
    won, the games each took, how it was decided, and their rating before and after; one
    that ended without a result (:data:`NOT_RATED`) says why (``unrated``)."""

    match_id: int
    opponent_id: int
    opponent_name: str
    won: bool
    games_won: int
    games_lost: int
    how: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    ended_at: float
    unrated: Unrated | None = None


def unrated_why(games: Sequence[MatchGame]) -> Unrated:
    """Why the match whose games are ``games`` ended without a result: a game of it that
    both clocks ended (counted for nobody, its ending the clock's) says both were late;
    else the bot was down."""
    both = any(g.winner is None and g.ending is Ending.CLOCK for g in games)
    return Unrated.BOTH_LATE if both else Unrated.DOWN


class AlreadyRanked(StoreError):
    """A player with a live entry (searching, or in a match) asked for another: ``entry`` is
    the live one."""

    def __init__(self, entry: EntryRecord | None) -> None:
        super().__init__("already searching or in a ranked match")
        self.entry = entry
