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
from bot.core.base.views import LOBBY_ACTIONS, TABLE_BUTTON, LobbyControls, MessageView
from bot.core.games.computer import LEVELS, computer_name
from bot.core.games.messages.lobby import lobby_text
from bot.core.games.records import GameRecord, GameStatus, SeatRecord

__all__ = [
    "check_start",
    "fill_with_computers",
    "lobby_view",
    "seats_adding_computer",
    "seats_changing_partners",
    "seats_joining",
    "seats_leaving",
    "seats_removing_computer",
]


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
        creator or "someone", [s.name for s in record.seats], record.rules, state, record.occasion
    )
    if state is not GameStatus.LOBBY:
        return MessageView(text, controls=LobbyControls(record.id, ()))
    has_computer = any(s.is_computer for s in record.seats)
    # Partners may be changed once every seat is taken.
    full_four = record.rules.partners and len(record.seats) == record.num_players
    buttons = tuple(
        b
        for b in LOBBY_ACTIONS
        if (b != "remove_computer" or has_computer)
        and (b != "partners" or full_four)
        and b != "hand"
        and (b != TABLE_BUTTON or launch)
    )
    levels = LEVELS if len(record.seats) < record.num_players else ()
    return MessageView(text, controls=LobbyControls(record.id, buttons, levels))


def _open(record: GameRecord) -> None:
    if record.status is not GameStatus.LOBBY:
        raise Refused(refusals.ALREADY_STARTED)


def _free_seat(record: GameRecord) -> None:
    if len(record.seats) >= record.num_players:
        raise Refused(refusals.TABLE_FULL)


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
    """The next of the three pairings of a full four-player table (the creator's choice, as
    the table is theirs): seat 1 keeps its place, and its partner opposite becomes the one
    who sat on its left, the others moving round (A B C D -> A C D B -> A D B C -> A B C D)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.PARTNERS_CREATOR)
    if not record.rules.partners or len(record.seats) != record.num_players:
        raise Refused(refusals.PARTNERS_FULL)
    first, second, third, fourth = record.seats
    return _renumber([first, third, fourth, second])


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
