"""What every part of the store shares: the database it runs on, how a unit of work is made on it
(one query's rows, one transaction), and a statement one part makes for another's transaction
(:class:`Statement`: the part whose tables they are writes them, in the transaction of the change
they go with)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.store.database import Database, Dialect, Row, Transaction

__all__ = [
    "DELETION_LOCK",
    "KEYED_IDS",
    "Queries",
    "Statement",
    "kept_secret",
    "marks",
    "secret_named",
]

T = TypeVar("T")


def marks(values: Sequence[Any]) -> str:
    """One placeholder per value, for ``IN (...)``: ``?, ?, ?``."""
    return ", ".join("?" for _ in values)


#: The name in ``bot_secrets`` of the secret a deleted person's id is kept under as a keyed hash
#: (:mod:`bot.core.privacy.keyed`).
KEYED_IDS = "keyed_ids"

#: The lock (any number no other part uses) a person's deletion takes before it reads and
#: deletes what is theirs, and a write of something of theirs made from a read before it takes
#: before it reads whether they are still there: a ranked card's record (their DM's or place's
#: id, their interaction's token: :mod:`bot.store.message_tables`), a review of their play
#: (:mod:`bot.store.review_tables`). Such a write is made a moment, or a review's seconds, after
#: what it was made from was read, in whichever process made it (the ledger's write-behind,
#: the automatic reviews of the process that sends, a *Review* clicked anywhere), and may reach
#: the store after the deletion: it would keep what the person had deleted. Only the store sees
#: both: under this lock, a write that comes first is committed before the deletion reads what
#: to delete, and one that comes after reads the person as a former player and keeps nothing.
#: (Without the lock, on PostgreSQL, a write begun before the deletion committed, and after it
#: deleted the rows, inserted them again; telling the deleting process's memory would not do:
#: the writer may be another process, and its write may be on its way already.)
DELETION_LOCK = 0x0C1B_0003


async def kept_secret(
    on: Database | Transaction, table: str, key: tuple[str, Any], fresh: str
) -> str:
    """The secret of ``table``'s row whose column ``key[0]`` is ``key[1]``: ``fresh`` if it had
    none (kept from now on), else its own. One statement each way, so two first askers at once
    (in any processes) agree on one."""
    column, value = key
    await on.execute(
        f"INSERT INTO {table} ({column}, secret) VALUES (?, ?) ON CONFLICT ({column}) DO NOTHING",
        (value, fresh),
    )
    rows = await on.fetch(f"SELECT secret FROM {table} WHERE {column} = ?", (value,))
    return str(rows[0][0])


async def secret_named(on: Database | Transaction, name: str) -> str | None:
    """The bot's secret ``name`` (``bot_secrets``), None while none has been made."""
    rows = await on.fetch("SELECT secret FROM bot_secrets WHERE name = ?", (name,))
    return str(rows[0][0]) if rows else None


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement a part of the store writes its own tables with, run in another part's
    transaction (a move saves the look its click's answer gave the message with the move): the
    part whose tables they are says the SQL and its parameters, the part whose transaction it
    is runs it there, or (``sql`` alone) makes it a clause of one statement of its own."""

    sql: str
    params: tuple[Any, ...]

    async def run(self, tx: Transaction) -> None:
        """Run it in ``tx``."""
        await tx.execute(self.sql, self.params)


class Queries:
    """The base of the store's parts: each one's queries run on ``db``."""

    db: Database

    @property
    def dialect(self) -> Dialect:
        """Which database this store runs on."""
        return self.db.dialect

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One query's rows."""
        return await self.db.fetch(sql, params)

    async def _one(
        self, read: Callable[[Row], T], sql: str, params: Sequence[Any] = ()
    ) -> T | None:
        """One query's first row, as ``read`` makes it a record (None: no row)."""
        rows = await self.db.fetch(sql, params)
        return read(rows[0]) if rows else None

    async def _all(self, read: Callable[[Row], T], sql: str, params: Sequence[Any] = ()) -> list[T]:
        """One query's rows, each as ``read`` makes it a record."""
        return [read(row) for row in await self.db.fetch(sql, params)]

    def _writing(self) -> AbstractAsyncContextManager[Transaction]:
        """One transaction: commit at the end of the block, or roll back if it raised."""
        return self.db.transaction()

    async def _read_write(self, sql: str, params: Sequence[Any]) -> list[Row]:
        """One writing statement that returns rows, committed by itself. On PostgreSQL it is
        sent alone (autocommit: one round trip, its rows locked only while the server runs
        it; in a BEGIN ... COMMIT of its own, a process frozen before its COMMIT kept them
        locked, and a lease's taker waited out the whole freeze); on SQLite, in a
        transaction of its own (its writes go through the writing connection)."""
        if self.dialect is Dialect.POSTGRES:
            return await self.db.fetch(sql, params)
        async with self._writing() as tx:
            return await tx.fetch(sql, params)
