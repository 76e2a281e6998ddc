"""The acts on a server's tournaments and club nights: ``/cribbage tournament ...`` and
``/club ...``, each run on the tournament or club its command's scope finds for the person
where they are (:class:`~bot.core.which_game.WhichGame`), or refused as that command is. The
outer layer hands in what only it can read: whether the person organises here (``moderator``)
and, for a command that starts threads, why the bot may not (``lacking``: its sentence, read
after the place is found, so a place without a tournament says that first).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypedDict, Unpack

from bot.core.base.places import Ask, Place, Resolved
from bot.core.base.replies import Answer, User
from bot.core.nights.attendance import Attendance
from bot.core.nights.leagues import Leagues
from bot.core.nights.nights import Nights
from bot.core.tournaments.cancelling import Cancellations
from bot.core.tournaments.tournaments import Tournaments
from bot.core.which_game import WhichGame

__all__ = ["ClubActs", "NightAsked", "TournamentActs", "TournamentAsked"]

#: A command's call on the tournament's server and channel.
_On = Callable[[int, int], Awaitable[Answer]]


class TournamentAsked(TypedDict, total=False):
    """What ``/cribbage tournament new`` asks for, as :meth:`Tournaments.new` takes it (left
    out: its default)."""

    format: str
    rounds: int
    target: int | None
    scoring: str
    round_hours: float
    match_games: int
    playoff: int
    variant: str


class NightAsked(TypedDict, total=False):
    """What ``/club night`` asks for, as :meth:`Nights.schedule` takes it (left out: its
    default)."""

    repeat: str
    name: str | None
    format: str
    rounds: int
    target: int | None
    scoring: str
    round_minutes: int
    match_games: int
    variant: str
    voice_id: int | None


class _InItsChannel:
    """Acts on what a command finds in a channel: a tournament, a club."""

    def __init__(self, which: WhichGame) -> None:
        self._which = which

    async def _in(
        self, ask: Ask, place: Place, user: User, call: Callable[[int], Awaitable[Answer]]
    ) -> Answer:
        """``call`` on the channel of the tournament or club ``ask`` finds for ``user`` here
        (else its refusal)."""
        return await self._which.run(ask, place, user.id, lambda found: call(found.channel_id))


class TournamentActs(_InItsChannel):
    """What ``/cribbage tournament``'s commands do where they are used (see the module)."""

    def __init__(
        self, which: WhichGame, tournaments: Tournaments, cancellations: Cancellations
    ) -> None:
        super().__init__(which)
        self._tournaments = tournaments
        self._cancellations = cancellations

    async def new(
        self,
        place: Place,
        user: User,
        *,
        moderator: bool,
        lacking: str | None,
        **asked: Unpack[TournamentAsked],
    ) -> Answer:
        """``/cribbage tournament new``: a tournament opened in the channel here (moderators)."""
        tournaments = self._tournaments

        async def act(server_id: int, channel_id: int) -> Answer:
            return await tournaments.new(server_id, channel_id, user, moderator=moderator, **asked)

        return await self._threads(Ask.TOURNAMENT_NEW, place, user, lacking, act)

    async def start(
        self, place: Place, user: User, *, moderator: bool, lacking: str | None
    ) -> Answer:
        """``/cribbage tournament start``: round 1 paired and dealt in threads (its organiser
        or a moderator)."""
        tournaments = self._tournaments

        async def act(_: int, channel_id: int) -> Answer:
            return await tournaments.start(channel_id, user, moderator=moderator)

        return await self._threads(Ask.TOURNAMENT_START, place, user, lacking, act)

    async def _threads(
        self, ask: Ask, place: Place, user: User, lacking: str | None, act: _On
    ) -> Answer:
        """``act`` on the tournament's server and channel here, once found, where the bot may
        start threads (else ``lacking``, its refusal)."""

        async def run(found: Resolved) -> Answer:
            if lacking is not None:
                return Answer.refuse(lacking)
            return await act(found.server_id, found.channel_id)

        return await self._which.run(ask, place, user.id, run)

    async def join(self, place: Place, user: User) -> Answer:
        """``/cribbage tournament join``: an entry."""
        tournaments = self._tournaments
        return await self._in(
            Ask.TOURNAMENT_JOIN, place, user, lambda channel: tournaments.join(channel, user)
        )

    async def leave(self, place: Place, user: User) -> Answer:
        """``/cribbage tournament leave``: an entry given up before the start."""
        tournaments = self._tournaments
        return await self._in(
            Ask.TOURNAMENT_LEAVE, place, user, lambda channel: tournaments.leave(channel, user)
        )

    async def cancel(self, place: Place, user: User, *, moderator: bool) -> Answer:
        """``/cribbage tournament cancel``: asked first (its organiser or a moderator)."""
        cancellations = self._cancellations
        return await self._in(
            Ask.TOURNAMENT_CANCEL,
            place,
            user,
            lambda channel: cancellations.ask_cancel(channel, user, moderator=moderator),
        )

    async def standings(self, place: Place, user: User) -> Answer:
        """``/cribbage tournament standings``: everyone's line."""
        tournaments = self._tournaments
        return await self._in(
            Ask.TOURNAMENT_STANDINGS, place, user, lambda channel: tournaments.standings(channel)
        )

    async def withdraw(self, place: Place, user: User) -> Answer:
        """``/cribbage tournament withdraw``: asked first once it runs."""
        tournaments = self._tournaments
        return await self._in(
            Ask.TOURNAMENT_WITHDRAW,
            place,
            user,
            lambda channel: tournaments.ask_withdraw(channel, user),
        )

    async def result(
        self, place: Place, user: User, *, moderator: bool, winner: User, loser: User, margin: int
    ) -> Answer:
        """``/cribbage tournament result``: a result of the round set (moderators)."""
        tournaments = self._tournaments
        return await self._in(
            Ask.TOURNAMENT_RESULT,
            place,
            user,
            lambda channel: tournaments.set_result(
                channel,
                user,
                moderator=moderator,
                winner=winner,
                loser=loser,
                margin=margin,
            ),
        )


