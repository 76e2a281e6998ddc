"""The lobby: who may sit, leave, add or remove a computer and start, and what it shows.

Pure functions of a game record: each returns the seats the table would have after the change,
or raises :class:`~bot.core.base.refusals.Refused`; the service stores the change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bot.core.base import refusals
from bot.core.base.refusals import Refused
from bot.core.base.replies import User
from bot.core.base.text import escape
from bot.core.base.views import LOBBY_ACTIONS, TABLE_BUTTON, LobbyControls, MessageView
from bot.core.games.computer import LEVELS, computer_name, level_note
from bot.core.games.messages.lobby import lobby_text
from bot.core.games.records import GameRecord, GameStatus, SeatRecord
from engine.outcome import Scoring
from engine.variants import (
    FIVE_HAND,
    SIX_HAND,
    SIX_HAND_PAIRS,
    STANDARD,
    UnknownVariant,
    Variant,
    named,
)

__all__ = [
    "TEAMS",
    "Table",
    "check_start",
    "fill_with_computers",
    "lobby_view",
    "seat_added",
    "seats_adding_computer",
    "seats_changing_partners",
    "seats_joining",
    "seats_leaving",
    "seats_removing_computer",
    "table_asked",
]

#: The six-player table's layouts (``/cribbage new teams:``), by the variant that seats them.
TEAMS: dict[str, Variant] = {"threes": SIX_HAND, "pairs": SIX_HAND_PAIRS}


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """What ``/cribbage new`` asked for, made whole: the variant, its players and target."""

    variant: Variant
    players: int
    target: int


def table_asked(
    *,
    variant: str | None = None,
    players: int | None = None,
    target: int | None = None,
    teams: str | None = None,
    scoring: str = Scoring.LURCH,
) -> Table:
    """The table ``/cribbage new`` opens, from what was asked (None: not asked): the variant
    named, else the one the players make (five: five-hand; six: six-hand, in ``teams`` of
    three or, with ``teams:pairs``, of two; else the standard game); its usual players and
    default target unless asked. Raises :class:`Refused` with one sentence for a combination
    the variant does not offer (seven-card cribbage for three, five-card to 121, the skunk
    scale at 181, ``teams`` at a table that is not of six)."""
    if teams is not None and teams not in TEAMS:
        raise Refused(refusals.BAD_TEAMS)
    if teams is not None and players is not None and players not in SIX_HAND.seats:
        raise Refused(refusals.TEAMS_ALONE)
    if variant is not None:
        try:
            chosen = named(variant)
        except UnknownVariant as unknown:
            raise Refused(str(unknown)) from None
        if chosen is SIX_HAND and teams is not None:
            # Six-hand names the deal; `teams` the layout (threes, or pairs).
            chosen = TEAMS[teams]
    elif teams is not None:
        chosen = TEAMS[teams]
    elif players in FIVE_HAND.seats:
        chosen = FIVE_HAND
    elif players in SIX_HAND.seats:
        chosen = SIX_HAND
    else:
        chosen = STANDARD
    if teams is not None and TEAMS[teams] is not chosen:
        if chosen not in TEAMS.values():
            raise Refused(refusals.TEAMS_ALONE)
        raise Refused(refusals.teams_clash(chosen.title, teams, TEAMS[teams].name))
    if players is not None and players not in chosen.seats and variant is None:
        raise Refused(refusals.BAD_PLAYERS)
    try:
        chosen.check(players, target, scoring)
    except ValueError as refused:
        raise Refused(str(refused)) from None
    seats = chosen.default_players if players is None else players
    return Table(chosen, seats, chosen.default_target if target is None else target)


def lobby_view(
    record: GameRecord, state: GameStatus | None = None, *, launch: bool = False
) -> MessageView:
    """The lobby message of ``record`` as it should read in ``state`` (by default the game's
    own status): open while it is a lobby (``launch``: with *Play at the table*, which opens
    the game's Activity); closed, with no controls, once the game started, was cancelled or
    expired."""
    state = record.status if state is None else state
    creator = next((s.name for s in record.seats if s.user_id == record.creator_id), None)
    text = lobby_text(
        creator or "someone",
        [s.name for s in record.seats],
        record.rules,
        state,
        record.occasion,
        named(record.variant),
    )
    seated = {s.level for s in record.seats if s.is_computer and s.level is not None}
    notes = [n for level in sorted(seated) if (n := level_note(level, record)) is not None]
    if notes:
        text += "\n" + "\n".join(notes)
    if state is not GameStatus.LOBBY:
        return MessageView(text, controls=LobbyControls(record.id, ()))
    has_computer = any(s.is_computer for s in record.seats)
    # Partners may be changed once every seat is taken; a full table may take one more
    # player, as far as its variant seats.
    full = len(record.seats) == record.num_players
    grows = full and _more(record) is not None
    buttons = tuple(
        b
        for b in LOBBY_ACTIONS
        if (b != "remove_computer" or has_computer)
        and (b != "partners" or (full and record.rules.partners))
        and (b != "add_seat" or grows)
        and b != "hand"
        and (b != TABLE_BUTTON or launch)
    )
    levels = LEVELS if len(record.seats) < record.num_players else ()
    return MessageView(text, controls=LobbyControls(record.id, buttons, levels))


def _open(record: GameRecord) -> None:
    if record.status is not GameStatus.LOBBY:
        raise Refused(refusals.ALREADY_STARTED)


def _more(record: GameRecord) -> int | None:
    """The next number of players the game's variant seats beyond its own, if any (the
    standard game: two, three, then four as partners)."""
    return min((n for n in named(record.variant).seats if n > record.num_players), default=None)


def _free_seat(record: GameRecord) -> None:
    if len(record.seats) >= record.num_players:
        opener = next((s.name for s in record.seats if s.user_id == record.creator_id), "")
        title = named(record.variant).title
        raise Refused(
            refusals.table_full(
                record.num_players, escape(opener) or "The opener", _more(record), title
            )
        )


def seat_added(record: GameRecord, user: User) -> int:
    """The players a full lobby seats once its opener adds a seat: the next number its
    variant seats (two to three, three to four as partners in the standard game)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.ADD_SEAT_CREATOR)
    if len(record.seats) < record.num_players:
        raise Refused(refusals.SEATS_FREE)
    more = _more(record)
    if more is None:
        title = named(record.variant).title
        raise Refused(f"{title} seats no more than {record.num_players} players.")
    return more


