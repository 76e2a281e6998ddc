"""A game's first deal: who deals it, the deal, and the computer seats' discards.

A seated table is dealt once: when a lobby starts, or in the transaction that opens a game
against the computer (or a tournament's pairing, or a rematch against the computer). The
first dealer is cut for, as for any first deal, unless the game is a rematch between two
players: then the loser of the game before deals first (the rule for a following game:
:func:`bot.core.games.series.following_dealer`). Every shuffle of the game is recorded from
the cut on (so it can be replayed once over) and, when the random source seals them
(:class:`~bot.core.deck.seeded.SeedDealer`), its seed (so the table can show it).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from bot.core.deck.seeded import SeedDealer
from bot.core.deck.shuffles import RecordingRandom
from bot.core.games import snapshot
from bot.core.games.computer import ComputerPlayers, Step, computer_moves
from bot.core.games.deal_log import DealLog
from bot.core.games.games import Games, Loaded
from bot.core.games.records import GameRecord, SeriesResult
from bot.core.games.series import following_dealer
from bot.core.games.tally import Tally
from engine.game import Game

__all__ = ["FirstDeals"]


class FirstDeals:
    """Deals the first hand of a seated table, for the call that starts or opens its game."""

    def __init__(self, games: Games, computers: ComputerPlayers) -> None:
        self._games = games
        self._computers = computers

    async def dealt(
        self, record: GameRecord, before: Sequence[SeriesResult] | None = None
    ) -> tuple[Loaded, list[Step]]:
        """The first dealer settled (cut for, or given by the rule for a following game), the
        first deal of a full table, and the computer seats' discards, not yet saved.
        ``before``: a rematch's game before's results, when the caller has them (else they
        are read)."""
        shuffles: list[str] = []
        source = self._games.rng_factory(f"{record.id}:{record.version}")
        seeds = source.seeds if isinstance(source, SeedDealer) else None
        rng = RecordingRandom(source, shuffles)
        names = [s.name for s in record.seats]
        dealer = await self._following(record, before)
        game, events = Game.new(names, rng=rng, rules=record.options.rules, dealer=dealer)
        tally = Tally.empty(record.options.num_players)
        tally.add(events)
        log = DealLog.start(game.state.rules.num_sides)
        log.add(events)
        steps = await computer_moves(record.seats, game, self._computers)
        return Loaded(record, game, tally, log, shuffles, seeds), steps

    async def _following(
        self, record: GameRecord, before: Sequence[SeriesResult] | None
    ) -> int | None:
        """The seat that deals first by the rule for a following game (a rematch's), if any."""
        if record.rematch_of is None:
            return None
        if before is None:
            rows = await self._games.store.series_results(record.rematch_of)
            before = [row for row in rows if row.game_id == record.rematch_of]
        return following_dealer(before, record.seats)

    async def for_opening(
        self,
        record: GameRecord,
        dealt: list[tuple[Loaded, int]],
        before: Sequence[SeriesResult] | None = None,
    ) -> tuple[str, list[str]]:
        """:meth:`dealt`, for the store to save in the transaction that opens the game: its
        snapshot (with the shuffles and their seeds) and the log entries. The game as dealt,
        and how many moves its log holds, are added to ``dealt``."""
        loaded, steps = await self.dealt(record, before)
        for step in steps:
            loaded.tally.add(step.events)
            loaded.log.add(step.events)
        dealt.append((loaded, len(steps)))
        encoded = snapshot.encode(
            loaded.game, loaded.tally, loaded.log, loaded.shuffles, loaded.seeds
        )
        return encoded, [json.dumps(step.action) for step in steps]

    def opened(self, record: GameRecord, dealt: list[tuple[Loaded, int]]) -> None:
        """The game as dealt (if it was) was saved with its moves (the computer seats'
        discards) as ``record`` opened, and goes on from here, its random source and all."""
        for loaded, moves in dealt:
            as_saved = dataclasses.replace(loaded, record=record)
            self._games.moves_saved(as_saved, record.version, moves, going_on=True)
