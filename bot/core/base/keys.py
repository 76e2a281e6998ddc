"""A message's key: which of an owner's messages it is, as a value the core builds and reads.

An owner keeps each of its messages under a stable key: a name (``lobby``, ``result``), with the
parts that tell messages of one kind apart (``table:3``, the table of the third deal;
``hand:3:1``, seat 1's hand of that deal; ``away:d3:1``, a notice for seat 1's turn in the
discard of deal 3), and, for a private copy of a message written down beside it, the copy's
message id (``hand:3:1@4242``). The core builds keys with :class:`MessageKey` and carries them
as such everywhere (a record's ``key``, what was sent by key, what a call hands back): the text
(``str(key)``, :meth:`MessageKey.parse`) is only how the store keeps a key (``bot.store``), and
what a post's nonce is made from.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

__all__ = [
    "AWAY",
    "DM_CLOSED",
    "ENDED",
    "HAND",
    "LEFT",
    "LOBBY",
    "REMIND",
    "RESULT",
    "TABLE_OF_DEAL",
    "VIA",
    "MessageKey",
]

# The names of the keys that have parts (a key is ``MessageKey.of(name, *parts)``).
#: A player's hand message of a deal: ``hand:<deal>:<seat>``.
HAND = "hand"
#: A deal's table in the channel: ``table:<deal>``.
TABLE_OF_DEAL = "table"
#: A player's turn reminder of a deal, by DM: ``remind:<deal>:<seat>``.
REMIND = "remind"
#: The channel's notice that the table waits for a player whose DMs are closed (at a private
#: table: whose hand no token reaches), once a turn: ``away:<turn>:<seat>``.
AWAY = "away"
#: The channel's notice that a player's DMs are closed, once a deal: ``dm-closed:<deal>:<seat>``.
DM_CLOSED = "dm-closed"
#: The channel's notice that a player left the server: ``left:<seat>``.
LEFT = "left"
#: The kinds of key whose last part is a seat.
_SEAT_LAST = frozenset({HAND, REMIND, AWAY, DM_CLOSED, LEFT})


def _part(text: str) -> int | str:
    """One part of a key as stored: a number, written the one way a number is, or a word."""
    return int(text) if text.isdecimal() and str(int(text)) == text else text


@dataclass(frozen=True, slots=True)
class MessageKey:
    """One of an owner's messages: ``name``, the ``parts`` that tell its kind's messages
    apart (numbers, or words), and for a private copy written down beside the message, the
    copy's message id.

    >>> str(MessageKey.hand(3, 1)), str(MessageKey.hand(3, 1).copy_at(42))
    ('hand:3:1', 'hand:3:1@42')
    >>> MessageKey.parse("hand:3:1@42") == MessageKey("hand", (3, 1), copy=42)
    True
    >>> MessageKey.parse("away:d3:1").parts, MessageKey.parse("away:d3:1").seat
    (('d3', 1), 1)
    >>> MessageKey.parse("lobby"), MessageKey.parse("lobby").seat
    (MessageKey(name='lobby', parts=(), copy=None), None)
    """

    name: str
    parts: tuple[int | str, ...] = ()
    #: A private copy of the message, written down beside it: the copy's message id.
    copy: int | None = None

    @classmethod
    def of(cls, name: str, *parts: int | str) -> MessageKey:
        """The key named ``name`` with ``parts`` (``MessageKey.of(REMIND, 2, 1)``)."""
        return cls(name, parts)

    @classmethod
    def hand(cls, deal: int, seat: int) -> MessageKey:
        """``seat``'s hand message of ``deal``."""
        return cls(HAND, (deal, seat))

    @classmethod
    def table(cls, deal: int) -> MessageKey:
        """The table of ``deal`` in the game's channel."""
        return cls(TABLE_OF_DEAL, (deal,))

    @classmethod
    def parse(cls, text: str) -> MessageKey:
        """The key a stored text names (``str(MessageKey.parse(text)) == text``)."""
        head, at, copy = text.rpartition("@")
        if at and isinstance(message_id := _part(copy), int):
            return dataclasses.replace(cls.parse(head), copy=message_id)
        name, *rest = text.split(":")
        return cls(name, tuple(_part(part) for part in rest))

    def __str__(self) -> str:
        text = ":".join([self.name, *(str(part) for part in self.parts)])
        return text if self.copy is None else f"{text}@{self.copy}"

    @property
    def seat(self) -> int | None:
        """The seat the key names: a hand's, a reminder's, a notice about a player's (None:
        it names none)."""
        last = self.parts[-1] if self.parts and self.name in _SEAT_LAST else None
        return last if isinstance(last, int) else None

    @property
    def deal(self) -> int | None:
        """The deal a hand's or a deal's table's key names (None: neither)."""
        first = self.parts[0] if self.parts and self.name in (HAND, TABLE_OF_DEAL) else None
        return first if isinstance(first, int) else None

    def copy_at(self, message_id: int) -> MessageKey:
        """The key a private copy of this message (the message ``message_id``) is written
        down under, beside the message itself (nothing draws it)."""
        return dataclasses.replace(self, copy=message_id)

    def message(self) -> MessageKey:
        """The key of the message itself (for a private copy's key, the message it copies)."""
        return dataclasses.replace(self, copy=None)


# The keys that are a name alone.
#: A game's lobby in the channel (at a private table, the table itself, edited in place).
LOBBY = MessageKey("lobby")
#: A game's result in the channel, once it is over.
RESULT = MessageKey("result")
#: The channel's line that a game ended without a result (cancelled, expired).
ENDED = MessageKey("ended")
#: An owner's carrier: the latest interaction answered about it, whose token may post its
#: messages again where the bot is not a member (nothing draws it).
VIA = MessageKey("via")
