"""A person's data on request, and a server's once the bot has left it (issue 50, item 4).

- :meth:`PrivacyTables.player_data`: every row kept about a person, table by table, for the
  file ``/cribbage privacy`` sends them (not the tokens of their interactions: a credential,
  and dead within 15 minutes).
- :meth:`PrivacyTables.forget_player`: in one transaction, their own rows deleted (settings,
  DM link, membership notes, standings, rating changes, head to head, reviews of their play,
  daily answers, ranked ratings and their changes, blocks they made and those made of them)
  and, in what stays whole for other people (the games they played, their results,
  tournaments, ranked searches and matches, their picture and places cleared), their id
  replaced by a former player's
  (:data:`bot.core.standings.ratings.FORMER_PLAYERS`) and their name by the one given,
  in the games' snapshots and archive records too.
- :meth:`PrivacyTables.left_server` and the rest: the servers the bot was removed from, and
  :meth:`PrivacyTables.forget_server`, which deletes one server's data, in batches.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.store.queries import Queries, marks

__all__ = ["FORGET_BATCH", "PrivacyTables"]

#: Games of a server deleted per transaction (each takes its seats, moves, results, messages).
FORGET_BATCH = 200

#: The rows kept about a person: (what the file calls them, the table, the column naming them).
_THEIRS = (
    ("settings", "user_settings", "user_id"),
    ("dm_link", "dm_links", "user_id"),
    ("seen_in_servers", "members_seen", "user_id"),
    ("standings", "standings", "player_id"),
    ("rating_changes", "rating_changes", "player_id"),
    ("head_to_head", "rivals", "user_id"),
    ("results", "results", "user_id"),
    ("reviews", "reviews", "user_id"),
    ("daily_discards", "daily_answers", "user_id"),
    ("tournament_entries", "tournament_entrants", "user_id"),
    ("ranked_searches", "ranked_entries", "user_id"),
    ("ranked_ratings", "ranked_ratings", "user_id"),
    ("ranked_rating_changes", "ranked_changes", "user_id"),
    ("ranked_blocks", "ranked_blocks", "user_id"),
)
#: Columns never put in the file: the interaction tokens (credentials, short-lived).
_LEFT_OUT = {"token"}
#: Rows deleted outright when a person asks: (table, column).
_DELETED = (
    ("user_settings", "user_id"),
    ("dm_links", "user_id"),
    ("members_seen", "user_id"),
    ("standings", "player_id"),
    ("rating_changes", "player_id"),
    ("rivals", "user_id"),
    ("rivals", "opponent_id"),
    ("reviews", "user_id"),
    ("daily_answers", "user_id"),
    ("ranked_ratings", "user_id"),
    ("ranked_changes", "user_id"),
    ("ranked_blocks", "user_id"),
    ("ranked_blocks", "blocked_id"),
)
#: What a person's ranked searches say of them beyond their id and name (their picture, and
#: where they played from), cleared when they ask; the searches stay for their opponents'
#: matches, under a former player's id and name.
_CLEARED = (
    "UPDATE ranked_entries SET avatar = NULL, guild_id = NULL, channel_id = 0 WHERE user_id = ?"
)
#: Ids replaced by a former player's in what stays for other people: (table, column, the
#: column of the name beside it, if any).
_REPLACED = (
    ("seats", "user_id", "display_name"),
    ("results", "user_id", "display_name"),
    ("tournament_entrants", "user_id", "name"),
    ("games", "creator_id", None),
    ("tournament_pairings", "player_a", None),
    ("tournament_pairings", "player_b", None),
    ("tournament_pairings", "winner", None),
    ("tournaments", "organiser_id", None),
    ("tournaments", "champion_id", None),
    ("tournaments", "cancelled_by", None),
    ("ranked_entries", "user_id", "name"),
    ("ranked_entries", "last_opponent", None),
    ("ranked_matches", "player_a", None),
    ("ranked_matches", "player_b", None),
    ("ranked_matches", "winner", None),
    ("ranked_matches", "abandoned_by", None),
    ("ranked_games", "winner", None),
)


def _plain(row: Any) -> dict[str, Any]:
    """A row as a JSON-ready dict (a review's data read as JSON)."""
    out: dict[str, Any] = {}
    # (sqlite3.Row and asyncpg's Record both name their columns; iterated, a sqlite3.Row
    # gives its values.)
    for key in row.keys():  # noqa: SIM118
        if key in _LEFT_OUT:
            continue
        value = row[key]
        if isinstance(value, bytes | memoryview):
            value = bytes(value).hex()
        elif key == "data" and isinstance(value, str):
            value = json.loads(value)
        out[key] = value
    return out


class PrivacyTables(Queries):
    """A person's data on request; a server's data once the bot left it."""

    async def player_data(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """Every row kept about ``user_id``, by kind, and the games they sat in."""
        found: dict[str, list[dict[str, Any]]] = {}
        for kind, table, column in _THEIRS:
            rows = await self._read(f"SELECT * FROM {table} WHERE {column} = ?", (user_id,))
            found[kind] = [_plain(row) for row in rows]
        games = await self._read(
            "SELECT g.id, g.guild_id, g.channel_id, g.status, g.variant, g.target,"
            " g.num_players, g.created_at, g.updated_at, g.end_note, s.seat, s.display_name"
            " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? ORDER BY g.id",
            (user_id,),
        )
        found["games"] = [_plain(row) for row in games]
        organised = await self._read(
            "SELECT id, guild_id, channel_id, status, created_at FROM tournaments"
            " WHERE organiser_id = ?",
            (user_id,),
        )
        found["tournaments_organised"] = [_plain(row) for row in organised]
        matches = await self._read(
            "SELECT * FROM ranked_matches WHERE player_a = ? OR player_b = ? ORDER BY id",
            (user_id, user_id),
        )
        found["ranked_matches"] = [_plain(row) for row in matches]
        return found

    async def open_seats(self, user_id: int) -> list[tuple[int, int, str]]:
        """The open games ``user_id`` sits in: (game id, channel id, status)."""
        rows = await self._read(
            "SELECT g.id, g.channel_id, g.status FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'active')",
            (user_id,),
        )
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def open_entries(self, user_id: int) -> list[int]:
        """The channels of the open or running tournaments ``user_id`` is still in."""
        rows = await self._read(
            "SELECT t.channel_id FROM tournament_entrants e"
            " JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE e.user_id = ? AND e.withdrawn IS NULL AND t.status IN ('open', 'running')",
            (user_id,),
        )
        return [int(r[0]) for r in rows]

    async def forget_player(
        self,
        user_id: int,
        *,
        former_id: int,
        former_name: str,
        snapshot_renamed: Callable[[str, Sequence[int]], str],
        archive_renamed: Callable[[bytes, Sequence[int]], bytes],
    ) -> list[int]:
        """Delete what is ``user_id``'s own and put ``former_id`` and ``former_name`` in their
        place in what stays for others (``snapshot_renamed(text, seats)`` and
        ``archive_renamed(record, seats)``: a game's saved state with those seats' names
        replaced), in one transaction; the games they played (kept for their opponents)."""
        async with self._writing() as tx:
            seated = await tx.fetch("SELECT game_id, seat FROM seats WHERE user_id = ?", (user_id,))
            seats: dict[int, list[int]] = {}
            for row in seated:
                seats.setdefault(int(row[0]), []).append(int(row[1]))
            games = sorted(seats)
            for start in range(0, len(games), FORGET_BATCH):
                batch = games[start : start + FORGET_BATCH]
                states = await tx.fetch(
                    f"SELECT id, snapshot FROM games WHERE snapshot IS NOT NULL"
                    f" AND id IN ({marks(batch)})",
                    batch,
                )
                await tx.executemany(
                    "UPDATE games SET snapshot = ? WHERE id = ?",
                    [(snapshot_renamed(r[1], seats[int(r[0])]), int(r[0])) for r in states],
                )
                kept = await tx.fetch(
                    f"SELECT game_id, record FROM game_archives WHERE game_id IN ({marks(batch)})",
                    batch,
                )
                await tx.executemany(
                    "UPDATE game_archives SET record = ? WHERE game_id = ?",
                    [(archive_renamed(bytes(r[1]), seats[int(r[0])]), int(r[0])) for r in kept],
                )
            for table, column in _DELETED:
                await tx.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
            await tx.execute(_CLEARED, (user_id,))
            for table, column, name in _REPLACED:
                named = f", {name} = ?" if name else ""
                values = (former_id, former_name, user_id) if name else (former_id, user_id)
                await tx.execute(
                    f"UPDATE {table} SET {column} = ?{named} WHERE {column} = ?", values
                )
        return games

    # -- servers the bot left ------------------------------------------------------------------
    async def left_server(self, guild_id: int, *, at: float) -> None:
        """The bot was removed from ``guild_id`` at ``at`` (kept if already noted earlier)."""
        await self.db.execute(
            "INSERT INTO servers_left (guild_id, left_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, at),
        )

    async def back_in_server(self, guild_id: int) -> bool:
        """The bot is in ``guild_id`` (again): its data is no longer to be deleted; whether it
        was."""
        return bool(
            await self.db.execute("DELETE FROM servers_left WHERE guild_id = ?", (guild_id,))
        )

    async def servers_left(self) -> dict[int, float]:
        """The servers the bot left and not yet forgotten, with when it left."""
        rows = await self._read("SELECT guild_id, left_at FROM servers_left")
        return {int(r[0]): float(r[1]) for r in rows}

    async def servers_with_data(self) -> set[int]:
        """Every server the bot kept data for as a member (its games there, tournaments; not
        the games people played there through their own user installs, which are theirs)."""
        rows = await self._read(
            "SELECT guild_id FROM games WHERE guild_id IS NOT NULL AND private_table = 0"
            " UNION SELECT guild_id FROM tournaments"
        )
        return {int(r[0]) for r in rows if r[0] is not None}

    async def forget_server(self, guild_id: int) -> list[int]:
        """Delete everything kept for ``guild_id`` as the bot's server (its games with all
        they hold, standings, head to head, tournaments, the discard of the day, who was seen
        there), games :data:`FORGET_BATCH` a transaction; the games that went. Games people
        played there through their own user installs (private tables, the bot no member)
        are theirs and stay (the server's ratings are then to be worked out again from them:
        ``rebuild_server_ratings``). The note that the bot left stays until that is done."""
        gone: list[int] = []
        while True:
            async with self._writing() as tx:
                rows = await tx.fetch(
                    "SELECT id FROM games WHERE guild_id = ? AND private_table = 0 LIMIT ?",
                    (guild_id, FORGET_BATCH),
                )
                ids = [int(r[0]) for r in rows]
                if not ids:
                    break
                owners = [f"game:{i}" for i in ids]
                await tx.execute(f"DELETE FROM messages WHERE owner IN ({marks(owners)})", owners)
                await tx.execute(
                    f"DELETE FROM pending_posts WHERE owner IN ({marks(owners)})", owners
                )
                # (Seats, moves, results, rating changes, archives, reviews: ON DELETE CASCADE.)
                await tx.execute(f"DELETE FROM games WHERE id IN ({marks(ids)})", ids)
                gone += ids
        async with self._writing() as tx:
            rows = await tx.fetch("SELECT id FROM tournaments WHERE guild_id = ?", (guild_id,))
            owners = [f"tournament:{int(r[0])}" for r in rows]
            if owners:
                await tx.execute(f"DELETE FROM messages WHERE owner IN ({marks(owners)})", owners)
                await tx.execute(
                    f"DELETE FROM pending_posts WHERE owner IN ({marks(owners)})", owners
                )
            for table in ("tournaments", "daily_answers", "daily_secrets", "members_seen"):
                await tx.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
        return gone
