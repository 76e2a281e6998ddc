"""What a game's channel sees, for a page that watches it: the same table messages, drawn by
the same projection (:func:`bot.core.messages.projection.settled`), and the board as the pegs
stand.

Only the channel's own messages are taken (the lobby, one table per deal, the result, how the
game ended), never a hand message or a notice to one person, so a page shows no card the
channel has not seen.

Every deal's table, as the channel keeps them: a game's stored deal log keeps the events of its
last three deals (:class:`~bot.core.games.deal_log.DealLog`: what its messages are still drawn
from), but the channel keeps every deal's table, the first with the cut for deal above it. So
the deals the stored log let go are dealt again from the game's recorded shuffles and its
logged actions (as its archive record is replayed: :mod:`bot.core.games.archive`), their
events put before the stored log's (:class:`DealHistory`); events are public, so this holds no
hidden card. A page follows its game move by move: the replay of each game is kept (a few at a
time) and taken on by the actions logged since, so a change costs the new moves, not the whole
game. A game begun before its shuffles were recorded cannot be dealt again: its page has the
deals the stored log keeps, and says where the first ones are.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.core.base.keys import ENDED, LOBBY, RESULT, TABLE_OF_DEAL
from bot.core.base.recent import Newest
from bot.core.base.views import BoardPicture, MessageView
from bot.core.deck.shuffles import ScriptedRandom, ShufflesExhausted
from bot.core.games.deal_log import DealLog
from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord, GameStatus
from bot.core.messages.finals import dealt_again
from bot.core.messages.projection import board_of, settled
from engine.errors import RuleError
from engine.game import Game
from engine.variants import find, title_unless_standard

__all__ = ["GAMES_KEPT", "DealHistory", "TableSeen", "table_seen"]

#: Games whose replay is kept, to take on as they move (:class:`DealHistory`).
GAMES_KEPT = 64

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
    #: The deals whose tables are not among ``messages``: none, when the game's deal log
    #: holds every deal (:class:`DealHistory`); else the first ones,
    #: which the stored log let go and the game cannot deal again (begun before its shuffles
    #: were recorded): they are further up the channel's history.
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
        sides = record.options.rules.sides
    except (RuleError, ValueError):  # (a table no variant deals now: one side a seat)
        sides = tuple((seat,) for seat in sorted(seated))
    names = " v ".join(
        " & ".join(seated[seat] for seat in side if seat in seated)
        for side in sides
        if any(seat in seated for seat in side)
    )
    variant = title_unless_standard(find(record.options.variant))
    game = f"{variant[:1].lower()}{variant[1:]} to" if variant else "to"
    return f"{names or 'A new game'}, {game} {record.options.target}"


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


@dataclass(slots=True)
class _Dealt:
    """A game dealt again so far: the engine's copy, its random source, the actions applied
    and every deal's events."""

    game: Game
    rng: ScriptedRandom
    applied: int
    log: DealLog


class DealHistory:
    """Every deal's events of the games whose pages are drawn (see the module)."""

    def __init__(self, kept: int = GAMES_KEPT) -> None:
        #: Each game dealt again, by the version of the game it was taken on to (a game read
        #: before it, for a page drawn late, is dealt again apart and never kept over it).
        self._dealt: Newest[int, _Dealt] = Newest(kept)

    def whole(self, loaded: Loaded) -> Loaded:
        """``loaded`` with a deal log of every deal (the cut for deal with the first), the
        deals its stored log let go dealt again before the ones it keeps; ``loaded`` as it is
        when its log keeps them all, or its shuffles were not recorded."""
        stored = loaded.log
        if stored.deal <= 1 or 1 in stored.deals or loaded.shuffles is None:
            return loaded
        dealt = self._dealt_to(loaded)
        if dealt is None:
            return loaded
        first = min(d for d in stored.deals if d >= 1)
        earlier = {d: events for d, events in dealt.log.deals.items() if d < first}
        shown = {d: pegs for d, pegs in dealt.log.shown.items() if d < first}
        log = dataclasses.replace(
            stored,
            deals={**earlier, **stored.deals},
            shown={**shown, **stored.shown},
            keep=None,
        )
        return dataclasses.replace(loaded, log=log)

    def _dealt_to(self, loaded: Loaded) -> _Dealt | None:
        """The game dealt again up to ``loaded``'s last action (None: it does not replay)."""
        game, shuffles = loaded.game, loaded.shuffles
        assert shuffles is not None
        record_id = loaded.record.id
        dealt = self._dealt.get(record_id)
        try:
            if dealt is None or game.actions[: dealt.applied] != dealt.game.actions:
                dealt = self._start(loaded)
            dealt.rng.more(shuffles[dealt.rng.recorded :])
            for action in game.actions[dealt.applied :]:
                dealt.log.add(dealt.game.apply(action))
                dealt.applied += 1
        except (RuleError, ShufflesExhausted, ValueError, KeyError):
            self._dealt.drop(record_id)
            return None
        self._dealt.keep(record_id, loaded.record.version, dealt)
        return dealt

    @staticmethod
    def _start(loaded: Loaded) -> _Dealt:
        """The game of ``loaded`` dealt again from its first shuffle, no action applied."""
        game = loaded.game
        assert loaded.shuffles is not None
        rng = ScriptedRandom(loaded.shuffles)
        again, log = dealt_again(
            list(game.state.players), game.state.rules, game.state.given_dealer, rng
        )
        return _Dealt(again, rng, 0, log)
