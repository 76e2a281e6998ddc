"""The discard of the day (issue 23): each server's secret and everyone's answers."""

from __future__ import annotations

from bot.core.daily.records import DailyAnswer
from bot.store.queries import Queries, kept_secret, people_acting
from bot.store.rows import columns, reader

__all__ = ["DailyTables"]

_COLUMNS = columns(DailyAnswer)
_answer = reader(DailyAnswer)


class DailyTables(Queries):
    """Secrets kept once made; one answer a person a day."""

    async def daily_secret(self, guild_id: int, fresh: str) -> str:
        """The server's secret: ``fresh`` if it had none (kept from now on), else its own.
        One statement each way, so two first askers at once agree on one."""
        return await kept_secret(self.db, "daily_secrets", ("guild_id", guild_id), fresh)

    async def save_daily(self, answer: DailyAnswer) -> bool:
        """Keep ``answer`` (the person's act: their row made if it is not there); False
        (keeping nothing) when that person had answered that day."""
        acting = people_acting([answer.user_id])
        assert acting is not None
        async with self._writing() as tx:
            await acting.run(tx)
            rows = await tx.fetch(
                f"INSERT INTO daily_answers ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, day, user_id) DO NOTHING RETURNING user_id",
                (
                    answer.guild_id,
                    answer.day,
                    answer.user_id,
                    answer.name,
                    answer.thrown,
                    answer.points,
                    answer.best,
                    answer.rank,
                    answer.answered_at,
                ),
            )
        return bool(rows)

    async def daily_answer(self, guild_id: int, day: str, user_id: int) -> DailyAnswer | None:
        """A person's answer of that day, if they gave one."""
        return await self._one(
            _answer,
            f"SELECT {_COLUMNS} FROM daily_answers WHERE guild_id = ? AND day = ? AND user_id = ?",
            (guild_id, day, user_id),
        )

    async def daily_board(self, guild_id: int, day: str) -> list[DailyAnswer]:
        """Every answer of the day in the server, best first (then earliest)."""
        return await self._all(
            _answer,
            f"SELECT {_COLUMNS} FROM daily_answers WHERE guild_id = ? AND day = ?"
            " ORDER BY rank, answered_at, user_id",
            (guild_id, day),
        )

    async def daily_days(self, guild_id: int, user_id: int) -> list[tuple[str, int]]:
        """Every day the person answered in the server, oldest first, with the rank."""
        rows = await self._read(
            "SELECT day, rank FROM daily_answers WHERE guild_id = ? AND user_id = ? ORDER BY day",
            (guild_id, user_id),
        )
        return [(str(row[0]), int(row[1])) for row in rows]
