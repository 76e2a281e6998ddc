"""The store's seasons and hall of fame: a server's results within a calendar month, and its
best hands (read from the results every finished game but a lesson writes; nothing more is
stored)."""

from __future__ import annotations

from bot.core.games.records import FOUR_CARD_SHOWS
from bot.core.seasons.records import FamousHand, Period, SeasonLine
from bot.store.queries import Queries, marks

__all__ = ["SeasonTables"]


def _people(a: str) -> str:
    """The result rows (as ``a``) of one server's finished games, people only (not former
    players: their ids are negative, bot.core.games.records.FORMER_PLAYERS)."""
    return f" FROM results {a} WHERE {a}.guild_id = ? AND {a}.is_computer = 0 AND {a}.user_id > 0"


def _in_period_rows(a: str) -> str:
    """Those of a :class:`~bot.core.seasons.records.Period` (its parameters:
    :func:`_in_period`)."""
    return (
        f"{_people(a)} AND {a}.variant = ? AND {a}.vs_computer = ?"
        f" AND {a}.finished_at >= ? AND {a}.finished_at < ?"
    )


_PEOPLE = _people("r")
_IN_PERIOD = _in_period_rows("r")


def _in_period(period: Period) -> tuple[int, str, int, float, float]:
    """The parameters of :data:`_IN_PERIOD`."""
    return (period.guild_id, period.variant, int(period.vs_computer), period.start, period.end)


class SeasonTables(Queries):
    """Seasons (calendar months) and the hall of fame."""

    async def season(self, period: Period, *, limit: int) -> list[SeasonLine]:
        """The people who finished games in ``period``, best first: game points, then games
        won, then fewer games played; each named as their latest game in it names them (as
        the month's champion is: :func:`~bot.core.seasons.seasons.champions`). A result row
        holds its game's points whether its player won or not: they count for the winners
        alone."""
        latest = _in_period_rows("n")
        rows = await self._read(
            f"SELECT r.user_id, (SELECT n.display_name{latest} AND n.user_id = r.user_id"
            " ORDER BY n.finished_at DESC LIMIT 1), COUNT(*), SUM(r.won),"
            f" SUM(r.won * r.game_points){_IN_PERIOD}"
            " GROUP BY r.user_id ORDER BY 5 DESC, 4 DESC, 3, 1 LIMIT ?",
            (*_in_period(period), *_in_period(period), limit),
        )
        return [SeasonLine(int(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def season_results(self, period: Period) -> list[tuple[int, str, int, int, float]]:
        """Every person's result in ``period`` (the month's champions top the table between
        people): user, name, won (0/1), the game's points (whether they won or not), when the
        game finished."""
        rows = await self._read(
            "SELECT r.user_id, r.display_name, r.won, r.game_points, r.finished_at"
            f"{_IN_PERIOD} ORDER BY r.finished_at",
            _in_period(period),
        )
        return [(int(r[0]), str(r[1]), int(r[2]), int(r[3]), float(r[4])) for r in rows]

    async def famous_hands(self, guild_id: int, *, at_least: int, limit: int) -> list[FamousHand]:
        """A server's best hands of ``at_least`` points or more (each game's best of each
        player), best first, then the latest: hands of four cards and the starter (the
        standard game's, and five and six players'; not five-card or seven-card cribbage's)."""
        shows = FOUR_CARD_SHOWS
        rows = await self._read(
            "SELECT r.user_id, r.display_name, r.best_hand, r.best_hand_cards, r.finished_at,"
            " (SELECT g.channel_id FROM games g WHERE g.id = r.game_id)"
            f"{_PEOPLE} AND r.best_hand >= ? AND r.variant IN ({marks(shows)})"
            " ORDER BY r.best_hand DESC, r.finished_at DESC LIMIT ?",
            (guild_id, at_least, *shows, limit),
        )
        return [
            FamousHand(
                int(r[0]),
                str(r[1]),
                int(r[2]),
                r[3] or "",
                float(r[4]),
                None if r[5] is None else int(r[5]),
            )
            for r in rows
        ]
