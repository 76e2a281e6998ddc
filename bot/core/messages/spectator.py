"""What a game's channel sees, for a page that watches it: the same table messages, drawn by
the same projection (:func:`bot.core.messages.projection.settled`), and the board as the pegs
stand.

Only the channel's own messages are taken (the lobby, one table per deal, the result, how the
game ended), never a hand message or a notice to one person, so a page shows no card the
channel has not seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.base.keys import ENDED, LOBBY, RESULT, TABLE_OF_DEAL
from bot.core.base.views import BoardPicture, MessageView
from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord, GameStatus
from bot.core.messages.projection import board_of, settled
from engine.errors import RuleError
from engine.variants import find, title_unless_standard

__all__ = ["TableSeen", "table_seen"]

#: The channel messages a page shows, by their key's name.
_SHOWN = frozenset({LOBBY.name, TABLE_OF_DEAL, RESULT.name, ENDED.name})


@dataclass(frozen=True, slots=True)
class TableSeen:
    """A game as its channel shows it at ``version``: the messages in the channel's order, the
    board as the pegs stand now (None before the deal), and whether the game is over (then the
    whole game may be shown)."""

    game_id: int
    version: int
    status: GameStatus
    title: str
    messages: tuple[MessageView, ...]
    board: BoardPicture | None
    #: The deals whose tables are not among ``messages`` (the channel's table keeps the
    #: latest deals; the earlier ones are in its history).
    earlier_deals: int = 0

    @property
    def over(self) -> bool:
        """Whether the game has ended (finished, cancelled or expired)."""
        return self.status not in (GameStatus.LOBBY, GameStatus.ACTIVE)


def title_of(record: GameRecord) -> str:
    """ "Al v Bea, to 121": the sides, partners together as the table names them ("Al & Cy
    & Eve v Bea & Dee & Flo"), of the seats taken so far in a lobby; a variant is named
    ("Al v Bea, seven-card cribbage to 181"), as the lobby and the table name it."""
    seated = {s.seat: s.name for s in record.seats}
    try:
        sides = record.rules.sides
    except (RuleError, ValueError):  # (a table no variant deals now: one side a seat)
        sides = tuple((seat,) for seat in sorted(seated))
    names = " v ".join(
        " & ".join(seated[seat] for seat in side if seat in seated)
        for side in sides
        if any(seat in seated for seat in side)
    )
    variant = title_unless_standard(find(record.variant))
    game = f"{variant[:1].lower()}{variant[1:]} to" if variant else "to"
    return f"{names or 'A new game'}, {game} {record.target}"


def table_seen(
    record: GameRecord,
    loaded: Loaded | None,
    ratings: str = "",
    series: str = "",
    continues: str = "",
) -> TableSeen:
    """What the channel of ``record``'s game shows now (``loaded``: the game, once started;
    ``ratings`` and ``series``: the lines of rating changes and of the series a finished
    game's result ends with; ``continues``: the series its lobby and tables say it continues,
    :func:`bot.core.messages.game_messages.result_lines`)."""
    owed = settled(record, loaded, {}, frozenset(), ratings, series=series, continues=continues)
    channel = sorted(
        (o for o in owed if o.user_id is None and o.key.name in _SHOWN),
        key=lambda o: o.order,
    )
    board = None
    earlier = 0
    if loaded is not None and loaded.log.deal >= 1:
        board = board_of(loaded.log, loaded.game.public_view())
        tables = sum(1 for o in channel if o.key.name == TABLE_OF_DEAL)
        earlier = max(0, loaded.log.deal - tables)
    return TableSeen(
        record.id,
        record.version,
        record.status,
        title_of(record),
        tuple(o.view for o in channel),
        board,
        earlier,
    )
