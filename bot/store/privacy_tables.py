"""A person's data on request, and a server's once the bot has left it (issue 50, item 4).

What is kept about a person, table by table and column by column, is said once, in
:mod:`bot.core.privacy.inventory`; the file and the deletion here are drawn from it:

- :meth:`PrivacyTables.player_data`: the rows of every table the inventory sends that name a
  person, for the file ``/cribbage privacy`` sends them, without the columns it leaves out (the
  tokens of their interactions: a credential, dead within 15 minutes).
- :meth:`PrivacyTables.forget_player`: in one transaction, the person's row moved to a
  former player's id (:data:`bot.core.games.records.FORMER_PLAYERS`), which every row naming
  them follows by the schema (migration 040: each such column references ``people`` ON UPDATE
  CASCADE, as the inventory says and ``tests/bot/store/test_inventory.py`` checks); then,
  under that id nobody else knows, the rows the inventory deletes, the columns it clears
  (their picture and places), the name given in place of theirs in what stays whole for
  other people, in the games' snapshots, archive records and end notes too; and in what stays
  for another person so that it still holds (a block of them), a keyed hash of their id
  (:mod:`bot.core.privacy.keyed`) under the secret :data:`~bot.store.queries.KEYED_IDS`, made
  by the first deletion that needs it. A write of theirs that commits after it finds no
  person (their id has no row any more), in whichever process it was made.
- :meth:`PrivacyTables.left_server` and the rest: the servers the bot was removed from, and
  :meth:`PrivacyTables.forget_server`, which deletes one server's data, in batches.
"""

from __future__ import annotations

import json
from typing import Any

from bot.core.base.feed import Change
from bot.core.base.owners import Owner
from bot.core.base.store_errors import Raced, decided_again
from bot.core.privacy.inventory import (
    Holds,
    Request,
    Table,
    columns_for,
    file_tables,
    person_columns,
)
from bot.core.privacy.keyed import keyed_id
from bot.core.privacy.records import Forgotten, FormerPlayer
from bot.store.announcing import announce
from bot.store.database import Overtaken, Transaction
from bot.store.message_tables import forget_owners
from bot.store.queries import KEYED_IDS, Queries, kept_secret, marks
from bot.store.tournament_rows import bump_tournament

__all__ = ["FORGET_BATCH", "PrivacyTables"]

#: Games of a server deleted per transaction (each takes its seats, moves, results, messages).
FORGET_BATCH = 200

#: The file's rows of a table read with the game they belong to rather than alone: the
#: person's seats, as the games they sat in, each with how it ended (``ending``: a finished
#: game's, as its result says it, a clock or leaving a match included, where the results'
#: ``reason`` is the engine's, a resignation; ``end_note``: one ended with no result).
_JOINED = {
    "seats": "SELECT g.id, g.guild_id, g.channel_id, g.status, g.variant, g.target,"
    " g.num_players, g.created_at, g.updated_at, g.ending, g.end_note, s.seat, s.display_name"
    " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? ORDER BY g.id"
}
#: What a cleared column that may not be NULL holds instead.
_CLEARED_TO = {("ranked_entries", "channel_id"): 0}


def _sent_ids(table: Table) -> list[str]:
    """The columns of ``table`` by which the file selects the rows naming a person."""
    return [c.name for c in table.columns if c.holds is Holds.ID and not c.unsent]


def _whose(table: str) -> str:
    """The column naming the person a row of ``table`` is about: its first id column."""
    return next(c.name for c in person_columns()[table].values() if c.holds is Holds.ID)


