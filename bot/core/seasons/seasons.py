"""Seasons and the hall of fame: a server's leaderboard for a calendar month (UTC), and its
best hands and monthly champions, all read from the results every finished game but a lesson
writes.

A season's table ranks the people who finished games that month by game points, then games
won, then fewer games played. A month's champion is the top of its table of the standard game
between people (:data:`CROWNED`). The hall of fame lists every 28 and 29, the best other
hands of 24 or more, the champion of each of the last twelve finished months, and the latest
tournaments' champions (each tournament named with its variant).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal, Protocol

from bot.core.base.audience import Audience, ChannelSight
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer
from bot.core.base.text import escape, fitted, plural, shown_day, shown_until
from bot.core.base.views import Pool
from bot.core.seasons.records import FamousHand, Period, SeasonLine
from bot.core.tournaments.records import ChampionRecord
from bot.core.tournaments.view import tournament_named
from engine.variants import STANDARD, named, title_unless_standard

__all__ = ["SEASONS", "Season", "SeasonStore", "Seasons", "month_bounds", "month_of"]

#: What the leaderboard's ``season`` option takes.
Season = Literal["this_month", "last_month", "all_time"]
SEASONS: tuple[Season, ...] = ("this_month", "last_month", "all_time")
#: People listed in a season's table.
SEASON_SHOWN = 20
#: Months of champions the hall of fame lists.
CHAMPION_MONTHS = 12
#: The variant whose month's table (between people) crowns the hall of fame's season
#: champions: the standard game's (each variant has its own tables, but one champion a month).
CROWNED = STANDARD
#: Tournament champions the hall of fame lists (the latest).
TOURNAMENT_CHAMPIONS = 10


class SeasonStore(Protocol):
    """What seasons need of a store (written in ``bot.store.season_tables``)."""

    async def season(self, period: Period, *, limit: int) -> list[SeasonLine]: ...
    async def season_results(self, period: Period) -> list[tuple[int, str, int, int, float]]: ...
    async def famous_hands(
        self, guild_id: int, *, at_least: int, limit: int
    ) -> list[FamousHand]: ...
    async def tournament_champions(self, guild_id: int, *, limit: int) -> list[ChampionRecord]: ...


def month_bounds(now: datetime, back: int = 0) -> tuple[datetime, datetime]:
    """The calendar month (UTC) ``back`` months before the one ``now`` is in: its first moment
    and the next month's. Every feature that counts months (the seasons' tables and
    champions, the ranked ladder's seasons) asks this which month a moment is in.

    >>> [d.date().isoformat() for d in month_bounds(datetime(2026, 1, 20, tzinfo=UTC), 1)]
    ['2025-12-01', '2026-01-01']
    >>> from datetime import timedelta, timezone
    >>> month_bounds(datetime(2026, 4, 1, 1, 30, tzinfo=timezone(timedelta(hours=2))))[0].month
    3
    """
    now = now.astimezone(UTC)
    index = now.year * 12 + (now.month - 1) - back
    start = datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)
    after = index + 1
    return start, datetime(after // 12, after % 12 + 1, 1, tzinfo=UTC)


def month_of(at: float) -> datetime:
    """The first moment of the calendar month (UTC) the Unix time ``at`` is in."""
    return month_bounds(datetime.fromtimestamp(at, UTC))[0]


def _month_name(start: datetime) -> str:
    return start.strftime("%B %Y")


def champions(
    results: list[tuple[int, str, int, int, float]],
) -> list[tuple[datetime, int, str, int]]:
    """Each month's champion from its results: (month, user, name, game points), newest
    first: most game points, then most wins, then fewest games. A result holds its game's
    points whether its player won or not: they count for the winners alone."""
    months: dict[datetime, dict[int, list[int]]] = defaultdict(dict)
    names: dict[int, str] = {}
    for user, name, won, points, at in results:
        line = months[month_of(at)].setdefault(user, [0, 0, 0])
        line[0] += points if won else 0
        line[1] += won
        line[2] += 1
        names[user] = name
    found = []
    for month, table in months.items():
        best = min(table.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[1][2], kv[0]))
        found.append((month, best[0], names[best[0]], best[1][0]))
    return sorted(found, reverse=True)


class Seasons:
    """The month's leaderboard and the hall of fame."""

    def __init__(
        self,
        store: SeasonStore,
        clock: Callable[[], datetime],
        faults: Faults,
        sight: ChannelSight,
    ) -> None:
        """``faults``: where a store that fails is noted (the games'); ``sight``: which
        channels every member of a server sees (a hand is named only to those who can see
        the game it was held in, a tournament only to those who see its channel)."""
        self._store = store
        self._clock = clock
        self.faults = faults
        self._sight = sight

    @answers
    async def leaderboard(
        self,
        guild_id: int,
        season: str,
        *,
        table: Pool = "people",
        variant: str = STANDARD.name,
    ) -> Answer:
        """A calendar month's table (``this_month`` or ``last_month``) of ``variant``'s
        games, public."""
        if season not in ("this_month", "last_month"):
            raise Refused("`season` must be this month, last month or all time.")
        played = named(variant)
        start, end = month_bounds(self._clock(), 1 if season == "last_month" else 0)
        month = Period(
            guild_id,
            start.timestamp(),
            end.timestamp(),
            played.name,
            vs_computer=table == "computer",
        )
        lines = await self._store.season(month, limit=SEASON_SHOWN)
        kind = "against the computer" if table == "computer" else "between people"
        title = title_unless_standard(played)
        of = f"{title}, " if title else ""
        head = [f"**Leaderboard — {_month_name(start)}** ({of}games {kind}, by game points)"]
        if season == "this_month":
            # The month is UTC's: its end, in each reader's own time, says where it falls.
            head.append(f"The month's table closes {shown_until(end.timestamp(), 'f')}.")
        if not lines:
            when = "this month" if season == "this_month" else "that month"
            return Answer.say("\n".join([*head, f"No games finished {when} yet."]), ephemeral=False)
        rows = [
            f"{place}. {escape(line.name)} — {plural(line.game_points, 'game point')},"
            f" {line.wins} of {line.games} won"
            for place, line in enumerate(lines, 1)
        ]
        return Answer.say(fitted([[*head, *rows]]), ephemeral=False)

    @answers
    async def hall_of_fame(self, guild_id: int, *, here: int | None = None) -> Answer:
        """The server's hall of fame, public in channel ``here``: the hands of games played
        where everyone reading can see them (:class:`Audience`), and the tournaments held
        there; the month's champions count every game of :data:`CROWNED` between people."""
        now = self._clock()
        audience = Audience(self._sight, guild_id, here)
        perfect = [
            h
            for h in await self._store.famous_hands(guild_id, at_least=28, limit=50)
            if await audience.may_name(h.channel_id)
        ]
        great = [
            h
            for h in await self._store.famous_hands(guild_id, at_least=24, limit=60)
            if h.points < 28 and await audience.may_name(h.channel_id)
        ][:10]
        first, _ = month_bounds(now, CHAMPION_MONTHS)
        this_month, _ = month_bounds(now)
        months = Period(guild_id, first.timestamp(), this_month.timestamp(), CROWNED.name)
        results = await self._store.season_results(months)
        champion_lines = [
            f"{_month_name(month)}: {escape(name)} ({plural(points, 'game point')})"
            for month, _, name, points in champions(results)
        ]
        crowned = [
            c
            for c in await self._store.tournament_champions(guild_id, limit=TOURNAMENT_CHAMPIONS)
            if await audience.may_name(c.channel_id)
        ]
        # Each section keeps its heading; a long one gives up its last lines (the oldest
        # champions, the lowest and oldest hands) to fit.
        sections = [
            ["**🏛️ Hall of fame**"],
            ["**28s and 29s**"]
            + ([_hand(h) for h in perfect] or ["None yet: the odds are 80 in 12,994,800."]),
            ["**Hands of 24 or more**"] + ([_hand(h) for h in great] or ["None yet."]),
            [
                "**Season champions** (most game points in a month:"
                f" {CROWNED.title.lower()}, between people)"
            ]
            + (champion_lines or ["None yet: the first is crowned when a month with games ends."]),
            ["**Tournament champions**"]
            + (
                [_champion(c) for c in crowned]
                or ["None yet: a moderator opens a tournament with `/cribbage tournament new`."]
            ),
        ]
        return Answer.say(fitted(sections), ephemeral=False)


def _champion(champion: ChampionRecord) -> str:
    when = shown_day(champion.finished_at)
    named = tournament_named(champion.format, champion.variant, first=True)
    event = f"{named} of {champion.entrants} players"
    return f"{escape(champion.name)} — {event} in <#{champion.channel_id}>, {when}"


def _hand(hand: FamousHand) -> str:
    when = shown_day(hand.at)
    cards = f" ({hand.cards})" if hand.cards else ""
    return f"{hand.points} — {escape(hand.name)}{cards}, {when}"
