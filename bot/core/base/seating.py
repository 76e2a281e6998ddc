"""A game's seating: where each seat plays from, and how the bot reaches it there.

A game has a place per seat (:class:`SeatPlace`): what kind of place it is (a server's channel,
a conversation the bot is not a member of, the bot's DM with the player: :class:`PlaceKind
<bot.core.base.places.PlaceKind>`) and the way its messages reach Discord (:class:`Through`:
the bot's own token, or interactions' tokens alone). Most games seat everyone at one place
(:attr:`Seating.shared`): a server's channel, a private table (a DM, a group DM, a server that
did not invite the bot), a lesson in the learner's DM. A ranked match's game seats each player
where they queued, apart from the other: then each seat's place keeps its own messages.

- **A shared game's messages are the game's.** Its place is the game's own channel
  (``GameRecord.channel_id``), and the game (``game:<id>``) keeps its table and its hands.
- **A game played apart keeps no message of its own.** Each seat's place (:meth:`Owner.place
  <bot.core.base.owners.Owner.place>`) draws the table and that seat's hand where its player
  plays from, reached through interactions' tokens alone. Whatever the games wing keeps of a
  message of such a game (a click's answer kept with a move, the sequel of an answer) is kept
  for the place of the seat whose message it is (:meth:`Seating.message_owner`).

The store makes a game's seating from the columns it always had (no column says "seating"):
how a game played apart is keyed there is the store's own business.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.core.base.keys import HAND, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.places import PlaceKind

__all__ = [
    "APART_SEATS",
    "BOT_DM_SEATING",
    "CHANNEL_SEATING",
    "PRIVATE_SEATING",
    "SeatPlace",
    "Seating",
    "Through",
    "seat_in_key",
    "shared_seating",
]

#: The seats of a game played apart (a ranked game is two players').
APART_SEATS = (0, 1)


class Through(StrEnum):
    """How the bot reaches a place (the glossary's *way*, as far as a place goes)."""

    #: With its own token: it posts and edits there as itself (a server that invited it, its
    #: own DM with a player).
    BOT = "bot"
    #: Through interactions' tokens alone (their answers and follow-ups): the bot is not a
    #: member there, or the place is a ranked player's, kept to what their clicks carry.
    TOKENS = "tokens"


@dataclass(frozen=True, slots=True)
class SeatPlace:
    """Where one seat plays from (``kind``), and how the bot reaches it there (``way``).
    ``channel_id`` and ``guild_id`` name the place of a seat played apart; a shared place is
    the game's own channel, and names none (None)."""

    kind: PlaceKind
    way: Through
    channel_id: int | None = None
    guild_id: int | None = None


@dataclass(frozen=True, slots=True)
class Seating:
    """A game's places: one that every seat shares (:attr:`shared`), or one a seat, in seat
    order (a game played apart).

    >>> CHANNEL_SEATING.shared, CHANNEL_SEATING.hands_beside_table
    (True, False)
    >>> lesson = Seating.at(PlaceKind.BOT_DM, Through.BOT)
    >>> lesson.hands_beside_table, lesson.tokens_only
    (True, False)
    """

    places: tuple[SeatPlace, ...]

    def __post_init__(self) -> None:
        if not self.places:
            raise ValueError("A game is played somewhere.")

    @classmethod
    def at(cls, kind: PlaceKind, way: Through) -> Seating:
        """Every seat at the game's own channel, a place of ``kind`` reached ``way``."""
        return cls((SeatPlace(kind, way),))

    @property
    def shared(self) -> bool:
        """Whether every seat plays at one place, the game's channel (else each seat plays
        apart, from a place of its own)."""
        return len(self.places) == 1

    @property
    def tokens_only(self) -> bool:
        """Whether every place is reached through interactions' tokens alone (the bot is no
        member there, or the game is played apart): the bot's token never posts there."""
        return all(place.way is Through.TOKENS for place in self.places)

    @property
    def in_server(self) -> bool:
        """Whether the game is a server's table, every seat at a channel the bot posts in
        (its hands go by DM, its results are the server's)."""
        return self.shared and self.places[0] == SeatPlace(PlaceKind.SERVER, Through.BOT)

    @property
    def hands_beside_table(self) -> bool:
        """Whether each hand is shown where its player sees the table (a private table's
        conversation, a lesson's DM, a place apart), rather than by DM about a channel."""
        return not self.in_server

    def place(self, seat: int) -> SeatPlace:
        """Where ``seat`` plays from."""
        return self.places[0] if self.shared else self.places[seat]

    def owner(self, game_id: int, seat: int | None) -> Owner:
        """Who keeps the messages of ``seat`` at game ``game_id``: the game, or, played apart,
        that seat's place (the game itself, for no seat)."""
        if seat is None or self.shared:
            return Owner.game(game_id)
        return Owner.place(game_id, seat)

    def message_owner(self, game_id: int, key: MessageKey | None) -> Owner:
        """Who keeps game ``game_id``'s message ``key``: the game, or, played apart, the place
        of the seat whose hand it is.

        >>> apart = Seating((SeatPlace(PlaceKind.SERVER, Through.TOKENS, 5, 1),) * 2)
        >>> str(apart.message_owner(12, MessageKey.hand(2, 1)))
        'place:97'
        >>> str(CHANNEL_SEATING.message_owner(12, MessageKey.hand(2, 1)))
        'game:12'
        """
        return self.owner(game_id, seat_in_key(key))

    def owners(self, game_id: int) -> tuple[Owner, ...]:
        """Who keeps messages of game ``game_id``'s changes: the game, and, played apart,
        each seat's place after it."""
        if self.shared:
            return (Owner.game(game_id),)
        places = (Owner.place(game_id, seat) for seat in range(len(self.places)))
        return (Owner.game(game_id), *places)


#: A server's channel game: every seat at the channel, which the bot posts in.
CHANNEL_SEATING = Seating.at(PlaceKind.SERVER, Through.BOT)
#: A private table: every seat at a conversation the bot is not a member of (a DM between
#: people, a group DM, a server that did not invite it), reached through tokens alone.
PRIVATE_SEATING = Seating.at(PlaceKind.PRIVATE, Through.TOKENS)
#: A game in the bot's own DM with its one person (a lesson), which the bot posts in.
BOT_DM_SEATING = Seating.at(PlaceKind.BOT_DM, Through.BOT)


def shared_seating(private: bool) -> Seating:
    """Where a game opened at a channel seats everyone: a private table where the bot is not
    a member (``private``), else the channel."""
    return PRIVATE_SEATING if private else CHANNEL_SEATING


def seat_in_key(key: MessageKey | None) -> int | None:
    """The seat a hand message's key names (``hand:3:1`` -> 1; None: no hand's key).

    >>> seat_in_key(MessageKey.hand(3, 1)), seat_in_key(MessageKey("lobby")), seat_in_key(None)
    (1, None, None)
    """
    return key.seat if key is not None and key.name == HAND else None
