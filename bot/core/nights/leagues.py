"""A club's league as people read it: ``/club league`` (this season's table, the last's, or
every season's champion), its page in the browser, the line that crowns a season's champion,
a person's places in ``/cribbage stats``, and which night a game was played for. Its points
and tables are worked out by :mod:`bot.core.nights.league` (pure), its seasons by
:mod:`bot.core.nights.when`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer
from bot.core.base.text import escape, plural, shown_at
from bot.core.nights.league import LeagueLine, NightPlace, league_table, places_of
from bot.core.nights.nights import NO_CLUB, NightStore
from bot.core.nights.records import ClubRecord, NightState
from bot.core.nights.when import Season, season_of, zone_named
from bot.core.tournaments.records import TournamentStatus
from bot.core.tournaments.tournaments import read_event

__all__ = ["LeagueBoard", "Leagues"]


@dataclass(frozen=True, slots=True)
class LeagueBoard:
    """A club's league as its page shows it: its name, this season's table and the last's
    (each with its name and the nights played), and each season's champion."""

    name: str
    seasons: tuple[tuple[str, int, tuple[LeagueLine, ...]], ...]
    champions: tuple[tuple[str, str, int], ...]


class Leagues:
    """``/club league``, a club's league page, its champions, and a person's league lines."""

    def __init__(
        self,
        store: NightStore,
        now: Callable[[], float],
        faults: Faults,
        league_link: Callable[[int], str | None] | None = None,
    ) -> None:
        """``league_link``: a club's league page in the browser (None: no pages)."""
        self._store = store
        self._now = now
        self.faults = faults
        self._league_link = league_link

    def _stamp(self) -> datetime:
        return datetime.fromtimestamp(self._now(), UTC)

    async def season_places(self, club: ClubRecord, season: Season) -> list[list[NightPlace]]:
        """The places of each night of ``club`` played in ``season``."""
        found: list[list[NightPlace]] = []
        for night in await self._store.club_nights(club.id):
            if night.state is not NightState.PLAYED or not season.holds(night.starts_at):
                continue
            record = await self._store.tournament(night.tournament_id)
            if record is not None and record.status is TournamentStatus.FINISHED:
                found.append(places_of(await read_event(self._store, record)))
        return found

    async def standings(self, club: ClubRecord, season: Season) -> list[LeagueLine]:
        """A club's league table for ``season``."""
        return league_table(await self.season_places(club, season))

    @answers
    async def league(self, channel_id: int, season: str = "this") -> Answer:
        """``/club league``: this channel's club's league table this season (``last``: the
        season before, final; ``champions``: each season's champion)."""
        club = await self._store.club_in_channel(channel_id)
        if club is None:
            raise Refused(NO_CLUB)
        if not club.recurs:
            raise Refused(
                "A night held once makes no league: nights that come round do (`/club night"
                " repeat:weekly`)."
            )
        zone = zone_named(club.zone)
        now = self._stamp()
        if season == "champions":
            return Answer.say(await self._champions(club, zone, now), ephemeral=False)
        back = 1 if season == "last" else 0
        which = season_of(now, zone, back)
        # One read for the table and its count of nights: read twice, a night marked played
        # between the two was counted and not scored.
        places = await self.season_places(club, which)
        lines, played = league_table(places), len(places)
        head = f"**🏅 {escape(club.name)} league — {which.name}**"
        if back:
            head += f" (final: {plural(played, 'night')})"
        else:
            ends = shown_at(which.end.timestamp(), "D")
            head += f" ({plural(played, 'night')} played; the season ends {ends})"
        rows = [
            f"{place}. {escape(line.name)} — {plural(line.points, 'league point')}"
            f" · {plural(line.nights, 'night')}, {line.won} won · {line.game_points} game points"
            for place, line in enumerate(lines[:20], 1)
        ]
        if not rows:
            rows = [f"No night played {'that' if back else 'this'} season yet."]
        how = (
            "A night's winner scores as many league points as it had players, the last 1;"
            " the season's champion has the most."
        )
        link = None if self._league_link is None else self._league_link(club.id)
        if link is not None:
            how += f" Every season's table: <{link}>"
        return Answer.say("\n".join([head, *rows, how]), ephemeral=False)

    async def _champions(self, club: ClubRecord, zone: tzinfo, now: datetime) -> str:
        head = f"**🏆 {escape(club.name)} league champions**"
        lines = [
            f"{season.name}: {escape(best.name)} ({plural(best.points, 'league point')})"
            for season, best in await self._crowned(club, zone, now)
        ]
        return "\n".join([head, *(lines or ["None yet: the first is crowned when a season ends."])])

    async def _crowned(
        self, club: ClubRecord, zone: tzinfo, now: datetime
    ) -> list[tuple[Season, LeagueLine]]:
        """Each season's champion (its table's top), the latest over first, up to 12, back to
        the season the club was made in."""
        crowned: list[tuple[Season, LeagueLine]] = []
        first = datetime.fromtimestamp(club.created_at, UTC)
        back = 1
        while len(crowned) < 12:
            season = season_of(now, zone, back)
            if season.end <= first:
                break
            table = await self.standings(club, season)
            if table:
                crowned.append((season, table[0]))
            back += 1
        return crowned

    async def league_board(self, club_id: int) -> LeagueBoard | None:
        """A club's league for its page: this season's table, the last's, and every season's
        champion (None: no such club, or one held once)."""
        club = await self._store.club(club_id)
        if club is None or not club.recurs:
            return None
        zone, now = zone_named(club.zone), self._stamp()
        seasons = []
        for back in (0, 1):
            which = season_of(now, zone, back)
            places = await self.season_places(club, which)
            seasons.append((which.name, len(places), tuple(league_table(places))))
        champions = [
            (season.name, best.name, best.points)
            for season, best in await self._crowned(club, zone, now)
        ]
        return LeagueBoard(club.name, tuple(seasons), tuple(champions))

    async def night_of_game(self, channel_id: int) -> tuple[int, str] | None:
        """The club and the words naming the night a game in ``channel_id`` (a pairing's
        thread) was played for (None: it was no night's)."""
        night = await self._store.night_of_thread(channel_id)
        club = None if night is None else await self._store.club(night.club_id)
        if night is None or club is None:
            return None
        return club.id, f"{club.name}, night {night.number}"

    async def champion_line(self, club: ClubRecord, season: Season) -> tuple[int, str] | None:
        """The season's champion and the line that crowns them (None: no night played)."""
        table = await self.standings(club, season)
        if not table:
            return None
        best = table[0]
        return best.user_id, (
            f"🏆 **{escape(best.name)}** is the {escape(club.name)} league's champion for"
            f" {season.name}, with {plural(best.points, 'league point')}"
            f" ({plural(best.nights, 'night')}, {best.won} won)!"
        )

    async def stats_lines(self, guild_id: int, user_id: int) -> list[str]:
        """What ``/cribbage stats`` says of a person's club nights on a server: their place in
        each league this season."""
        said: list[str] = []
        now = self._stamp()
        for club in await self._store.clubs_of_server(guild_id):
            if not club.recurs:
                continue
            season = season_of(now, zone_named(club.zone))
            table = await self.standings(club, season)
            for place, line in enumerate(table, 1):
                if line.user_id == user_id:
                    said.append(
                        f"🏅 {escape(club.name)} league ({season.name}): #{place} of {len(table)},"
                        f" {plural(line.points, 'league point')}, {plural(line.nights, 'night')}"
                        f" ({line.won} won)"
                    )
        return said[:5]
