"""Who owns a Discord message: a game today, and whatever comes next (a tournament's live
standings, a league board).

The ledger of what Discord should show (:mod:`bot.core.ledger`) is keyed by owner, with one
projection per kind of owner; the change feed (:mod:`bot.core.base.feed`) names the owner that
changed. An owner is written ``kind:id`` wherever it is stored (``game:12``).

>>> Owner.game(12)
Owner(kind=<OwnerKind.GAME: 'game'>, id=12)
>>> str(Owner.game(12)), Owner.parse("game:12") == Owner.game(12)
('game:12', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["PLACE_IDS_PER_GAME", "Owner", "OwnerKind", "is_row_id"]


class OwnerKind(StrEnum):
    """The kinds of things that keep messages on Discord, and the person, who keeps none but
    changes too."""

    GAME = "game"
    TOURNAMENT = "tournament"
    #: A player's ranked card (their search, then their match) where they queued.
    RANKED = "ranked"
    #: One seat's place at a game played apart (:mod:`bot.core.base.seating`): the table and
    #: the hand that seat's player sees where they play from.
    PLACE = "place"
    #: A person: what the bot keeps of them beside their games (their coach setting), whose
    #: changes the feed carries so that every process moves what it keeps of it on. No
    #: message is theirs.
    PERSON = "person"


#: A place's id is its game's id times this, plus its seat (a game has six seats at most), so
#: that a place names its game and seat without a read: ``place:97`` is seat 1 of game 12.
PLACE_IDS_PER_GAME = 8


def is_row_id(number: int) -> bool:
    """Whether ``number`` can be a stored row's id (a game's, a ranked entry's or match's): a
    positive signed 64-bit integer, the most SQLite holds. A control naming any other was not
    made by this bot, and is not looked up."""
    return 0 < number < 2**63


@dataclass(frozen=True, slots=True, order=True)
class Owner:
    """One thing that keeps messages: its kind and its id among things of that kind."""

    kind: OwnerKind
    id: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"

    @classmethod
    def game(cls, game_id: int) -> Owner:
        """The owner that is the game ``game_id``."""
        return cls(OwnerKind.GAME, game_id)

    @classmethod
    def tournament(cls, tournament_id: int) -> Owner:
        """The owner that is the tournament ``tournament_id`` (its live message)."""
        return cls(OwnerKind.TOURNAMENT, tournament_id)

    @classmethod
    def ranked(cls, entry_id: int) -> Owner:
        """The owner that is the ranked entry ``entry_id`` (a player's card: their search, then
        their match, where they queued)."""
        return cls(OwnerKind.RANKED, entry_id)

    @classmethod
    def place(cls, game_id: int, seat: int) -> Owner:
        """The owner that is seat ``seat``'s place at game ``game_id``, a game played apart.

        >>> Owner.place(12, 1), Owner.place(12, 1).game_id, Owner.place(12, 1).seat
        (Owner(kind=<OwnerKind.PLACE: 'place'>, id=97), 12, 1)
        """
        if not 0 <= seat < PLACE_IDS_PER_GAME:
            raise ValueError(f"No seat {seat} has a place.")
        return cls(OwnerKind.PLACE, game_id * PLACE_IDS_PER_GAME + seat)

    @classmethod
    def person(cls, user_id: int) -> Owner:
        """The owner that is the person ``user_id`` (their settings: no message is theirs)."""
        return cls(OwnerKind.PERSON, user_id)

    @property
    def game_id(self) -> int | None:
        """The game this owner is, or is a place at (None: neither)."""
        if self.kind is OwnerKind.GAME:
            return self.id
        if self.kind is OwnerKind.PLACE:
            return self.id // PLACE_IDS_PER_GAME
        return None

    @property
    def seat(self) -> int | None:
        """The seat a place is of (None: this owner is no place)."""
        return self.id % PLACE_IDS_PER_GAME if self.kind is OwnerKind.PLACE else None

    @classmethod
    def parse(cls, text: str) -> Owner:
        """The owner written ``kind:id``; ``ValueError`` for anything else."""
        kind, sep, number = text.partition(":")
        if not sep or not number.isdecimal():
            raise ValueError(f"Not an owner: {text!r}.")
        return cls(OwnerKind(kind), int(number))
