"""The end-to-end tests' reads of the bot's database (tests.helpers.bot_db): a game read again
as it was is restored once, and read anew once the bot saved it again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.core.base.replies import TableAsked
from bot.store import Store
from tests.helpers.bot_db import close_sqlite_readers, latest_game_id, read_game
from tests.helpers.cast import AL, CHANNEL, GUILD
from tests.helpers.service_driver import Clock, make_service


async def test_a_game_read_again_as_saved_is_restored_once(migrated_sqlite_path: Path) -> None:
    store = await Store.open(migrated_sqlite_path)
    try:
        service = make_service(store, Clock(), computer=True)
        answer = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
        assert answer.ok, answer.reply.text
    finally:
        await store.close()
    game_id = latest_game_id(migrated_sqlite_path, CHANNEL)
    first = read_game(migrated_sqlite_path, game_id)
    again = read_game(migrated_sqlite_path, game_id)
    assert first.game is not None and first.version == again.version
    assert again.game is first.game and again.log is first.log
    # Saved again (the same game, its text written anew): restored anew.
    with sqlite3.connect(migrated_sqlite_path) as db:
        db.execute("UPDATE games SET snapshot = snapshot || ' ' WHERE id = ?", (game_id,))
    close_sqlite_readers()
    later = read_game(migrated_sqlite_path, game_id)
    assert later.game is not first.game
    assert later.game is not None and later.game.to_dict() == first.game.to_dict()
