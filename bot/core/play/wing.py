"""The games put together: the games and their lobbies, the moves people and time make, the
games' messages drawn for the ledger, and what a person asks of a table, on one store, one
feed and the ledger's port. (``games/`` and ``messages/`` are wired here, from the wing that
stands on both.)

:func:`games_wing` is the one place the rest of the core meets these three wings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.core.base.delivery import LedgerPort
from bot.core.base.faults import Faults
from bot.core.base.feed import ChangeFeed
from bot.core.base.owners import Owner, OwnerKind
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.computer import ComputerPlayers
from bot.core.games.games import Games
from bot.core.games.hand_count import HandCounter
from bot.core.games.housekeeping import Housekeeping
from bot.core.games.membership import Departures
from bot.core.games.storage import Archives, DmRefusals, GameRecords, UserSettings
from bot.core.messages.game_messages import GameMessages
from bot.core.messages.private_resume import PrivateResume, ShownTables
from bot.core.play.clock import GameClock
from bot.core.play.dealing import FirstDeals
from bot.core.play.everyone import DealingIn
from bot.core.play.hints import Hints
from bot.core.play.lessons import Lessons
from bot.core.play.moves import Moves
from bot.core.play.opening import Lobbies
from bot.core.play.rematch import Rematches
from bot.core.play.table_info import TableInfo
from bot.core.settings import CoreSettings, Given

__all__ = ["GamesStore", "GamesWing", "games_wing"]


class GamesStore(GameRecords, DmRefusals, UserSettings, Archives, ShownTables, Protocol):
    """A store as the games, their messages and their tables use it."""


@dataclass(frozen=True, slots=True)
class GamesWing:
    """The games' parts (see ``bot/core/services.py``'s table), and the games' messages as
    drawn for the ledger (``drawn``)."""

    games: Games
    coach: CoachSettings
    computers: ComputerPlayers
    moves: Moves
    deals: FirstDeals
    lobbies: Lobbies
    drawn: GameMessages
    dealing_in: DealingIn
    rematches: Rematches
    hints: Hints
    lessons: Lessons
    table: TableInfo
    housekeeping: Housekeeping
    clock: GameClock
    hands: HandCounter
    resume: PrivateResume
    #: An owner forgotten: by the ledger, then by the games' messages.
    forget: Callable[[Owner], None]


def games_wing(
    store: GamesStore,
    feed: ChangeFeed,
    ledger: LedgerPort,
    faults: Faults,
    settings: CoreSettings,
    given: Given,
    *,
    lesson_refusal: Callable[[int, int], Awaitable[str | None]],
) -> GamesWing:
    """The games on ``store``: their changes published on ``feed``, their messages handed to
    the ledger (``ledger.draw_with``), the faults met noted in ``faults``; ``lesson_refusal``:
    why a lesson may not be dealt in a person's DM now (the place's other games)."""
    games = Games(
        store,
        feed,
        ledger.news,
        rng_factory=given.rng_factory,
        clock=given.clock,
        departures=Departures(given.membership),
        meters=given.meters,
        faults=faults,
        shared=settings.shared,
    )
    coach = CoachSettings(store, given.clock, feed)
    computers = ComputerPlayers(given.computer_rng, given.thinking)
    moves = Moves(
        games,
        coach,
        computers,
        muggins_window=settings.muggins_window,
        count_timeout=settings.count_timeout,
    )
    deals = FirstDeals(games, computers)
    lobbies = Lobbies(games, deals, launch=settings.activity)
    drawn = GameMessages(
        games,
        store,
        coach,
        remind_after=settings.remind_after,
        retention=settings.retention,
        page_link=given.page_link,
        asked=ledger.asked,
        launch=settings.activity,
    )
    ledger.draw_with(OwnerKind.GAME, drawn)
    table = TableInfo(games, coach, store)

    def forget(owner: Owner) -> None:
        ledger.forget(owner)
        drawn.forget(owner.id)

    return GamesWing(
        games=games,
        coach=coach,
        computers=computers,
        moves=moves,
        deals=deals,
        lobbies=lobbies,
        drawn=drawn,
        dealing_in=DealingIn(games, lobbies),
        rematches=Rematches(games, deals, lobbies, launch=settings.activity),
        hints=Hints(games, computers),
        lessons=Lessons(games, lobbies, table, store, lesson_refusal),
        table=table,
        housekeeping=Housekeeping(
            games,
            store,
            idle_expiry=settings.idle_expiry,
            retention=settings.retention,
            forget=forget,
        ),
        clock=GameClock(moves, feed, clock=given.stamp),
        hands=HandCounter(faults),
        resume=PrivateResume(games, ledger.carriers, store),
        forget=forget,
    )