def _plain(row: Any, left_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A row as a JSON-ready dict (a review's data read as JSON), without ``left_out``."""
    out: dict[str, Any] = {}
    # (sqlite3.Row and asyncpg's Record both name their columns; iterated, a sqlite3.Row
    # gives its values.)
    for key in row.keys():  # noqa: SIM118
        if key in left_out:
            continue
        value = row[key]
        if isinstance(value, bytes | memoryview):
            value = bytes(value).hex()
        elif key == "data" and isinstance(value, str):
            value = json.loads(value)
        out[key] = value
    return out


async def _still_left(tx: Transaction, guild_id: int, left_by: float) -> bool:
    """Whether the note that the bot left ``guild_id`` (by ``left_by``) is still there: the
    server's data is still to go. A compare-and-set of the note (its version moved on in
    ``tx``, where it says the bot left by then), in the transaction of the batch it lets go:
    a process that hears the bot invited back deletes the note once this batch is committed,
    and the next batch finds none."""
    moved = await tx.execute(
        "UPDATE servers_left SET version = version + 1 WHERE guild_id = ? AND left_at <= ?",
        (guild_id, left_by),
    )
    return bool(moved)


async def _keyed(tx: Transaction, user_id: int, former: FormerPlayer, fresh_secret: str) -> None:
    """In what stays for another so that it still holds (the inventory's ``Request.KEYED``
    columns: a block of them), the former player's name beside their id (``former.id`` by
    now) and ``user_id``'s keyed hash."""
    keyed = columns_for(Request.KEYED)
    if not keyed:
        return
    secret = await kept_secret(tx, "bot_secrets", ("name", KEYED_IDS), fresh_secret)
    put = {Holds.ID: former.id, Holds.NAME: former.name, Holds.KEYED: keyed_id(secret, user_id)}
    for table, columns in keyed.items():
        [whose] = [c.name for c in columns if c.holds is Holds.ID]
        setting = ", ".join(f"{c.name} = ?" for c in columns)
        await tx.execute(
            f"UPDATE {table} SET {setting} WHERE {whose} = ?",
            (*(put[c.holds] for c in columns), former.id),
        )


#: The games whose end note may name a person (its parameters: the id their rows name, twice,
#: then their mention as LIKE reads it): those they sat in or opened, and any that mentions
#: them (a tournament's games, cancelled by its organiser).
_NOTED = (
    "SELECT id, end_note FROM games WHERE end_note IS NOT NULL AND (creator_id = ?"
    " OR id IN (SELECT game_id FROM seats WHERE user_id = ?) OR end_note LIKE ?)"
)
#: The names a person played under (its parameters: the id their rows name, once a table).
_NAMES = (
    "SELECT display_name FROM seats WHERE user_id = ?"
    " UNION SELECT display_name FROM results WHERE user_id = ?"
    " UNION SELECT name FROM tournament_entrants WHERE user_id = ?"
)


async def _renamed_notes(tx: Transaction, user_id: int, former: FormerPlayer) -> None:
    """The end notes of the games that may name ``user_id`` (the inventory's ``games.end_note``:
    "Al left and closed the lobby.", a tournament's "cancelled by <@id>"), renamed (each game's
    version moved on), before the names they played under are replaced (their rows name
    ``former.id`` by now)."""
    names = [str(r[0]) for r in await tx.fetch(_NAMES, (former.id,) * 3) if r[0]]
    noted = await tx.fetch(_NOTED, (former.id, former.id, f"%<@{user_id}>%"))
    renamed = [(former.note(str(r[1]), names), int(r[0])) for r in noted]
    changed = [(note, game) for (note, game), r in zip(renamed, noted, strict=True) if note != r[1]]
    if changed:
        await tx.executemany(
            "UPDATE games SET end_note = ?, version = version + 1 WHERE id = ?", changed
        )


async def _renamed_games(
    tx: Transaction, former: FormerPlayer, seats: dict[int, list[int]]
) -> None:
    """Their names out of the saved states and archive records of the games they sat in
    (``seats``: each game's seats of theirs), :data:`FORGET_BATCH` games a statement, each
    game moved on (its seat names a former player); and the matches and pairings they played
    moved on too."""
    games = sorted(seats)
    for start in range(0, len(games), FORGET_BATCH):
        batch = games[start : start + FORGET_BATCH]
        await tx.execute(
            f"UPDATE games SET version = version + 1 WHERE id IN ({marks(batch)})", batch
        )
        states = await tx.fetch(
            f"SELECT id, snapshot FROM games WHERE snapshot IS NOT NULL AND id IN ({marks(batch)})",
            batch,
        )
        await tx.executemany(
            "UPDATE games SET snapshot = ?, version = version + 1 WHERE id = ?",
            [(former.snapshot(r[1], seats[int(r[0])]), int(r[0])) for r in states],
        )
        kept = await tx.fetch(
            f"SELECT game_id, record FROM game_archives WHERE game_id IN ({marks(batch)})", batch
        )
        await tx.executemany(
            "UPDATE game_archives SET record = ? WHERE game_id = ?",
            [(former.archive(bytes(r[1]), seats[int(r[0])]), int(r[0])) for r in kept],
        )
    await tx.execute(
        "UPDATE ranked_matches SET version = version + 1 WHERE player_a = ? OR player_b = ?",
        (former.id, former.id),
    )
    await tx.execute(
        "UPDATE tournament_pairings SET version = version + 1 WHERE player_a = ? OR player_b = ?",
        (former.id, former.id),
    )


class PrivacyTables(Queries):
    """A person's data on request; a server's data once the bot left it."""

    async def player_data(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """Every row kept about ``user_id`` that the inventory sends, by its name in the file
        (``games``: the games they sat in)."""
        found: dict[str, list[dict[str, Any]]] = {}
        for table in file_tables():
            assert table.file is not None
            left_out = frozenset(
                c.name for c in table.columns if c.unsent and c.holds is not Holds.ID
            )
            naming = " OR ".join(f"{column} = ?" for column in _sent_ids(table))
            sql = _JOINED.get(table.name) or f"SELECT * FROM {table.name} WHERE {naming}"
            rows = await self._read(sql, (user_id,) * sql.count("?"))
            found[table.file] = [_plain(row, left_out) for row in rows]
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
        self, user_id: int, former: FormerPlayer, *, fresh_secret: str
    ) -> Forgotten:
        """Delete what is ``user_id``'s own and put ``former`` in their place in what stays
        for others (its id and name in their rows, their names out of the games' saved states,
        records and notes), with a keyed hash of their id where it must still know them
        (under the bot's secret, ``fresh_secret`` if it had none yet), in one transaction; the
        games they played (kept for their opponents, each at its next version), and the
        changes of the tournaments they were in, each moved on (its message names a former
        player now). A transaction another overtook (PostgreSQL broke a deadlock with a write
        of theirs) is made again."""

        async def once() -> Forgotten:
            try:
                return await self._forgotten(user_id, former, fresh_secret)
            except Overtaken:
                raise Raced() from None

        return await decided_again(once)

    async def _forgotten(self, user_id: int, former: FormerPlayer, fresh_secret: str) -> Forgotten:
        async with self._writing() as tx:
            # Their row first: every row naming them follows it to the former player's id
            # (ON UPDATE CASCADE), those another transaction writes meanwhile too (it waits for
            # this one, then finds no person); what follows works under that id alone.
            coach = await tx.fetch(
                "SELECT version FROM user_settings WHERE user_id = ?", (user_id,)
            )
            moved = await tx.execute(
                "UPDATE people SET id = ?, version = version + 1 WHERE id = ?",
                (former.id, user_id),
            )
            if not moved:
                return Forgotten([], [])  # (nothing is kept of them)
            # Their coach setting goes: every process lets go of what it keeps of it (the
            # default is theirs again), by a version past it, which a setting they make later
            # passes in turn (its version is at least its time).
            dropped = [Change(Owner.person(user_id), int(r[0]) + 1, 0) for r in coach]
            for change in dropped:
                await announce(tx, self.dialect, change)
            await _renamed_notes(tx, user_id, former)
            # Their ranked cards' messages, in their DMs or where they searched from (never a
            # game's, so no game's pruning takes them): their places' ids and interactions.
            entries = await tx.fetch(
                "SELECT id FROM ranked_entries WHERE user_id = ?", (former.id,)
            )
            cards = [Owner.ranked(int(r[0])) for r in entries]
            for forgotten in forget_owners(cards) if cards else ():
                await forgotten.run(tx)
            seated = await tx.fetch(
                "SELECT game_id, seat FROM seats WHERE user_id = ?", (former.id,)
            )
            seats: dict[int, list[int]] = {}
            for row in seated:
                seats.setdefault(int(row[0]), []).append(int(row[1]))
            games = sorted(seats)
            entered = await tx.fetch(
                "SELECT tournament_id FROM tournament_entrants WHERE user_id = ? UNION SELECT id"
                " FROM tournaments WHERE ? IN (organiser_id, champion_id, cancelled_by)",
                (former.id, former.id),
            )
            await _renamed_games(tx, former, seats)
            for table, deleted in columns_for(Request.DELETED).items():
                for column in (c.name for c in deleted if c.holds is Holds.ID):
                    await tx.execute(f"DELETE FROM {table} WHERE {column} = ?", (former.id,))
            # What else a row said of them (their picture, their places) now that the row's
            # id is a former player's.
            for table, cleared in columns_for(Request.CLEARED).items():
                emptied = ", ".join(
                    f"{c.name} = {_CLEARED_TO.get((table, c.name), 'NULL')}" for c in cleared
                )
                await tx.execute(
                    f"UPDATE {table} SET {emptied} WHERE {_whose(table)} = ?", (former.id,)
                )
            for table, replaced in columns_for(Request.FORMER).items():
                # (Their name goes where the row is about them; their id is the former
                # player's already, wherever it was.)
                names = [c.name for c in replaced if c.holds is Holds.NAME]
                if names:
                    setting = ", ".join(f"{c} = ?" for c in names)
                    await tx.execute(
                        f"UPDATE {table} SET {setting} WHERE {_whose(table)} = ?",
                        (*(former.name for _ in names), former.id),
                    )
            await _keyed(tx, user_id, former, fresh_secret)
            bumped = [await bump_tournament(tx, self.dialect, int(r[0])) for r in entered]
        return Forgotten(games, [*dropped, *(change for change in bumped if change is not None)])

    # -- servers the bot left ------------------------------------------------------------------
    async def left_server(self, guild_id: int, *, at: float) -> None:
        """The bot was removed from ``guild_id`` at ``at`` (kept if already noted earlier)."""
        await self.db.execute(
            "INSERT INTO servers_left (guild_id, left_at) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, at),
        )

    async def back_in_server(self, guild_id: int, *, left_by: float | None = None) -> bool:
        """The bot is in ``guild_id`` (again): its data is no longer to be deleted; whether it
        was. (``left_by``: only if it left by then: its data went, and a later removal's note
        stays.)"""
        by = "" if left_by is None else " AND left_at <= ?"
        return bool(
            await self.db.execute(
                f"DELETE FROM servers_left WHERE guild_id = ?{by}",
                (guild_id,) if left_by is None else (guild_id, left_by),
            )
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
            " UNION SELECT guild_id FROM tournaments UNION SELECT guild_id FROM server_settings"
        )
        return {int(r[0]) for r in rows if r[0] is not None}

    async def forget_server(self, guild_id: int, *, left_by: float) -> list[int]:
        """Delete everything kept for ``guild_id`` as the bot's server (its games with all
        they hold, standings, head to head, tournaments, the discard of the day, who was seen
        there), games :data:`FORGET_BATCH` a transaction; the games that went. Games people
        played there through their own user installs (private tables, the bot no member)
        are theirs and stay (the server's ratings are then to be worked out again from them:
        ``rebuild_server_ratings``). The note that the bot left stays until that is done.
        Each transaction first moves the note on where it still says the bot left by
        ``left_by`` (:func:`_still_left`): once the bot is back (a process heard it invited
        again, and deleted the note), nothing more goes, its games started since included."""
        gone: list[int] = []
        while True:
            async with self._writing() as tx:
                if not await _still_left(tx, guild_id, left_by):
                    return gone
                rows = await tx.fetch(
                    "SELECT id FROM games WHERE guild_id = ? AND private_table = 0 LIMIT ?",
                    (guild_id, FORGET_BATCH),
                )
                ids = [int(r[0]) for r in rows]
                if not ids:
                    break
                for forgotten in forget_owners([Owner.game(i) for i in ids]):
                    await forgotten.run(tx)
                # (Seats, moves, results, rating changes, archives, reviews: ON DELETE CASCADE.)
                await tx.execute(f"DELETE FROM games WHERE id IN ({marks(ids)})", ids)
                gone += ids
        async with self._writing() as tx:
            if not await _still_left(tx, guild_id, left_by):
                return gone
            rows = await tx.fetch("SELECT id FROM tournaments WHERE guild_id = ?", (guild_id,))
            if rows:
                for forgotten in forget_owners([Owner.tournament(int(r[0])) for r in rows]):
                    await forgotten.run(tx)
            tables = ("clubs", "tournaments", "server_settings", "daily_answers", "daily_secrets")
            for table in (*tables, "members_seen"):
                await tx.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
        return gone
