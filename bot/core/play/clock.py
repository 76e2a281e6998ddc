"""The game clock: makes the moves that time, not a player, makes.

It follows the change feed: when a game changes it asks :meth:`bot.core.play.moves.Moves.catch_up`
to make whatever is due (a muggins window closing, a person counted for after the time-out, the
computer's answer that was left for after a click and never made), and looks again when the
next one falls due. One process of the bot runs it (the one that sends the games' messages):
two clocks would only race to make the same move (the version check keeps it to one).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from bot.core.base.faults import Fault, UnreadableGame
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.owners import OwnerKind
from bot.core.base.patrol import OnPatrol
from bot.core.play.moves import Moves

__all__ = ["GameClock"]


class GameClock(OnPatrol, name="crib-clock", failing="could not make the timed moves of game %s"):
    """Makes each game's timed moves when they fall due, while it runs (a catch-up that failed
    is tried again after :data:`~bot.core.base.patrol.RETRY_AFTER`; a game that cannot be read
    is not: it waits for a moderator to end it)."""

    def __init__(
        self, moves: Moves, feed: ChangeFeed, *, clock: Callable[[], float] = time.time
    ) -> None:
        self._moves = moves
        super().__init__(feed, clock=clock)

    def start(self, games: Iterable[int] = ()) -> None:
        """Follow the games from now on, and look at ``games`` at once (those that may have
        moves due after a stop)."""
        self._patrol.follow()
        for game_id in games:
            self.look(game_id)

    def _heard(self, change: Change) -> None:
        if change.owner.kind is OwnerKind.GAME:
            self.look(change.owner.id)

    async def _advance(self, game_id: int) -> float | None:
        """Make the game's timed moves that are due; returns when the next falls due."""
        try:
            return await self._moves.catch_up(game_id, self._clock())
        except UnreadableGame as fault:
            # Nothing can move in it until a moderator ends it (that change brings the
            # clock back): noted once, not looked at again meanwhile.
            self._moves.faults.note(fault)
            return None

    def _said(self, game_id: int, error: Exception) -> bool:
        if isinstance(error, Fault):
            self._moves.faults.note(error.about(game_id))
            return True
        return False
