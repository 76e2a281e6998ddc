"""The club nights put together: the nights, who comes to them, the leagues, the director that
runs each night at its times, and the tournaments' boards drawn for the ledger (a night's with
its league)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.base.delivery import LedgerPort
from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.base.owners import OwnerKind
from bot.core.nights.attendance import Attendance
from bot.core.nights.board import NightBoards
from bot.core.nights.director import NightDirector
from bot.core.nights.leagues import Leagues
from bot.core.nights.nights import Nights, NightStore
from bot.core.settings import Given
from bot.core.tournaments.wing import TournamentsWing

__all__ = ["NightsWing", "nights_wing"]


@dataclass(frozen=True, slots=True)
class NightsWing:
    """The club nights' parts."""

    nights: Nights
    attendance: Attendance
    leagues: Leagues
    night_director: NightDirector


def nights_wing(
    store: NightStore,
    feed: ChangeFeed,
    tournaments: TournamentsWing,
    ledger: LedgerPort,
    faults: Faults,
    given: Given,
) -> NightsWing:
    """The club nights on ``store``, each run as a tournament of ``tournaments``; the
    tournaments' boards handed to the ledger (``ledger.draw_with``)."""
    nights = Nights(store, tournaments.tournaments, feed, given.stamp, faults)
    attendance = Attendance(store, nights, given.stamp, faults)
    leagues = Leagues(store, given.stamp, faults, league_link=given.league_link)
    ledger.draw_with(OwnerKind.TOURNAMENT, NightBoards(tournaments.boards, store, leagues))
    director = NightDirector(
        store, nights, attendance, tournaments.tournaments, feed, clock=given.stamp
    )
    return NightsWing(nights, attendance, leagues, director)
