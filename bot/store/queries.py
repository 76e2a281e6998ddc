"""What every part of the store shares: the database it runs on, how a unit of work is made on it
(one query's rows, one transaction), a statement one part makes for another's transaction
(:class:`Statement`: the part whose tables they are writes them, in the transaction of the change
they go with), and a person's row as the writes of their acts make it (:func:`people_acting`).

A person is a row (``people``, migration 040), which every column holding a person's id
references: an act of theirs (a seat taken, a search, a setting) makes their row if it is not
there; what is made from a row already kept (a result from a seat, a card's record from a
search, a DM link from a click) never does, and finds nobody once the person's data was deleted
(docs/architecture.md, "One discipline for every change")."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.core.games.records import FORMER_PLAYERS
from bot.store.database import Database, Dialect, Row, Transaction

__all__ = [
    "KEYED_IDS",
    "Queries",
    "Statement",
    "kept_secret",
    "marks",
    "not_former",
    "people_acting",
    "secret_named",
]

T = TypeVar("T")


def marks(values: Sequence[Any]) -> str:
    """One placeholder per value, for ``IN (...)``: ``?, ?, ?``."""
    return ", ".join("?" for _ in values)


#: The name in ``bot_secrets`` of the secret a deleted person's id is kept under as a keyed hash
#: (:mod:`bot.core.privacy.keyed`).
KEYED_IDS = "keyed_ids"


def not_former(column: str) -> str:
    """SQL that holds where ``column`` is no former player's id (:data:`~bot.core.games.
    records.FORMER_PLAYERS`: a deleted person's rows name one)."""
    return f"{column} NOT BETWEEN {FORMER_PLAYERS.start} AND {FORMER_PLAYERS.stop - 1}"


def people_acting(people: Iterable[int | None], *, changed: bool = False) -> Statement | None:
    """The rows of ``people`` acting now (a seat taken, a search, a setting, a block...), made
    where they are not there: a person acting for the first time, or again after their data
    was deleted (a new row; nothing of the old one is theirs). ``changed``: the act changes
    the person's own (a setting), so their row's version moves on. None: nobody to write."""
    ids = sorted({person for person in people if person is not None})
    if not ids:
        return None
    rows = ", ".join("(?)" for _ in ids)
    then = "UPDATE SET version = people.version + 1" if changed else "NOTHING"
    return Statement(
        f"INSERT INTO people (id) VALUES {rows} ON CONFLICT (id) DO {then}", tuple(ids)
    )


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


#: The lease of the process that sends (:mod:`bot.store.cluster`): a row of ``leases``.
SENDER_LEASE = "sender"


def db_now(dialect: Dialect) -> str:
    """The database's clock now, in seconds since the epoch: the leases lapse by it, so a
    lease means the same to every process, whatever their machines' clocks say."""
    if dialect is Dialect.SQLITE:
        return "((julianday('now') - 2440587.5) * 86400.0)"
    return "extract(epoch FROM clock_timestamp())::double precision"


def proving_sender(dialect: Dialect) -> str:
    """A statement (its one parameter: a process's name) that proves that process holds the
    sender's lease, by the database's clock, returning a row if it does: a compare-and-set of
    the lease's row that changes nothing, made as part of a write only the sender may make. A
    process taking the lease over writes that row too, so one of the two goes first: the write
    of a sender deposed meanwhile finds the lease another's and is not made, or is made before
    the lease passes (and is there when the process taking over looks)."""
    return (
        f"UPDATE leases SET holder = holder WHERE name = '{SENDER_LEASE}' AND holder = ?"
        f" AND expires_at > {db_now(dialect)} RETURNING 1"
    )


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

    def _writing(self, *, snapshot: bool = False) -> AbstractAsyncContextManager[Transaction]:
        """One transaction: commit at the end of the block, or roll back if it raised (with
        ``snapshot``, everything read as it was when it began: see
        :meth:`~bot.store.database.Database.transaction`)."""
        return self.db.transaction(snapshot=snapshot)

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
