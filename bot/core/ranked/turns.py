"""The turn clock of a ranked game: how long each player may take over a move, and when it runs
out.

A player owes a move (cards for the crib, a card to play) from the moment the move before was
saved; the clock starts :data:`REACH_ALLOWANCE` after that, once the controls have had time to
reach them (the keeper sends a player's turn before anything else, within a second), and runs
for the turn's time: the table at their place shows when it runs out (Discord draws the time
left as it passes). Whoever owes a move when their time is up loses the game (the referee
resigns it for them).

Both players owe their cards for the crib at once: their turn began when the deal was saved,
whichever throws first. What this process saw first of each turn is kept, by game
(:class:`TurnClock`), so a later save within the same turn (the other player's throw) does not
start it again. A turn under way when this process begins to referee (it starts again, or takes
over from another) is counted from then: while no process referees, no click is answered (the
player is told the interaction failed), and after a quarter of an hour no place can be reached
at all (every token the bot held has lapsed), so that time is nobody's to lose. It only ever
gives the player more time.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.base.recent import Recent
from bot.core.base.timing import TOKEN_USABLE
from bot.core.games.games import Loaded
from bot.core.games.records import GameStatus
from bot.core.messages.projection import owes_move
from bot.core.settings import TURN_SECONDS
from engine.phase import Phase

__all__ = ["LONGEST_TURN", "REACH_ALLOWANCE", "TURN_SECONDS", "Turn", "TurnClock"]

#: The time a player's controls take to reach them once the move before is saved: the clock
#: starts after it.
REACH_ALLOWANCE = 5.0
#: The most moves the other player makes in a row while a player owes none: the four cards
#: they play while this one has said go or played out (the next deal's crib is then both
#: players' turn).
MOVES_IN_A_ROW = 4
#: The longest a turn may be set to (``RANKED_TURN_SECONDS``). A place is reached only through
#: its own player's interactions' tokens (:mod:`bot.core.ranked.places`), each good for
#: :data:`~bot.core.base.timing.TOKEN_USABLE` after the move that gave it: the other player's
#: moves in a row must fit in that, or a player whose turn comes is out of every token's reach,
#: never shown it, and loses the game on the clock.
LONGEST_TURN = TOKEN_USABLE / MOVES_IN_A_ROW - REACH_ALLOWANCE
#: Games whose turns are kept in memory.
GAMES_KEPT = 4096


@dataclass(frozen=True, slots=True)
class Turn:
    """A move ``seat`` owes, and when its time runs out."""

    seat: int
    deadline: float


def turn_key(loaded: Loaded) -> str:
    """What names the turn the game waits on now: the deal's crib for the discard (both
    players' one turn), the version for a play."""
    game = loaded.game
    if game.state.phase is Phase.DISCARD:
        return f"d{game.state.deal_number}"
    return f"v{loaded.record.version}"


class TurnClock:
    """When each turn of each ranked game began, as this process first saw it, and the
    deadlines that follow."""

    def __init__(self, seconds: float = TURN_SECONDS, *, since: float = 0.0) -> None:
        """``seconds``: how long a turn lasts; ``since``: when this process started (what it
        draws before it referees shows the turns as they will be counted)."""
        self.seconds = seconds
        # game id -> (the turn's key, when it began).
        self._began: Recent[int, tuple[str, float]] = Recent(GAMES_KEPT)
        # When this process began to referee: no turn began before.
        self._since = since

    def refereeing(self, now: float) -> None:
        """This process referees from ``now`` on (it started, or took over sending): a turn
        under way counts from then, not for the time nobody refereed (see the module)."""
        self._since = now
        self._began.clear()

    def turns(self, loaded: Loaded) -> list[Turn]:
        """The moves the game waits on now, each with its deadline (none once it is over)."""
        record, game = loaded.record, loaded.game
        if record.status is not GameStatus.ACTIVE or game.state.phase is Phase.OVER:
            return []
        key = turn_key(loaded)
        kept = self._began.get(record.id)
        if kept is None or kept[0] != key:
            kept = (key, max(record.updated_at, self._since))
            self._began.keep(record.id, kept)
        deadline = kept[1] + REACH_ALLOWANCE + self.seconds
        return [
            Turn(seat.seat, deadline)
            for seat in record.seats
            if not seat.is_computer and owes_move(game, seat.seat)
        ]

    def forget(self, game_id: int) -> None:
        """Drop what is kept of a game that is over."""
        self._began.forget(game_id)
