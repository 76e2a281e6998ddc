"""The store's housekeeping: ended games pruned to their results and one archive record, the
players' own settings, and the leases one process takes for the whole bot."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.core.base.feed import Change
from bot.core.base.owners import Owner, OwnerKind
from bot.core.privacy.inventory import Lasts, tables_lasting
from bot.store.announcing import announce
from bot.store.database import Dialect
from bot.store.game_places import places_of
from bot.store.message_tables import forget_owners
from bot.store.queries import Queries, db_now, people_acting

__all__ = ["ArchiveTables"]

#: Games that have ended (``GameStatus.FINISHED``, ``CANCELLED`` and ``EXPIRED``), as SQL.
_ENDED = "status IN ('finished', 'cancelled', 'expired')"
#: The tables whose rows are an owner's (``game:12``), not a game's by its id.
_BY_OWNER = frozenset({"messages", "pending_posts"})
#: A ranked search's card's owner (``ranked:5``), as SQL of its row in ``ranked_entries``.
_CARD = f"'{OwnerKind.RANKED}:' || CAST(id AS TEXT)"
#: Owners forgotten per statement.
_FORGET_BATCH = 500


class ArchiveTables(Queries):
    """Pruning and the archive, user settings, leases."""

    async def prunable(self, before: float, *, limit: int) -> list[tuple[int, str | None]]:
        """Ended games (finished, cancelled, expired) last changed before ``before`` and not
        pruned yet, oldest first, at most ``limit``: each game's id and last snapshot."""
        # By the partial index of games not pruned yet, so the games already pruned, which
        # pile up for ever, are never passed over (SQLite is told to; PostgreSQL's planner
        # picks the smaller index by itself).
        hint = " INDEXED BY games_to_prune" if self.db.dialect is Dialect.SQLITE else ""
        rows = await self._read(
            f"SELECT id, snapshot FROM games{hint}"
            f" WHERE pruned_at IS NULL AND {_ENDED} AND updated_at < ?"
            " ORDER BY updated_at, id LIMIT ?",
            (before, limit),
        )
        return [(int(row[0]), row[1]) for row in rows]

    async def prune(
        self, records: Sequence[tuple[int, bytes | None]], *, before: float, now: float
    ) -> int:
        """Prune ended games in one transaction, each kept as its archive record (None: none,
        for a game that never started): its snapshot goes, and the rows of every table kept
        only while a game is whole (:data:`~bot.core.privacy.inventory.Lasts.GAME`: its action
        log, messages, refused DMs and pending posts); its row, seats, results and ratings
        stay. A game that is no longer ended before ``before`` is left alone. Returns how many
        were pruned."""
        wanted = dict(records)
        if not wanted:
            return 0
        marks = ", ".join("?" for _ in wanted)
        async with self._writing() as tx:
            found = await tx.fetch(
                f"SELECT id, channel_id FROM games WHERE id IN ({marks}) AND pruned_at IS NULL"
                f" AND {_ENDED} AND updated_at < ?",
                (*wanted, before),
            )
            ids = [(int(row[0]),) for row in found]
            if not ids:
                return 0
            await tx.executemany(
                "UPDATE games SET snapshot = NULL, pruned_at = ?, version = version + 1"
                " WHERE id = ?",
                [(now, game_id) for (game_id,) in ids],
            )
            await tx.executemany(
                "INSERT INTO game_archives (game_id, record) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET record = excluded.record",
                [(game_id, wanted[game_id]) for (game_id,) in ids if wanted[game_id] is not None],
            )
            # (Played apart, a game's messages are its seats' places' too.)
            owners = [
                (str(owner),)
                for row in found
                for game in [Owner.game(int(row[0]))]
                for owner in (game, *places_of(game, int(row[1])))
            ]
            for table in (t.name for t in tables_lasting(Lasts.GAME)):
                key, keys = ("owner", owners) if table in _BY_OWNER else ("game_id", ids)
                await tx.executemany(f"DELETE FROM {table} WHERE {key} = ?", keys)
        return len(ids)

    async def forget_cards(self, before: float) -> list[int]:
        """Let go of the records of the ranked cards (their messages, pending posts) of the
        searches that ended before ``before``, kept only to edit them, as a game's messages are
        until it is pruned (no search's card is drawn again an hour after it ended); the
        searches whose cards had any."""
        cards = (
            f"SELECT owner FROM {{table}} WHERE owner IN (SELECT {_CARD} FROM ranked_entries"
            " WHERE ended_at < ?)"
        )
        async with self._writing() as tx:
            owners = {
                str(row[0])
                for table in _BY_OWNER
                for row in await tx.fetch(cards.format(table=table), (before,))
            }
            named = sorted(owners)
            for start in range(0, len(named), _FORGET_BATCH):
                for forgotten in forget_owners(
                    [Owner.parse(owner) for owner in named[start : start + _FORGET_BATCH]]
                ):
                    await forgotten.run(tx)
        return sorted(Owner.parse(owner).id for owner in owners)

    async def archived(self, game_id: int) -> bytes | None:
        """A pruned game's archive record (None for a game not pruned, or never started)."""
        rows = await self._read("SELECT record FROM game_archives WHERE game_id = ?", (game_id,))
        return bytes(rows[0][0]) if rows else None

    async def reclaim(self, pages: int) -> None:
        """Give back up to ``pages`` pages of freed space to the file system (see
        :meth:`bot.store.database.Database.reclaim`)."""
        await self.db.reclaim(pages)

    # -- user settings -----------------------------------------------------------------------
    async def coach_off(self, user_ids: Iterable[int]) -> set[int]:
        """Which of ``user_ids`` have turned the coach off (everyone else has it on)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" for _ in wanted)
        rows = await self._read(
            f"SELECT user_id FROM user_settings WHERE coach = 0 AND user_id IN ({marks})", wanted
        )
        return {row[0] for row in rows}

    async def coach_settings(self, user_ids: Iterable[int]) -> dict[int, tuple[int, bool]]:
        """Each of ``user_ids``' coach setting at its version: (version, whether they turned
        it off); (0, False) for one who never changed it."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self._read(
            f"SELECT user_id, version, coach FROM user_settings WHERE user_id IN ({marks})", wanted
        )
        found = {int(row[0]): (int(row[1]), not row[2]) for row in rows}
        return {user: found.get(user, (0, False)) for user in wanted}

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> int:
        """Turn the coach on or off for a user (kept across servers and games): the setting's
        new version, announced on PostgreSQL as the person's change (``person:<id>``), so that
        every process moves what it keeps of it on. Their act: their row made if it is not
        there, its version moved on.

        A version is at least the change's time in milliseconds (and one past the last): a
        setting made after its person's data was deleted (its row, its version with it) still
        comes after every version a process may keep from before."""
        acting = people_acting([user_id], changed=True)
        assert acting is not None
        async with self._writing() as tx:
            await acting.run(tx)
            rows = await tx.fetch(
                "INSERT INTO user_settings (user_id, coach, updated_at, version)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET coach = excluded.coach,"
                " updated_at = excluded.updated_at, version = CASE WHEN user_settings.version"
                " >= excluded.version THEN user_settings.version + 1 ELSE excluded.version END"
                " RETURNING version",
                (user_id, int(on), now, _setting_version(now)),
            )
            version = int(rows[0][0])
            # (No channel: a person keeps no message.)
            await announce(tx, self.dialect, Change(Owner.person(user_id), version, 0))
        return version

    async def settings_changed_since(self, since: float) -> list[tuple[int, int]]:
        """(user id, version) of every coach setting changed since ``since``."""
        rows = await self._read(
            "SELECT user_id, version FROM user_settings WHERE updated_at >= ?", (since,)
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def offer_learn(self, user_id: int, *, now: float) -> bool:
        """Note that ``/cribbage learn`` was offered to ``user_id`` now (as they asked for
        help: their row made if it is not there); False when it was offered before (one
        statement: two asks at once offer it once)."""
        acting = people_acting([user_id])
        assert acting is not None
        async with self._writing() as tx:
            await acting.run(tx)
            rows = await tx.fetch(
                "INSERT INTO user_settings (user_id, updated_at, learn_offered) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET learn_offered = excluded.learn_offered"
                " WHERE user_settings.learn_offered IS NULL RETURNING user_id",
                (user_id, now, now),
            )
        return bool(rows)

    # -- leases: work one process of the bot may start once in a while ----------------------
    async def take_lease(self, name: str, holder: str, *, now: float, seconds: float) -> bool:
        """Take (or, for its holder, renew) the lease ``name`` for ``seconds`` from ``now``;
        False when another holder has it and it has not lapsed. One statement, so two
        processes racing for a lapsed lease cannot both win it."""
        rows = await self._read_write(
            "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
            " expires_at = excluded.expires_at"
            " WHERE leases.holder = excluded.holder OR leases.expires_at <= ?"
            " RETURNING holder",
            (name, holder, now + seconds, now),
        )
        return bool(rows)

    async def hold_lease(self, name: str, holder: str, seconds: float) -> bool:
        """Take (or, for its holder, renew) the lease ``name`` for ``seconds`` from now by the
        database's clock; False when another holder has it and it has not lapsed."""
        now = db_now(self.dialect)
        sql = (
            f"INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, {now} + ?)"
            " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,"
            " expires_at = excluded.expires_at"
            f" WHERE leases.holder = excluded.holder OR leases.expires_at <= {now}"
            " RETURNING holder"
        )
        # Committed by itself (see _read_write): a holder frozen mid-renewal never keeps the
        # lease's row locked against the process taking over.
        rows = await self._read_write(sql, (name, holder, seconds))
        return bool(rows)

    async def lease_left(self, name: str) -> float:
        """How many seconds are left of the lease ``name`` by the database's clock (0: nobody
        holds it, or it has lapsed)."""
        rows = await self._read(
            f"SELECT expires_at - {db_now(self.dialect)} FROM leases WHERE name = ?", (name,)
        )
        return max(0.0, float(rows[0][0])) if rows else 0.0

    async def give_up_lease(self, name: str, holder: str) -> None:
        """Give the lease ``name`` up, if ``holder`` holds it (another may take it at once)."""
        await self.db.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))


def _setting_version(now: float) -> int:
    """The least version of a setting changed at ``now`` (seconds): its time in milliseconds,
    past any version a setting changed earlier was given (see ``set_coach``)."""
    return int(now * 1000)
