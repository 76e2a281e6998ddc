"""A change announced on PostgreSQL, to every process (``bot.store.cluster`` listens and
publishes it on the change feed): the channel, and what an announcement says of a click's answer
kept with the change.

The payload names the owner, its new version and its channel, ``game:12:7:345``, then, when a
click's answer was kept with the change, ``|`` and that message's record as JSON. The version
of the look a click was made on goes just before, as an announcement of its own,
``seen|{...}``: a process of a release before it reads the record with the fields it knows and
drops an announcement naming any other (it would not hear of the move at all), and drops that
one. Both are sent in this order, delivered together at commit.
"""

from __future__ import annotations

import json

from bot.core.base.delivery import AnswerKept
from bot.core.base.feed import Change
from bot.core.ledger.life import answer_record
from bot.store.database import Dialect, Transaction

__all__ = [
    "ANNOUNCED_FIELDS",
    "ANNOUNCE_CHANNEL",
    "SEEN_HEAD",
    "announce",
    "announced",
    "announcements",
    "announcing",
    "seen_announced",
]

#: The channel on which a change is announced on PostgreSQL.
ANNOUNCE_CHANNEL = "crib_games"
#: The fields of a click's answer's record an announcement carries: those every release since
#: announcements carried one knows (an older release reads the record by exactly these names;
#: a field added later goes apart, as ``seen`` does: :func:`seen_announced`).
ANNOUNCED_FIELDS = (
    "key",
    "channel_id",
    "message_id",
    "digest",
    "token",
    "token_at",
    "original",
    "version",
    "unconfirmed_since",
)
#: What an announcement of the look a click was made on begins with (see the module's
#: docstring).
SEEN_HEAD = "seen"


def announced(answered: AnswerKept | None) -> str:
    """What an announcement says after the channel: nothing, or the look a click's answer
    gave one of the game's messages (so the process that sends need not read it back), in
    the fields every release reads (``ANNOUNCED_FIELDS``)."""
    if answered is None:
        return ""
    record = answer_record(answered)
    said = {name: getattr(record, name) for name in ANNOUNCED_FIELDS} | {"key": str(record.key)}
    return "|" + json.dumps(said, separators=(",", ":"))


def seen_announced(answered: AnswerKept | None) -> str:
    """The announcement that goes just before the one of a click's answer: the version of the
    look the click was made on (``MessageRecord.seen``), for the answer of that key and
    version (``seen|{"key":...,"version":...,"seen":...}``); ``""`` when there is none."""
    if answered is None or answered.seen is None:
        return ""
    said = {"key": str(answered.key), "version": answered.version, "seen": answered.seen}
    return f"{SEEN_HEAD}|{json.dumps(said, separators=(',', ':'))}"


def announcing(answered: AnswerKept | None) -> tuple[str, str, str]:
    """The parameters of the announcement a change's own statement makes (``_ANNOUNCE`` of
    :mod:`bot.store.game_tables`, as its ``_SAVE_AT_ONCE`` ends): what it says of a click's
    answer kept with the change (:func:`seen_announced`, :func:`announced`)."""
    seen = seen_announced(answered)
    return (seen, seen, announced(answered))


def announcements(head: str, answered: AnswerKept | None) -> list[str]:
    """What announces a change of the owner, version and channel ``head`` says (``game:12:7:
    345``) with ``answered`` kept, in the order to send it (as a game's change announces
    itself in its own statement, :func:`announcing`)."""
    seen = seen_announced(answered)
    return [*([seen] if seen else []), f"{head}{announced(answered)}"]


async def announce(tx: Transaction, dialect: Dialect, change: Change) -> None:
    """Announce ``change`` to every process at ``tx``'s commit (``owner:version:channel``), on
    PostgreSQL; SQLite's one process publishes its own changes."""
    if dialect is Dialect.POSTGRES:
        payload = f"{change.owner}:{change.version}:{change.channel_id}"
        await tx.execute("SELECT pg_notify(?, ?)", (ANNOUNCE_CHANNEL, payload))
