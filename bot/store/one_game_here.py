"""One game of a person's in a place, whichever process writes: nobody is seated at a game not
over in a place where their ranked search waits or their match is played, nor queued for a
ranked match from a place where they sit at such a game (:mod:`bot.core.base.places`).

The resolver refuses both before anything is written; these checks are the store's, in the
transaction of the write itself, so that a search and a seat taken at the same instant (under
different locks of the process, or in two processes) are never both written. Each such write
takes the place's lock first (:meth:`~bot.store.database.Transaction.serialize_place`: on
PostgreSQL, where a transaction reads what was committed before each statement, the second
waits for the first and then reads what it wrote; on SQLite it is the database's one write
lock, taken before the read), then reads what the other kind of write left there.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.base.store_errors import OccasionOver, RankedHere, SeatedHere
from bot.core.games.records import Match, NewGame, Round, SeatRecord
from bot.store.database import Dialect, Transaction
from bot.store.queries import marks

__all__ = ["LIVE", "OPEN", "humans", "queued_here", "seated_here", "still_theirs"]

#: The statuses of a game not over.
OPEN = "('lobby', 'active')"
#: The statuses of a ranked entry that holds its player (searching, or in a match).
LIVE = "('searching', 'matched')"
#: A ranked match still played by its two players (its id, then theirs).
_MATCH_LIVE = (
    "SELECT 1 FROM ranked_matches WHERE id = ? AND status = 'playing'"
    " AND player_a = ? AND player_b = ?"
)
#: A tournament's pairing still to be played by its two (its tournament, round and table,
#: then theirs): neither withdrawn, its tournament running.
_PAIRING_LIVE = (
    "SELECT 1 FROM tournament_pairings p WHERE p.tournament_id = ? AND p.round = ?"
    " AND p.tab = ? AND p.player_a = ? AND p.player_b = ? AND p.decided IS NULL"
    " AND p.game_id IS NULL AND NOT EXISTS (SELECT 1 FROM tournament_entrants e"
    " WHERE e.tournament_id = p.tournament_id AND e.user_id IN (p.player_a, p.player_b)"
    " AND e.withdrawn IS NOT NULL) AND EXISTS (SELECT 1 FROM tournaments t"
    " WHERE t.id = p.tournament_id AND t.status = 'running')"
)
_SEATED = (
    "SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id"
    f" WHERE g.channel_id = ? AND g.status IN {OPEN} AND s.user_id = ?"
    " AND s.held_until IS NULL LIMIT 1"
)


def humans(seats: Iterable[SeatRecord]) -> set[int]:
    """The people seated in ``seats`` (not the computer's, nor a rematch's seat kept for
    someone who has not taken it)."""
    return {s.user_id for s in seats if s.user_id is not None and not s.is_computer and not s.held}


async def seated_here(tx: Transaction, channel_id: int, people: set[int]) -> None:
    """Before ``people`` take seats at a game in ``channel_id``: hold the place, and raise
    :class:`~bot.core.base.store_errors.RankedHere` if any of them searches for a ranked
    match from there or plays one there."""
    if not people:
        return
    ids = sorted(people)
    await tx.serialize_place(channel_id)
    rows = await tx.fetch(
        "SELECT status FROM ranked_entries"
        f" WHERE channel_id = ? AND status IN {LIVE} AND user_id IN ({marks(ids)})",
        (channel_id, *ids),
    )
    if rows:
        raise RankedHere(matched=any(row[0] == "matched" for row in rows))


async def queued_here(tx: Transaction, channel_id: int, user_id: int) -> None:
    """Before ``user_id`` is queued for a ranked match from ``channel_id``: hold the place, and
    raise :class:`~bot.core.base.store_errors.SeatedHere` if they sit at a game not over
    there."""
    await tx.serialize_place(channel_id)
    if await tx.fetch(_SEATED, (channel_id, user_id)):
        raise SeatedHere()


async def still_theirs(
    tx: Transaction, game: NewGame, seats: tuple[SeatRecord, ...], dialect: Dialect
) -> None:
    """Before ``game`` is opened for a ranked match or a tournament's pairing: raise
    :class:`~bot.core.base.store_errors.OccasionOver` unless it is still being played by the
    two ``seats`` (their ids as it names them now: a person whose data was deleted is a
    former player there). Its row is held until ``tx`` ends (PostgreSQL: locked for share, so
    a leaving, a withdrawal or a deletion writing it waits for this game, and the deletion then
    finds it; SQLite: the one write lock), so none lands between the check and the game."""
    ids = tuple(s.user_id for s in seats)
    postgres = dialect is Dialect.POSTGRES
    occasion = game.occasion
    if isinstance(occasion, Match):
        sql, args = _MATCH_LIVE + (" FOR SHARE" if postgres else ""), (occasion.match_id, *ids)
    elif isinstance(occasion, Round) and occasion.pairing is not None:
        sql = _PAIRING_LIVE + (" FOR SHARE OF p" if postgres else "")
        args = (*occasion.pairing, *ids)
    else:
        return
    if not await tx.fetch(sql, args):
        raise OccasionOver()