def seats_joining(record: GameRecord, user: User) -> list[SeatRecord]:
    """``user`` takes the next seat."""
    _open(record)
    if record.seat_of(user.id) is not None:
        raise Refused(refusals.ALREADY_SEATED)
    _free_seat(record)
    return [*record.seats, SeatRecord(len(record.seats), user.id, user.name)]


def seats_leaving(record: GameRecord, user: User) -> list[SeatRecord]:
    """``user`` gives up their seat (the creator leaving closes the lobby: the service's
    business, since then no seats remain to store)."""
    if record.status is not GameStatus.LOBBY:
        raise Refused(refusals.LEAVE_STARTED)
    if record.seat_of(user.id) is None:
        raise Refused(refusals.NOT_SEATED)
    return _renumber(s for s in record.seats if s.user_id != user.id)


def seats_adding_computer(record: GameRecord, user: User, level: str) -> list[SeatRecord]:
    """A computer at ``level`` takes the next seat (the creator's decision: it is their table)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.ADD_COMPUTER_CREATOR)
    if level not in LEVELS:
        raise Refused(refusals.bad_level(LEVELS))
    _free_seat(record)
    name = computer_name(level, record.seats)
    return [*record.seats, SeatRecord(len(record.seats), None, name, True, level)]


def seats_removing_computer(record: GameRecord, user: User) -> tuple[list[SeatRecord], str]:
    """The most recently seated computer leaves (the creator only); also its name."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.REMOVE_COMPUTER_CREATOR)
    computers = [s for s in record.seats if s.is_computer]
    if not computers:
        raise Refused(refusals.NO_COMPUTER)
    gone = computers[-1]
    return _renumber(s for s in record.seats if s.seat != gone.seat), gone.name


def seats_changing_partners(record: GameRecord, user: User) -> list[SeatRecord]:
    """The next pairing of a full table of partners (the creator's choice, as the table is
    theirs): seat 1 keeps its place and everyone else moves one seat to the right, the one
    on its left going to the end. With four that is each of the three pairings in turn
    (A B C D -> A C D B -> A D B C -> A B C D); with six, five ways to make the teams in
    turn, seat 1's partners changing each time (in pairs, seat 1 partners each of the others
    once)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.PARTNERS_CREATOR)
    if not record.rules.partners or len(record.seats) != record.num_players:
        raise Refused(refusals.PARTNERS_FULL)
    first, second, *rest = record.seats
    return _renumber([first, *rest, second])


def fill_with_computers(record: GameRecord, level: str) -> list[SeatRecord]:
    """Every free seat taken by a computer at ``level`` (a game against the computer)."""
    seats = list(record.seats)
    while len(seats) < record.num_players:
        seats.append(SeatRecord(len(seats), None, computer_name(level, seats), True, level))
    return seats


def check_start(record: GameRecord, user: User) -> None:
    """Refuse to deal unless the lobby is open, ``user`` is seated and every seat is taken."""
    _open(record)
    if record.seat_of(user.id) is None:
        raise Refused(refusals.START_NOT_SEATED)
    missing = record.num_players - len(record.seats)
    if missing:
        raise Refused(refusals.waiting_for(missing))


def _renumber(seats: Iterable[SeatRecord]) -> list[SeatRecord]:
    """The remaining seats numbered again from 0, in order, each keeping who sits there."""
    return [dataclasses.replace(seat, seat=i) for i, seat in enumerate(seats)]
