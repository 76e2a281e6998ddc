"""Whether a ranked match in progress can still reach both its players, as a process begins to
referee it (it started after the bot was down, or took over from another).

A ranked place is reached only through its own player's interactions' tokens (the ledger's
routes: :mod:`bot.core.ledger.routes`, every message of a place reached ``Through.TOKENS``),
each good for :data:`~bot.core.base.timing.TOKEN_USABLE` from the interaction that gave it; nothing
but that player's next click or command gives another. While the bot runs, a turn no longer
than :data:`~bot.core.ranked.turns.LONGEST_TURN` keeps every place within reach. After the bot
was down, a place may be out of reach for good, and its player would lose on the clock a game
nobody could show them, or never be shown the next: that loss would be the bot's, not theirs.

So, when a process begins to referee, each match being played is looked at once: a place
**can be reached** while a token of its player's that reaches its channel (their card's, or a
message of their place at any game of the match: its table, their hand, the interaction kept
to carry it) lives until that player may next be waited on: for a player who owes a move now
(both, between two games and in the crib), until their controls have reached them
(:data:`~bot.core.ranked.turns.REACH_ALLOWANCE`); for the other, until the longest run of the
opponent's moves before their own turn can be over (:data:`~bot.core.ranked.turns.MOVES_IN_A_ROW`
turns, each with its allowance). A match with a place that cannot be reached ends without a
result (:data:`~bot.core.ranked.records.NOT_RATED`: the referee). The tokens are the ledger's,
as stored (both databases alike); only the process that referees decides, and it decides once
per match as it begins.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.delivery import Carriers
from bot.core.base.owners import Owner
from bot.core.base.seating import APART_SEATS
from bot.core.games.games import Games
from bot.core.games.records import GameRecord
from bot.core.ranked.records import EntryRecord, MatchGame
from bot.core.ranked.turns import MOVES_IN_A_ROW, REACH_ALLOWANCE, TurnClock

__all__ = ["PlaceReach"]


class PlaceReach:
    """Says whether each place of a match can still be reached (see the module)."""

    def __init__(self, carriers: Carriers, games: Games, turns: TurnClock) -> None:
        self._carriers = carriers
        self._games = games
        self._turns = turns

    async def out_of_reach(
        self,
        entries: Sequence[EntryRecord],
        games: Sequence[MatchGame],
        record: GameRecord | None,
        now: float,
    ) -> list[int]:
        """The seats of the match (``entries``: its players' entries, first seat first;
        ``games``: its games; ``record``: the game being played, None between games) whose
        places cannot be reached from ``now``."""
        owing = self._owing(record)
        waits = MOVES_IN_A_ROW * (REACH_ALLOWANCE + self._turns.seconds)
        lost = []
        for seat, entry in zip(APART_SEATS, entries, strict=True):
            sources = [Owner.ranked(entry.id), *(Owner.place(g.game_id, seat) for g in games)]
            until = await self._carriers.reach(sources, entry.channel_id)
            needed = now + (REACH_ALLOWANCE if seat in owing else waits)
            if until is None or until < needed:
                lost.append(seat)
        return lost

    def _owing(self, record: GameRecord | None) -> frozenset[int]:
        """The seats that owe a move now: both between two games (the next one's crib) or
        when the game being played says none."""
        both = frozenset(APART_SEATS)
        if record is None or not record.is_open:
            return both
        seats = frozenset(t.seat for t in self._turns.turns(self._games.loaded.load(record)))
        return seats or both
