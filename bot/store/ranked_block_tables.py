"""The store's blocks between ranked players: a player who blocked another is never matched
with them (until they unblock), and whom a player met, to block.

A block outlives the blocked player's deletion of their data: the row then names a former
player (the id and name :meth:`~bot.store.privacy_tables.PrivacyTables.forget_player` puts in
their place) and keeps their id only as a keyed hash, ``blocked_key``
(:mod:`bot.core.privacy.keyed`), by which :func:`blocks_among` knows them when they search
again; the blocker's list still offers it, as a former player, to lift."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.privacy.keyed import keyed_id
from bot.store.database import Database, MissingReference, Transaction
from bot.store.queries import KEYED_IDS, Queries, marks, people_acting, secret_named

__all__ = ["BlockTables", "blocks_among"]


async def blocks_among(on: Database | Transaction, user_ids: Sequence[int]) -> set[tuple[int, int]]:
    """The blocks in which ``user_ids`` block or are blocked: (who, whom), read ``on`` the
    database or in a transaction (the one that pairs a newcomer). A block of a player who had
    their data deleted since is found by their keyed id, and names them by their id here."""
    if not user_ids:
        return set()
    ids = tuple(user_ids)
    # (No secret yet: nobody's id was ever kept keyed.)
    secret = await secret_named(on, KEYED_IDS)
    keys = {} if secret is None else {keyed_id(secret, i): i for i in ids}
    keyed = f" OR blocked_key IN ({marks(tuple(keys))})" if keys else ""
    rows = await on.fetch(
        "SELECT user_id, blocked_id, blocked_key FROM ranked_blocks"
        f" WHERE user_id IN ({marks(ids)}) OR blocked_id IN ({marks(ids)}){keyed}",
        ids + ids + tuple(keys),
    )
    return {(int(r[0]), keys.get(r[2], int(r[1]))) for r in rows}


class BlockTables(Queries):
    """Ranked players' blocks, and their past opponents."""

    async def block_player(self, user_id: int, blocked_id: int, name: str, *, now: float) -> None:
        """``user_id`` is never matched with ``blocked_id`` again (until they unblock): their
        act (their row made if it is not there). Nothing is kept when ``blocked_id`` is
        nobody the bot keeps any more (their data deleted since the blocker read them: they
        are a former player, whom the blocker's list offers to block as such)."""
        acting = people_acting([user_id], changed=True)
        assert acting is not None
        try:
            async with self._writing() as tx:
                await acting.run(tx)
                await tx.execute(
                    "INSERT INTO ranked_blocks (user_id, blocked_id, name, at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (user_id, blocked_id) DO UPDATE SET name = excluded.name",
                    (user_id, blocked_id, name, now),
                )
        except MissingReference:
            return

    async def unblock_player(self, user_id: int, blocked_id: int) -> bool:
        """Lift a block; whether there was one."""
        return bool(
            await self.db.execute(
                "DELETE FROM ranked_blocks WHERE user_id = ? AND blocked_id = ?",
                (user_id, blocked_id),
            )
        )

    async def blocked_players(self, user_id: int) -> list[tuple[int, str]]:
        """Whom the player blocked, by name (a player who had their data deleted since: a
        former player's id, named as the games name them)."""
        rows = await self._read(
            "SELECT blocked_id, name FROM ranked_blocks WHERE user_id = ? ORDER BY name",
            (user_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def blocks_among(self, user_ids: Sequence[int]) -> set[tuple[int, int]]:
        """The blocks in which ``user_ids`` block or are blocked: (who, whom)."""
        return await blocks_among(self.db, user_ids)

    async def past_opponents(self, user_id: int, *, limit: int) -> list[tuple[int, str]]:
        """The players ``user_id`` met in ranked matches, latest first, each once."""
        rows = await self._read(
            "SELECT o.user_id, o.name, MAX(m.id) FROM ranked_matches m"
            " JOIN ranked_entries o ON o.id = CASE WHEN m.player_a = ? THEN m.entry_b"
            " ELSE m.entry_a END WHERE m.player_a = ? OR m.player_b = ?"
            " GROUP BY o.user_id, o.name ORDER BY MAX(m.id) DESC LIMIT ?",
            (user_id, user_id, user_id, limit),
        )
        seen: dict[int, str] = {}
        for row in rows:
            seen.setdefault(int(row[0]), str(row[1]))
        return list(seen.items())
