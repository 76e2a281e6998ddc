"""Ranked play put together: the calls (:class:`~bot.core.ranked.ranked.Ranked`), the queue, the
referee, and the projectors of its messages, built on the games, the ledger's port and one store.

:func:`ranked_play` is the one place the rest of the core meets this wing: it hands the cards'
and the places' projectors to the ledger (``draw_with``), makes each change of a game played
apart a change of its places (in every process), and hands back the calls (what a person asks
of ranked play) and :class:`RankedPlay`, whose :meth:`~RankedPlay.start` and
:meth:`~RankedPlay.stop` the process that sends calls (the referee, and the sweep of the queue
every few seconds).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.core.base.delivery import Carriers, MessageNews, Projector
from bot.core.base.feed import ChangeFeed
from bot.core.base.owners import OwnerKind
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games
from bot.core.play.moves import Moves
from bot.core.play.opening import Lobbies
from bot.core.ranked.cards import CardMessages
from bot.core.ranked.places import PlaceFeed, PlaceMessages
from bot.core.ranked.queue import SWEEP_EVERY, Matchmaker
from bot.core.ranked.ranked import Ranked
from bot.core.ranked.referee import Referee
from bot.core.ranked.scoreboard import MatchView
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.turns import TURN_SECONDS, TurnClock

__all__ = ["LOOK_AT_MATCHES_EVERY", "RankedPlay", "ranked_play"]

log = logging.getLogger(__name__)

#: How often the process that sends looks at every match being played, whatever it heard (an
#: announcement missed while a connection was made again).
LOOK_AT_MATCHES_EVERY = 15.0


@dataclass(eq=False)
class RankedPlay:
    """Ranked play as the process that sends runs it: the ``queue`` (swept every few
    seconds), the ``referee`` and the turn clock."""

    queue: Matchmaker
    referee: Referee
    turns: TurnClock
    _clock: Callable[[], float]
    _sweeping: asyncio.Task[None] | None = field(default=None, init=False)

    @property
    def sweeping(self) -> bool:
        """Whether the queue is swept every few seconds here (this process sends)."""
        return self._sweeping is not None

    async def start(self) -> None:
        """This process sends: referee the matches, and sweep the queue every few seconds."""
        await self.referee.start()
        # A stop while the referee read the store (the process stopping, or the lease lost)
        # stands: a sweep started now would read the store after it closed.
        if self._sweeping is None and self.referee.running:
            self._sweeping = asyncio.get_running_loop().create_task(
                self._sweep(), name="crib-ranked-sweep"
            )

    def stop(self) -> None:
        """Another process sends now (or this one stops)."""
        self.referee.stop()
        if self._sweeping is not None:
            self._sweeping.cancel()
            self._sweeping = None

    async def _sweep(self) -> None:
        looked = self._clock()
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                for match in await self.queue.sweep():
                    self.referee.look(match.id)
                if self._clock() - looked >= LOOK_AT_MATCHES_EVERY:
                    looked = self._clock()
                    await self.referee.look_at_all()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not sweep the ranked queue")


def ranked_play(
    store: RankedStore,
    feed: ChangeFeed,
    games: Games,
    lobbies: Lobbies,
    moves: Moves,
    news: MessageNews,
    carriers: Carriers,
    draw_with: Callable[[OwnerKind, Projector], None],
    coach: CoachSettings,
    *,
    clock: Callable[[], float],
    turn_seconds: float = TURN_SECONDS,
    page_link: Callable[[int], str | None] | None = None,
    launch: bool = False,
    retention: float | None = None,
) -> tuple[Ranked, RankedPlay]:
    """Ranked play on ``store``: its projectors handed to the ledger (``draw_with``), what its
    calls' answers keep told to it (``news``), the interactions that carry its places'
    messages given to it (``carriers``), the places following ``feed``; its calls, and the
    parts the process that sends runs.
    ``turn_seconds``: how long a turn lasts; the rest as the games' messages take them."""
    turns = TurnClock(turn_seconds, since=clock())
    places = PlaceFeed(feed)
    matches = MatchView(store)
    cards = CardMessages(store, clock)
    draw_with(OwnerKind.RANKED, cards)
    draw_with(
        OwnerKind.PLACE,
        PlaceMessages(
            games,
            store,
            coach,
            turns,
            matches,
            page_link=page_link,
            launch=launch,
            retention=retention,
        ),
    )
    queue = Matchmaker(store, feed, clock)
    referee = Referee(
        store, feed, games, lobbies, moves.resign, carriers, turns, matches, places, clock=clock
    )
    calls = Ranked(store, games, lobbies, news, carriers, feed, queue, cards, clock=clock)
    return calls, RankedPlay(queue, referee, turns, clock)
