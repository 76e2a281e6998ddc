"""Started games as the service works on them: rebuilt from their snapshot, kept while in use.

Rebuilding a game from its JSON snapshot costs more than the rest of an action, and a
version names exactly one state, so the most recently used games are kept by id with the
version they were saved at; a stored game at another version is read again.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.core import snapshot
from bot.core.deal_log import DealLog
from bot.core.records import GameRecord
from bot.core.tally import Tally
from engine.game import Game

__all__ = ["CACHED_GAMES", "Loaded", "LoadedGames", "RngFactory"]

#: Makes the random source for one engine call; the key ("<game id>:<version>") lets tests
#: seed every deal differently yet reproducibly.
RngFactory = Callable[[str], random.Random]

#: Games kept in memory (the rest are read from their snapshot when used).
CACHED_GAMES = 512


@dataclass(slots=True)
class Loaded:
    """A started game as loaded for one call: its record, the engine state, the tally, the
    deal log, and the game's shuffles so far (the list its random source records into; None
    for a game begun before they were recorded)."""

    record: GameRecord
    game: Game
    tally: Tally
    log: DealLog
    shuffles: list[str] | None = None


class LoadedGames:
    """The recently used started games, by id, each at the version it was saved at."""

    def __init__(self, rng_factory: RngFactory, size: int = CACHED_GAMES) -> None:
        self._rng_factory = rng_factory
        self._size = size
        self._kept: OrderedDict[int, tuple[int, Loaded]] = OrderedDict()

    def load(self, record: GameRecord) -> Loaded:
        """The game of ``record`` at its version (``record`` must be a started game)."""
        kept = self._kept.get(record.id)
        if kept is not None and kept[0] == record.version:
            self._kept.move_to_end(record.id)
            found = kept[1]
            return Loaded(record, found.game, found.tally, found.log, found.shuffles)
        if record.snapshot is None:
            raise ValueError(f"Game {record.id} has not started, so it has no snapshot.")
        rng = self._rng_factory(f"{record.id}:{record.version}")
        decoded = snapshot.decode(record.snapshot, rng)
        loaded = Loaded(record, decoded.game, decoded.tally, decoded.log, decoded.shuffles)
        self.keep(record.version, loaded)
        return loaded

    def keep(self, version: int, loaded: Loaded) -> None:
        """Remember ``loaded``'s game (with its tally, log and shuffles) as saved at
        ``version``."""
        game_id = loaded.record.id
        self._kept[game_id] = (version, loaded)
        self._kept.move_to_end(game_id)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)

    def version(self, game_id: int) -> int | None:
        """The version a kept game was saved at (None when it is not kept, or is changing)."""
        kept = self._kept.get(game_id)
        return None if kept is None else kept[0]

    def drop(self, game_id: int) -> None:
        """Forget a game about to change: until it is saved, its objects must not be reused."""
        self._kept.pop(game_id, None)
