"""How a game is opened in the store (:meth:`~bot.store.game_tables.GameTables.create_game`'s
rows, in its one transaction): the change of the ranked match or tournament pairing that opens
it, the lobby's row, a rematch's link to the game it replays, the seats, the first deal of a
full table and the answer kept with it; and a game's seats as they are written, then and
whenever a lobby's seats change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence

from bot.core.base.delivery import AnswerKept
from bot.core.base.feed import Change
from bot.core.base.owners import Owner
from bot.core.base.store_errors import ChannelBusy, OccasionOver
from bot.core.games.records import (
    GameRecord,
    GameStatus,
    Lesson,
    Match,
    NewGame,
    Occasion,
    Round,
    SeatRecord,
    occasion_words,
)
from bot.store.announcing import announce
from bot.store.database import Dialect, Transaction, UniqueViolation
from bot.store.game_options import OPTION_COLUMNS, options_params
from bot.store.message_tables import first_answer
from bot.store.one_game_here import humans
from bot.store.queries import people_acting

__all__ = ["insert_seats", "occasion_opens", "opened"]


async def insert_seats(tx: Transaction, game_id: int, seats: Sequence[SeatRecord]) -> None:
    """Write a game's seats; a rematch's kept seats with the time each is kept until
    (migration 024), the others as they were always written."""
    rows = [(game_id, s.seat, s.user_id, s.name, int(s.is_computer), s.level) for s in seats]
    if not any(s.held for s in seats):
        await tx.executemany(_INSERT_SEATS, rows)
        return
    held = [(*row, seat.held_until) for row, seat in zip(rows, seats, strict=True)]
    await tx.executemany(_INSERT_HELD_SEATS, held)


#: A new game's row, a lobby (its place, its creator's id, its times, then its options).
_INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, status, creator_id, version, created_at,"
    f" updated_at, {', '.join(OPTION_COLUMNS)})"
    f" VALUES (?, ?, 'lobby', ?, 0, ?, ?, {', '.join('?' * len(OPTION_COLUMNS))}) RETURNING id"
)
#: A game where the bot is not a member (migration 016_private_tables).
_INSERT_PRIVATE_GAME = (
    "INSERT INTO games (guild_id, channel_id, status, creator_id, version, created_at,"
    f" updated_at, private_table, {', '.join(OPTION_COLUMNS)})"
    f" VALUES (?, ?, 'lobby', ?, 0, ?, ?, 1, {', '.join('?' * len(OPTION_COLUMNS))})"
    " RETURNING id"
)
_INSERT_SEATS = (
    "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer, computer_level)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_INSERT_HELD_SEATS = (
    "INSERT INTO seats (game_id, seat, user_id, display_name, is_computer, computer_level,"
    " held_until) VALUES (?, ?, ?, ?, ?, ?, ?)"
)


#: The unique index that keeps one open game per channel, as each database names it when a
#: write breaks it (PostgreSQL: the index; SQLite: its column). No other unique index means
#: "this channel is busy" but the one that keeps one rematch a game (migration 024): the
#: table has moved on; and the one that keeps one open lesson a person. Breaking any other
#: is a bug.
_ONE_OPEN_PER_CHANNEL = frozenset({"games_one_open_per_channel", "games.channel_id"})
_ONE_REMATCH = frozenset({"games_one_rematch", "games.rematch_of"})
#: ... and the one that keeps one open lesson a person (migration 025): they have one.
_ONE_OPEN_LESSON = frozenset({"games_one_open_lesson", "games.creator_id"})
#: The change that opens a ranked match's game: the match as it was read (its id and version),
#: still being played, by the two seated (its parameters: the match's id and version, then the
#: players' ids). Its version moves on: a second opening from the same read finds it moved.
_MATCH_OPENS = (
    "UPDATE ranked_matches SET version = version + 1 WHERE id = ? AND version = ?"
    " AND status = 'playing' AND player_a = ? AND player_b = ?"
)
#: The change that opens a tournament pairing's game: the pairing as it was read (its
#: tournament, round, table and version), undecided, with no game, played by the two seated
#: (its parameters: those four, then the players' ids). A withdrawal, the tournament's end and
#: a player's deletion each move the pairing's version on, so a read before them is refused.
_PAIRING_OPENS = (
    "UPDATE tournament_pairings SET version = version + 1 WHERE tournament_id = ? AND round = ?"
    " AND tab = ? AND version = ? AND decided IS NULL AND game_id IS NULL"
    " AND player_a = ? AND player_b = ?"
)


def occasion_opens(occasion: Occasion) -> tuple[str, tuple[int, ...]] | None:
    """The change that opens a game of ``occasion`` and its parameters before the players'
    ids: its ranked match's, or its tournament pairing's, as the opener read it (None: any
    other game, or one read back, which names no version)."""
    if isinstance(occasion, Match) and occasion.version is not None:
        return _MATCH_OPENS, (occasion.match_id, occasion.version)
    if isinstance(occasion, Round) and occasion.pairing is not None:
        return _PAIRING_OPENS, occasion.pairing
    return None


async def _open_lobby(tx: Transaction, lobby: GameRecord) -> GameRecord:
    """Write the games row of ``lobby`` (its creator in seat 0, its seats to come); it with its
    id. Raises :class:`ChannelBusy` when the channel has an open game."""
    try:
        # A private table says so; any other game takes the column's default (and so is
        # written as it was before the column was there).
        rows = await tx.fetch(
            _INSERT_PRIVATE_GAME if lobby.seating.tokens_only else _INSERT_GAME,
            (
                lobby.guild_id,
                lobby.channel_id,
                lobby.seats[0].user_id,
                lobby.created_at,
                lobby.updated_at,
                *options_params(lobby.options),
            ),
        )
    except UniqueViolation as broken:
        if broken.names in _ONE_OPEN_PER_CHANNEL:
            raise ChannelBusy() from None
        raise
    record = dataclasses.replace(lobby, id=int(rows[0][0]))
    words = occasion_words(record.occasion)
    if words is not None:
        await tx.execute(
            "UPDATE games SET occasion = ? WHERE id = ? AND version = 0", (words, record.id)
        )
    if isinstance(record.occasion, Lesson):
        # (Any other game takes the column's default, migration 025.)
        try:
            await tx.execute(
                "UPDATE games SET lesson = 1 WHERE id = ? AND version = 0", (record.id,)
            )
        except UniqueViolation as broken:
            if broken.names in _ONE_OPEN_LESSON:
                raise ChannelBusy() from None
            raise
    return record


async def _replaying(tx: Transaction, record: GameRecord, rematch_of: int) -> None:
    """Write that ``record``'s game, just opened, is the rematch of game ``rematch_of``, or
    raise :class:`ChannelBusy` (rolling it back): a game was opened in the channel since that
    one (the table moved on), or it was replayed already (the unique index, whichever process
    asked first)."""
    newer = await tx.fetch(
        "SELECT COUNT(*) FROM games WHERE channel_id = ? AND id > ? AND id <> ?",
        (record.channel_id, rematch_of, record.id),
    )
    if newer[0][0]:
        raise ChannelBusy()
    try:
        await tx.execute(
            "UPDATE games SET rematch_of = ? WHERE id = ? AND version = 0",
            (rematch_of, record.id),
        )
    except UniqueViolation as broken:
        if broken.names in _ONE_REMATCH:
            raise ChannelBusy() from None
        raise


async def _first_deal(
    tx: Transaction,
    record: GameRecord,
    deal: Callable[[GameRecord], Awaitable[tuple[str, Sequence[str]]]],
) -> GameRecord:
    """The seated table's first deal (``deal`` gives its snapshot and log entries), its log
    written: the game as it is then, active at its next version (written by the caller)."""
    snapshot, actions = await deal(record)
    now = record.created_at
    await tx.executemany(
        "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
        [(record.id, seq, action, now) for seq, action in enumerate(actions, 1)],
    )
    return dataclasses.replace(
        record, status=GameStatus.ACTIVE, version=record.version + 1, snapshot=snapshot
    )


async def opened(
    tx: Transaction,
    dialect: Dialect,
    game: NewGame,
    now: float,
    fill: Callable[[GameRecord], Sequence[SeatRecord]] | None,
    deal: Callable[[GameRecord], Awaitable[tuple[str, Sequence[str]]]] | None,
    answered: Callable[[GameRecord], AnswerKept | None] | None,
    seated: set[int],
) -> GameRecord:
    """:meth:`~bot.store.game_tables.GameTables.create_game`'s rows, written in ``tx``: the
    match's or pairing's change that opens it, the people acting, the lobby, its seats
    (``seated``: the people they seat), its first deal and the answer kept with it, announced
    at commit on PostgreSQL."""
    lobby = game.lobby(now)
    filled = None if fill is None else tuple(fill(lobby))
    seats = filled or lobby.seats
    seated.update(humans(seats))
    players = tuple(s.user_id for s in seats)
    opens = occasion_opens(game.occasion)
    if opens is not None:
        if not await tx.execute(opens[0], (*opens[1], *players)):
            raise OccasionOver()
    else:
        # The people taking their seats act now (a match's or a pairing's are as the
        # match or pairing names them: their rows are there, or they are gone).
        acting = people_acting(seated | {lobby.creator_id})
        if acting is not None:
            await acting.run(tx)
    record = await _open_lobby(tx, lobby)
    if lobby.rematch_of is not None:
        await _replaying(tx, record, lobby.rematch_of)
    if filled is not None:
        # Seating the table is a change of its own (the game's next version), as it is
        # when players join one by one.
        record = dataclasses.replace(record, seats=filled, version=1)
    await insert_seats(tx, record.id, record.seats)
    if deal is not None:
        record = await _first_deal(tx, record, deal)
    if record.version:
        await tx.execute(
            "UPDATE games SET status = ?, version = ?, snapshot = ? WHERE id = ? AND version = 0",
            (str(record.status), record.version, record.snapshot, record.id),
        )
    kept = None if answered is None else answered(record)
    if kept is not None:
        await first_answer(Owner.game(record.id), kept).run(tx)
    # Announced to every process at commit, as every later change is (see ``GameTables._bump``).
    await announce(tx, dialect, Change(Owner.game(record.id), record.version, record.channel_id))
    return record
