"""What an operator asks of the store: whether it answers, the games by state, the queues'
lengths, the sender's lease's holder, and the bot's processes as each last said of itself
(migration 021)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.queries import Queries

__all__ = ["OpsTables", "ProcessRow"]


@dataclass(frozen=True, slots=True)
class ProcessRow:
    """One process of the bot as it last said of itself (its heartbeat)."""

    holder: str
    host: str
    pid: int
    shards: str
    release: str
    started_at: float
    seen_at: float
    gateway: bool
    sender: bool
    #: What it runs in the background that is not as it should be ("": every part is well),
    #: each part with its state, "; " between them.
    background: str = ""


class OpsTables(Queries):
    """The store's answers to an operator."""

    async def ping(self) -> None:
        """One round trip that reads nothing: raises when the database does not answer."""
        await self._read("SELECT 1")

    async def games_by_status(self) -> dict[str, int]:
        """How many games are open, by state (``lobby``, ``active``): counted through the index
        of open games, so it costs the same however many ended games are kept."""
        rows = await self._read(
            "SELECT status, COUNT(*) FROM games WHERE status IN ('lobby', 'active') GROUP BY status"
        )
        found = {str(row[0]): int(row[1]) for row in rows}
        return {status: found.get(status, 0) for status in ("lobby", "active")}

    async def queue_lengths(self) -> dict[str, int]:
        """How many wait in each queue: ``ranked``, the players searching for a ranked match
        (counted through the index of searches, so it costs the same however many searches
        ended)."""
        rows = await self._read("SELECT COUNT(*) FROM ranked_entries WHERE status = 'searching'")
        return {"ranked": int(rows[0][0])}

    async def lease_holder(self, name: str) -> tuple[str, float] | None:
        """Who holds the lease ``name`` and for how many seconds more, by the database's
        clock (None: nobody, or it has lapsed)."""
        rows = await self._read(
            f"SELECT holder, expires_at - {self._now_sql()} FROM leases WHERE name = ?", (name,)
        )
        if not rows or float(rows[0][1]) <= 0:
            return None
        return str(rows[0][0]), float(rows[0][1])

    def _now_sql(self) -> str:
        if self.dialect.value == "sqlite":
            return "((julianday('now') - 2440587.5) * 86400.0)"
        return "extract(epoch FROM clock_timestamp())::double precision"

    async def heartbeat(self, process: ProcessRow) -> None:
        """Write what ``process`` says of itself now."""
        await self.db.execute(
            "INSERT INTO bot_processes (holder, host, pid, shards, release, started_at, seen_at,"
            " gateway, sender, background) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (holder) DO UPDATE SET seen_at = excluded.seen_at,"
            " gateway = excluded.gateway, sender = excluded.sender, shards = excluded.shards,"
            " background = excluded.background",
            (
                process.holder,
                process.host,
                process.pid,
                process.shards,
                process.release,
                process.started_at,
                process.seen_at,
                int(process.gateway),
                int(process.sender),
                process.background,
            ),
        )

    async def processes(self) -> list[ProcessRow]:
        """Every process that wrote its heartbeat and has not been forgotten, newest first."""
        rows = await self._read(
            "SELECT holder, host, pid, shards, release, started_at, seen_at, gateway, sender,"
            " background FROM bot_processes ORDER BY started_at DESC, holder"
        )
        return [
            ProcessRow(
                str(r[0]),
                str(r[1]),
                int(r[2]),
                str(r[3]),
                str(r[4]),
                float(r[5]),
                float(r[6]),
                bool(r[7]),
                bool(r[8]),
                str(r[9]),
            )
            for r in rows
        ]

    async def forget_process(self, holder: str) -> None:
        """A process stopped cleanly: its row goes."""
        await self.db.execute("DELETE FROM bot_processes WHERE holder = ?", (holder,))

    async def forget_processes_unseen(self, before: float) -> int:
        """Forget the processes not heard from since ``before`` (killed, or their machine
        gone); how many."""
        return await self.db.execute("DELETE FROM bot_processes WHERE seen_at < ?", (before,))
