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

from bot.core.base.delivery import LedgerPort
from bot.core.base.feed import ChangeFeed
from bot.core.base.owners import OwnerKind
from bot.core.play.wing import GamesWing
from bot.core.ranked.cards import CardMessages
from bot.core.ranked.places import PlaceFeed, PlaceMessages
from bot.core.ranked.queue import SWEEP_EVERY, Matchmaker
from bot.core.ranked.ranked import Ranked
from bot.core.ranked.referee import Referee
from bot.core.ranked.scoreboard import MatchView
from bot.core.ranked.storage import RankedStore
from bot.core.ranked.turns import TurnClock
from bot.core.settings import CoreSettings, Given

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
    play: GamesWing,
    ledger: LedgerPort,
    settings: CoreSettings,
    given: Given,
) -> tuple[Ranked, RankedPlay]:
    """Ranked play on ``store`` and the games of ``play``: its projectors handed to the ledger
    (``ledger.draw_with``), what its calls' answers keep told to it (``ledger.news``), the
    interactions that carry its places' messages given to it (``ledger.carriers``), the places
    following ``feed``; its calls, and the parts the process that sends runs. A turn lasts
    ``settings.ranked_turn``; the places' messages are drawn as the games' are."""
    clock = given.stamp
    games, lobbies = play.games, play.lobbies
    turns = TurnClock(settings.ranked_turn.total_seconds(), since=clock())
    places = PlaceFeed(feed)
    matches = MatchView(store)
    cards = CardMessages(store, clock)
    ledger.draw_with(OwnerKind.RANKED, cards)
    ledger.draw_with(
        OwnerKind.PLACE,
        PlaceMessages(
            games,
            store,
            play.coach,
            turns,
            matches,
            page_link=given.page_link,
            launch=settings.activity,
            retention=settings.retention.total_seconds(),
        ),
    )
    queue = Matchmaker(store, feed, clock)
    referee = Referee(
        store,
        feed,
        games,
        lobbies,
        play.moves.resign,
        ledger.carriers,
        turns,
        matches,
        places,
        clock=clock,
    )
    calls = Ranked(
        store, games, lobbies, ledger.news, ledger.carriers, feed, queue, cards, clock=clock
    )
    return calls, RankedPlay(queue, referee, turns, clock)
