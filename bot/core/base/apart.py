"""A game played apart: each seat plays it from a place of its own, never in one channel.

A ranked match's players are strangers, each where they queued (a server's channel, a DM, a
group DM): each sees the table and their own hand there, and nothing of the other's place. Such
a game is a game like any other (its moves, its snapshot, its result, its review), with two
differences:

- **Its channel is no Discord channel.** It has a number of its own below zero (Discord's ids
  are positive), which keys the game's lock and the one-open-game-per-channel index as any
  channel does: whoever opens the game gives a number that names it (:func:`apart_channel`),
  so opening it twice finds the first.
- **Its messages are its places'.** The game's own owner draws none; each seat's place
  (:meth:`Owner.place <bot.core.base.owners.Owner.place>`) draws the table and that seat's hand
  where its player plays from, reached through interactions' tokens alone (as a private table
  is: the game is stored ``private``). Whatever the games wing keeps of a message of such a
  game (a click's answer kept with a move, the sequel of an answer) is kept for the place of
  the seat whose message it is (:func:`message_owner`).
"""

from __future__ import annotations

from bot.core.base.keys import HAND, MessageKey
from bot.core.base.owners import Owner, OwnerKind

__all__ = [
    "APART_SEATS",
    "apart_channel",
    "game_owners",
    "is_apart",
    "message_owner",
    "seat_in_key",
    "seat_owner",
]

#: The seats of a game played apart (a ranked game is two players').
APART_SEATS = (0, 1)


def is_apart(channel_id: int) -> bool:
    """Whether a game in ``channel_id`` is played apart (its channel is no Discord channel).

    >>> is_apart(-14), is_apart(1234567890)
    (True, False)
    """
    return channel_id < 0


def apart_channel(number: int) -> int:
    """The channel of the game played apart that ``number`` (positive) names.

    >>> apart_channel(14)
    -14
    """
    if number <= 0:
        raise ValueError("A game played apart is named by a positive number.")
    return -number


def seat_in_key(key: MessageKey | None) -> int | None:
    """The seat a hand message's key names (``hand:3:1`` -> 1; None: no hand's key).

    >>> seat_in_key(MessageKey.hand(3, 1)), seat_in_key(MessageKey("lobby")), seat_in_key(None)
    (1, None, None)
    """
    return key.seat if key is not None and key.name == HAND else None


def seat_owner(game_id: int, channel_id: int, seat: int | None) -> Owner:
    """Who keeps the messages of ``seat`` at game ``game_id`` (in ``channel_id``): the game,
    or, played apart, that seat's place (the game itself, for no seat)."""
    if seat is None or not is_apart(channel_id):
        return Owner.game(game_id)
    return Owner.place(game_id, seat)


def message_owner(game_id: int, channel_id: int, key: MessageKey | None) -> Owner:
    """Who keeps game ``game_id``'s message ``key``: the game, or, played apart, the place of
    the seat whose hand it is.

    >>> hand = MessageKey.hand(2, 1)
    >>> message_owner(12, -5, hand), message_owner(12, 345, hand)
    (Owner(kind=<OwnerKind.PLACE: 'place'>, id=97), Owner(kind=<OwnerKind.GAME: 'game'>, id=12))
    """
    return seat_owner(game_id, channel_id, seat_in_key(key))


def game_owners(owner: Owner, channel_id: int) -> tuple[Owner, ...]:
    """Who keeps messages of ``owner``'s changes (in ``channel_id``): the owner, and, for a
    game played apart, each seat's place after it.

    >>> game_owners(Owner.game(12), 345)
    (Owner(kind=<OwnerKind.GAME: 'game'>, id=12),)
    >>> [str(o) for o in game_owners(Owner.game(12), -5)]
    ['game:12', 'place:96', 'place:97']
    """
    if owner.kind is not OwnerKind.GAME or not is_apart(channel_id):
        return (owner,)
    return (owner, *(Owner.place(owner.id, seat) for seat in APART_SEATS))
