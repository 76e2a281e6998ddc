"""The acts around the games: the records (``/cribbage leaderboard``, ``stats``,
``halloffame``), a game looked at again (``review``, ``verify``) and the discard of the day
(``daily``), each run on what its command's scope finds for the person where they are
(:class:`~bot.core.which_game.WhichGame`: a server's records, a game), or refused as that
command is. A command that names its game (by number) is run on that game, wherever it is
used: no place decides it.
"""

from __future__ import annotations

from bot.core.base.places import Ask, Place, Resolved
from bot.core.base.replies import Answer, User
from bot.core.base.views import Pool
from bot.core.daily.daily import DailyDiscard
from bot.core.nights.leagues import Leagues
from bot.core.review.report import add_lines
from bot.core.review.review import Reviews
from bot.core.review.verify import ShuffleChecks
from bot.core.seasons.seasons import Seasons
from bot.core.standings.standings import Standings
from bot.core.which_game import WhichGame

__all__ = ["FeatureActs"]


class FeatureActs:
    """What the commands around the games do where they are used (see the module)."""

    def __init__(
        self,
        which: WhichGame,
        standings: Standings,
        seasons: Seasons,
        reviews: Reviews,
        shuffles: ShuffleChecks,
        daily: DailyDiscard,
        leagues: Leagues,
    ) -> None:
        self._which = which
        self._standings = standings
        self._seasons = seasons
        self._reviews = reviews
        self._shuffles = shuffles
        self._daily = daily
        self._leagues = leagues

    async def leaderboard(
        self, place: Place, user: User, *, table: Pool, month: str | None, variant: str
    ) -> Answer:
        """``/cribbage leaderboard``: the server's standings by rating, or ``month``'s
        (``this_month``, ``last_month``) by game points, of ``variant``."""
        seasons, standings = self._seasons, self._standings

        async def act(found: Resolved) -> Answer:
            if month is not None:
                return await seasons.leaderboard(
                    found.server_id, month, table=table, variant=variant
                )
            return await standings.leaderboard(found.server_id, table=table, variant=variant)

        return await self._which.run(Ask.LEADERBOARD, place, user.id, act)

    async def stats(self, place: Place, user: User, who: User, against: User | None) -> Answer:
        """``/cribbage stats``: ``who``'s record where the command finds one (a server's, or
        outside servers), or with ``against`` their head to head."""
        here = place.channel_id
        return await self._which.run(
            Ask.STATS,
            place,
            user.id,
            lambda found: self.record(found.guild_id, who, against, here=here),
        )

    async def record(
        self, guild_id: int | None, user: User, against: User | None, *, here: int | None
    ) -> Answer:
        """A player's record (:meth:`Standings.stats`), with the accuracy of their reviewed
        games, their discards of the day and their club leagues; or, ``against`` someone,
        their head to head alone."""
        answer = await self._standings.stats(guild_id, user, against, here=here)
        if against is not None:
            return answer
        # The accuracy of the reviewed games, outside servers too (the games there are
        # reviewed as a server's are); the discard of the day is a server's alone.
        answer = await self._reviews.with_stats(answer, guild_id, user.id)
        daily = await self._daily.stats_line(guild_id, user.id)
        leagues = [] if guild_id is None else await self._leagues.stats_lines(guild_id, user.id)
        return add_lines(answer, [*([daily] if daily else []), *leagues])

    async def hall_of_fame(self, place: Place, user: User) -> Answer:
        """``/cribbage halloffame``: the server's, for everyone here."""
        seasons, here = self._seasons, place.channel_id
        return await self._which.run(
            Ask.HALL_OF_FAME,
            place,
            user.id,
            lambda found: seasons.hall_of_fame(found.server_id, here=here),
        )

    async def daily(self, place: Place, user: User) -> Answer:
        """``/cribbage daily``: today's hand, to choose the crib's two once (a server's)."""
        daily = self._daily
        return await self._which.run(
            Ask.DAILY, place, user.id, lambda found: daily.daily(found.guild_id, user)
        )

    async def review(
        self, place: Place, user: User, game: int | None, whose: User | None
    ) -> Answer:
        """``/cribbage review``: ``whose`` (default: the user's) decisions in game ``game``
        (default: the one the command finds here)."""
        reviews = self._reviews
        return await self._which.run(
            None if game is not None else Ask.REVIEW,
            place,
            user.id,
            lambda found: reviews.review(place, found.channel_id, user, game, whose),
        )

    async def verify(self, place: Place, user: User, game: int | None) -> Answer:
        """``/cribbage verify``: the shown deals of game ``game`` (default: the one the
        command finds here) checked against their seals."""
        shuffles = self._shuffles
        return await self._which.run(
            None if game is not None else Ask.VERIFY,
            place,
            user.id,
            lambda found: shuffles.check(place, found.channel_id, game, viewer=user.id),
        )
