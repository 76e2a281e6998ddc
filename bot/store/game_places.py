"""Where a stored game's seats play, and what it is part of, as the store reads them from the
columns it always had (no column holds either whole; nothing was migrated for them).

- **A shared game** plays at its channel (``games.channel_id``): a private table
  (``private_table``, migration 016) is reached through interactions' tokens alone; a lesson
  (``lesson``, migration 025) is played in the learner's DM with the bot; any other game in a
  server's channel. Its occasion is a lesson, or the tournament round its ``occasion`` text
  names, or none.
- **A ranked match's game** is keyed by a channel number below zero, which names its match and
  its number there (:func:`~bot.core.ranked.scoreboard.match_of_channel`; no Discord id is
  negative): it keys the game's lock and the one-open-game index as a channel does. Each of its
  seats plays from where its player queued (``ranked_entries``: the place's kind, channel and
  server), read with the game: one indexed read more for the ranked games among those read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.places import PlaceKind
from bot.core.base.seating import (
    APART_SEATS,
    BOT_DM_SEATING,
    CHANNEL_SEATING,
    PRIVATE_SEATING,
    Seating,
    SeatPlace,
    Through,
)
from bot.core.games.records import Lesson, Match, Occasion, Round
from bot.core.ranked.scoreboard import match_of_channel
from bot.store.database import Row

__all__ = ["MATCHES_A_READ", "match_places", "occasion_of", "places_of", "seating_of"]

#: Where a ranked game's seats play when its match is not found (none is, in a test that
#: keys a game below zero itself): each apart, through tokens, at a place not named.
_UNNAMED_APART = Seating(tuple(SeatPlace(PlaceKind.PRIVATE, Through.TOKENS) for _ in APART_SEATS))

#: Matches read at once (well under either database's limit of a statement's parameters, however
#: many ranked games a read of games finds: the games changed in a day, say).
MATCHES_A_READ = 500
#: Each match's two entries' places: the first player's (seat 0), then the second's.
_MATCH_PLACES = (
    "SELECT m.id AS match_id, a.place AS a_place, a.channel_id AS a_channel,"
    " a.guild_id AS a_guild, b.place AS b_place, b.channel_id AS b_channel,"
    " b.guild_id AS b_guild FROM ranked_matches m"
    " JOIN ranked_entries a ON a.id = m.entry_a JOIN ranked_entries b ON b.id = m.entry_b"
    " WHERE m.id IN ({})"
)


def occasion_of(row: Row) -> Occasion:
    """What the game of ``row`` (its ``channel_id``, ``lesson`` and ``occasion`` columns) is
    part of."""
    found = match_of_channel(row["channel_id"])
    if found is not None:
        return Match(*found)
    if row["lesson"]:
        return Lesson()
    words: str | None = row["occasion"]
    return None if words is None else Round(words)


def seating_of(row: Row, places: Mapping[int, Seating]) -> Seating:
    """Where the seats of the game of ``row`` play (``places``: the ranked matches' seatings
    read, by match: :func:`match_places`)."""
    found = match_of_channel(row["channel_id"])
    if found is not None:
        return places.get(found[0], _UNNAMED_APART)
    if row["private_table"]:
        return PRIVATE_SEATING
    return BOT_DM_SEATING if row["lesson"] else CHANNEL_SEATING


async def match_places(
    read: Callable[[str, Sequence[Any]], Awaitable[list[Row]]], channels: Sequence[int]
) -> dict[int, Seating]:
    """The seatings of the ranked matches the games keyed by ``channels`` are of, by match (no
    read when none is a ranked game's; a read a :data:`MATCHES_A_READ` of them)."""
    matches = sorted({m[0] for c in channels if (m := match_of_channel(c)) is not None})
    found: dict[int, Seating] = {}
    for start in range(0, len(matches), MATCHES_A_READ):
        some = matches[start : start + MATCHES_A_READ]
        for row in await read(_MATCH_PLACES.format(", ".join("?" * len(some))), some):
            found[row["match_id"]] = Seating((_place(row, "a"), _place(row, "b")))
    return found


def _place(row: Row, entry: str) -> SeatPlace:
    """The place of ``entry`` (``a``, ``b``) in a row of :data:`_MATCH_PLACES`, as
    :attr:`Search.place_apart <bot.core.ranked.records.Search.place_apart>` says it."""
    kind, channel, guild = (row[f"{entry}_{c}"] for c in ("place", "channel", "guild"))
    return SeatPlace(PlaceKind(kind), Through.TOKENS, channel, guild)


def places_of(owner: Owner, channel_id: int) -> tuple[Owner, ...]:
    """The places that keep messages of ``owner``'s changes too, its game keyed by
    ``channel_id`` (as a change of another process is announced): a ranked game's seats'
    places; none for any other owner.

    >>> [str(o) for o in places_of(Owner.game(12), -5)], places_of(Owner.game(12), 345)
    (['place:96', 'place:97'], ())
    """
    if owner.kind is not OwnerKind.GAME or match_of_channel(channel_id) is None:
        return ()
    return tuple(Owner.place(owner.id, seat) for seat in APART_SEATS)
