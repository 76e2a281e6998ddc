"""What the store keeps of a game, as plain values: the game with its seats, each player's result,
and the rating change a result shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from bot.core.base.seating import CHANNEL_SEATING, Seating
from bot.core.games.endings import Ended, Ending, ended_with
from bot.core.games.tally import SeatTally
from engine.counting import Counting
from engine.game import Game
from engine.outcome import Scoring
from engine.rules import Rules
from engine.variants import STANDARD, listed, named

__all__ = [
    "FORMER_PLAYERS",
    "FOUR_CARD_SHOWS",
    "OPEN_STATUSES",
    "ORDINAL_SIGMAS",
    "GameChange",
    "GameRecord",
    "GameStatus",
    "Lesson",
    "Match",
    "NewGame",
    "Occasion",
    "Options",
    "RatingChange",
    "ResultRecord",
    "Round",
    "SeatRecord",
    "SeriesResult",
    "former_player",
    "is_former",
    "occasion_words",
    "ordinal",
    "ordinal_sql",
]

#: The ids that stand for players who had their data deleted (``/cribbage privacy``): one such
#: id a player, drawn at random from this range (no Discord id or computer is negative this
#: far down, and a JSON number still holds it exactly), in the results and seats of the games
#: they played, so those games stay whole for their opponents and replay to the same ratings;
#: their own standings, rating changes and head to head are gone, and stay so in a replay.
FORMER_PLAYERS = range(-(2**53), -(2**52))


def is_former(player: int) -> bool:
    """Whether ``player`` stands for a player who had their data deleted."""
    return player in FORMER_PLAYERS


def former_player(draw: Callable[[int], int]) -> int:
    """A new former player's id (``draw(n)``: a random number below ``n``)."""
    return FORMER_PLAYERS.start + draw(len(FORMER_PLAYERS))


class GameStatus(StrEnum):
    """Where a game is in its life (the ``games.status`` column)."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


#: The variants whose hands are shown as four cards and the starter, as the standard game's
#: (five and six players): their best hands, 28s and 29s stand beside the standard game's.
#: Five-card and seven-card cribbage show three and five, and are not ranked beside them.
FOUR_CARD_SHOWS: tuple[str, ...] = tuple(
    variant.name for variant in listed() if variant.rules().kept == 4
)

#: A game that may still change: at most one per channel.
OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a game: who sits there and the name shown at the table; a computer seat
    (``is_computer``, no user) also has its difficulty ``level``. A rematch's lobby keeps a
    seat for each person of the game before until they take it (``held_until``: until when,
    a Unix time; None: the seat is taken): once that time has passed anyone may take it."""

    seat: int
    user_id: int | None
    name: str
    is_computer: bool = False
    level: str | None = None
    held_until: float | None = None

    @property
    def held(self) -> bool:
        """Whether the seat is kept for someone who has not taken it yet (see the class)."""
        return self.held_until is not None

    def free_at(self, now: float) -> bool:
        """Whether anyone may take the seat at ``now``: it was kept for someone, who did not
        take it in time."""
        return self.held_until is not None and self.held_until <= now


@dataclass(frozen=True, slots=True)
class Options:
    """A table's options, as its opener chose them and its *Rematch* keeps them: how many
    players, the target, every other seat a computer (``vs_computer``), the rule for game
    points, who counts the show, the variant's name and whether hints are allowed (kept whole
    by :class:`GameRecord`; asked for as a :class:`~bot.core.base.replies.TableAsked`)."""

    num_players: int
    target: int
    vs_computer: bool = False
    scoring: Scoring = Scoring.LURCH
    counting: Counting = Counting.AUTO
    #: The name of the variant (:mod:`engine.variants`; migration 020).
    variant: str = STANDARD.name
    #: Every person may ask the expert what it would do (:mod:`bot.core.play.hints`;
    #: migration 025); a game against the computer alone offers hints whatever this says.
    hints: bool = False

    @property
    def rules(self) -> Rules:
        """The rules the options give: the variant's for the players, target, scoring and
        counting (what the table's game is dealt by when it starts)."""
        return named(self.variant).rules(self.num_players, self.target, self.scoring, self.counting)


