"""The tournaments put together: their calls, their cancellation asked first, the director
that runs those being played, and their boards as drawn (handed on to the club nights, which
draw a night's tournament's board with its league)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.base.delivery import LedgerPort
from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.games.games import Games
from bot.core.play.opening import Lobbies
from bot.core.settings import Given
from bot.core.tournaments.cancelling import Cancellations
from bot.core.tournaments.director import TournamentDirector
from bot.core.tournaments.tournaments import TournamentMessages, Tournaments, TournamentStore

__all__ = ["TournamentsWing", "tournaments_wing"]


@dataclass(frozen=True, slots=True)
class TournamentsWing:
    """The tournaments' parts, and their boards as drawn (``boards``)."""

    tournaments: Tournaments
    cancellations: Cancellations
    director: TournamentDirector
    boards: TournamentMessages


def tournaments_wing(
    store: TournamentStore,
    feed: ChangeFeed,
    games: Games,
    lobbies: Lobbies,
    ledger: LedgerPort,
    faults: Faults,
    given: Given,
    *,
    held: Callable[[int], Awaitable[str | None]],
) -> TournamentsWing:
    """The tournaments on ``store``; ``held``: why a tournament may not be started by hand
    (a club night's starts itself at its time, with those checked in)."""
    tournaments = Tournaments(store, feed, given.stamp, faults, held=held)
    return TournamentsWing(
        tournaments=tournaments,
        cancellations=Cancellations(tournaments, store, given.stamp),
        director=TournamentDirector(
            store, feed, games, lobbies, clock=given.stamp, settled=ledger.settled
        ),
        boards=TournamentMessages(store, given.stamp),
    )
