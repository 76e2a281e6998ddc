"""The bot's store: every query it makes, written once, with ``?`` placeholders, in one part
per job (:class:`Store` is all of them on one database).

| part | holds |
| --- | --- |
| :mod:`~bot.store.game_tables` | games, seats, the action log, each move saved |
| :mod:`~bot.store.result_tables` | results (written with their ratings), hints taken |
| :mod:`~bot.store.message_tables` | the messages owners keep, the players' DMs and membership |
| :mod:`~bot.store.standing_tables` | the standings: leaderboard, stats, head to head, replays |
| :mod:`~bot.store.archive_tables` | pruning and the archive, user settings, leases |
| :mod:`~bot.store.tournament_tables` | tournaments, their entrants and pairings |
| :mod:`~bot.store.night_tables` | club nights: clubs, nights; time zones |
| :mod:`~bot.store.night_people_tables` | who was interested in a night, who checked in |
| :mod:`~bot.store.season_tables` | a month's results, the hall of fame |
| :mod:`~bot.store.review_tables` | the reviews of games' decisions |
| :mod:`~bot.store.daily_tables` | the discard of the day: servers' secrets, answers |
| :mod:`~bot.store.ops_tables` | an operator's questions: the games by state, the processes |
| :mod:`~bot.store.privacy_tables` | a person's data on request, a server's once the bot left |
| :mod:`~bot.store.ranked_tables` | ranked play: entries, matches, season ratings, blocks |

The queries run on a :class:`~bot.store.database.Database`: SQLite (one file, one process; the
default) or PostgreSQL (any number of processes), chosen by the URL :meth:`Store.open` is
given. Each database's pending migrations are applied at start-up, all in one transaction, and
recorded by name (:mod:`bot.store.migrate`).
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Self

from bot.store.announcing import ANNOUNCE_CHANNEL
from bot.store.archive_tables import ArchiveTables
from bot.store.daily_tables import DailyTables
from bot.store.database import Database
from bot.store.game_tables import GameTables
from bot.store.message_tables import MessageTables
from bot.store.migrate import applied_migrations, check, migrate, newer_beside, number_of
from bot.store.night_tables import NightTables
from bot.store.ops_tables import OpsTables
from bot.store.outages import quiet_pool_retries
from bot.store.postgres import PostgresDatabase
from bot.store.privacy_tables import PrivacyTables
from bot.store.ranked_tables import RankedTables
from bot.store.result_tables import ResultTables
from bot.store.review_tables import ReviewTables
from bot.store.season_tables import SeasonTables
from bot.store.sqlite import SqliteDatabase
from bot.store.standing_tables import StandingTables
from bot.store.tournament_tables import TournamentTables

__all__ = ["ANNOUNCE_CHANNEL", "POSTGRES_SCHEMES", "Store", "is_postgres_url"]

#: The URL schemes that name a PostgreSQL database (anything else is a SQLite file's path).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Store(
    GameTables,
    ResultTables,
    MessageTables,
    StandingTables,
    ArchiveTables,
    ReviewTables,
    DailyTables,
    TournamentTables,
    NightTables,
    SeasonTables,
    OpsTables,
    PrivacyTables,
    RankedTables,
):
    """Async access to the bot's database. Open with ``await Store.open(path_or_url)``."""

    def __init__(self, db: Database, migrations_dir: Path | None = None) -> None:
        self.db = db
        #: The migrations :meth:`upgrade` applied, in the order it did.
        self.migrated: list[str] = []
        #: Whether :meth:`upgrade` has brought the database to this release's schema.
        self.upgraded = False
        self._migrations_dir = migrations_dir or db.dialect.migrations_dir

    @classmethod
    async def open(
        cls, target: str | Path, *, migrations_dir: Path | None = None, upgrade: bool = True
    ) -> Self:
        """Open the database ``target`` names (a SQLite file's path, created if needed, or a
        ``postgresql://`` URL) and apply its pending migrations (:meth:`upgrade`); with
        ``upgrade`` False only check it, changing nothing, until :meth:`upgrade` is called
        (start-up upgrades a database once it knows the bot will run).

        Raises :class:`~bot.store.database.NewerSchema` (closing it again) when the database
        was made by a newer release than this one.
        """
        db: Database
        if is_postgres_url(target):
            quiet_pool_retries()
            db = await PostgresDatabase.open(str(target))
        else:
            db = await SqliteDatabase.open(target)
        try:
            store = cls(db, migrations_dir)
            if upgrade:
                await store.upgrade()
            else:
                await check(db, store._migrations_dir)
        except BaseException:
            await db.close()
            raise
        return store

    async def upgrade(self) -> None:
        """Apply the pending migrations (all in one transaction; :attr:`migrated` names them)
        and rate results kept from before the ratings; once (later calls do nothing).

        Raises :class:`~bot.store.database.NewerSchema` (nothing changed) when the database
        was made by a newer release than this one."""
        if self.upgraded:
            return
        self.migrated = await migrate(self.db, self._migrations_dir)
        if await self._ratings_missing():
            # Results kept from before the ratings (migration 006): rate them once.
            await self.rebuild_ratings()
        self.upgraded = True

    async def close(self) -> None:
        """Close the database (after any unit of work still running)."""
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the database itself ----------------------------------------------------------------
    async def user_version(self) -> int:
        """The highest number of the migrations applied (0 for none)."""
        return max(map(number_of, await self.applied_migrations()), default=0)

    async def applied_migrations(self) -> list[str]:
        """The names of the migrations applied, in order of number and name."""
        return await applied_migrations(self.db)

    async def newer_migrations(self) -> list[str]:
        """The migrations a newer release applied that this one does not have (each said it
        runs beside older releases, else the store was refused): a release being upgraded."""
        return await newer_beside(self.db, self._migrations_dir)