@dataclass(frozen=True, slots=True)
class Lesson:
    """A first game of ``/cribbage learn``, played in the learner's DM with the bot
    (:mod:`bot.core.play.lessons`): it has no result, and offers no rematch."""

    @property
    def words(self) -> None:
        """What its lobby says first of it: nothing (the lobby says who opened it)."""
        return None


@dataclass(frozen=True, slots=True)
class Round:
    """A game of a tournament's round, in its pairing's thread: ``words`` say which round of
    which tournament; ``pairing`` (its tournament, round, table and version, as the director
    read it) is known as the director opens it (a game read back names none: its pairing
    names it)."""

    words: str
    pairing: tuple[int, int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """Game ``number`` (1 to 3) of ranked match ``match_id``, played apart: it counts as one
    game won or lost, its game points (a lurch, a skunk) for nothing, and it offers no hint
    and no rematch.

    >>> Match(7, 2).words
    'Ranked match, game 2'
    """

    match_id: int
    number: int
    #: The match's version as the referee read it, opening the game (a game read back names
    #: none).
    version: int | None = field(default=None, compare=False)

    @property
    def words(self) -> str:
        """What its lobby says first of it."""
        return f"Ranked match, game {self.number}"


#: What a game is part of: nothing (someone's own game), a lesson, a tournament's round or a
#: ranked match.
Occasion = Lesson | Round | Match | None


def occasion_words(occasion: Occasion) -> str | None:
    """What a game's lobby says first of its ``occasion`` (None: it says who opened it)."""
    return None if occasion is None else occasion.words


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a new game is made of, as the store opens it (``create_game``): its place (the
    server, if any, and the channel), where its seats play and how they are reached
    (``seating``), its ``creator`` in seat 0, its table's :class:`Options`, what it is part of
    (``occasion``: a lesson, a tournament's round, a ranked match's game) and ``rematch_of``
    (the game whose *Rematch* opens it). A ranked match's game, or a tournament's pairing's
    (its :class:`Match` or :class:`Round` naming the match or pairing as read, version
    included), is opened only by one conditional update of that match or pairing, still at
    that version and played by the two seated (else
    :class:`~bot.core.base.store_errors.OccasionOver`: it is decided again from a new read)."""

    guild_id: int | None
    channel_id: int
    creator: SeatRecord
    options: Options
    seating: Seating = CHANNEL_SEATING
    occasion: Occasion = None
    rematch_of: int | None = None

    def lobby(self, now: float) -> GameRecord:
        """The game as it opens at ``now``: a lobby of its creator alone, at version 0 (its
        id 0 until its row is written)."""
        return GameRecord(
            id=0,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            status=GameStatus.LOBBY,
            creator_id=self.creator.user_id or 0,
            options=self.options,
            snapshot=None,
            version=0,
            created_at=now,
            updated_at=now,
            seats=(self.creator,),
            seating=self.seating,
            occasion=self.occasion,
            rematch_of=self.rematch_of,
        )


@dataclass(frozen=True, slots=True)
class GameChange:
    """One accepted change to a game, as the store writes it (``save``, in one transaction):
    its new ``status``, its ``snapshot`` (None: as it was), the log entries it appends
    (``actions``, JSON texts) and, as it ends, why (``end_note``, a game without a result),
    its ``results`` with how it ended (``ending``) and the ``series`` it continues (the first
    game of it)."""

    status: GameStatus
    snapshot: str | None = None
    actions: Sequence[str] = ()
    results: Sequence[ResultRecord] = ()
    end_note: str | None = None
    ending: Ending | None = None
    series: int | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored, with its seats in seat order."""

    id: int
    guild_id: int | None
    channel_id: int
    status: GameStatus
    creator_id: int
    #: The table's options, as its opener chose them (a rematch opens with the same); a
    #: lobby's change before the deal (players added, everyone at the Activity dealt in).
    options: Options
    snapshot: str | None
    version: int
    created_at: float
    updated_at: float
    seats: tuple[SeatRecord, ...]
    #: Why a game without a result ended, as the channel was told (cancelled, expired).
    end_note: str | None = None
    #: Where its seats play, and how the bot reaches them there: a server's channel (the
    #: default), a private table (reached through interactions' tokens alone: a DM between
    #: people, a group DM, a server that did not invite it), the learner's DM, or a place a
    #: seat played apart (:mod:`bot.core.base.seating`).
    seating: Seating = CHANNEL_SEATING
    #: What the game is part of (a lesson, a tournament's round, a ranked match); None for a
    #: game someone opened (its lobby says who).
    occasion: Occasion = None
    #: How a finished game ended (:mod:`bot.core.games.endings`; migration 023), kept with its
    #: result; None for any other game (one that ended without a result says so by its status).
    ending: Ending | None = None
    #: The game whose result's *Rematch* opened this one (migration 024), if one did.
    rematch_of: int | None = None
    #: The first game of the series this finished game continues (migration 024; written
    #: with its result: :mod:`bot.core.games.series`), if it continues one.
    series: int | None = None

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` sits in, or None (a seat kept for them is not theirs until
        they take it: :meth:`held_for`)."""
        for seat in self.seats:
            if seat.user_id == user_id and not seat.is_computer and not seat.held:
                return seat.seat
        return None

    def held_for(self, user_id: int) -> SeatRecord | None:
        """The seat a rematch's lobby keeps for ``user_id`` (its time passed or not), if any."""
        return next((s for s in self.seats if s.held and s.user_id == user_id), None)

    def ended(self, game: Game | None) -> Ended | None:
        """How the game ended (``game``: its state, once dealt), None while it is open: the
        one reading of it every message, page and command draws its words from."""
        if self.status is GameStatus.CANCELLED:
            return Ended(Ending.CANCELLED)
        if self.status is GameStatus.EXPIRED:
            return Ended(Ending.EXPIRED)
        if self.status is not GameStatus.FINISHED or game is None or game.state.result is None:
            return None
        found = ended_with(self.ending, game)
        return replace(found, in_match=True) if self.in_match else found

    @property
    def in_match(self) -> bool:
        """Whether the game is a ranked match's (:class:`Match`): it counts there as one game
        won or lost, and its game points (a lurch, a skunk) count for nothing, neither on its
        result (:attr:`Ended.in_match <bot.core.games.endings.Ended.in_match>`) nor in the
        records its result rows make (:func:`bot.core.games.results.result_rows`)."""
        return isinstance(self.occasion, Match)

    @property
    def in_lesson(self) -> bool:
        """Whether the game is a lesson (:class:`Lesson`): practice, with no result."""
        return isinstance(self.occasion, Lesson)

    @property
    def is_open(self) -> bool:
        """Whether the game may still change (a lobby or a game being played)."""
        return self.status in OPEN_STATUSES

    def pruned(self, now: float, retention: float | None) -> bool:
        """Whether the game ended more than ``retention`` seconds before ``now`` (so it is, or
        is about to be, pruned: nothing of it is drawn or sent any more); never without a
        retention."""
        return retention is not None and not self.is_open and self.updated_at < now - retention


@dataclass(frozen=True, slots=True)
class ResultRecord(SeatTally):
    """One player's result in a finished game, with their seat's tallies."""

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
    computer_level: str | None = None
    #: The rule the game's points were scored by: its losses past the first threshold are
    #: lurches (``lurch``) or skunks (``skunk``, the American scale).
    scoring: Scoring = Scoring.SKUNK
    #: The variant the game was played in (its players are rated in that variant's tables).
    variant: str = STANDARD.name
    #: How many hints this player asked for in the game (migration 025).
    hints: int = 0


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """One seat's result in one game of a series (:mod:`bot.core.games.series`): the game,
    when it finished, and the seat's result."""

    game_id: int
    finished_at: float
    result: ResultRecord


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
    #: The variant whose tables the change was made in.
    variant: str = STANDARD.name

    @property
    def ordinal_before(self) -> float:
        """The conservative rating before the game."""
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def ordinal_after(self) -> float:
        """The conservative rating after it."""
        return ordinal(self.mu_after, self.sigma_after)


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
