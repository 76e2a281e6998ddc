"""The store decides a rematch (issue 58, item 3): a game is replayed once, and only while it
is the last game opened at its table, whichever process asks (the check and the mark are in
the transaction that opens it). Both databases."""

from __future__ import annotations

import pytest

from bot.core.base.store_errors import ChannelBusy
from bot.core.games.records import GameChange, GameStatus, NewGame, Options, SeatRecord
from bot.store import Store

CHANNEL = 10


async def _game(store: Store, channel: int = CHANNEL, rematch_of: int | None = None) -> int:
    opener = SeatRecord(0, 1, "Al")
    record = await store.create_game(
        NewGame(5, channel, opener, Options(2, 121), rematch_of=rematch_of), now=1.0
    )
    return record.id


async def _close(store: Store, game_id: int) -> None:
    record = await store.get_game(game_id)
    assert record is not None
    closed = GameChange(GameStatus.CANCELLED, end_note="x")
    await store.save(game_id, record.version, closed, now=2.0)


async def test_a_game_is_replayed_once_and_only_while_it_is_its_tables_last(
    store: Store,
) -> None:
    first = await _game(store)
    await _close(store, first)
    rematch = await _game(store, rematch_of=first)
    again = await store.get_game(rematch)
    assert again is not None and again.rematch_of == first
    # Open at the table: the channel is busy. Closed: the game was replayed already.
    with pytest.raises(ChannelBusy):
        await _game(store, rematch_of=first)
    await _close(store, rematch)
    with pytest.raises(ChannelBusy):
        await _game(store, rematch_of=first)
    # A rematch of the rematch is the table's last game's: it opens.
    await _game(store, rematch_of=rematch)
    games = await store.db.fetch("SELECT COUNT(*) FROM games WHERE channel_id = ?", (CHANNEL,))
    assert games[0][0] == 3, "nothing left behind by the refused ones"


async def test_no_rematch_once_the_table_moved_on(store: Store) -> None:
    first = await _game(store)
    await _close(store, first)
    other = await _game(store)  # someone's /cribbage new meanwhile
    await _close(store, other)
    with pytest.raises(ChannelBusy):
        await _game(store, rematch_of=first)
    # Another table's games are not this one's.
    elsewhere = await _game(store, channel=CHANNEL + 1)
    await _close(store, elsewhere)
    assert (await store.get_game(await _game(store, CHANNEL + 1, elsewhere))) is not None
