"""What the store keeps of a club and its nights: the club (where, who, how often, the
tournament each night plays, its Discord event), each night (when, its tournament, how far it
has gone) and who was interested in a night or checked in to it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.core.base.store_errors import StoreError
from bot.core.nights.when import Repeat

__all__ = [
    "CLUB_BUSY",
    "ClubBusy",
    "ClubPlan",
    "ClubRecord",
    "EventSteps",
    "NightPerson",
    "NightRecord",
    "NightState",
]


CLUB_BUSY = (
    "This channel has club nights already: see its night's message, or `/club end` first to"
    " end them."
)


class ClubBusy(StoreError):
    """The channel has a club with nights to come already."""

    def __init__(self) -> None:
        super().__init__(CLUB_BUSY)


class NightState(StrEnum):
    """How far a night has gone."""

    #: Scheduled, taking entrants (Interested, Join).
    SCHEDULED = "scheduled"
    #: In its last minutes: check-in is open, and those entered were reminded.
    CHECK_IN = "check_in"
    #: Started at its time with those checked in: its tournament is being played.
    STARTED = "started"
    #: Played out (its tournament finished).
    PLAYED = "played"
    #: Called off at its time: too few checked in, or the bot was down past its start.
    CALLED_OFF = "called_off"
    #: Skipped by a moderator before its time (a recurring club's next night comes as usual).
    SKIPPED = "skipped"
    #: Cancelled: its tournament cancelled by a moderator, or the club ended before it.
    CANCELLED = "cancelled"

    @property
    def ahead(self) -> bool:
        """Not started yet (scheduled, or checking in)."""
        return self in (NightState.SCHEDULED, NightState.CHECK_IN)

    @property
    def over(self) -> bool:
        """Ended, one way or another."""
        return self not in (NightState.SCHEDULED, NightState.CHECK_IN, NightState.STARTED)


class EventSteps(StrEnum):
    """What the club's Discord event was last made to say of a night (the director keeps it
    true, step by step, and writes each step once it is done)."""

    NONE = "none"
    SCHEDULED = "scheduled"
    STARTED = "started"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class ClubPlan:
    """A club as a moderator schedules it: where, by whom, its name, how often, in which time
    zone, the voice channel its event is in (None: the text channel's, an external event),
    and the tournament every night plays."""

    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    repeat: Repeat
    zone: str
    format: str
    target: int
    scoring: str
    round_hours: float
    rounds: int = 0
    match_games: int = 1
    variant: str = "standard"
    voice_id: int | None = None
    #: Whether the bot may make the server's Events entry (Create Events or Manage Events).
    events: bool = True


@dataclass(frozen=True, slots=True)
class ClubRecord:
    """A club as stored."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    repeat: Repeat
    zone: str
    format: str
    target: int
    scoring: str
    round_hours: float
    rounds: int
    match_games: int
    variant: str
    voice_id: int | None
    #: Whether the bot makes the server's Events entry (False: it may not, or a moderator
    #: deleted it).
    events: bool
    #: The Discord event (None: not made yet, or none).
    event_id: int | None
    #: When Discord last refused the event a permission (None: it did not).
    event_refused: float | None
    #: Over: no more nights.
    ended: bool
    created_at: float

    @property
    def recurs(self) -> bool:
        """Whether its nights come round."""
        return self.repeat is not Repeat.ONCE


@dataclass(frozen=True, slots=True)
class NightRecord:
    """One night of a club."""

    id: int
    club_id: int
    number: int
    starts_at: float
    #: When its club's rhythm put it (``starts_at`` differs once a moderator moved it).
    usual_at: float
    tournament_id: int
    state: NightState
    #: Why it was called off or cancelled, in the words the board and the event say.
    note: str | None
    #: Moved by a moderator from the time its club's rhythm gave it.
    moved: bool
    #: What the club's event was last made to say of it.
    event_step: EventSteps
    version: int = 1


@dataclass(frozen=True, slots=True)
class NightPerson:
    """Someone of a night: their name, whether they marked the club's event Interested, and
    when they checked in (None: not yet), and whether a late arrival was told which round
    takes them."""

    night_id: int
    user_id: int
    name: str
    interested: bool
    checked_in: float | None
