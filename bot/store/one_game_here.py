"""One game of a person's in a place, whichever process writes: nobody is seated at a game not
over in a place where their ranked search waits or their match is played, nor queued for a
ranked match from a place where they sit at such a game (:mod:`bot.core.base.places`).

The resolver refuses both before anything is written; the store's guard is a constraint, not a
lock and a read: ``presence`` (migration 041) holds a row for each person present in a place,
(the channel, the person) its primary key, one for each seat taken at a game not over there and
one for each live ranked search from there (searching or matched), written by the database
itself as the seats, the games and the searches change (its triggers). A seat and a search of
the same person in the same place are two rows with one key: whichever write commits second
breaks the key and changes nothing, in whichever process, however the two race (PostgreSQL:
the second waits for the first at the key, then finds it there). This module names the key and
turns its breaking into the refusal the resolver gives (:func:`seat_refused`,
:func:`search_refused`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.base.store_errors import RankedHere, SeatedHere
from bot.core.games.records import SeatRecord
from bot.store.database import Database, UniqueViolation
from bot.store.queries import marks

__all__ = ["LIVE", "OPEN", "PRESENT", "humans", "search_refused", "seat_refused"]

#: The statuses of a game not over.
OPEN = "('lobby', 'active')"
#: The statuses of a ranked entry that holds its player (searching, or in a match).
LIVE = "('searching', 'matched')"
#: What a write that puts a person in a place they are in already breaks, as each database
#: names it (PostgreSQL: the key; SQLite: its columns).
PRESENT = frozenset({"presence_pkey", "presence.channel_id, presence.user_id"})


def humans(seats: Iterable[SeatRecord]) -> set[int]:
    """The people seated in ``seats`` (not the computer's, nor a rematch's seat kept for
    someone who has not taken it)."""
    return {s.user_id for s in seats if s.user_id is not None and not s.is_computer and not s.held}


async def seat_refused(
    db: Database, broken: UniqueViolation, channel_id: int, people: Iterable[int]
) -> RankedHere | None:
    """What a seat at a game in ``channel_id`` for ``people`` that broke ``broken`` is refused
    with (its transaction rolled back): :class:`RankedHere`, their search waiting there or their
    match played there (read after, to say which); None for another key (a bug)."""
    if broken.names not in PRESENT:
        return None
    ids = sorted(set(people))
    if not ids:
        return RankedHere(matched=False)
    rows = await db.fetch(
        "SELECT status FROM ranked_entries"
        f" WHERE channel_id = ? AND status IN {LIVE} AND user_id IN ({marks(ids)})",
        (channel_id, *ids),
    )
    return RankedHere(matched=any(row[0] == "matched" for row in rows))


def search_refused(broken: UniqueViolation) -> SeatedHere | None:
    """What a ranked search that broke ``broken`` is refused with: :class:`SeatedHere`, its
    player seated at a game not over in its place; None for another key."""
    return SeatedHere() if broken.names in PRESENT else None