class ClubActs(_InItsChannel):
    """What ``/club``'s commands do where they are used (see the module)."""

    def __init__(
        self, which: WhichGame, nights: Nights, attendance: Attendance, leagues: Leagues
    ) -> None:
        super().__init__(which)
        self._nights = nights
        self._attendance = attendance
        self._leagues = leagues

    async def night(
        self,
        place: Place,
        user: User,
        *,
        moderator: bool,
        lacking: str | None,
        when: str,
        events_refusal: str | None,
        **asked: Unpack[NightAsked],
    ) -> Answer:
        """``/club night``: a night scheduled in the channel here (moderators); its Events
        entry left out where ``events_refusal`` says why."""
        nights = self._nights

        async def act(found: Resolved) -> Answer:
            if lacking is not None:
                return Answer.refuse(lacking)
            return await nights.schedule(
                found.server_id,
                found.channel_id,
                user,
                moderator=moderator,
                when=when,
                events_refusal=events_refusal,
                **asked,
            )

        return await self._which.run(Ask.CLUB_NIGHT, place, user.id, act)

    async def checkin(self, place: Place, user: User) -> Answer:
        """``/club checkin``: checked in to tonight's night."""
        attendance = self._attendance
        return await self._in(
            Ask.CLUB_CHECKIN, place, user, lambda channel: attendance.check_in(channel, user)
        )

    async def skip(self, place: Place, user: User, *, moderator: bool) -> Answer:
        """``/club skip``: the next night skipped (moderators)."""
        nights = self._nights
        return await self._in(
            Ask.CLUB_SKIP,
            place,
            user,
            lambda channel: nights.skip(channel, user, moderator=moderator),
        )

    async def move(self, place: Place, user: User, *, moderator: bool, when: str) -> Answer:
        """``/club move``: the next night moved to ``when`` (moderators)."""
        nights = self._nights
        return await self._in(
            Ask.CLUB_MOVE,
            place,
            user,
            lambda channel: nights.move(channel, user, moderator=moderator, when=when),
        )

    async def end(self, place: Place, user: User, *, moderator: bool) -> Answer:
        """``/club end``: no more nights here (moderators)."""
        nights = self._nights
        return await self._in(
            Ask.CLUB_END,
            place,
            user,
            lambda channel: nights.end(channel, user, moderator=moderator),
        )

    async def league(self, place: Place, user: User, season: str) -> Answer:
        """``/club league``: the league table of ``season`` (this, last, champions)."""
        leagues = self._leagues
        return await self._in(
            Ask.CLUB_LEAGUE, place, user, lambda channel: leagues.league(channel, season)
        )

    async def timezone(
        self, place: Place, user: User, *, moderator: bool, zone: str | None
    ) -> Answer:
        """``/club timezone``: the server's time zone said, or set to ``zone`` (moderators)."""
        nights = self._nights
        return await self._which.run(
            Ask.CLUB_TIMEZONE,
            place,
            user.id,
            lambda found: nights.time_zone(found.server_id, user, moderator=moderator, zone=zone),
        )
